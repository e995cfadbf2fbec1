"""Designing Pistard layouts (PI-1.1): the layout builder's check.

A layout builder holds a *draft*: the keys of a layout file (``name`` text, ``length``
an integer, ``rows`` one string per row), which need not make a valid layout yet.
:func:`layout_draft` reads one out of a file's data (or a bundled layout's name),
:func:`layout_problems` lists what the loader refuses, in its own words,
:func:`layout_advice` the design rules of the default layout that a playable layout
breaks, :func:`layout_toml` writes a draft as the TOML that :meth:`Layout.from_text`
reads back, and :func:`layout_place` says which row, square and key a message is about.

>>> from peloton.games.pistard.track import Layout
>>> default = Layout.load("default").to_dict()
>>> Layout.from_text(layout_toml(default), toml=True) == Layout.load("default")
True
>>> layout_advice(default)
[]
>>> layout_advice({**default, "rows": ["yygr"] + default["rows"][1:]})[0]
"every row holds the four colours: row 1 is 'yygr', without blue"
>>> layout_place("no lane repeats a colour three rows running: lane c is red on rows 12, 13 and 14")
{'row': 12, 'square': 'c12', 'key': 'no-triples', 'rule': None}
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ...core.errors import CourseError
from ...core.offers import Editor
from .track import (
    COLOUR_LETTERS,
    COLOUR_OF_LETTER,
    LANE_LETTERS,
    LANES,
    LAYOUT_KEYS,
    MAX_LENGTH,
    Layout,
    bundled_names,
)

#: The design rules of the default layout (its file's header, docs/pistard.md), each
#: ``(key, title)``: the builder's checklist shows each title, holds or broken.
DESIGN_RULES = (
    ("row-colours", "every row holds the four colours"),
    ("block-colours", "each lane shows the four colours in every block of 8 rows"),
    ("no-triples", "no lane repeats a colour three rows running"),
    ("doubles", "each lane has 3 or 4 places where a colour comes twice running"),
)
#: Rows in a block of the block rule (1-8, 9-16, ...).
BLOCK = 8
#: The places a lane of the default layout has where a colour comes twice running.
DOUBLES = (3, 4)
#: The longest row string a draft keeps (a row is 4 letters; a longer one is drawn
#: cut, and its problem says so).
MAX_ROW_TEXT = 16
#: The game rule every problem of a layout's keys is about: the track (PI-1.1).
TRACK_RULE = "PI-1.1"

_ROW = re.compile(r"\brows? (\d+)")
_LANE = re.compile(r"\blane ([a-d])\b")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
#: The key of the layout file a problem is about, by how it begins.
_KEYS = (
    (re.compile(r"unknown key"), "file"),
    (re.compile(r"'name'"), "name"),
    (re.compile(r"'length'|the track must have"), "length"),
    (re.compile(r"'rows'|row \d"), "rows"),
)


def layout_draft(data: Any) -> tuple[dict[str, Any] | None, list[str]]:
    """The draft a builder can open from a layout file's data (or from the name of a
    bundled layout), and what it left out (unknown keys); ``(None, reasons)`` when the
    data has values of the wrong type or more rows than a track may have, which the
    file's problems then name."""
    if isinstance(data, str) and data in bundled_names():
        return Layout.load(data).to_dict(), []
    if not isinstance(data, Mapping):
        return None, [f"a layout must be a table of keys, not {type(data).__name__}"]
    left_out = [
        f"unknown key {key!r} left out" for key in sorted(set(data) - set(LAYOUT_KEYS), key=str)
    ]
    name, rows = data.get("name", "custom"), data.get("rows")
    reasons = []
    if not isinstance(name, str):
        reasons.append("'name' is not text")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        reasons.append("'rows' is not a list of strings such as \"ygbr\"")
    elif not 1 <= len(rows) <= MAX_LENGTH:
        reasons.append(f"'rows' lists {len(rows)} rows (a track has 1 to {MAX_LENGTH})")
    elif any(len(r) > MAX_ROW_TEXT for r in rows):
        reasons.append(f"a row is over {MAX_ROW_TEXT} letters long")
    length = data.get("length", len(rows) if isinstance(rows, list) else 0)
    if isinstance(length, bool) or not isinstance(length, int):
        reasons.append("'length' is not a whole number")
    if reasons or not isinstance(rows, list):
        return None, reasons
    return {"name": name, "length": length, "rows": list(rows)}, left_out


def layout_problems(data: Any) -> list[str]:
    """Everything the layout loader refuses in a file's data, in its own words (empty:
    a valid layout); a string is a bundled layout's name."""
    if isinstance(data, str):
        if data in bundled_names():
            return []
        return [f"no bundled layout called {data[:40]!r} (bundled: {', '.join(bundled_names())})"]
    try:
        Layout.from_dict(data)
    except CourseError as exc:
        return list(exc.problems)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        return [f"the layout is malformed ({type(exc).__name__}: {str(exc)[:80]})"]
    return []


def _rows_of(data: Any) -> tuple[str, ...]:
    """The rows of a valid layout's data (or bundled name)."""
    if isinstance(data, str):
        return Layout.load(data).rows
    return Layout.from_dict(data).rows


def _lane(rows: Sequence[str], lane: int) -> str:
    return "".join(row[lane] for row in rows)


def _row_colours(rows: Sequence[str]) -> list[str]:
    out = []
    for i, row in enumerate(rows, start=1):
        missing = [COLOUR_OF_LETTER[c] for c in COLOUR_LETTERS if c not in row]
        if missing:
            out.append(f"row {i} is {row!r}, without {' or '.join(missing)}")
    return out


def _blocks(length: int) -> list[tuple[int, int]]:
    """The blocks of the block rule as (first, last) rows: 1-8, 9-16, ...; a shorter
    last block counts when it has room for the four colours."""
    blocks = [(s, min(s + BLOCK - 1, length)) for s in range(1, length + 1, BLOCK)]
    return [(a, b) for a, b in blocks if b - a + 1 >= len(COLOUR_LETTERS)]


def _block_colours(rows: Sequence[str]) -> list[str]:
    out = []
    for lane in range(LANES):
        column = _lane(rows, lane)
        for first, last in _blocks(len(rows)):
            seen = column[first - 1 : last]
            missing = [COLOUR_OF_LETTER[c] for c in COLOUR_LETTERS if c not in seen]
            if missing:
                out.append(
                    f"lane {LANE_LETTERS[lane]} shows no {' or '.join(missing)} "
                    f"in rows {first}-{last}"
                )
    return out


def _runs(column: str) -> list[int]:
    """The rows (1-based) where the colour of the next row is the same, round the loop."""
    n = len(column)
    return [i + 1 for i in range(n) if column[i] == column[(i + 1) % n]]


def _triples(rows: Sequence[str]) -> list[str]:
    out = []
    n = len(rows)
    for lane in range(LANES):
        column = _lane(rows, lane)
        for i in range(n):
            if column[i] == column[(i + 1) % n] == column[(i + 2) % n]:
                out.append(
                    f"lane {LANE_LETTERS[lane]} is {COLOUR_OF_LETTER[column[i]]} on rows "
                    f"{i + 1}, {(i + 1) % n + 1} and {(i + 2) % n + 1}"
                )
    return out


def _doubles(rows: Sequence[str]) -> list[str]:
    out = []
    n = len(rows)
    for lane in range(LANES):
        places = _runs(_lane(rows, lane))
        if not DOUBLES[0] <= len(places) <= DOUBLES[1]:
            where = ", ".join(f"rows {r}-{r % n + 1}" for r in places) or "none"
            out.append(f"lane {LANE_LETTERS[lane]} has {len(places)} ({where})")
    return out


_CHECKS = {
    "row-colours": _row_colours,
    "block-colours": _block_colours,
    "no-triples": _triples,
    "doubles": _doubles,
}


def design_checks(data: Any) -> dict[str, list[str]]:
    """``{rule key: [where it is broken]}`` for a valid layout's data, every rule of
    :data:`DESIGN_RULES` (an empty list: the rule holds)."""
    rows = _rows_of(data)
    return {key: _CHECKS[key](rows) for key, _ in DESIGN_RULES}


def layout_advice(data: Any) -> list[str]:
    """The design rules of the default layout that a valid layout breaks, one message
    per place, each beginning with the rule's title (empty for an invalid layout)."""
    if layout_problems(data):
        return []
    titles = dict(DESIGN_RULES)
    return [
        f"{titles[key]}: {where}" for key, found in design_checks(data).items() for where in found
    ]


def layout_summary(data: Any) -> list[str]:
    """A valid layout's facts (``peloton course show --game pistard``): its name and
    length, and which design rules hold."""
    if layout_problems(data):
        return []
    rows = _rows_of(data)
    name = data if isinstance(data, str) else data.get("name", "custom")
    lines = [f"{name}: {len(rows)} rows of {LANES} lanes ({TRACK_RULE})"]
    checks = design_checks(data)
    for key, title in DESIGN_RULES:
        broken = checks[key]
        lines.append(f"{title}: {'yes' if not broken else f'no ({len(broken)} place(s))'}")
    return lines


def layout_place(message: str) -> dict[str, Any]:
    """Where a problem or an advice lies: the ``row`` it names first, the ``square``
    (a lane's rule: the lane at that row, e.g. ``c12``), the ``key`` (a layout key,
    ``file`` for data that is not a layout, or a design rule's key) and the game
    ``rule`` a problem breaks (``PI-1.1``; ``None`` for advice and unreadable files)."""
    for key, title in DESIGN_RULES:
        if message.startswith(f"{title}: "):
            words = message[len(title) + 2 :]
            row = _ROW.search(_QUOTED.sub("''", words))
            lane = _LANE.search(words)
            found = int(row.group(1)) if row else None
            square = f"{lane.group(1)}{found}" if lane and found is not None else None
            return {"row": found, "square": square, "key": key, "rule": None}
    about = next((name for pattern, name in _KEYS if pattern.match(message)), None)
    if about is None:
        # Not a layout file at all (TOML or JSON that does not read, an unknown name).
        return {"row": None, "square": None, "key": "file", "rule": None}
    row = _ROW.match(message) if about == "rows" else None
    return {
        "row": int(row.group(1)) if row else None,
        "square": None,
        "key": about,
        "rule": TRACK_RULE,
    }


def layout_toml(draft: Mapping[str, Any]) -> str:
    """The TOML layout file of a draft (or of :meth:`Layout.to_dict`): ``name``,
    ``length`` and ``rows`` written as the default layout's file writes them, 8 rows a
    line. Strings are JSON-escaped, which TOML basic strings read back."""
    lines = []
    if "name" in draft:
        lines.append(f"name = {_string(draft['name'])}")
    if "length" in draft:
        lines.append(f"length = {int(draft['length'])}")
    rows = list(draft.get("rows", []))
    lines.append("rows = [")
    for start in range(0, len(rows), BLOCK):
        chunk = rows[start : start + BLOCK]
        first, last = start + 1, start + len(chunk)
        where = f"row {first}" if first == last else f"rows {first}-{last}"
        lines.append(f"    {', '.join(_string(r) for r in chunk)},  # {where}")
    lines.append("]")
    return "\n".join(lines) + "\n"


def _string(value: Any) -> str:
    # JSON escapes the control characters TOML refuses, all but DEL.
    return json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f")


#: The layout builder the server offers (``GameInfo.editor``).
EDITOR = Editor(
    draft=layout_draft,
    problems=layout_problems,
    place=layout_place,
    text=layout_toml,
    page="pistard_editor.html",
    summary=layout_summary,
    advice=layout_advice,
)
