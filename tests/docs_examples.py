"""The documented examples, read from where a reader finds them: the code blocks of
README.md and docs/*.md (their ``peloton …`` command lines and their Python blocks)
and the ``Examples:`` of ``peloton <command> --help``. One extractor for every test
that runs them (tests/cli/test_documented.py runs them all)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: A fence opening or closing a code block, indented or not (a block in a list item).
FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)\s*$")
#: A command line: optional ``VAR=value`` assignments, then ``peloton`` or a path to it.
COMMAND = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*(?:\S*/)?peloton(?:\s|$)")
#: What may come before ``&&`` on a documented line: making a directory.
MKDIR = re.compile(r"^mkdir( -p)? (?P<dirs>[\w./ -]+)$")


def documents() -> list[Path]:
    """README.md and every page of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language (``""`` when none) and its text, unindented."""

    path: Path
    line: int  # of its first line of code, 1-based
    lang: str
    text: str


def code_blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, in order."""
    blocks: list[Block] = []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        indent = len(opening["indent"])
        end = i + 1
        while end < len(lines) and not (FENCE.match(lines[end]) and lines[end].strip() == "```"):
            end += 1
        assert end < len(lines), f"{name(path)}:{i + 1}: a code block is never closed"
        body = [line[indent:] if line[:indent].isspace() else line for line in lines[i + 1 : end]]
        blocks.append(Block(path, i + 2, opening["lang"], "\n".join(body) + "\n"))
        i = end + 1
    return blocks


def python_blocks(path: Path, containing: str = "") -> list[str]:
    """The ```python blocks of a Markdown file (those containing ``containing``)."""
    return [b.text for b in code_blocks(path) if b.lang == "python" and containing in b.text]


@dataclass(frozen=True)
class Command:
    """A documented ``peloton`` command line, ready to run.

    ``argv`` is what follows ``peloton``: the ``.venv/bin/`` prefix, a trailing
    ``# comment`` and leading ``VAR=value`` assignments (in ``env``) are taken off, and
    ``mkdir`` steps before ``&&`` are in ``dirs``.
    """

    where: str  # "README.md:125" or "peloton play --help"
    line: str  # as written
    argv: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    dirs: tuple[str, ...] = ()

    @property
    def command(self) -> str:
        """The subcommand: ``play``, ``serve``, ``simulate`` …"""
        return self.argv[0] if self.argv else ""

    def option(self, flag: str) -> str | None:
        """The value of ``--flag VALUE`` (the last one given), or ``None``."""
        value = None
        for i, word in enumerate(self.argv[:-1]):
            if word == flag:
                value = self.argv[i + 1]
        return value

    def __str__(self) -> str:
        return f"{self.where}: {self.line}"


def parse_command(line: str, where: str) -> Command:
    """A documented command line as a :class:`Command` (an ``AssertionError`` saying
    what is wrong when it is not a plain ``peloton`` line)."""
    *steps, last = [part.strip() for part in line.split(" && ")]
    dirs: list[str] = []
    for step in steps:
        made = MKDIR.match(step)
        assert made, f"{where}: only 'mkdir -p DIR && ' may come before peloton, not {step!r}"
        dirs.extend(made["dirs"].split())
    words = shlex.split(last, comments=True)
    env: dict[str, str] = {}
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", words[0]):
        key, value = words.pop(0).split("=", 1)
        env[key] = value
    assert words and (words[0] == "peloton" or words[0].endswith("/peloton")), f"{where}: {line}"
    return Command(where, line, tuple(words[1:]), env, tuple(dirs))


def commands(path: Path, containing: str = "") -> list[Command]:
    """The ``peloton`` command lines in a Markdown file's code blocks (those whose text
    contains ``containing``); other lines (``make run``, output, data) are not commands."""
    found = []
    for block in code_blocks(path):
        for offset, line in enumerate(block.text.splitlines()):
            text = line.strip()
            runnable = text.split(" && ")[-1]
            if COMMAND.match(runnable) and containing in text:
                found.append(parse_command(text, f"{name(path)}:{block.line + offset}"))
    return found


def help_examples() -> list[Command]:
    """The ``Examples:`` of every ``peloton <command> --help`` (each command's epilog:
    one example a paragraph)."""
    import typer.main

    from peloton import cli

    found: list[Command] = []

    def visit(command: object, words: str) -> None:
        for sub_name, sub in sorted(getattr(command, "commands", {}).items()):
            visit(sub, f"{words} {sub_name}")
        epilog = getattr(command, "epilog", None) or ""
        if "Examples:" in epilog:
            for example in epilog.split("Examples:", 1)[1].split("\n\n"):
                if example.strip():
                    found.append(parse_command(example.strip(), f"{words} --help"))

    visit(typer.main.get_command(cli.app), "peloton")
    return found
