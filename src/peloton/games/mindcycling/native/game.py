"""A game's native bridge, :class:`NativeGame`, and the cache that shares one between
every race of the same facts."""

from __future__ import annotations

from .... import native
from ..course import Course
from ..position import Race
from .moves import GameMoves
from .playouts import GamePlayouts
from .reading import GameReading

__all__ = ["GameKey", "NativeGame", "available", "forget_games", "game_for", "game_key"]


def available() -> bool:
    """Whether the native engine is active in this process."""
    return native.lib() is not None


class NativeGame(GameMoves, GameReading, GamePlayouts):
    """The C tables of one game's facts: its course, teams, wind, relay limit and
    whether it is solo; shared by every position of the game (see :func:`game_for`).
    Its jobs sit in one module each: :mod:`.facts` (the tables, the threads' buffers,
    races), :mod:`.moves`, :mod:`.reading` (a C race back in Python) and
    :mod:`.playouts` (scores and playouts)."""


#: Everything that makes two races games of the same facts (and so able to share a
#: :class:`NativeGame`): the course (by value), every rider id (the teams, their
#: compositions and seat order follow from them: MC-2.2), the wind's shelter side
#: (MC-5.5), the relay limit (MC-6.5) and the solo version (MC-9).
GameKey = tuple[Course, tuple[str, ...], int, int, bool]

#: The last game asked for, with its key, in one tuple (replaced whole, so another
#: thread never reads a key with the wrong game).
_last: tuple[GameKey, NativeGame] | None = None
_games: dict[GameKey, NativeGame] = {}


def game_key(race: Race) -> GameKey:
    """The facts ``race`` is played under (see :data:`GameKey`)."""
    return (race.course, race.ids, race.shelter, race.relay_limit, race.solo)


def game_for(race: Race) -> NativeGame:
    """The :class:`NativeGame` of ``race``'s facts, shared by every race with the same
    :func:`game_key` (cached: the game's tables of moves take a while to build)."""
    global _last
    key = game_key(race)
    last = _last
    if last is not None and last[0] == key:  # the same objects: compared by identity
        return last[1]
    game = _games.get(key)
    if game is None:
        if len(_games) > 16:  # each holds its tables of Moves
            _games.clear()
        game = _games[key] = NativeGame(race)
    _last = (key, game)
    return game


def forget_games() -> None:
    """Drop every cached :class:`NativeGame` (tests start from none)."""
    global _last
    _last = None
    _games.clear()
