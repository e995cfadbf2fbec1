"""Running a tournament's games over processes, results in game order."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")


def ordered_map(worker: Callable[[J], R], work: Iterable[J], count: int, jobs: int) -> Iterator[R]:
    """``map(worker, work)`` over ``jobs`` processes, yielding in input order (so every
    figure computed from the results is the same whatever ``jobs``)."""
    if jobs == 1 or count == 1:
        yield from map(worker, work)
        return
    # Not fork: the caller may run threads (Rich's progress bar refreshes in one).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with context.Pool(min(jobs, count)) as pool:
        yield from pool.imap(worker, work, chunksize=1)
