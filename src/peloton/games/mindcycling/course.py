"""Courses: the road, its sections, feed zones and rocks (MC-1).

A square is coded as the integer ``row << 5 | lane`` (lane 0 is ``a``) so that the
engine's hot path works on small ints; :meth:`Course.square_name` and
:meth:`Course.parse_square` convert to and from the ``c12`` notation of MC-1.1.
"""

from __future__ import annotations

import json
import re
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from ...core.errors import CourseError

SECTION_TYPES = ("plain", "sprint", "mountain")
#: Pseudo-section of the rows before the first tab (MC-1.2); it rides as plain.
START = "start"
LANE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Caps on every size a course file (or a web client) chooses, at what a real game needs
# (the board has 5 lanes and the standard course 66 rows), so that no course costs the
# engine or a server unbounded time or memory:
#: Lanes: the move generator remembers its moves per reachable set of lanes, up to
#: 2**lanes per row and rider; 9 lanes hold 7 teams of 6 in a start zone of 5 rows.
MAX_LANES = 9
#: The finish row: three times the standard course (67). A game lasts at most about
#: ``finish`` rounds of the furthest rider (docs/decisions.md, MC-8.5).
MAX_FINISH = 200
#: Section tabs: at most one sprint and one mountain (MC-1.3) between plain stretches.
MAX_SECTIONS = 16
#: A course name is shown in the lobby and stored with every table.
MAX_NAME = 64
MAX_FEED = 2
MAX_ROCKS = 6
#: A feed or rock list longer than this is refused without naming each square's problem.
_LONG_LIST = 20
COURSE_KEYS = ("name", "lanes", "finish", "sections", "feed", "rocks")

_SQUARE_RE = re.compile(r"([a-z])([1-9][0-9]*)")


def square(row: int, lane: int) -> int:
    """The integer code of the square on ``row`` (from 1) and ``lane`` (from 0)."""
    return row << 5 | lane


def row_of(sq: int) -> int:
    """The row of a square code."""
    return sq >> 5


def lane_of(sq: int) -> int:
    """The lane (0 = ``a``) of a square code."""
    return sq & 31


def square_text(sq: int) -> str:
    """The MC-1.1 name of a square code, e.g. ``c12``."""
    return f"{LANE_LETTERS[sq & 31]}{sq >> 5}"


def parse_square_text(text: str) -> int | None:
    """The square code of ``c12``-style text, or ``None`` if it is not a square name."""
    m = _SQUARE_RE.fullmatch(text)
    if m is None:
        return None
    return int(m.group(2)) << 5 | LANE_LETTERS.index(m.group(1))


@dataclass(frozen=True)
class Course:
    """A validated Mind Cycling course (MC-1.2).

    Build one with :meth:`load` (bundled name), :meth:`from_file` or :meth:`from_dict`;
    every constructor validates (MC-1.3) and raises :class:`peloton.CourseError`
    listing every problem found.
    """

    name: str
    lanes: int
    finish: int
    sections: tuple[tuple[int, str], ...]
    feed: tuple[str, ...] = ()
    rocks: tuple[str, ...] = ()
    # Derived tables for the engine, indexed by row (0 .. finish); filled in __post_init__.
    section_by_row: tuple[str, ...] = field(init=False, repr=False, compare=False)
    rock_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    feed_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: ``names[row][lane]`` is the square's MC-1.1 name (rows 0 .. finish - 1).
    names: tuple[tuple[str, ...], ...] = field(init=False, repr=False, compare=False)
    #: square name -> square code, for every square of the road.
    codes: dict[str, int] = field(init=False, repr=False, compare=False)
    #: ``by_mask[row][mask]``: names of the lanes set in ``mask`` on ``row``, filled
    #: lazily by :meth:`squares_in` (the move generator's hot path reads it directly).
    by_mask: tuple[dict[int, tuple[str, ...]], ...] = field(init=False, repr=False, compare=False)
    #: ``feed_before[r]``: how many feed squares lie on rows before ``r`` (0 .. finish + 1).
    feed_before: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: ``(medal, last row)`` of each section medal the course awards (MC-8.3).
    medal_lines: tuple[tuple[str, int], ...] = field(init=False, repr=False, compare=False)
    #: The rows holding a feed square, in order (the bots' heuristics read them per move).
    feed_rows: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: section type -> the last row of the first section of that type (:meth:`last_row_of`).
    last_rows: dict[str, int] = field(init=False, repr=False, compare=False)
    #: Memo of the move generator: rider id -> key -> tuple of moves (see ``rules``).
    #: Moves are immutable values, so games on this course share them safely.
    move_memo: dict[str, dict[int, tuple[Any, ...]]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problems = _problems(
            self.name, self.lanes, self.finish, self.sections, self.feed, self.rocks
        )
        if problems:
            raise CourseError(problems, self.name)
        by_row = [START] * (self.finish + 1)
        bounds = [*(r for r, _ in self.sections[1:]), self.finish]
        for (start, kind), end in zip(self.sections, bounds, strict=True):
            for r in range(start, end):
                by_row[r] = kind
        rock = [0] * (self.finish + 2)
        for text in self.rocks:
            sq = parse_square_text(text)
            assert sq is not None  # validated above
            rock[row_of(sq)] |= 1 << lane_of(sq)
        feed = [0] * (self.finish + 2)
        for text in self.feed:
            sq = parse_square_text(text)
            assert sq is not None
            feed[row_of(sq)] |= 1 << lane_of(sq)
        object.__setattr__(self, "section_by_row", tuple(by_row))
        object.__setattr__(self, "rock_mask", tuple(rock))
        object.__setattr__(self, "feed_mask", tuple(feed))
        names = tuple(
            tuple(square_text(square(r, lane)) for lane in range(self.lanes))
            for r in range(self.finish)
        )
        object.__setattr__(self, "names", names)
        codes = {
            names[r][lane]: square(r, lane)
            for r in range(1, self.finish)
            for lane in range(self.lanes)
        }
        object.__setattr__(self, "codes", codes)
        object.__setattr__(self, "by_mask", tuple({} for _ in range(self.finish)))
        object.__setattr__(self, "move_memo", {})
        before = [0]
        for r in range(self.finish + 1):
            before.append(before[-1] + bin(feed[r]).count("1"))
        object.__setattr__(self, "feed_before", tuple(before))
        object.__setattr__(self, "feed_rows", tuple(r for r, mask in enumerate(feed) if mask))
        last_rows: dict[str, int] = {}
        for i, (_, kind) in enumerate(self.sections):
            end = self.sections[i + 1][0] if i + 1 < len(self.sections) else self.finish
            last_rows.setdefault(kind, end - 1)
        object.__setattr__(self, "last_rows", last_rows)
        lines = []
        for medal, kind in (("sprinter", "sprint"), ("climber", "mountain")):
            last = self.last_row_of(kind)
            if last is not None:
                lines.append((medal, last))
        object.__setattr__(self, "medal_lines", tuple(lines))

    # ---------------------------------------------------------------- building

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Course:
        """A course from the MC-1.5 keys (``name`` optional, ``lanes`` defaults to 5);
        a bundled course as shipped is the process's one object of it (:meth:`shared`).

        The same keys give the same object while they are among the
        :data:`_PARSED_KEPT` last parsed: a server replays, resumes and hands its bots
        each table's stored course, and parsing one costs more than the rest of a new
        game (a Course is immutable: sharing it is safe)."""
        if cls is not Course:
            return cls._parse(data)
        try:
            key = json.dumps(data, sort_keys=True, separators=(",", ":"))
        except (TypeError, ValueError):  # not JSON keys: the parse says what is wrong
            return cls._parse(data).shared()
        with _PARSED_LOCK:
            course = _PARSED.get(key)
            if course is not None:
                _PARSED.move_to_end(key)
                return course
        course = cls._parse(data).shared()
        with _PARSED_LOCK:
            _PARSED[key] = course
            while len(_PARSED) > _PARSED_KEPT:
                _PARSED.popitem(last=False)
        return course

    @classmethod
    def _parse(cls, data: Mapping[str, Any]) -> Course:
        if not isinstance(data, Mapping):
            raise CourseError(f"a course must be a table of keys, not {type(data).__name__}")
        name = data.get("name", "custom")
        problems: list[str] = []
        unknown = sorted(set(data) - set(COURSE_KEYS))
        if unknown:
            problems.append(
                f"unknown key(s) {', '.join(map(repr, unknown))} (allowed: {', '.join(COURSE_KEYS)})"
            )
        if not isinstance(name, str) or not name:
            problems.append(f"'name' must be a non-empty string, not {name!r}")
            name = "custom"
        elif problem := _name_problem(name):
            problems.append(problem)
            name = "custom"
        # Problems up to here (unknown keys, the name) leave the road readable: the
        # road's own checks still run below, so every problem is listed at once.
        readable = len(problems)
        lanes = data.get("lanes", 5)
        if not _is_int(lanes):
            problems.append(f"'lanes' must be an integer, not {lanes!r}")
        if "finish" not in data:
            problems.append("'finish' is missing (the row just past the finish line)")
        finish = data.get("finish")
        if "finish" in data and not _is_int(finish):
            problems.append(f"'finish' must be an integer, not {finish!r}")
        sections: list[tuple[int, str]] = []
        raw_sections = data.get("sections")
        if raw_sections is None:
            problems.append("'sections' is missing (a list of [row, type] tabs)")
        elif not isinstance(raw_sections, list | tuple):
            problems.append(f"'sections' must be a list of [row, type] tabs, not {raw_sections!r}")
        elif len(raw_sections) > MAX_SECTIONS:
            problems.append(
                f"'sections' lists {len(raw_sections)} tabs; a course has at most {MAX_SECTIONS}"
            )
        else:
            for tab in raw_sections:
                if (
                    isinstance(tab, list | tuple)
                    and len(tab) == 2
                    and _is_int(tab[0])
                    and isinstance(tab[1], str)
                ):
                    sections.append((int(tab[0]), tab[1]))
                else:
                    problems.append(f'section tab {tab!r} must be [row, type], e.g. [9, "plain"]')
        feed = _square_list(data, "feed", problems)
        rocks = _square_list(data, "rocks", problems)
        if problems and len(problems) == readable:
            problems += _problems(name, int(lanes), int(finish), sections, feed, rocks)  # type: ignore[arg-type]
        if problems:
            raise CourseError(problems, name)
        return cls(name, int(lanes), int(finish), tuple(sections), tuple(feed), tuple(rocks))  # type: ignore[arg-type]

    def shared(self) -> Course:
        """The process's one object for this course when it is a bundled course as
        shipped (its move memo then serves every game on it), else this course.

        A stored game keeps its course whole (records, the server's tables): it comes
        back through :meth:`from_dict`, and shares the bundled object only if it is the
        same course, so a bundled file edited on disk never changes a stored game."""
        if self.name not in _bundled_names():
            return self
        bundled = _bundled(self.name)
        return bundled if bundled == self else self

    @classmethod
    def from_file(cls, path: str | Path) -> Course:
        """A course from a TOML (``.toml``) or JSON (any other suffix) file."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CourseError(f"cannot read {str(path)!r}: {exc}") from None
        return cls.from_text(text, toml=path.suffix.lower() == ".toml", source=str(path))

    @classmethod
    def from_text(cls, text: str, *, toml: bool, source: str = "course") -> Course:
        """A course from TOML or JSON text."""
        try:
            data = tomllib.loads(text) if toml else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            kind = "TOML" if toml else "JSON"
            raise CourseError(f"{source!r} is not valid {kind}: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, name: str) -> Course:
        """A bundled course by name (``standard``, ``short``, ``solo``) or a file path."""
        if name in _bundled_names():
            return _bundled(name)
        if Path(name).suffix.lower() in (".toml", ".json") and Path(name).exists():
            return cls.from_file(name)
        raise CourseError(
            f"no bundled course called {name!r} (bundled: {', '.join(bundled_names())}) "
            "and no such .toml/.json file"
        )

    def to_dict(self) -> dict[str, Any]:
        """The MC-1.5 keys of this course (what a record stores)."""
        return {
            "name": self.name,
            "lanes": self.lanes,
            "finish": self.finish,
            "sections": [[r, kind] for r, kind in self.sections],
            "feed": list(self.feed),
            "rocks": list(self.rocks),
        }

    # ---------------------------------------------------------------- queries

    @property
    def start_rows(self) -> int:
        """The number of rows of the start zone (rows ``1 .. first tab - 1``)."""
        return self.sections[0][0] - 1

    @property
    def start_capacity(self) -> int:
        """How many riders the start zone holds."""
        return self.start_rows * self.lanes

    def section_of(self, row: int) -> str:
        """The section type of a road row: ``start`` (rides as plain) or an MC-1.2 type."""
        return self.section_by_row[row]

    def last_row_of(self, kind: str) -> int | None:
        """The last row of the ``sprint`` or ``mountain`` section, ``None`` if absent."""
        return self.last_rows.get(kind)

    def square_name(self, sq: int) -> str:
        """``c12``-style name of a square code."""
        return square_text(sq)

    def parse_square(self, text: str) -> int | None:
        """The code of a square name that lies on this road, else ``None``."""
        return self.codes.get(text)

    def row_lane(self, name: str) -> tuple[int, int]:
        """``(row, lane)`` of a road square's name (lane 0 is ``a``); ``KeyError`` if
        the square is not on this road."""
        sq = self.codes[name]
        return row_of(sq), lane_of(sq)

    def squares_in(self, row: int, mask: int) -> tuple[str, ...]:
        """Names of the squares of ``row`` whose lanes are set in ``mask``, left first."""
        names = self.by_mask[row].get(mask)
        if names is None:
            line = self.names[row]
            names = tuple(line[lane] for lane in range(self.lanes) if mask >> lane & 1)
            self.by_mask[row][mask] = names
        return names

    def is_rock(self, sq: int) -> bool:
        """Whether a rocky mountain stands on this square."""
        return bool(self.rock_mask[row_of(sq)] >> lane_of(sq) & 1)

    def is_feed(self, sq: int) -> bool:
        """Whether a feed-zone token lies on this square."""
        return bool(self.feed_mask[row_of(sq)] >> lane_of(sq) & 1)

    def check_room(self, riders: int) -> None:
        """Raise :class:`CourseError` unless the start zone holds ``riders`` riders."""
        if riders > self.start_capacity:
            raise CourseError(
                f"the start zone ({self.start_rows} rows × {self.lanes} lanes = "
                f"{self.start_capacity} squares) has no room for {riders} riders",
                self.name,
            )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _name_problem(name: str) -> str | None:
    """Why a course name is refused, if it is (too long, or with control characters)."""
    if len(name) > MAX_NAME:
        return f"'name' has {len(name)} characters; at most {MAX_NAME} are allowed"
    if not name.isprintable():
        return f"'name' {name!r} must be printable text (no control characters)"
    return None


def _square_list(data: Mapping[str, Any], key: str, problems: list[str]) -> list[str]:
    raw = data.get(key, [])
    limit = MAX_FEED if key == "feed" else MAX_ROCKS
    if isinstance(raw, list | tuple) and len(raw) > _LONG_LIST:
        # Refused as a whole, not square by square: a designer's slip is a few squares.
        problems.append(f"{key} lists {len(raw)} squares; at most {limit} are allowed")
        return []
    if not isinstance(raw, list | tuple) or not all(isinstance(s, str) for s in raw):
        problems.append(f'{key!r} must be a list of square names such as "c42", not {raw!r}')
        return []
    return list(raw)


def _problems(
    name: str,
    lanes: int,
    finish: int,
    sections: Iterable[tuple[int, str]],
    feed: Iterable[str],
    rocks: Iterable[str],
) -> list[str]:
    """Every MC-1.3 problem of a course, one clear sentence each (empty if valid).

    Each kind of check runs even when another found problems, so that a designer sees
    every mistake in one go; a check only stands down when what it needs is unusable.
    """
    problems: list[str] = []
    if not isinstance(name, str) or not name:
        problems.append(f"'name' must be a non-empty string, not {name!r}")
    elif problem := _name_problem(name):
        problems.append(problem)
    lanes_ok = 1 <= lanes <= MAX_LANES
    if not lanes_ok:
        problems.append(f"lanes must be between 1 and {MAX_LANES}, not {lanes}")
    if finish > MAX_FINISH:
        problems.append(
            f"finish {finish} is too far: a course has at most {MAX_FINISH} rows (finish <= {MAX_FINISH})"
        )
        return problems  # the other checks walk the rows: not on a road this long
    sections = list(sections)
    if len(sections) > MAX_SECTIONS:
        problems.append(
            f"there are {len(sections)} section tabs; a course has at most {MAX_SECTIONS}"
        )
        return problems
    problems += _section_problems(finish, sections)
    first_tab = sections[0][0] if sections else 1
    rock_ok = True
    seen: dict[int, str] = {}
    for key, squares, limit in (("feed", list(feed), MAX_FEED), ("rocks", list(rocks), MAX_ROCKS)):
        if len(squares) > limit:
            problems.append(f"{key} lists {len(squares)} squares; at most {limit} are allowed")
            if len(squares) > _LONG_LIST:
                rock_ok = rock_ok and key != "rocks"
                continue
        for text in squares:
            problem = _square_problem(
                key, text, lanes if lanes_ok else MAX_LANES, finish, first_tab, seen
            )
            if problem:
                problems.append(problem)
                rock_ok = rock_ok and key != "rocks"
    if lanes_ok and rock_ok:
        problems += _wall_problems(lanes, finish, rocks)
    return problems


def _section_problems(finish: int, sections: list[tuple[int, str]]) -> list[str]:
    if not sections:
        return ["there must be at least one section tab"]
    problems = [
        f"section type {kind!r} is not one of {', '.join(SECTION_TYPES)}"
        for _, kind in sections
        if kind not in SECTION_TYPES
    ]
    rows = [r for r, _ in sections]
    if rows[0] <= 1:
        problems.append(
            f"the first tab is at row {rows[0]}; it must be above row 1 (room for a start zone)"
        )
    for a, b in pairwise(rows):
        if b <= a:
            problems.append(f"tab rows must strictly increase, but row {b} follows row {a}")
    if finish <= rows[-1]:
        problems.append(f"finish {finish} must be greater than the last tab row {rows[-1]}")
    for kind in ("sprint", "mountain"):
        count = sum(1 for _, k in sections if k == kind)
        if count > 1:
            problems.append(
                f"there are {count} {kind} sections; at most one is allowed (one medal each)"
            )
    return problems


def _square_problem(
    key: str, text: str, lanes: int, finish: int, first_tab: int, seen: dict[int, str]
) -> str | None:
    """The problem of one feed or rock square, if any (records it in ``seen``)."""
    sq = parse_square_text(text)
    if sq is None:
        return f'{key} square {text!r} is not a square name such as "c42"'
    if lane_of(sq) >= lanes or not 1 <= row_of(sq) < finish:
        return f"{key} square {text!r} is off the road (lanes a-{LANE_LETTERS[lanes - 1]}, rows 1-{finish - 1})"
    if row_of(sq) < first_tab:
        return f"{key} square {text!r} is in the start zone (rows 1-{first_tab - 1})"
    if sq in seen:
        return f"square {text!r} is " + (
            "listed twice" if seen[sq] == key else "both a feed square and a rock"
        )
    seen[sq] = key
    return None


def _wall_problems(lanes: int, finish: int, rocks: Iterable[str]) -> list[str]:
    """MC-1.3: every row keeps a free square, and no free square is walled in."""
    problems = []
    full = (1 << lanes) - 1
    rock = [0] * (finish + 1)
    for text in rocks:
        sq = parse_square_text(text)
        assert sq is not None  # checked by _square_problem
        rock[row_of(sq)] |= 1 << lane_of(sq)
    for r in range(1, finish):
        free = full & ~rock[r]
        if not free:
            problems.append(f"row {r} is all rocks; every row must keep a free square")
            continue
        if r + 1 >= finish:
            continue
        nxt = full & ~rock[r + 1]
        for lane in range(lanes):
            if free >> lane & 1 and not (nxt & (0b111 << lane >> 1)):
                problems.append(
                    f"square {square_text(square(r, lane))} is walled in: no free square on row "
                    f"{r + 1} one step ahead of it"
                )
    return problems


def bundled_names() -> list[str]:
    """Names of the courses shipped with Peloton."""
    return list(_bundled_names())


@cache
def _bundled_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("courses")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def _bundled_text(name: str) -> str:
    """The TOML text of a bundled course, as shipped."""
    return resources.files(__package__).joinpath("courses", f"{name}.toml").read_text("utf-8")


#: The bundled courses parsed so far, one object each per process: every game on a
#: bundled course shares it and so its move memo. A Course's fields are immutable;
#: its memos only ever gain entries that any game on it may use (moves are values).
_BUNDLED: dict[str, Course] = {}
_BUNDLED_LOCK = threading.Lock()

#: The courses made from keys lately (:meth:`Course.from_dict`), by their JSON text,
#: the least recently asked for first; at most :data:`_PARSED_KEPT` (uploaded courses
#: come and go).
_PARSED: OrderedDict[str, Course] = OrderedDict()
_PARSED_KEPT = 64
_PARSED_LOCK = threading.Lock()


def _bundled(name: str) -> Course:
    """The bundled course ``name``, read and parsed once per process."""
    course = _BUNDLED.get(name)
    if course is None:
        # Under a lock: two threads (the server checks new tables in threads) must not
        # each make one.
        with _BUNDLED_LOCK:
            course = _BUNDLED.get(name)
            if course is None:
                course = _BUNDLED[name] = Course._parse(tomllib.loads(_bundled_text(name)))
    return course
