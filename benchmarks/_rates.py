"""What the playout benchmarks share: an operation's rate over sampled positions."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any


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
