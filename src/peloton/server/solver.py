"""The solo solver behind a solo table's "best possible score" panel.

A one-seat table of a game with a solo solver (its ``solve_solo``, docs/games.md)
may ask for the solver's best line for its options (``GET /api/tables/{id}/solver``).
A solve is pure CPU work that can take its whole time limit, so it runs in a separate
worker process (never on the event loop, which would stall every table) and its
answer is kept for every table of the same game and options. Until it is done the
answer says ``running``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from . import games

log = logging.getLogger("peloton.server")

#: Default seconds one solve may take before it answers with its best line so far
#: (then marked not proven, with the proven lower bound).
SOLVER_SECONDS = 20.0

Key = tuple[str, str]


def canonical(options: dict[str, Any]) -> str:
    """One text per set of options (a cache key)."""
    return json.dumps(options, sort_keys=True)


def _solve(game: str, options: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Run in the worker process: the solver's answer for one solo game."""
    return games.spec(game).solve_solo(options, seconds)


class SolverService:
    """Solo solves, one at a time in one worker process, each answered once per setup."""

    def __init__(self, seconds: float = SOLVER_SECONDS) -> None:
        self.seconds = seconds
        self._pool: ProcessPoolExecutor | None = None
        self._jobs: dict[Key, asyncio.Future[dict[str, Any]]] = {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn, not fork: the server holds threads (storage writer, checkpoints)
            # that a forked child must not inherit half-way through.
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    def answer(self, game: str, options: dict[str, Any]) -> dict[str, Any]:
        """``{"status": "running"}`` while the solve of ``game`` made from ``options``
        runs (starting it if need be), then ``{"status": "done", "solution": {...}}`` or
        ``{"status": "failed", "message": ...}``."""
        key: Key = (game, canonical(options))
        job = self._jobs.get(key)
        if job is None:
            started: Future[dict[str, Any]] = self._executor().submit(
                _solve, game, options, self.seconds
            )
            job = asyncio.wrap_future(started)
            self._jobs[key] = job
        if not job.done():
            return {"status": "running", "seconds": self.seconds}
        exc = job.exception()
        if exc is not None:
            log.error("solo solver failed on a %s table: %r", game, exc)
            return {"status": "failed", "message": f"the solver failed ({type(exc).__name__})"}
        return {"status": "done", "solution": job.result()}

    def close(self) -> None:
        """Stop the worker process at once (a solve in progress is abandoned)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # Python 3.11 has no public way to stop a busy worker, and shutting down would
        # wait for a solve of up to ``seconds``: the server's exit must not.
        for process in list((pool._processes or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
