"""The solo solver behind a solo table's "best possible score" panel.

A one-seat table of a game with a solo solver (its ``solve_solo``, docs/games.md)
may ask for the solver's best line for its options (``GET /api/tables/{id}/solver``).
A solve is pure CPU work that can take its whole time limit, so it runs in a worker
process (never on the event loop, which would stall every table), and its answer is
kept for every table of the same game and options. Until it is done the answer says
``running``.

The time limit (``peloton serve --solver-seconds``) is the wall time of a solve from
the moment it is asked for (but for a worker's first start): the solver is given what is left of it,
less what it overran its limit by so far (it checks its clock between steps). A solve
still running well past its limit is stopped (``failed``). There is no queue: a solve
starts at once in one of :data:`PROCESSES` workers, or is refused (``429 busy``) when
they are all solving, and one client may have one solve running at a time
(:attr:`~..limits.Limits.solves_per_client`), so no client's solves delay another's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..errors import ApiError
from ..limits import Counts, QuietLog
from .workers import JobFailed, JobTimeout, Worker

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

#: Default seconds one solve may take before it answers with its best line so far
#: (then marked not proven, with the proven lower bound).
SOLVER_SECONDS = 20.0
#: Solves running at once, each in its own worker process.
PROCESSES = 2
#: Answers kept for later tables of the same setup.
KEPT = 256
BUSY = "busy"

Key = tuple[str, str]


def canonical(options: dict[str, Any]) -> str:
    """One text per set of options (a cache key)."""
    return json.dumps(options, sort_keys=True)


@dataclass
class _Solve:
    client: str
    task: asyncio.Task[dict[str, Any]]


class SolverService:
    """Solo solves in at most :data:`PROCESSES` worker processes, each answered once per setup."""

    def __init__(self, seconds: float = SOLVER_SECONDS, per_client: int | None = 1) -> None:
        self.seconds = seconds
        #: What the solver overran its limit by (seconds): taken off the next limits.
        #: Guessed at first; measured after each solve.
        self.overrun = min(seconds / 2, 2.0)
        #: Seconds after which a solve is stopped: well past its limit (a loaded machine
        #: slows the solver's own steps), but not for ever.
        self.patience = 3 * seconds + 30
        self._idle: list[Worker] = []
        self._workers: list[Worker] = []
        #: Workers starting (a spare, started when the last idle one was taken).
        self._starting: list[asyncio.Task[Worker]] = []
        self._clients = Counts(per_client)
        self._solves: OrderedDict[Key, _Solve] = OrderedDict()

    def answer(self, game: str, options: dict[str, Any], client: str) -> dict[str, Any]:
        """``{"status": "running"}`` while the solve of ``game`` made from ``options``
        runs (starting it if need be), then ``{"status": "done", "solution": {...}}`` or
        ``{"status": "failed", "message": ...}``. :class:`ApiError` ``429 busy`` when a
        new solve cannot start now."""
        key: Key = (game, canonical(options))
        solve = self._solves.get(key)
        if solve is None:
            solve = self._start(key, game, options, client)
        self._solves.move_to_end(key)
        task = solve.task
        if not task.done():
            return {"status": "running", "seconds": self.seconds}
        exc = task.exception()
        if exc is not None:
            return {"status": "failed", "message": str(exc)}
        return {"status": "done", "solution": task.result()}

    def _start(self, key: Key, game: str, options: dict[str, Any], client: str) -> _Solve:
        running = sum(not s.task.done() for s in self._solves.values())
        if running >= PROCESSES:
            raise ApiError(
                429, BUSY, f"the solver is busy with {running} solves: ask again in a minute"
            )
        if not self._clients.take(client):
            raise ApiError(429, BUSY, "you have a solve running: ask again once it is done")
        task = asyncio.create_task(self._solve(game, options, time.time() + self.seconds))
        task.add_done_callback(lambda _t: self._clients.give_back(client))
        solve = self._solves[key] = _Solve(client, task)
        while len(self._solves) > KEPT:
            oldest = next(iter(self._solves))
            if not self._solves[oldest].task.done():
                break
            del self._solves[oldest]
        return solve

    async def _worker(self) -> Worker:
        """An idle worker, else the spare starting, else a new one. Then, if none is left
        idle, a spare starts (up to :data:`PROCESSES`): a worker imports the games for a
        few seconds, which the next solve should not wait for."""
        if self._idle:
            worker = self._idle.pop()
        elif self._starting:
            worker = await self._starting.pop(0)
        else:
            worker = await self._warm(self._new_worker())
        if not self._idle and not self._starting and len(self._workers) < PROCESSES:
            self._starting.append(asyncio.create_task(self._warm(self._new_worker())))
        return worker

    def _new_worker(self) -> Worker:
        worker = Worker()
        self._workers.append(worker)
        return worker

    @staticmethod
    async def _warm(worker: Worker) -> Worker:
        with contextlib.suppress(JobFailed, JobTimeout):
            await worker.call("warm_up", (), timeout=120)
        return worker

    async def _solve(self, game: str, options: dict[str, Any], deadline: float) -> dict[str, Any]:
        # A worker's start-up is the server's, not the solve's: not counted.
        began = time.time()
        worker = await self._worker()
        deadline += time.time() - began
        try:
            answer: dict[str, Any]
            answer, _cpu = await worker.call(
                "solve_solo", (game, options, deadline, self.overrun), timeout=self.patience
            )
        except JobTimeout:
            raise RuntimeError(f"the solver did not finish within {self.patience:g} s") from None
        except JobFailed as exc:
            quiet.warning(
                "solver", "solo solver failed on a %s table: %s", game, str(exc).splitlines()[0]
            )
            raise RuntimeError("the solver failed") from None
        finally:
            self._idle.append(worker)
        solution: dict[str, Any] = answer["solution"]
        over = float(solution.get("seconds", 0.0)) - answer["limit"]
        self.overrun = (
            max(0.0, over) if over > self.overrun else (self.overrun + max(0.0, over)) / 2
        )
        return solution

    def close(self) -> None:
        """Stop the worker processes at once (a solve in progress is abandoned)."""
        for solve in self._solves.values():
            solve.task.cancel()
        for starting in self._starting:
            starting.cancel()
        self._starting = []
        for worker in self._workers:
            worker.close()
        self._idle, self._workers = [], []
