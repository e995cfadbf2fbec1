"""Courses (CY-1.4 to CY-1.7): boards laid end to end, or the velodrome.

A road course has a ``name``, ``boards`` (bundled names or inline boards) and, in
time trials only, ``start`` (the space of the first board where it begins). The
spaces from ``start`` on are numbered 1 … N; the finish line follows N, and N+1 …
N+9 are the run-out (``#1`` … ``#9``). Position 0 is the start line. The velodrome is
``{"name", "lap", "width"}`` (CY-1.6). Every constructor validates and raises one
:class:`CourseError` listing every problem, each naming the board or course.

>>> course = Course.load("flemish-4")
>>> course.length, course.kind(63), course.dark_back(65), course.is_event(67)
(120, 'slope', 1, True)
>>> [(line.after, line.kind, line.category) for line in course.lines]
[(45, 'sprint', None), (70, 'mountain', '3')]
>>> Course.load("velodrome").lap
20
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import CourseError
from .board import Board, bundled_boards, decode_data, parse_board, read_data
from .terrain import TERRAIN

ROAD_KEYS = ("name", "boards", "start")
TRACK_KEYS = ("name", "lap", "width")
MAX_BOARDS = 8
#: Squares past the finish line a move may reach (CY-1.4).
RUN_OUT = 9
#: The lanes of the start line and the run-out: unlimited (CY-4.5); more than riders.
UNLIMITED = 64


@dataclass(frozen=True, slots=True)
class CourseLine:
    """A scoring line of a road course: after position ``after`` (course numbering),
    on board ``board``."""

    after: int
    kind: str
    category: str | None
    board: str


@dataclass(frozen=True)
class Course:
    """A validated course: boards (a road course) or a velodrome (``lap``, ``width``).

    Build one with :meth:`load`, :meth:`from_dict` or :meth:`from_file`."""

    name: str
    boards: tuple[Board, ...] = ()
    start: int = 1
    #: The velodrome's spaces a lap and lanes (CY-1.6); ``None`` on the road.
    lap: int | None = None
    width: int | None = None
    #: N: the spaces of a road course (0 for the velodrome, whose length is the race's).
    length: int = field(init=False, compare=False)
    #: Per position 0 … N+9 (0 the start line, N+1 … the run-out): track type (the
    #: start line and the run-out take their neighbour's), lanes, dark-square penalty,
    #: event mark and board name.
    kinds: tuple[str, ...] = field(init=False, repr=False, compare=False)
    widths: tuple[int, ...] = field(init=False, repr=False, compare=False)
    darks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    events: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    board_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: The sprint and mountain lines in course order (the finish line is after N).
    lines: tuple[CourseLine, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problems = course_problems(self)
        if problems:
            raise CourseError(problems, self.name)
        kinds, widths, darks, events, names = ["start"], [UNLIMITED], [0], [False], [""]
        lines: list[CourseLine] = []
        for i, board in enumerate(self.boards):
            first = self.start if i == 0 else 1
            offset = len(kinds) - first  # board space k is course position k + offset
            for k in range(first, len(board) + 1):
                kinds.append(board.kind(k))
                widths.append(board.width(k))
                darks.append(_dark_back(board, k))
                events.append(k in board.events)
                names.append(board.name)
            lines += [
                CourseLine(line.after + offset, line.kind, line.category, board.name)
                for line in sorted(board.lines, key=lambda x: x.after)
                if line.after >= first
            ]
        length = len(kinds) - 1
        if length:
            kinds[0] = kinds[1]  # a ride from the start line rides like position 1 (CY-4.2)
            names[0] = names[1]
        kinds += [kinds[-1]] * RUN_OUT
        widths += [UNLIMITED] * RUN_OUT
        darks += [0] * RUN_OUT
        events += [False] * RUN_OUT
        names += [""] * RUN_OUT
        for key, value in (
            ("length", length),
            ("kinds", tuple(kinds)),
            ("widths", tuple(widths)),
            ("darks", tuple(darks)),
            ("events", tuple(events)),
            ("board_names", tuple(names)),
            ("lines", tuple(lines)),
        ):
            object.__setattr__(self, key, value)

    @property
    def is_track(self) -> bool:
        """Whether this is the velodrome (CY-1.6) rather than a road course."""
        return self.lap is not None

    def kind(self, position: int) -> str:
        """The track type of a road position (the start line rides like position 1)."""
        return self.kinds[position]

    def dark_back(self, position: int) -> int:
        """How far a move ending on ``position`` sends a rider back (0: not dark)."""
        return self.darks[position]

    def is_event(self, position: int) -> bool:
        """Whether ``position`` is an event space (CY-7.2)."""
        return self.events[position]

    def board_at(self, position: int) -> str:
        """The name of the board ``position`` lies on ("" off the course)."""
        return self.board_names[position]

    # ---------------------------------------------------------------- building

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Course:
        """A course from its keys; :class:`CourseError` lists every problem."""
        if not isinstance(data, Mapping):
            raise CourseError(f"a course must be a table of keys, not {data!r}")
        name = data.get("name")
        label = f"course {name!r}"
        problems: list[str] = []
        if not isinstance(name, str) or not name:
            problems.append(f"{label}: 'name' must be a non-empty string")
        if "lap" in data or "width" in data:
            unknown = sorted(str(k) for k in data if k not in TRACK_KEYS)
            if unknown:
                problems.append(
                    f"{label}: unknown key(s) {', '.join(map(repr, unknown))} of a velodrome "
                    f"(allowed: {', '.join(TRACK_KEYS)})"
                )
            lap, width = data.get("lap"), data.get("width")
            for key, value in (("lap", lap), ("width", width)):
                if not isinstance(value, int) or isinstance(value, bool):
                    problems.append(f"{label}: {key!r} must be a whole number, not {value!r}")
            if problems:
                raise CourseError(problems, name if isinstance(name, str) else None)
            return _build(cls, problems, name=name, lap=lap, width=width)
        unknown = sorted(str(k) for k in data if k not in ROAD_KEYS)
        if unknown:
            problems.append(
                f"{label}: unknown key(s) {', '.join(map(repr, unknown))} (allowed: {', '.join(ROAD_KEYS)})"
            )
        raw = data.get("boards")
        if not isinstance(raw, list):
            problems.append(
                f"{label}: 'boards' must be a list of board names or boards, not {raw!r}"
            )
            raw = []
        boards: list[Board] = []
        for item in raw:
            if isinstance(item, str):
                if item in bundled_boards():
                    boards.append(Board.load(item))
                else:
                    problems.append(
                        f"{label}: unknown board {item!r} (bundled: {', '.join(bundled_boards())})"
                    )
            else:
                board, found = parse_board(item)
                problems += found
                if board is not None:
                    boards.append(board)
        start = data.get("start", 1)
        if not isinstance(start, int) or isinstance(start, bool):
            problems.append(f"{label}: 'start' must be a space number, not {start!r}")
            start = 1
        if len(boards) < len(raw):  # what is left is still checked, so every problem is listed
            problems += course_problems(
                _Unchecked(name, tuple(boards), start, None, None), count=len(raw)
            )
            raise CourseError(problems, name if isinstance(name, str) else None)
        return _build(cls, problems, name=name, boards=tuple(boards), start=start)

    @classmethod
    def from_text(cls, text: str, *, toml: bool, source: str = "course") -> Course:
        """A course from TOML or JSON text."""
        return cls.from_dict(decode_data(text, toml=toml, source=source, error=CourseError))

    @classmethod
    def from_file(cls, path: str | Path) -> Course:
        """A course from a TOML (``.toml``) or JSON (any other suffix) file."""
        return cls.from_dict(read_data(path, CourseError))

    @classmethod
    def load(cls, name: str) -> Course:
        """A bundled course (CY-1.5) by name, or a ``.toml``/``.json`` file."""
        if name in bundled_courses():
            return _bundled_course(name)
        if Path(name).suffix.lower() in (".toml", ".json") and Path(name).exists():
            return cls.from_file(name)
        raise CourseError(
            f"no bundled course called {name!r} (bundled: {', '.join(bundled_courses())}) "
            "and no such .toml/.json file"
        )

    def to_dict(self) -> dict[str, Any]:
        """The course as a full object, boards inline (what a record holds, CY-15.1)."""
        if self.is_track:
            return {"name": self.name, "lap": self.lap, "width": self.width}
        out: dict[str, Any] = {"name": self.name, "boards": [b.to_dict() for b in self.boards]}
        if self.start != 1:
            out["start"] = self.start
        return out


@dataclass(frozen=True)
class _Unchecked:
    """A course's values before validation (to list the problems of a partly bad one)."""

    name: object
    boards: tuple[Board, ...]
    start: int
    lap: int | None
    width: int | None


def _build(cls: type[Course], problems: list[str], **values: Any) -> Course:
    try:
        course = cls(**values)
    except CourseError as exc:
        problems += exc.problems
    if problems:
        name = values.get("name")
        raise CourseError(problems, name if isinstance(name, str) else None)
    return course


def _dark_back(board: Board, space: int) -> int:
    return TERRAIN[board.kind(space)].dark_back if space in board.dark else 0


def course_problems(course: Course | _Unchecked, count: int | None = None) -> list[str]:
    """Every mode-free CY-1.7 problem of a course (``count``: boards listed, when some
    could not be read)."""
    label = f"course {course.name!r}"
    problems = []
    if course.lap is not None or course.width is not None:
        if course.boards:
            problems.append(f"{label}: a velodrome has no boards")
        lap, width = course.lap or 0, course.width or 0
        if lap % 2 or not 10 <= lap <= 60:
            problems.append(
                f"{label}: the velodrome lap is {lap}, not an even number of spaces from 10 to 60"
            )
        if not 1 <= width <= 6:
            problems.append(f"{label}: the velodrome width is {width}, not 1-6")
        return problems
    n = len(course.boards) if count is None else count
    if not 1 <= n <= MAX_BOARDS:
        problems.append(f"{label} has {n} boards, not 1-{MAX_BOARDS}")
    names = [b.name for b in course.boards]
    for name in sorted({x for x in names if names.count(x) > 1}):
        problems.append(f"{label} uses board {name!r} twice")
    if course.boards and count is None:
        if not course.boards[-1].finish:
            problems.append(
                f"{label}: its last board {course.boards[-1].name!r} has no finish line"
            )
        for b in course.boards[:-1]:
            if b.finish:
                problems.append(f"{label}: board {b.name!r} has the finish line but is not last")
        for b in course.boards[1:]:
            if "start" in b.kinds:
                problems.append(f"{label}: board {b.name!r} has start spaces but is not first")
        first = course.boards[0]
        if not 1 <= course.start <= len(first):
            problems.append(
                f"{label}: 'start' {course.start} is outside its first board {first.name!r} "
                f"(1-{len(first)})"
            )
    return problems


def bundled_courses() -> list[str]:
    """Names of the courses shipped with Peloton (CY-1.5)."""
    return list(_course_names())


@cache
def _course_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("courses")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


@cache
def _bundled_course(name: str) -> Course:
    """A bundled course, read once (courses are immutable)."""
    text = resources.files(__package__).joinpath("courses", f"{name}.toml").read_text("utf-8")
    return Course.from_text(text, toml=True, source=name)
