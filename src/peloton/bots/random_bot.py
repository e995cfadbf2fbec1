"""The random bot: a uniformly random legal move. Works for every game."""

from __future__ import annotations

from typing import Any

from ..core.protocol import GameState
from .base import SeededBot


class RandomBot(SeededBot):
    """Picks uniformly among ``state.legal_moves()``, from its own seeded stream."""

    name = "random"

    def choose(self, state: GameState) -> Any:
        """One legal move of ``state``, uniformly at random."""
        return self.rng.choice(self.legal_moves(state))
