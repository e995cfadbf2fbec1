"""Mind Twist bots: ``optimal`` (the solver's mixed strategies) and ``pass3``.

Both play from the view they are given (``state.view(state.current_player)``): they
read only the two spaces, whose turn it is and the phase, never the hidden dial.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.errors import ConfigError
from ..core.protocol import GameState
from ..games.mindtwist.notation import DIALS, NO_CHALLENGE, RESPONSES
from ..games.mindtwist.solver import Solution, solution_for
from ..games.mindtwist.state import State
from .base import SeededBot


def _mind_twist(state: GameState, bot: str) -> State:
    if not isinstance(state, State):
        raise ConfigError(f"the {bot} bot plays Mind Twist only, not {state.game}")
    return state


class OptimalBot(SeededBot):
    """Plays the optimal mixed strategy of MT-5: draws its dial, or its guess or pass,
    from the solver's probabilities for the position (solved once per board)."""

    name = "optimal"

    def choose(self, state: GameState) -> Any:
        """A move drawn from the optimal strategy of the role ``state`` asks for."""
        self.legal_moves(state)  # StateError once the game is over
        game = _mind_twist(state, self.name)
        solution: Solution = solution_for(game)
        a, o = solution.locate(game)
        if game.phase == "dial":
            return self._draw(DIALS, solution.dials[a][o])
        return self._draw(RESPONSES, solution.responses[a][o])

    def _draw(self, moves: Sequence[Any], probabilities: Sequence[float]) -> Any:
        r = self.rng.random()
        for move, p in zip(moves, probabilities, strict=True):
            r -= p
            if r < 0.0:
                return move
        # Rounding left r a hair above 0: the last move with any weight.
        return next(
            m for m, p in zip(reversed(moves), reversed(probabilities), strict=True) if p > 0
        )


class Pass3Bot(SeededBot):
    """Always dials 3 and never challenges: the simplest fast racer."""

    name = "pass3"

    def choose(self, state: GameState) -> Any:
        """``dial:3`` when dialling, ``pass`` when the other player has dialled."""
        self.legal_moves(state)
        game = _mind_twist(state, self.name)
        return DIALS[2] if game.phase == "dial" else NO_CHALLENGE
