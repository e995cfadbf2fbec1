"""The game-agnostic state protocol every Peloton game implements.

A server, a bot and the CLI drive games only through this protocol:

* ``current_player``: who must act now (a team letter, a seat), ``None`` once over;
* ``legal_moves()``: the moves that player may make;
* ``play(move)``: apply a move (or its notation text) in place, after validating it;
* ``copy()``: an independent copy;
* ``is_over`` and ``result``;
* ``view(player)``: what that player may see, hidden information removed.

Games with chance (dice) expose it as an explicit chance step: while
``is_chance`` is true, ``current_player`` is :data:`CHANCE` and the move to play is
drawn with ``chance_move(rng)`` from a seeded :class:`peloton.core.rng.Rng`, so that
a record (seed and moves) replays exactly. Games without chance never enter one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .rng import Rng

#: The pseudo-player that acts at a chance step (dice rolls, card draws).
CHANCE = "chance"


@runtime_checkable
class Move(Protocol):
    """A move: a small frozen, hashable value whose ``str()`` is the game's notation."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


@runtime_checkable
class GameState(Protocol):
    """The protocol of a game position that can be played forward."""

    game: str

    @property
    def current_player(self) -> str | None: ...

    @property
    def players(self) -> Sequence[str]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def is_chance(self) -> bool: ...

    @property
    def result(self) -> Any: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> None: ...

    def copy(self) -> GameState: ...

    def view(self, player: str | None) -> GameState: ...

    def chance_move(self, rng: Rng) -> Any: ...

    def parse_move(self, text: str) -> Any: ...
