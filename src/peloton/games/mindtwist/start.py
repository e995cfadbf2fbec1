"""How a Mind Twist game starts: the options (docs/games.md), a new game, or a game
from MT-4.3 position text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from ...core.errors import ConfigError, NotationError
from ...core.registry import Option
from .board import (
    DEFAULT_LENGTH,
    DEFAULT_MILESTONES,
    MAX_LENGTH,
    MAX_MILESTONES,
    Board,
    default_milestones,
)
from .notation import PLAYERS, RED, parse_position
from .state import State

#: ``{name: Option(default, help)}`` for every option :func:`from_options` accepts.
OPTIONS: dict[str, Option] = {
    "players": Option(2, "always 2: red (player 1) and blue"),
    "length": Option(DEFAULT_LENGTH, f"the finish space, 2 to {MAX_LENGTH} (MT-1.1)"),
    "milestones": Option(
        list(DEFAULT_MILESTONES),
        f"milestone spaces (at most {MAX_MILESTONES}), strictly increasing, each from 1 to length - 1; may be empty "
        "(MT-1.2); when only length is given, at 8/30, 16/30 and 24/30 of it",
    ),
    "first": Option(
        RED, "who is active first: R (red) or B (blue); the printed rules say the youngest player (MT-2.1)", PLAYERS
    ),
}


def first_from_options(options: Mapping[str, Any] | None) -> str:
    """The player active first (option ``first``, red by default); :class:`ConfigError`
    for anything but ``R`` or ``B``."""
    first = (options or {}).get("first", RED)
    if not isinstance(first, str) or first not in PLAYERS:
        raise ConfigError(f"option 'first' must be R (red) or B (blue), not {first!r}")
    return first


def board_from_options(options: Mapping[str, Any] | None) -> Board:
    """The :class:`Board` the options describe; :class:`ConfigError` naming the first
    bad or unknown option."""
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ConfigError(
            f"unknown Mind Twist option(s) {', '.join(map(repr, unknown))} (options: {', '.join(OPTIONS)})"
        )
    players = options.get("players", 2)
    if isinstance(players, bool) or players != 2:
        raise ConfigError(f"option 'players': Mind Twist is always played by 2, not {players!r}")
    length = options.get("length", DEFAULT_LENGTH)
    if "milestones" in options:
        milestones = options["milestones"]
    elif isinstance(length, int) and not isinstance(length, bool):
        milestones = default_milestones(length)
    else:
        milestones = DEFAULT_MILESTONES  # the length itself is refused below
    if type(length) is int and isinstance(milestones, list | tuple) and all(type(m) is int for m in milestones):
        return _board(length, tuple(milestones))
    return Board.from_options(length, milestones)  # refuses them, saying why


@lru_cache(maxsize=64)
def _board(length: int, milestones: tuple[int, ...]) -> Board:
    """One :class:`Board` per board option values: a board is an immutable value, and
    building one validates its options, which every new game from options would pay
    again (about 2% of a random game's instructions, measured with callgrind)."""
    return Board(length, milestones)


def new_game(
    length: int = DEFAULT_LENGTH, milestones: Sequence[int] = DEFAULT_MILESTONES, first: str = RED
) -> State:
    """A new game: both tokens on the start, ``first`` active (red by default, MT-2.1).
    :class:`ConfigError` for impossible options (MT-1)."""
    board = Board(length, tuple(milestones))
    return State(board, 0, 0, first_from_options({"first": first}))


def from_options(options: Mapping[str, Any] | None = None) -> State:
    """A new game from JSON options (see :data:`OPTIONS`); missing ones take their
    defaults."""
    board = board_from_options(options)
    return State(board, 0, 0, first_from_options(options))


def from_position(text: str, **options: Any) -> State:
    """A game from MT-4.3 position text, in its dial phase, on the board made from
    ``options`` (``length``, ``milestones``). The text says who is active; ``first``,
    if given, must agree with it."""
    board = board_from_options(options)
    red, blue, active = parse_position(text)
    if "first" in options and first_from_options(options) != active:
        raise ConfigError(
            f"option 'first' is {options['first']!r} but position {text!r} gives the dial to {active}"
        )
    for who, space in (("red", red), ("blue", blue)):
        if space >= board.length:
            raise NotationError(
                f"position {text!r}: {who} on space {space} is past the path (0 to {board.length - 1})"
            )
    if red == blue and not board.is_protected(red):
        # MT-3.1: landing there would have sideswiped the other token.
        raise NotationError(
            f"position {text!r}: both tokens on space {red}, which is neither a milestone nor the start"
        )
    return State(board, red, blue, active)
