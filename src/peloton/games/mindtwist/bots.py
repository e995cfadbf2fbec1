"""Mind Twist's own bots: ``optimal`` (the solver's mixed strategies) and ``pass3``.

The registry lists them (``GameInfo.bots``); the game-agnostic bots live above the
games in :mod:`peloton.bots`, so these follow the bot protocol without importing it:
a bot is anything with a ``name`` and a ``choose(state)`` returning a legal move, and
every random decision draws from a :class:`~peloton.core.rng.Rng` built from its seed.

Both play from the view they are given (``state.view(state.current_player)``): they
read only the two spaces, whose turn it is and the phase, never the hidden dial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.errors import ConfigError, StateError
from ...core.rng import Rng
from .notation import DIALS, NO_CHALLENGE, RESPONSES, Move
from .solver import solution_for
from .state import State


class _MindTwistBot:
    """What both bots share: a seeded stream, and the Mind Twist state they are given
    (:class:`ConfigError` for another game, :class:`StateError` once it is over)."""

    name = "mind-twist bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    @property
    def seed(self) -> int:
        """The seed this bot's choices derive from."""
        return self.rng.seed

    def game(self, state: Any) -> State:
        """``state`` as a Mind Twist state with a move to choose."""
        if not isinstance(state, State):
            raise ConfigError(
                f"the {self.name} bot plays Mind Twist only, not {getattr(state, 'game', state)!r}"
            )
        if state.is_over:
            raise StateError("no legal move to choose: the mind-twist game is over")
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


class OptimalBot(_MindTwistBot):
    """Plays the optimal mixed strategy of MT-5: draws its dial, or its guess or pass,
    from the solver's probabilities for the position (solved once per board)."""

    name = "optimal"

    def choose(self, state: Any) -> Move:
        """A move drawn from the optimal strategy of the role ``state`` asks for."""
        game = self.game(state)
        solution = solution_for(game)
        a, o = solution.locate(game)
        if game.phase == "dial":
            return self._draw(DIALS, solution.dials[a][o])
        return self._draw(RESPONSES, solution.responses[a][o])

    def _draw(self, moves: Sequence[Move], probabilities: Sequence[float]) -> Move:
        r = self.rng.random()
        for move, p in zip(moves, probabilities, strict=True):
            r -= p
            if r < 0.0:
                return move
        # Rounding left r a hair above 0: the last move with any weight.
        return next(
            m for m, p in zip(reversed(moves), reversed(probabilities), strict=True) if p > 0
        )


class Pass3Bot(_MindTwistBot):
    """Always dials 3 and never challenges: the simplest fast racer."""

    name = "pass3"

    def choose(self, state: Any) -> Move:
        """``dial:3`` when dialling, ``pass`` when the other player has dialled."""
        game = self.game(state)
        return DIALS[2] if game.phase == "dial" else NO_CHALLENGE
