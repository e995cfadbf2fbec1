"""The solo solver behind a solo table's "best possible score" panel.

A solo Mind Cycling table may ask for the solver's best line on its course, team and
rules (``GET /api/tables/{id}/solver``). A solve is pure CPU work that can take its
whole time limit, so it runs in a separate worker process (never on the event loop,
which would stall every table) and its answer is kept for every table that plays the
same course, team and rules. Until it is done the answer says ``running``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from ..games import mindcycling as mc

log = logging.getLogger("peloton.server")

#: Default seconds one solve may take before it answers with its best line so far
#: (then marked not proven, with the proven lower bound).
SOLVER_SECONDS = 20.0

Key = tuple[str, str, str, int]


def _solve(course: dict[str, Any], team: str, wind: str, relay_limit: int, seconds: float) -> dict[str, Any]:
    """Run in the worker process: the solver's summary for one solo setup."""
    from ..games.mindcycling.solver import solve

    solution = solve(mc.Course.from_dict(course), team, wind=wind, relay_limit=relay_limit, time_limit=seconds)
    return solution.to_dict()


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
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def answer(self, course: mc.Course, team: str, wind: str, relay_limit: int) -> dict[str, Any]:
        """``{"status": "running"}`` while the setup's solve runs (starting it if need
        be), then ``{"status": "done", "solution": {...}}`` or ``{"status": "failed",
        "message": ...}``."""
        data = course.to_dict()
        key: Key = (json.dumps(data, sort_keys=True), team, wind, relay_limit)
        job = self._jobs.get(key)
        if job is None:
            started: Future[dict[str, Any]] = self._executor().submit(
                _solve, data, team, wind, relay_limit, self.seconds
            )
            job = asyncio.wrap_future(started)
            self._jobs[key] = job
        if not job.done():
            return {"status": "running", "seconds": self.seconds}
        exc = job.exception()
        if exc is not None:
            log.error("solo solver failed on course %s: %r", course.name, exc)
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
