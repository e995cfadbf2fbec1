"""The greedy bot: the best move by the game's own move-scoring heuristic, no search;
and the easy bot, greedy one move in three.

The bot itself knows no game. It asks the game for a ``score_moves(state, moves)``
heuristic (a score per legal move, higher is better) and plays a top-scoring move,
breaking exact ties with its seeded :class:`~peloton.core.rng.Rng`.

**Where a game plugs in.** A game offers its heuristics as a dict of named callables
in its registry entry (``GameInfo.heuristics``); the greedy bot needs the key
``score_moves``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core import registry
from ..core.errors import ConfigError
from ..core.protocol import GameState
from .base import SeededBot, heuristics_of

ScoreMoves = Callable[..., Sequence[float]]


def heuristics_for(game: str) -> registry.Heuristics:
    """The heuristics dict ``game`` registered (empty if none).

    Raises :class:`peloton.ConfigError` for a game Peloton does not know.
    """
    return registry.get(game).heuristics


def move_scorer(game: str) -> ScoreMoves:
    """The ``score_moves`` heuristic of ``game``; :class:`ConfigError` if it has none."""
    score = heuristics_for(game).get("score_moves")
    if score is None:
        raise ConfigError(
            f"the greedy bot needs a 'score_moves' heuristic and game {game!r} has none"
        )
    return score


class GreedyBot(SeededBot):
    """Plays a move of highest heuristic score; ties (within ``tolerance``) broken at
    random from the seed. ``options`` are passed on to the game's ``score_moves`` as
    keyword arguments (for Mind Cycling: ``weights=Weights(...)``), for experiments."""

    name = "greedy"

    def __init__(self, seed: int | None = None, *, tolerance: float = 1e-9, **options: Any) -> None:
        super().__init__(seed)
        self.tolerance = tolerance
        self.options = options

    def choose(self, state: GameState) -> Any:
        """A top-scoring legal move of ``state`` (the state is not modified)."""
        moves = self.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        scores = move_scorer(state.game)(state, moves, **self.options)
        top = max(scores)
        best = [m for m, s in zip(moves, scores, strict=True) if s >= top - self.tolerance]
        return best[0] if len(best) == 1 else self.rng.choice(best)


class EasyBot(SeededBot):
    """Plays the game's greedy choice one move in three, a random legal move otherwise
    (always random in a game without a ``score_moves`` heuristic)."""

    name = "easy"
    greed = 1 / 3

    def choose(self, state: GameState) -> Any:
        """A legal move of ``state``: a top-scoring one with probability :attr:`greed`."""
        moves = self.legal_moves(state)
        score = heuristics_of(state.game).get("score_moves")
        if score is None or len(moves) == 1 or self.rng.random() >= self.greed:
            return self.rng.choice(moves)
        scores = score(state, moves)
        top = max(scores)
        return self.rng.choice([m for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9])
