"""Reading a game package's shape from its source (STYLE §1), for any game: which of
its modules import which, and which attributes they read.

A module is named by its dotted path inside the package (``rules``,
``solver.solution``; a subpackage's ``__init__`` by the subpackage's name). Imports
made only for type checking count too: a circle is a circle to a reader.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package directory ``package`` by its dotted name."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts) or "__init__"] = path
    return out


def imports(package: Path, prefix: str) -> dict[str, set[str]]:
    """``{module: the package's modules it imports}``; an import that leaves the
    package is kept as its absolute name under ``prefix`` (``peloton.games.pistard``)
    resolved, e.g. ``peloton.core.rng``."""
    found: dict[str, set[str]] = {}
    names = modules(package)
    for name, path in names.items():
        here = [] if name == "__init__" else name.split(".")
        if path.name != "__init__.py":
            here = here[:-1]  # a module's package
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = here[: len(here) - (node.level - 1)] if node.level - 1 <= len(here) else None
                if base is None:  # above the package
                    up = prefix.split(".")[: -(node.level - 1 - len(here))]
                    deps.add(".".join([*up, *(node.module or "").split(".")]).rstrip("."))
                    continue
                targets = (
                    [[*base, *node.module.split(".")]]
                    if node.module
                    else [[*base, alias.name] for alias in node.names]
                )
                for target in targets:
                    dotted = ".".join(target)
                    while dotted and dotted not in names:
                        dotted = dotted.rpartition(".")[0]
                    deps.add(dotted or "__init__")
            elif isinstance(node, ast.Import | ast.ImportFrom):
                for alias in getattr(node, "names", []):
                    mod = node.module if isinstance(node, ast.ImportFrom) else alias.name
                    if mod and mod.startswith("peloton"):
                        deps.add(mod)
        deps.discard(name)
        found[name] = deps
    return found


def circles(graph: dict[str, set[str]]) -> list[str]:
    """The modules that reach themselves through their imports (package members only)."""

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (
                nxt in graph and nxt not in seen and reaches(nxt, goal, seen | {nxt})
            ):
                return True
        return False

    return sorted(name for name in graph if reaches(name, name, set()))


def private_reads(package: Path) -> Iterator[str]:
    """``file:line .name`` for every read of a ``_private`` attribute that the file
    does not define itself (as a method, a ``__slots__`` entry or ``self._name = ...``),
    and every import of a private name: a module may use its own classes' private
    members, never another module's."""
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text())
        own: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                own.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if isinstance(node.value, ast.Name) and node.value.id == "self":
                    own.add(node.attr)
            elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
            ):
                own.update(
                    c.value
                    for c in ast.walk(node.value)
                    if isinstance(c, ast.Constant) and isinstance(c.value, str)
                )
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in own
            ):
                yield f"{path.relative_to(package)}:{node.lineno} .{node.attr}"
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        yield f"{path.relative_to(package)}:{node.lineno} import {alias.name}"
