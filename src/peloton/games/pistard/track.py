"""The track (PI-1.1): a loop of ``length`` rows and 4 lanes, a colour per square.

A square is coded as the integer ``(row - 1) * 4 + lane`` (rows 1 .. length, lane 0
is ``a``, the inner lane), so that the engine's board is one flat list. A rider's
*distance* (PI-1.3) counts rows from the start line without wrapping; the square it
stands on is :meth:`Layout.square_at` of that distance and its lane.

Layouts are TOML or JSON files (or dicts) with ``name``, ``length`` and ``rows``, one
string of four colour letters per row (``y`` yellow, ``g`` green, ``b`` blue, ``r``
red), row 1 first. Every constructor validates and raises :class:`LayoutError` (a
:class:`CourseError`) listing every problem found.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ...core.errors import CourseError

LANES = 4
LANE_LETTERS = "abcd"
#: The four colours, in the order of the riders' numbers (PI-1.2): rider 1 is yellow.
COLOURS = ("yellow", "green", "blue", "red")
COLOUR_LETTERS = "ygbr"
COLOUR_OF_LETTER = dict(zip(COLOUR_LETTERS, COLOURS, strict=True))
DEFAULT_LENGTH = 40
#: At least 17 rows keep 16 riders from walling the whole loop (every game can go on,
#: docs/pistard.md) and a move (6 + 3 bonus squares) from crossing the line twice.
MIN_LENGTH = 20
#: Three times the default loop: room for house tracks, while a game at the largest
#: options (4 players, 120 rows, target 36) stays within about 8,000 moves (measured
#: with random bots; issue 11: a table must not be able to ask for an endless race).
MAX_LENGTH = 120
LAYOUT_KEYS = ("name", "length", "rows")

_SQUARE_RE = re.compile(r"([a-d])([1-9][0-9]*)")


class LayoutError(CourseError):
    """An invalid track layout: a :class:`CourseError` whose message says "layout";
    ``problems`` lists every problem found, one sentence each."""

    def __init__(self, problems: Sequence[str] | str, name: str | None = None) -> None:
        super().__init__(problems, name)
        where = f"layout {name!r}" if name else "layout"
        self.args = (f"invalid {where}: " + "; ".join(self.problems),)


def square_name(sq: int) -> str:
    """The PI-5.1 name of a square code, e.g. ``c17``."""
    return f"{LANE_LETTERS[sq & 3]}{(sq >> 2) + 1}"


def parse_square_name(text: str) -> int | None:
    """The code of ``c17``-style text (any row), or ``None`` if it is not a square name."""
    m = _SQUARE_RE.fullmatch(text)
    if m is None:
        return None
    return (int(m.group(2)) - 1) * LANES + LANE_LETTERS.index(m.group(1))


@dataclass(frozen=True)
class Layout:
    """A validated track: ``rows[r - 1][lane]`` is the colour letter of a square.

    Build one with :meth:`load` (bundled name or file), :meth:`from_file`,
    :meth:`from_dict` or :meth:`sized` (the default colours over another length).
    """

    name: str
    rows: tuple[str, ...]
    #: ``colour[sq]``: index in :data:`COLOURS` of square code ``sq`` (engine tables).
    colour: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: ``names[sq]``: the square's name.
    names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    codes: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problems = _problems(len(self.rows), list(self.rows))
        if problems:
            raise LayoutError(problems, self.name)
        colour = tuple(COLOUR_LETTERS.index(c) for row in self.rows for c in row)
        names = tuple(square_name(sq) for sq in range(len(colour)))
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "names", names)
        object.__setattr__(self, "codes", {n: i for i, n in enumerate(names)})

    @property
    def length(self) -> int:
        """Rows in the loop (PI-1.1)."""
        return len(self.rows)

    # ---------------------------------------------------------------- building

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Layout:
        """A layout from its keys; ``length`` is optional but must match ``rows``."""
        if not isinstance(data, Mapping):
            raise LayoutError(f"a layout must be a table of keys, not {type(data).__name__}")
        problems: list[str] = []
        unknown = sorted(str(k) for k in set(data) - set(LAYOUT_KEYS))
        if unknown:
            problems.append(
                f"unknown key(s) {', '.join(map(repr, unknown))} (allowed: {', '.join(LAYOUT_KEYS)})"
            )
        name = data.get("name", "custom")
        if not isinstance(name, str) or not name:
            problems.append(f"'name' must be a non-empty string, not {name!r}")
            name = "custom"
        rows = data.get("rows")
        if rows is None:
            problems.append("'rows' is missing (one string of 4 colour letters per row)")
            rows = []
        elif not isinstance(rows, list | tuple):
            problems.append(f"'rows' must be a list of strings such as \"ygbr\", not {rows!r}")
            rows = []
        length = data.get("length", len(rows))
        if isinstance(length, bool) or not isinstance(length, int):
            problems.append(f"'length' must be an integer, not {length!r}")
        elif rows and length != len(rows):
            problems.append(f"'length' is {length} but 'rows' lists {len(rows)} rows")
        problems += _problems(
            len(rows) if rows else (length if isinstance(length, int) else 0), list(rows)
        )
        if problems:
            raise LayoutError(problems, name)
        return cls(name, tuple(rows))

    @classmethod
    def from_text(cls, text: str, *, toml: bool, source: str = "layout") -> Layout:
        """A layout from TOML or JSON text."""
        try:
            data = tomllib.loads(text) if toml else json.loads(text)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
            raise LayoutError(
                f"{source!r} is not valid {'TOML' if toml else 'JSON'}: {exc}"
            ) from None
        return cls.from_dict(data)

    @classmethod
    def from_file(cls, path: str | Path) -> Layout:
        """A layout from a TOML (``.toml``) or JSON (any other suffix) file."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise LayoutError(f"cannot read {str(path)!r}: {exc}") from None
        return cls.from_text(text, toml=path.suffix.lower() == ".toml", source=str(path))

    @classmethod
    def load(cls, name: str) -> Layout:
        """A bundled layout by name (``default``: read once per process, one shared
        object) or a ``.toml``/``.json`` file path (read at each call)."""
        if name in _bundled_names():
            return (
                _bundled(name)
                if cls is Layout
                else cls.from_text(_bundled_text(name), toml=True, source=name)
            )
        if Path(name).suffix.lower() in (".toml", ".json") and Path(name).exists():
            return cls.from_file(name)
        raise LayoutError(
            f"no bundled layout called {name!r} (bundled: {', '.join(bundled_names())}) "
            "and no such .toml/.json file"
        )

    def sized(self, length: int) -> Layout:
        """This layout's colours repeated (or cut) to ``length`` rows (the ``length``
        option without a layout of its own)."""
        if length == self.length:
            return self
        rows = tuple(self.rows[i % self.length] for i in range(length))
        return Layout(f"{self.name}-{length}", rows)

    def to_dict(self) -> dict[str, Any]:
        """The keys of this layout (what a record embeds)."""
        return {"name": self.name, "length": self.length, "rows": list(self.rows)}

    # ---------------------------------------------------------------- queries

    def square_at(self, distance: int, lane: int) -> int:
        """The square code a rider at ``distance`` (>= 1) in ``lane`` stands on."""
        return ((distance - 1) % len(self.rows)) * LANES + lane

    def colour_name(self, sq: int) -> str:
        """The colour of a square code, e.g. ``"blue"``."""
        return COLOURS[self.colour[sq]]

    def parse_square(self, text: str) -> int | None:
        """The code of a square name on this track, else ``None``."""
        return self.codes.get(text)


def _problems(length: int, rows: list[Any]) -> list[str]:
    """Every problem of a layout's rows, one sentence each (empty if valid)."""
    problems = []
    if not MIN_LENGTH <= length <= MAX_LENGTH:
        problems.append(f"the track must have {MIN_LENGTH} to {MAX_LENGTH} rows, not {length}")
    for i, row in enumerate(rows, start=1):
        if (
            not isinstance(row, str)
            or len(row) != LANES
            or any(c not in COLOUR_LETTERS for c in row)
        ):
            problems.append(
                f"row {i} is {row!r}: it must be {LANES} colour letters for lanes a-d, "
                f'each one of {COLOUR_LETTERS} (yellow, green, blue, red), e.g. "ygbr"'
            )
    return problems


def bundled_names() -> list[str]:
    """Names of the layouts shipped with Peloton."""
    return list(_bundled_names())


@cache
def _bundled_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("layouts")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def _bundled_text(name: str) -> str:
    return resources.files(__package__).joinpath("layouts", f"{name}.toml").read_text("utf-8")


@cache
def _bundled(name: str) -> Layout:
    """The bundled layout ``name``, read and checked once per process (a Layout is
    immutable: every game on it shares it)."""
    return Layout.from_text(_bundled_text(name), toml=True, source=name)


@lru_cache(maxsize=64)
def _bundled_sized(name: str, length: int) -> Layout:
    """The bundled layout ``name`` over ``length`` rows, made once per process."""
    return _bundled(name).sized(length)


def resolve_layout(layout: Layout | str | Mapping[str, Any], length: int | None = None) -> Layout:
    """A layout from a :class:`Layout`, a bundled name or file path, or inline keys;
    with ``length``, a bundled layout is resized and any other must already match."""
    if isinstance(layout, Layout):
        chosen = layout
    elif isinstance(layout, str):
        chosen = Layout.load(layout)
    elif isinstance(layout, Mapping):
        chosen = Layout.from_dict(layout)
    else:
        raise LayoutError(f"a layout is a name, a file path or a table of keys, not {layout!r}")
    if length is None or length == chosen.length:
        return chosen
    if isinstance(layout, str) and layout in _bundled_names():
        if not MIN_LENGTH <= length <= MAX_LENGTH:
            raise LayoutError(f"length must be {MIN_LENGTH} to {MAX_LENGTH} rows, not {length}")
        return _bundled_sized(layout, length)
    raise LayoutError(
        f"the layout has {chosen.length} rows but the length asked for is {length}", chosen.name
    )
