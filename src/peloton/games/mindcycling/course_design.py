"""Tools for designing courses (MC-1.5): a course written back as a course file, and
where on the road each validation problem lies.

A course editor holds a *draft*: the MC-1.5 keys with values of the right types
(``name`` text, ``lanes`` and ``finish`` integers, ``sections`` ``[row, type]``
pairs, ``feed`` and ``rocks`` square names), which need not make a valid course yet.
:func:`editable_draft` reads one out of a course file's data, :func:`course_toml`
writes one as the TOML that :meth:`Course.from_text` reads back, and
:func:`problem_place` says which row, square or key a problem of
:class:`~peloton.CourseError` is about, so that an editor can point at it.

>>> from peloton.games.mindcycling import Course
>>> text = course_toml(Course.load("short").to_dict())
>>> Course.from_text(text, toml=True) == Course.load("short")
True
>>> problem_place("square c12 is walled in: no free square on row 13 one step ahead of it")
{'row': 12, 'square': 'c12', 'key': 'road'}
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from typing import Any

from ...core.errors import CourseError
from ...core.offers import Editor
from .course import COURSE_KEYS, MAX_FINISH, MAX_LANES, Course, parse_square_text

#: The draft of a blank road: the keys every draft has, with these defaults.
DRAFT_DEFAULTS: dict[str, Any] = {
    "name": "custom",
    "lanes": 5,
    "sections": [],
    "feed": [],
    "rocks": [],
}

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_SQUARE_NAME = re.compile(r"'[a-z][1-9][0-9]*'")
_SQUARE = re.compile(r"\bsquare '?([a-z][1-9][0-9]*)(?:'|\b)")
_ROW = re.compile(r"\brow (\d+)")
#: The key of the course file each kind of problem is about, by how it begins
#: (``road``: a square or row of the road itself, such as a wall of rocks).
_KEYS = (
    (re.compile(r"unknown key"), "file"),
    (re.compile(r"'name'"), "name"),
    (re.compile(r"'lanes'|lanes "), "lanes"),
    (re.compile(r"'finish'|finish "), "finish"),
    (
        re.compile(
            r"'sections'|section|there are \d+ (section|sprint|mountain)|the first tab|tab "
        ),
        "sections",
    ),
    (re.compile(r"there must be at least one section"), "sections"),
    (re.compile(r"'?feed"), "feed"),
    (re.compile(r"'?rocks"), "rocks"),
    (re.compile(r"row |square "), "road"),
)


def problem_place(problem: str) -> dict[str, Any]:
    """Where a course problem (one of :attr:`CourseError.problems`) lies: the
    ``row`` and ``square`` it names first (``None`` when it names none) and the
    ``key`` of the course file it is about: a key of MC-1.5, ``road`` for a square or
    row of the road (a wall of rocks, a square listed twice), ``file`` for a file
    that is not a course at all.

    A tab's problem points at the tab's row (for tabs out of order, the later tab in
    the list); a square's problem at the square; a wall of rocks at its row.
    """
    key = next((name for pattern, name in _KEYS if pattern.match(problem)), "file")
    if key in ("name", "lanes", "file"):
        return {"row": None, "square": None, "key": key}  # nothing on the road
    words = _own_words(problem)
    square = _SQUARE.search(words)
    row = _ROW.search(words)
    found_row = int(row.group(1)) if row else None
    found_square = square.group(1) if square else None
    if found_square is not None:
        code = parse_square_text(found_square)
        assert code is not None  # the pattern matched a square name
        found_row = code >> 5
    return {"row": found_row, "square": found_square, "key": key}


def _own_words(problem: str) -> str:
    """A problem without what it quotes from the file (a section type, a list), but
    for the square names it quotes: the designer's text is never read as a place."""

    def keep(quoted: re.Match[str]) -> str:
        text = quoted.group(0)
        named = problem[: quoted.start()].endswith("square ")
        return text if named and _SQUARE_NAME.fullmatch(text) else "''"

    return _QUOTED.sub(keep, problem)


def editable_draft(data: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """The draft an editor can open from a course file's data, and what it had to
    leave out (unknown keys); ``(None, reasons)`` when the data has values of the
    wrong type or a road too large to draw (lanes 1 to :data:`MAX_LANES`, finish 2 to
    :data:`MAX_FINISH`): the file's problems then say what to fix."""
    if not isinstance(data, Mapping):
        return None, [f"a course must be a table of keys, not {type(data).__name__}"]
    given = {**copy.deepcopy(DRAFT_DEFAULTS), **{k: data[k] for k in COURSE_KEYS if k in data}}
    draft = {k: given[k] for k in COURSE_KEYS if k in given}
    left_out = [
        f"unknown key {key!r} left out" for key in sorted(set(data) - set(COURSE_KEYS), key=str)
    ]
    reasons = []
    if not isinstance(draft["name"], str):
        reasons.append("'name' is not text")
    for key, low, high in (("lanes", 1, MAX_LANES), ("finish", 2, MAX_FINISH)):
        value = draft.get(key)
        if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
            reasons.append(f"{key!r} is not a whole number from {low} to {high}")
    sections = draft["sections"]
    if not isinstance(sections, list) or not all(
        isinstance(t, list) and len(t) == 2 and _is_int(t[0]) and isinstance(t[1], str)
        for t in sections
    ):
        reasons.append("'sections' is not a list of [row, type] tabs")
    elif len(sections) > 2 * MAX_FINISH:
        reasons.append(f"'sections' lists {len(sections)} tabs")
    for key in ("feed", "rocks"):
        squares = draft[key]
        if not isinstance(squares, list) or not all(isinstance(s, str) for s in squares):
            reasons.append(f"{key!r} is not a list of square names")
        elif len(squares) > 2 * MAX_FINISH:
            reasons.append(f"{key!r} lists {len(squares)} squares")
    if reasons:
        return None, reasons
    return draft, left_out


def course_problems(data: Any) -> list[str]:
    """Every problem of a course file's data, in the words of ``peloton course check``
    (empty: a valid course)."""
    try:
        Course.from_dict(data)
    except CourseError as exc:
        return list(exc.problems)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A value of a type the loader did not expect (as the server's course check
        # answers it).
        return [f"the course is malformed ({type(exc).__name__}: {str(exc)[:80]})"]
    return []


def course_toml(draft: Mapping[str, Any]) -> str:
    """The TOML course file of a draft (or of :meth:`Course.to_dict`), keys in the
    order of MC-1.5. Strings are written as TOML basic strings, which JSON's escapes
    are a subset of (a control character the course would refuse is escaped, so the
    file still reads back and its problem is reported, not a syntax error)."""
    lines = []
    for key in COURSE_KEYS:
        if key in draft:
            lines.append(f"{key} = {_value(draft[key])}")
    return "\n".join(lines) + "\n"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # JSON escapes the control characters TOML refuses, all but DEL.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"a course file holds no {type(value).__name__} value ({value!r})")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: The course editor the server offers (``GameInfo.editor``).
EDITOR = Editor(
    draft=editable_draft, problems=course_problems, place=problem_place, text=course_toml
)
