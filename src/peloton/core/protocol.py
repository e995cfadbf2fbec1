"""The game-agnostic state protocol every Peloton game implements.

A server, a bot and the CLI drive games only through this protocol:

* ``current_player``: who must act now (a team letter, a seat), ``None`` once over;
* ``legal_moves()``: the moves that player may make;
* ``play(move)``: apply a move (or its notation text) in place, after validating it;
* ``copy()``: an independent copy;
* ``is_over`` and ``result``;
* ``view(player)``: what that player may see, hidden information removed.

Games with chance (dice, cards) expose it as an explicit chance step: while
``is_chance`` is true, ``current_player`` is :data:`CHANCE`, ``chance_outcomes()``
lists every outcome with its probability, and the move to play is drawn with
``chance_move(rng)`` from a seeded :class:`peloton.core.rng.Rng`, so that a record
(seed and moves) replays exactly. Games without chance never enter one; their
``chance_outcomes()`` and ``chance_move()`` raise :class:`~peloton.core.errors.StateError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .rng import Rng

#: The pseudo-player that acts at a chance step (dice rolls, card draws).
CHANCE = "chance"


@runtime_checkable
class Move(Protocol):
    """A move: a small frozen, hashable value of one game whose ``str()`` is that
    game's notation (``state.parse_move(str(move)) == move``).

    ``game`` names the game the move belongs to (the registry's name), so a move of
    one game is never taken for another's, and a plain value (an int, a string) is
    not a move.
    """

    game: str

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

    def chance_outcomes(self) -> Sequence[tuple[Any, float]]: ...

    def parse_move(self, text: str) -> Any: ...
