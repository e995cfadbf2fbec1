"""Where rule ids are shown to users: the web front end's sources, the ``peloton``
commands' help texts, the games' error messages and their options' helps."""

from __future__ import annotations

import ast
from pathlib import Path

import typer.main

from peloton import rulebook
from peloton.core import registry

SRC = Path(rulebook.__file__).resolve().parent.parent
ROOT = SRC.parent.parent


def ids_in(text: str) -> set[str]:
    """The rule ids written in ``text``."""
    return {m.group(0) for m in rulebook.RULE_ID.finditer(text)}


def web_sources() -> dict[str, set[str]]:
    """Rule ids in each web source file (scripts, pages, styles)."""
    found = {}
    for path in sorted((SRC / "web").rglob("*")):
        if path.suffix in {".js", ".html", ".css"}:
            found[str(path.relative_to(ROOT))] = ids_in(path.read_text(encoding="utf-8"))
    return found


def help_texts() -> dict[str, set[str]]:
    """Rule ids in each ``peloton`` command's help, its options' helps and its examples."""
    from peloton import cli

    found: dict[str, set[str]] = {}

    def visit(command: object, words: str) -> None:
        texts = [getattr(command, "help", None) or "", getattr(command, "epilog", None) or ""]
        texts += [getattr(p, "help", None) or "" for p in getattr(command, "params", [])]
        found[words] = ids_in("\n".join(texts))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            visit(sub, f"{words} {name}")

    visit(typer.main.get_command(cli.app), "peloton")
    return found


def _raised_texts(tree: ast.AST) -> list[str]:
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            for part in ast.walk(node.exc):
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    texts.append(part.value)
    return texts


def error_messages() -> dict[str, set[str]]:
    """Rule ids in the messages the games raise, and in their options' helps (shown by
    the lobby and ``peloton options``)."""
    found = {}
    for path in sorted((SRC / "games").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found[str(path.relative_to(ROOT))] = ids_in("\n".join(_raised_texts(tree)))
    for name in registry.names():
        helps = "\n".join(o.help for o in registry.get(name).options.values())
        found[f"options of {name}"] = ids_in(helps)
    return found
