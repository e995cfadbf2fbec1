"""What every many-games run shares (Mind Cycling's :mod:`.tournament`, the other
games' :mod:`.match`, Cyclo's :mod:`.stage_races` and :mod:`.competitions`): who sits
where in game ``i``, and playing the games over processes, or on Ray
(:mod:`.ray_pool`), with the results in game order."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Protocol, TypeVar

from ..core.errors import ConfigError
from .ray_pool import RayCluster, ray_map

J = TypeVar("J")
R = TypeVar("R")


class Games(Protocol):
    """A run's settings: how many games, and a check that raises for a bad setup."""

    @property
    def games(self) -> int: ...

    def check(self) -> None: ...


G = TypeVar("G", bound=Games)
#: Where a run's games are played: in that many processes of this machine, or on Ray.
Workers = int | RayCluster


def rotated_lineup(entries: int, index: int, swap: bool) -> list[int]:
    """The entry sitting at each seat in game ``index``: entry ``s`` at seat ``s``, or,
    with ``swap``, rotated by ``index`` seats so that over ``k × entries`` games every
    entry sits in every seat equally often."""
    shift = index % entries if swap else 0
    return [(seat + shift) % entries for seat in range(entries)]


def play_games(
    play: Callable[[G, int], R],
    setup: G,
    jobs: Workers,
    progress: Callable[[R], None] | None = None,
) -> list[R]:
    """``play(setup, i)`` for every game ``i`` of ``setup`` over ``jobs`` processes, or
    on the Ray cluster ``jobs`` names (``play`` a module-level function, so that it can
    be sent to them); the outcomes in game order. ``progress`` is called once per
    finished game, in game order."""
    if isinstance(jobs, RayCluster):
        jobs.check()
    elif jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {jobs}")
    setup.check()
    worker = partial(play, setup)
    games = (
        ray_map(worker, setup.games, jobs)
        if isinstance(jobs, RayCluster)
        else ordered_map(worker, range(setup.games), setup.games, jobs)
    )
    outcomes = []
    for outcome in games:
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return outcomes


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
