"""Boards (CY-1.2, CY-1.3, CY-1.7): one printed tile of road as data.

A board's spaces are numbered from 1 in travel order. ``runs`` lists ``[type,
count, width]``; ``dark`` the dark squares; ``events`` the event spaces; ``lines``
holds ``[k, "sprint"]`` or ``[k, "mountain", cat]``, a line between spaces ``k`` and
``k + 1``; ``finish = true`` puts the finish line after the last space. Boards are
TOML or JSON files with those keys (the bundled ones live in ``boards/``). Every
constructor validates and raises one :class:`BoardError` (a ``CourseError``) listing
every problem, each naming the board and the value.

>>> f2 = Board.load("F2")
>>> len(f2), f2.kind(3), f2.width(3), f2.lines
(30, 'slope', 2, (Line(after=10, kind='mountain', category='3'),))
>>> Board.from_dict({"name": "X", "runs": [["flat", 5, 9]], "dark": [2]})
Traceback (most recent call last):
...
peloton.games.cyclo.board.BoardError: invalid board 'X': board 'X': run 1 has width 9, not 1-4; board 'X': dark space 2 is on flat, not cobbles or slope
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import CourseError
from .terrain import DARK_TYPES, ROAD_TYPES

BOARD_KEYS = ("name", "runs", "dark", "events", "lines", "finish")
NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,16}")
MAX_SPACES = 60
MAX_WIDTH = 4
SPRINT, MOUNTAIN = "sprint", "mountain"
#: Mountain categories, easiest first; ``HC`` is out of category (CY-1.2).
CATEGORIES = ("3", "2", "1", "HC")
#: Where a mountain line may stand: right after a climb or a cobbled slope (CY-1.7).
MOUNTAIN_AFTER = ("climb", "slope")


class BoardError(CourseError):
    """An invalid board: a :class:`CourseError` whose message says "board"."""

    def __init__(self, problems: Sequence[str] | str, name: str | None = None) -> None:
        super().__init__(problems, name)
        where = f"board {name!r}" if name else "board"
        self.args = (f"invalid {where}: " + "; ".join(self.problems),)


@dataclass(frozen=True, slots=True)
class Run:
    """``count`` spaces of one track type, ``width`` lanes wide."""

    type: str
    count: int
    width: int


@dataclass(frozen=True, slots=True)
class Line:
    """A sprint or mountain line between spaces ``after`` and ``after + 1``;
    ``category`` is ``3``, ``2``, ``1`` or ``HC`` for a mountain line, else None."""

    after: int
    kind: str
    category: str | None = None

    def to_list(self) -> list[Any]:
        """The line as a board file writes it."""
        return (
            [self.after, self.kind]
            if self.category is None
            else [self.after, self.kind, self.category]
        )


@dataclass(frozen=True)
class Board:
    """A validated board. Build one with :meth:`load`, :meth:`from_dict` or
    :meth:`from_file`; direct construction validates too."""

    name: str
    runs: tuple[Run, ...]
    dark: tuple[int, ...] = ()
    events: tuple[int, ...] = ()
    lines: tuple[Line, ...] = ()
    finish: bool = False
    #: ``kinds[k - 1]``: the track type of space ``k``.
    kinds: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: ``widths[k - 1]``: the lanes of space ``k``.
    widths: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problems = board_problems(
            self.name, self.runs, self.dark, self.events, self.lines, self.finish
        )
        if problems:
            raise BoardError(problems, self.name)
        object.__setattr__(self, "kinds", tuple(r.type for r in self.runs for _ in range(r.count)))
        object.__setattr__(
            self, "widths", tuple(r.width for r in self.runs for _ in range(r.count))
        )

    def __len__(self) -> int:
        return len(self.kinds)

    def kind(self, space: int) -> str:
        """The track type of space ``space`` (1-based)."""
        return self.kinds[space - 1]

    def width(self, space: int) -> int:
        """The lanes of space ``space`` (1-based)."""
        return self.widths[space - 1]

    # ---------------------------------------------------------------- building

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """A board from its keys (CY-1.2); :class:`BoardError` lists every problem."""
        board, problems = parse_board(data)
        if board is None:
            name = data.get("name") if isinstance(data, Mapping) else None
            raise BoardError(problems, name if isinstance(name, str) else None)
        return board

    @classmethod
    def from_text(cls, text: str, *, toml: bool, source: str = "board") -> Board:
        """A board from TOML or JSON text."""
        return cls.from_dict(_decode(text, toml=toml, source=source, error=BoardError))

    @classmethod
    def from_file(cls, path: str | Path) -> Board:
        """A board from a TOML (``.toml``) or JSON (any other suffix) file."""
        text, toml = _read(path, BoardError)
        return cls.from_text(text, toml=toml, source=str(path))

    @classmethod
    def load(cls, name: str) -> Board:
        """A bundled board (``A1`` ... ``F2``, CY-1.3) or a ``.toml``/``.json`` file."""
        if name in bundled_boards():
            return _bundled_board(name)
        if Path(name).suffix.lower() in (".toml", ".json") and Path(name).exists():
            return cls.from_file(name)
        raise BoardError(
            f"no bundled board called {name!r} (bundled: {', '.join(bundled_boards())}) "
            "and no such .toml/.json file"
        )

    def to_dict(self) -> dict[str, Any]:
        """The board's keys (what a record embeds in its course)."""
        out: dict[str, Any] = {
            "name": self.name,
            "runs": [[r.type, r.count, r.width] for r in self.runs],
        }
        if self.dark:
            out["dark"] = list(self.dark)
        if self.events:
            out["events"] = list(self.events)
        if self.lines:
            out["lines"] = [line.to_list() for line in self.lines]
        if self.finish:
            out["finish"] = True
        return out


def board_problems(
    name: object,
    runs: Sequence[Run],
    dark: Sequence[int],
    events: Sequence[int],
    lines: Sequence[Line],
    finish: object,
) -> list[str]:
    """Every CY-1.7 problem of a board's (well-typed) values, one sentence each."""
    label = f"board {name!r}"
    problems = []
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        problems.append(f"{label}: the name must be 1-16 letters, digits, '_' or '-'")
    if not runs:
        problems.append(f"{label} has no runs")
    kinds: list[str] = []
    for i, run in enumerate(runs, start=1):
        if run.type not in ROAD_TYPES:
            problems.append(
                f"{label}: run {i} has unknown road type {run.type!r} (known: {', '.join(ROAD_TYPES)})"
            )
        if run.count < 1:
            problems.append(f"{label}: run {i} has count {run.count}, not 1 or more")
        if not 1 <= run.width <= MAX_WIDTH:
            problems.append(f"{label}: run {i} has width {run.width}, not 1-{MAX_WIDTH}")
        kinds += [run.type] * max(run.count, 0)
    size = len(kinds)
    if size > MAX_SPACES:
        problems.append(f"{label} has {size} spaces, more than {MAX_SPACES}")
    seen_other = False
    for i, run in enumerate(runs, start=1):
        if run.type == "start" and seen_other:
            problems.append(
                f"{label}: start run {i} comes after other runs (start runs come first)"
            )
            break
        seen_other = seen_other or run.type != "start"
    for k in _repeated(dark):
        problems.append(f"{label}: dark space {k} is listed twice")
    for k in sorted(set(dark)):
        if not 1 <= k <= size:
            problems.append(f"{label}: dark space {k} is outside the board (1-{size})")
        elif kinds[k - 1] not in DARK_TYPES:
            problems.append(
                f"{label}: dark space {k} is on {kinds[k - 1]}, not {' or '.join(DARK_TYPES)}"
            )
    for k in _repeated(events):
        problems.append(f"{label}: event space {k} is listed twice")
    for k in sorted(set(events)):
        if not 1 <= k <= size:
            problems.append(f"{label}: event space {k} is outside the board (1-{size})")
        elif kinds[k - 1] == "start":
            problems.append(f"{label}: event space {k} is on a start space")
    for k in _repeated([line.after for line in lines]):
        problems.append(f"{label}: two lines after space {k}")
    for line in lines:
        if not 1 <= line.after <= size - 1:
            problems.append(f"{label}: a line after space {line.after} is outside 1-{size - 1}")
        if line.kind == SPRINT:
            if line.category is not None:
                problems.append(
                    f"{label}: the sprint line after {line.after} has a category ({line.category!r})"
                )
        elif line.kind == MOUNTAIN:
            if line.category not in CATEGORIES:
                problems.append(
                    f"{label}: the mountain line after {line.after} has unknown category "
                    f"{line.category!r} (known: {', '.join(CATEGORIES)})"
                )
            if 1 <= line.after <= size and kinds[line.after - 1] not in MOUNTAIN_AFTER:
                problems.append(
                    f"{label}: the mountain line after {line.after} follows "
                    f"{kinds[line.after - 1]}, not climb or slope"
                )
        else:
            problems.append(
                f"{label}: the line after {line.after} has unknown kind {line.kind!r} "
                f"(known: {SPRINT}, {MOUNTAIN})"
            )
    if not isinstance(finish, bool):
        problems.append(f"{label}: 'finish' must be true or false, not {finish!r}")
    return problems


def parse_board(data: object) -> tuple[Board | None, list[str]]:
    """A board from raw keys, or ``None`` and every problem found (shape and CY-1.7)."""
    if not isinstance(data, Mapping):
        return None, [f"a board must be a table of keys, not {data!r}"]
    name = data.get("name")
    label = f"board {name!r}"
    problems: list[str] = []
    unknown = sorted(str(k) for k in data if k not in BOARD_KEYS)
    if unknown:
        problems.append(
            f"{label}: unknown key(s) {', '.join(map(repr, unknown))} (allowed: {', '.join(BOARD_KEYS)})"
        )
    if "name" not in data:
        problems.append("a board has no 'name'")
    runs: list[Run] = []
    raw_runs = data.get("runs", [])
    if not isinstance(raw_runs, list):
        problems.append(f"{label}: 'runs' must be a list of [type, count, width], not {raw_runs!r}")
        raw_runs = []
    for i, raw in enumerate(raw_runs, start=1):
        if (
            isinstance(raw, list)
            and len(raw) == 3
            and isinstance(raw[0], str)
            and _is_int(raw[1])
            and _is_int(raw[2])
        ):
            runs.append(Run(raw[0], raw[1], raw[2]))
        else:
            problems.append(f"{label}: run {i} must be [type, count, width], not {raw!r}")
    dark = _numbers(data.get("dark", []), "dark", label, problems)
    events = _numbers(data.get("events", []), "events", label, problems)
    lines: list[Line] = []
    raw_lines = data.get("lines", [])
    if not isinstance(raw_lines, list):
        problems.append(f"{label}: 'lines' must be a list, not {raw_lines!r}")
        raw_lines = []
    for raw in raw_lines:
        if (
            isinstance(raw, list)
            and len(raw) in (2, 3)
            and _is_int(raw[0])
            and isinstance(raw[1], str)
            and (len(raw) == 2 or isinstance(raw[2], str))
        ):
            lines.append(Line(raw[0], raw[1], raw[2] if len(raw) == 3 else None))
        else:
            problems.append(
                f'{label}: line {raw!r} must be [k, "sprint"] or [k, "mountain", category]'
            )
    finish = data.get("finish", False)
    problems += board_problems(name, runs, dark, events, lines, finish)
    if problems:
        return None, problems
    assert isinstance(name, str) and isinstance(finish, bool)
    return Board(name, tuple(runs), tuple(dark), tuple(events), tuple(lines), finish), []


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numbers(raw: object, key: str, label: str, problems: list[str]) -> list[int]:
    if isinstance(raw, list) and all(_is_int(k) for k in raw):
        return list(raw)
    problems.append(f"{label}: {key!r} must be a list of space numbers, not {raw!r}")
    return []


def _repeated(values: Sequence[int]) -> list[int]:
    seen: set[int] = set()
    twice = []
    for v in values:
        if v in seen and v not in twice:
            twice.append(v)
        seen.add(v)
    return twice


# -------------------------------------------------------------------- files


def _decode(text: str, *, toml: bool, source: str, error: type[CourseError]) -> Any:
    try:
        return tomllib.loads(text) if toml else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise error(f"{source!r} is not valid {'TOML' if toml else 'JSON'}: {exc}") from None


def _read(path: str | Path, error: type[CourseError]) -> tuple[str, bool]:
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8"), path.suffix.lower() == ".toml"
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {str(path)!r}: {exc}") from None


def read_data(path: str | Path, error: type[CourseError]) -> Any:
    """The decoded keys of a TOML or JSON file (``error`` if unreadable)."""
    text, toml = _read(path, error)
    return _decode(text, toml=toml, source=str(path), error=error)


def decode_data(text: str, *, toml: bool, source: str, error: type[CourseError]) -> Any:
    """The decoded keys of TOML or JSON text (``error`` if malformed)."""
    return _decode(text, toml=toml, source=source, error=error)


def bundled_boards() -> list[str]:
    """Names of the boards shipped with Peloton (CY-1.3)."""
    return list(_board_names())


@cache
def _board_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("boards")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


@cache
def _bundled_board(name: str) -> Board:
    """A bundled board, read once (boards are immutable)."""
    text = resources.files(__package__).joinpath("boards", f"{name}.toml").read_text("utf-8")
    return Board.from_text(text, toml=True, source=name)
