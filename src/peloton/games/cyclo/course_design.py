"""The Cyclo course builder's check (CY-1.4 to CY-1.7, CY-2.4): a course laid from the
bundled boards A1 … F2, each problem of the loader with its rule id and the position
of the board it is about, the course's facts, and the course written back as a file.

A builder holds a *draft*: ``name`` (text), ``boards`` (bundled board names, in
course order) and, for a time trial, ``start``; it need not make a valid course yet.
:func:`course_problems` lists the loader's problems word for word, each followed by
``(CY-1.7; position 3)`` so that a page can point at the board; :func:`problem_place`
reads that back. The box holds one of each board side, so a board may appear once
(CY-1.7, the loader's own rule).

>>> course_problems({"name": "x", "boards": ["C1", "A1", "E1"]})
["course 'x': board 'A1' has start spaces but is not first (CY-1.7; position 2)"]
>>> problem_place(course_problems({"name": "x", "boards": ["C1", "A1", "E1"]})[0])
{'row': 2, 'square': None, 'key': 'boards'}
>>> course_summary({"name": "i4", "boards": ["A1", "C2", "B2", "E1"]})[4]
'tokens: 4 own tokens a rider, 4 team tokens a team (1 per board, at most 5: CY-2.4)'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ...core.errors import CourseError
from ...core.offers import Editor
from .course import MAX_BOARDS, ROAD_KEYS, Course
from .modes import MODES
from .setup import course_mode_problems

#: A draft holds at most this many boards: twice what a course may have, so that a
#: course with too many boards still opens (and its problem is shown), while a file
#: listing thousands is refused before anything is drawn.
MAX_DRAFT_BOARDS = 2 * MAX_BOARDS

#: The rule each kind of loader problem breaks, by a pattern of its words.
_RULES = (
    (re.compile(r"unknown board ['\"]"), "CY-1.7", "boards"),  # whatever the name quotes
    (re.compile(r"'name' must be"), "CY-1.4", "name"),
    (re.compile(r"'start'"), "CY-1.4", "start"),
    (re.compile(r"'boards' must be"), "CY-1.4", "boards"),
    (re.compile(r"unknown key"), "CY-1.7", "file"),
    (re.compile(r"boards?, not 1-"), "CY-1.7", "boards"),
)
#: A board named in a problem, as Python writes its name (in either quotes).
_BOARD = re.compile(r"""\bboard ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")
#: The rule and positions :func:`course_problems` ends a problem with.
_SUFFIX = re.compile(r" \((CY-[0-9.]+)(?:; positions? (\d+)(?:, \d+)*)?\)$")
#: A problem's label, ``course`` and the course's name as Python writes it (in either
#: quotes): what a designer typed is never read as words of the problem.
_LABEL = re.compile(r"""^course ('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


def _rule_of(problem: str) -> tuple[str, str]:
    """The rule id and the draft key a loader problem is about (a board's own
    problems, the board list's and every other: CY-1.7)."""
    for pattern, rule, key in _RULES:
        if pattern.search(problem):
            return rule, key
    return "CY-1.7", "boards"


def course_problems(data: Any) -> list[str]:
    """Every problem of a course file's data in the words of the loader (empty: a
    valid course), each with its rule id and, for a problem naming a board, the
    positions (1 = the first board) where that board lies in the course."""
    try:
        Course.from_dict(data)
    except CourseError as exc:
        problems = list(exc.problems)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A value of a type the loader did not expect (a board list of numbers).
        problems = [f"the course is malformed ({type(exc).__name__}: {str(exc)[:80]})"]
    else:
        return []
    names = _board_names(data)
    name = data.get("name") if isinstance(data, Mapping) else None
    label = f"course {name!r}"
    out = []
    for problem in problems:
        # The designer's name is never read as words of the problem.
        words = problem[len(label) :] if problem.startswith(label) else problem
        rule, _ = _rule_of(words)
        named = _BOARD.search(words)
        # Every copy of a board the problem names (a repeated board, A1 not first).
        where = [i + 1 for i, n in enumerate(names) if named and repr(n) == named.group(1)]
        if "has no finish line" in words and names:
            where = [len(names)]
        elif "but is not first" in words:
            where = [k for k in where if k > 1]
        elif "but is not last" in words:
            where = [k for k in where if k < len(names)]
        if where:
            spots = ", ".join(map(str, where))
            placed = f"{problem} ({rule}; position{'s' if len(where) > 1 else ''} {spots})"
        else:
            placed = f"{problem} ({rule})"
        if placed not in out:  # the loader names a board once per copy of it
            out.append(placed)
    return out


def _board_names(data: Any) -> list[str | None]:
    """The board names a course's data lists (``None`` for an inline board)."""
    boards = data.get("boards") if isinstance(data, Mapping) else None
    if not isinstance(boards, list):
        return []
    return [
        b if isinstance(b, str) else (b.get("name") if isinstance(b, Mapping) else None)
        for b in boards[: 4 * MAX_DRAFT_BOARDS]
    ]


def problem_place(problem: str) -> dict[str, Any]:
    """Where a problem of :func:`course_problems` (or an advice) lies: ``row`` the
    position of the first board it names (1 = the first board; ``None``: the course
    as a whole), ``square`` always ``None`` (a builder places boards, not squares)
    and ``key`` the draft key it is about (``name``, ``boards``, ``start`` or
    ``file`` for a file that is not a course at all)."""
    found = _SUFFIX.search(problem)
    if found is None:
        return {"row": None, "square": None, "key": "file"}
    _, key = _rule_of(_LABEL.sub("course", problem[: found.start()]))
    row = found.group(2)
    return {"row": int(row) if row else None, "square": None, "key": key}


def editable_draft(data: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """The draft a builder can open from a course file's data and what it left out
    (unknown keys); ``(None, reasons)`` when the builder cannot lay it: not a table of
    keys, the velodrome (CY-1.6), boards that are not a list of bundled board names
    (a board written inline), or more than :data:`MAX_DRAFT_BOARDS` boards."""
    if not isinstance(data, Mapping):
        return None, [f"a course must be a table of keys, not {type(data).__name__}"]
    if "lap" in data or "width" in data:
        return None, ["the velodrome (CY-1.6) is not laid from boards"]
    reasons = []
    name = data.get("name", "custom")
    if not isinstance(name, str):
        reasons.append("'name' is not text")
    boards = data.get("boards", [])
    if not isinstance(boards, list) or not all(isinstance(b, str) for b in boards):
        reasons.append("'boards' is not a list of board names (the builder lays bundled boards)")
    elif len(boards) > MAX_DRAFT_BOARDS:
        reasons.append(f"'boards' lists {len(boards)} boards")
    elif any(len(b) > 16 for b in boards):
        reasons.append("'boards' holds a name longer than a board's (16 characters)")
    start = data.get("start", 1)
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start <= 60:
        reasons.append("'start' is not a space number from 1 to 60")
    if reasons:
        return None, reasons
    draft: dict[str, Any] = {"name": name, "boards": list(boards)}
    if "start" in data and start != 1:
        draft["start"] = start
    left_out = [f"unknown key {k!r} left out" for k in sorted(set(data) - set(ROAD_KEYS), key=str)]
    return draft, left_out


def course_toml(draft: Mapping[str, Any]) -> str:
    """The TOML course file of a draft: ``name``, ``boards`` and ``start`` (when
    set), which :meth:`Course.from_text` reads back. Strings are written as JSON
    strings, whose escapes TOML's basic strings share."""
    lines = [f"name = {_string(draft.get('name', ''))}"]
    boards = draft.get("boards", [])
    lines.append("boards = [" + ", ".join(_string(b) for b in boards) + "]")
    if "start" in draft:
        lines.append(f"start = {int(draft['start'])}")
    return "\n".join(lines) + "\n"


def _string(value: Any) -> str:
    # JSON escapes the control characters TOML refuses, all but DEL.
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


def suited_modes(course: Course) -> list[str]:
    """The modes that race on ``course`` (CY-1.7: a road course races in the road
    modes; one that sets ``start`` in the time trials only)."""
    return [name for name, mode in MODES.items() if not course_mode_problems(course, mode)]


def tokens_given(course: Course) -> int:
    """The own tokens each rider and the team tokens each team start with in Pro:
    one per board, at most five (CY-2.4)."""
    return min(5, len(course.boards))


def course_summary(data: Any) -> list[str]:
    """A valid road course's facts in a few lines (``peloton course show --game
    cyclo``): length, boards, terrain, lines, event spaces, tokens and the modes it
    suits; empty for data that is not a valid road course."""
    try:
        course = Course.from_dict(data)
    except (CourseError, TypeError, ValueError, AttributeError):
        return []
    if course.is_track:
        return []
    n = course.length
    runs: dict[str, int] = {}
    for k in range(1, n + 1):
        runs[course.kinds[k]] = runs.get(course.kinds[k], 0) + 1
    lines = [
        f"{line.kind}{' cat. ' + line.category if line.category else ''} after {line.after} "
        f"({line.board})"
        for line in course.lines
    ]
    events = [k for k in range(1, n + 1) if course.events[k]]
    darks = sum(1 for k in range(1, n + 1) if course.darks[k])
    tokens = tokens_given(course)
    start = f" from space {course.start} of {course.boards[0].name}" if course.start != 1 else ""
    modes = suited_modes(course)
    return [
        f"length: {n} spaces{start}, the finish line after {n}, then a run-out of 9 (CY-1.4)",
        f"boards: {len(course.boards)}: {' '.join(b.name for b in course.boards)}",
        "terrain: " + ", ".join(f"{kind} {count}" for kind, count in runs.items()),
        "lines: " + ", ".join([*lines, f"finish after {n}"]),
        f"tokens: {tokens} own token{'s' * (tokens > 1)} a rider, {tokens} team "
        f"token{'s' * (tokens > 1)} a team "
        "(1 per board, at most 5: CY-2.4)",
        f"event spaces: {len(events)} ({', '.join(map(str, events)) or 'none'}); "
        f"dark squares: {darks}",
        f"modes: {', '.join(modes)} (CY-1.7)",
    ]


def course_advice(data: Any) -> list[str]:
    """What a playable course does that the printed courses never do: open without
    board A1, the start (every printed course opens with it, CY-1.5; only a time trial
    may start elsewhere, CY-1.4)."""
    try:
        course = Course.from_dict(data)
    except (CourseError, TypeError, ValueError, AttributeError):
        return []
    if course.is_track or not course.boards or course.boards[0].name == "A1":
        return []
    first = course.boards[0].name
    return [
        f"course {course.name!r} opens with board {first!r}, not A1, the start: every "
        "printed course opens with A1; only a time trial starts elsewhere (CY-1.5; position 1)"
    ]


#: The course builder the server offers (``GameInfo.editor``): ``/editor?game=cyclo``.
EDITOR = Editor(
    draft=editable_draft,
    problems=course_problems,
    place=problem_place,
    text=course_toml,
    page="cyclo_editor.html",
    summary=course_summary,
    advice=course_advice,
)

__all__ = [
    "EDITOR",
    "MAX_DRAFT_BOARDS",
    "course_advice",
    "course_problems",
    "course_summary",
    "course_toml",
    "editable_draft",
    "problem_place",
    "suited_modes",
    "tokens_given",
]
