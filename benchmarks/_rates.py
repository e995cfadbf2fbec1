"""What the playout benchmarks share: a random playout, an operation's rate over
sampled positions."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from peloton.core.rng import Rng

S = TypeVar("S")


def random_playout(state: S, seed: int) -> S:
    """``state`` played to its end by uniformly random legal moves, chance steps drawn
    from ``Rng(seed)`` (the same game for the same seed)."""
    rng, rnd = Rng(seed), random.Random(seed)
    game: Any = state
    while not game.is_over:
        if game.is_chance:
            game.play(game.chance_move(rng))
        else:
            legal = game.legal_moves()
            game.play(legal[int(rnd.random() * len(legal))])
    return state


def per_second(samples: Sequence[Any], operation: Callable[[Any], object], seconds: float) -> float:
    """How many times per second ``operation`` runs, applied to each of ``samples`` in
    turn for about ``seconds``."""
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for s in samples:
            operation(s)
        count += len(samples)
    return count / (time.perf_counter() - start)


def generate_legal_moves(state: Any) -> None:
    """A state's legal moves, generated afresh (not the per-position cache)."""
    state._legal = None
    state.legal_moves()
