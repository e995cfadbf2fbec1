"""Players, teams and riders (PI-1.2).

Players are teams ``A`` to ``D`` in seat order; each has riders ``A1`` to ``A4``.
Rider ``n``'s base colour is ``COLOURS[n - 1]``: 1 yellow, 2 green, 3 blue, 4 red.
"""

from __future__ import annotations

import re

from ...core.errors import ConfigError
from .track import COLOURS

TEAM_LETTERS = "ABCD"
RIDERS_PER_TEAM = 4
MIN_PLAYERS = 2
MAX_PLAYERS = 4
RIDER_RE = re.compile(r"[A-D][1-4]")


def team_riders(team: str) -> tuple[str, ...]:
    """The ids of a team's riders, ``A1`` .. ``A4``."""
    return tuple(f"{team}{n}" for n in range(1, RIDERS_PER_TEAM + 1))


def base_colour(rider: str) -> int:
    """Index in :data:`COLOURS` of a rider's base colour (its number minus one)."""
    return int(rider[1]) - 1


def base_colour_name(rider: str) -> str:
    """A rider's base colour, e.g. ``"blue"`` for ``A3``."""
    return COLOURS[base_colour(rider)]


def teams_for(players: object) -> tuple[str, ...]:
    """The team letters of a game of ``players`` players; :class:`ConfigError` unless
    it is a whole number from 2 to 4."""
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or not MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise ConfigError(
            f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}"
        )
    return tuple(TEAM_LETTERS[:players])
