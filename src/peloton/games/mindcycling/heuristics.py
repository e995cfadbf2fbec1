"""The bot hooks Mind Cycling registers (:data:`HEURISTICS`), and its native playout hook.

The hooks' work sits in two modules by job: :mod:`.move_scores`, the greedy scores
(:func:`score_moves`, :class:`Weights`), and :mod:`.playouts`, what MCTS needs beyond
them (rewards, playout policies). Their public names are importable from here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.registry import Heuristics
from . import native
from .move_scores import DEFAULT_WEIGHTS, Weights, best_moves, python_score_moves, score_moves
from .playouts import evaluate, greedy_move, outcome, result_outcome, rollout_move

if TYPE_CHECKING:
    from ...core.rng import Rng
    from .state import State

__all__ = [
    "DEFAULT_WEIGHTS",
    "HEURISTICS",
    "Weights",
    "best_moves",
    "evaluate",
    "greedy_move",
    "native_playout",
    "outcome",
    "python_score_moves",
    "result_outcome",
    "rollout_move",
    "score_moves",
]


# The whole-playout hook reads the names of HEURISTICS (a policy the table has that the
# native engine does not play is left to Python), so it sits beside the table: in
# playouts.py it would import this module back.
def native_playout(state: State, rng: Rng, rollout: str) -> dict[str, float] | None:
    """MCTS's whole playout from ``state`` in the native engine, when it is active: the
    greedy policy (``rollout_move``, :func:`greedy_move`) or uniformly random moves (a
    policy the game does not have), drawing from ``rng`` exactly as the Python policy
    would, so the search is the same, only faster; each team's :func:`outcome`. ``None``
    for another policy or without the native engine (MCTS then plays move by move);
    ``state`` is left as it was."""
    greedy = rollout == "rollout_move"
    if not greedy and rollout in HEURISTICS:
        return None
    if not native.available():
        return None
    twin = state.native_twin()
    if twin is not None:
        game, r = twin[0], twin[0].scratch
        game.ffi.memmove(r, twin[1], game.size)
    else:
        race = state.race
        game = native.game_for(race)
        r = game.load(race, game.scratch)
    if greedy:
        game.greedy_playout(r, (rng,), DEFAULT_WEIGHTS)
    else:
        game.random_playout(r, rng)
    return result_outcome(state.players, state.solo, game.result(r), r.round)


#: What Mind Cycling registers as its ``GameInfo.heuristics`` (bots look them up there):
#: ``score_moves``/``best_moves`` for the greedy bot; ``rollout_move``, ``evaluate`` and
#: ``outcome`` for MCTS (``score_moves`` also orders its tree's moves).
HEURISTICS: Heuristics = {
    "score_moves": score_moves,
    "best_moves": best_moves,
    # MCTS playouts: the greedy policy by default (measured stronger per second of
    # search on standard 2×6 than the cheap policy); ``fast_rollout_move`` on request.
    "rollout_move": greedy_move,
    "fast_rollout_move": rollout_move,
    "evaluate": evaluate,
    "outcome": outcome,
    # Whole playouts in the native engine when it is active (the same moves, faster).
    "playout": native_playout,
}
