"""The generic analyst: the MCTS bot's own search (:mod:`peloton.bots.mcts`), read at
its root instead of played.

The chances are the best move's mean rewards; the best move is the one the bot would
play (the most visited); the played move is valued by its child in that tree when it
was visited at least :data:`MEASURED` times, else by a search of the position after it
(with a quarter of the budget), so a move the search did not like is still measured.
A chance step (dice to roll) is searched for its chances only: it is no decision."""

from __future__ import annotations

from typing import Any

from ...bots.base import heuristics_of
from ...bots.mcts import MCTSBot, RootStatistics
from ...core.protocol import GameState
from ...core.rng import Rng
from .assessment import Assessment, Budget, normalised

#: Visits of the played move's child that make its mean a measurement.
MEASURED = 8
#: The share of the budget spent measuring a played move the search left unvisited.
FOLLOW_UP = 0.25


class SearchAnalyst:
    """Assess positions of any game with the MCTS search (CPU-time budget)."""

    engine = "mcts"

    def assess(self, state: GameState, played: Any, budget: Budget, rng: Rng) -> Assessment:
        """The position's chances, the search's best move and the played move's cost."""
        mover = state.current_player
        assert mover is not None
        root = _search(state, budget, rng)
        notation = str(state.parse_move(played) if isinstance(played, str) else played)
        ranked = sorted(root.moves.items(), key=lambda kv: (-kv[1][0], kv[0]))
        best, (_, best_means) = ranked[0]
        # The position is worth what its best move is worth (the root's own mean
        # also counts the playouts spent trying worse moves).
        chances = _chances(root, best_means)
        best_value = chances[mover]
        visits, means = root.moves.get(notation, (0, ()))
        if visits >= MEASURED:
            played_value = _chances(root, means)[mover]
        else:
            played_value = _follow_up(state, played, budget.scaled(FOLLOW_UP), rng)[mover]
        if played_value >= best_value:  # the search's noise: the played move was best
            best, best_value = notation, played_value
        return Assessment(chances, best, best_value, played_value)

    def chances(self, state: GameState, budget: Budget, rng: Rng) -> dict[str, float]:
        """Each seat's chance from ``state``, chance steps averaged by the search."""
        root = _search(state, budget, rng)
        return _chances(root, root.means)


def _search(state: GameState, budget: Budget, rng: Rng) -> RootStatistics:
    """The root statistics of one search of ``state`` within ``budget``."""
    bot = MCTSBot(
        rng.randint(0, 2**62),
        iterations=budget.iterations,
        seconds=budget.seconds if budget.iterations is None else None,
        clock="cpu",
    )
    return bot.statistics(state)


def _follow_up(state: GameState, played: Any, budget: Budget, rng: Rng) -> dict[str, float]:
    """Each seat's chance after ``played``. On a view hiding something the move's
    effect may depend on (Mind Twist's guess), the view is first filled in by the
    game's ``determinize`` (what the search itself does), drawn from ``rng``."""
    fill = heuristics_of(state.game).get("determinize")
    after = fill(state, rng) if fill is not None else state.copy()
    after.play(played)
    follow = _search(after, budget, rng)
    return _chances(follow, follow.means)


def _chances(root: RootStatistics, means: tuple[float, ...]) -> dict[str, float]:
    """Mean rewards as each seat's chance to win."""
    return normalised(dict(zip(root.players, means, strict=True)))
