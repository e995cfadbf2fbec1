"""The random bot: a uniformly random legal move. Works for every game."""

from __future__ import annotations

from typing import Any

from ..core.errors import StateError
from ..core.protocol import GameState
from ..core.rng import Rng


class RandomBot:
    """Picks uniformly among ``state.legal_moves()``, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    @property
    def seed(self) -> int:
        """The seed this bot's choices derive from."""
        return self.rng.seed

    def choose(self, state: GameState) -> Any:
        """One legal move of ``state``, uniformly at random."""
        moves = state.legal_moves()
        if not moves:
            raise StateError(f"no legal move to choose: the {state.game} game is over")
        return self.rng.choice(moves)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"
