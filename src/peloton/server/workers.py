"""Worker processes for the server's long work, scheduled fairly (issue 11, items 1 and 5).

Bots' decisions, course checks and replays are CPU work: on the event loop (or in its
threads, under the GIL) one client's work would cost every table its latency. Here
each runs as a *job* (a function of :mod:`.jobs`, by name) in one of a few worker
processes, started with ``spawn``.

Every job belongs to a *key*: a table for its bots, a client address for its
requests. The scheduler is fair between keys:

* a key has at most one job running at a time (its other jobs wait in order);
* a free worker goes to the waiting key that used the least CPU lately (its CPU
  seconds, halved every :data:`HALF_LIFE` seconds);
* a key whose last job took more than :data:`LIGHT_CPU` seconds of CPU (or whose
  first job is not known to be quick) is *heavy*: heavy keys share at most
  ``heavy_slots`` workers, so the others always find a worker for their quick jobs
  (a table whose bot solves a long board never holds up another table's bots);
* a job runs at most its ``timeout`` seconds: then its worker is killed (and
  replaced) and the caller gets :class:`JobTimeout`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import time
import traceback
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from .limits import QuietLog

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

#: A job using less CPU than this (seconds) keeps its key light.
LIGHT_CPU = 0.25
#: Seconds after which a key's CPU use counts half.
HALF_LIFE = 30.0
#: How much lower than the server's the workers' CPU priority is (``nice``). None: on
#: a machine shared with other work, a lower priority starved the bots (a nice-5
#: worker got a few percent of a core beside ten busy processes).
NICENESS = 0


class JobTimeout(Exception):
    """A job ran longer than its time limit (its worker was replaced)."""


class JobFailed(Exception):
    """A job raised, or its worker died (the message says which; ``details``: the
    worker's traceback, for a debug log, never for a client)."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


def _serve(conn: Connection, niceness: int) -> None:  # pragma: no cover - runs in the worker
    """A worker's loop: run each job sent, send back ``(outcome, cpu seconds)``. Nothing
    a job does ends the loop or prints (the server's log is the server's)."""
    # Ctrl-C at a terminal (and a service manager's stop) signals the whole process
    # group: the server stops its workers itself (SIGKILL, or the pipe's EOF if the
    # server dies), so a worker must not die of it half-way through a job, printing a
    # traceback or making the server log a failed bot move on its way out.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    from . import jobs

    while True:
        began = time.process_time()
        try:
            name, args = conn.recv()
            outcome: tuple[Any, ...] = ("ok", jobs.JOBS[name](*args))
        except (EOFError, OSError):
            return
        except Exception as exc:
            outcome = ("failed", f"{type(exc).__name__}: {exc}", traceback.format_exc())
        try:
            conn.send((outcome, time.process_time() - began))
        except (EOFError, OSError):
            return
        except Exception as exc:  # an answer that does not pickle
            conn.send((("failed", f"the answer could not be sent: {type(exc).__name__}", ""), 0.0))


class Worker:
    """One worker process and the thread that waits for its answers."""

    def __init__(self, niceness: int = NICENESS) -> None:
        self.niceness = niceness
        self._context = multiprocessing.get_context("spawn")
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="peloton-worker")
        self._process: Any = None
        self._conn: Connection | None = None
        self.start()

    def start(self) -> None:
        """Start (or restart) the process. It imports the server while the caller goes on."""
        parent, child = self._context.Pipe()
        # spawn, not fork: the server holds threads (the storage writer) and sockets
        # that a forked child must not inherit half-way through.
        self._process = self._context.Process(
            target=_serve, args=(child, self.niceness), daemon=True
        )
        self._process.start()
        child.close()
        self._conn = parent

    def _round_trip(self, name: str, args: tuple[Any, ...]) -> tuple[Any, float]:
        assert self._conn is not None
        self._conn.send((name, args))
        answer: tuple[Any, float] = self._conn.recv()
        return answer

    async def call(
        self, name: str, args: tuple[Any, ...], timeout: float | None
    ) -> tuple[Any, float]:
        """Run job ``name`` on ``args``: its result and CPU seconds. Raises
        :class:`JobTimeout` past ``timeout`` seconds, :class:`JobFailed` if it raised."""
        loop = asyncio.get_running_loop()
        try:
            outcome, cpu = await asyncio.wait_for(
                loop.run_in_executor(self._thread, self._round_trip, name, args), timeout
            )
        except TimeoutError:
            self.restart()
            raise JobTimeout(f"{name} ran over {timeout:g} s") from None
        except (EOFError, OSError, BrokenPipeError) as exc:
            self.restart()
            raise JobFailed(f"{name}: the worker died ({type(exc).__name__})") from None
        if outcome[0] != "ok":
            raise JobFailed(f"{name}: {outcome[1]}", outcome[2])
        return outcome[1], cpu

    def restart(self) -> None:
        """Kill the process (a job in it is lost) and start a new one."""
        self.kill()
        self.start()

    def kill(self) -> None:
        process, self._process = self._process, None
        if self._conn is not None:
            with contextlib.suppress(OSError):
                self._conn.close()
            self._conn = None
        if process is not None and process.is_alive():
            process.kill()
            process.join(timeout=5)

    def close(self) -> None:
        self.kill()
        self._thread.shutdown(wait=False, cancel_futures=True)


@dataclass
class _Job:
    name: str
    args: tuple[Any, ...]
    timeout: float | None
    future: asyncio.Future[Any]


@dataclass
class _Key:
    """One key's jobs and its recent CPU use."""

    light: bool
    used: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    running: bool = False
    waiting: deque[_Job] = field(default_factory=deque)

    def decayed(self, now: float) -> float:
        return float(self.used * 0.5 ** ((now - self.stamp) / HALF_LIFE))

    def charge(self, cpu: float, now: float) -> None:
        self.used = self.decayed(now) + cpu
        self.stamp = now


class Workers:
    """``processes`` worker processes shared fairly by keys (see the module docstring);
    heavy keys use at most ``heavy_slots`` of them at once."""

    def __init__(self, processes: int, heavy_slots: int, *, niceness: int = NICENESS) -> None:
        if not 1 <= heavy_slots <= processes:
            raise ValueError(f"heavy_slots must be 1 to {processes}, not {heavy_slots}")
        self.processes = processes
        self.heavy_slots = heavy_slots
        self._free = [Worker(niceness) for _ in range(processes)]
        self._keys: dict[str, _Key] = {}
        self._heavy_running = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._warming: list[asyncio.Future[None]] = []
        self._closed = False

    async def run(
        self, key: str, name: str, *args: Any, timeout: float | None, light: bool = False
    ) -> Any:
        """Run job ``name`` on ``args`` for ``key`` once a worker is free for it; its
        result. ``light``: what a key never seen before is taken for (a request that
        is quick by nature); a key's own history decides after its first job."""
        if self._closed:
            raise JobFailed("the server is stopping")
        entry = self._keys.get(key)
        if entry is None:
            entry = self._keys[key] = _Key(light)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        entry.waiting.append(_Job(name, args, timeout, future))
        self._dispatch()
        return await future

    async def ready(self) -> None:
        """Wait until one worker has started and imported the games (the others go on
        starting meanwhile): the server serves once bots can move at once."""
        warming: list[asyncio.Future[None]] = [
            asyncio.ensure_future(self._warm(w)) for w in self._free
        ]
        self._warming = warming
        done, _ = await asyncio.wait(warming, return_when=asyncio.FIRST_COMPLETED)
        del done

    @staticmethod
    async def _warm(worker: Worker) -> None:
        try:
            await worker.call("warm_up", (), timeout=120)
        except Exception as exc:  # its first job will tell again
            log.warning("a worker did not start: %s", exc)

    def waiting(self, key: str) -> int:
        """Jobs of ``key`` waiting or running."""
        entry = self._keys.get(key)
        return 0 if entry is None else len(entry.waiting) + entry.running

    def _dispatch(self) -> None:
        now = time.monotonic()
        while self._free:
            ready = [
                k
                for k in self._keys.values()
                if k.waiting
                and not k.running
                and (k.light or self._heavy_running < self.heavy_slots)
            ]
            if not ready:
                break
            entry = min(ready, key=lambda k: k.decayed(now))
            job = entry.waiting.popleft()
            if job.future.cancelled():  # its caller went away
                continue
            worker = self._free.pop()
            heavy = not entry.light
            entry.running = True
            self._heavy_running += heavy
            task = asyncio.create_task(self._execute(worker, entry, job, heavy))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if len(self._keys) > 1000:
            self._forget(now)

    async def _execute(self, worker: Worker, entry: _Key, job: _Job, heavy: bool) -> None:
        began = time.monotonic()
        cpu = 0.0
        try:
            result, cpu = await worker.call(job.name, job.args, job.timeout)
            if not job.future.done():
                job.future.set_result(result)
        except Exception as exc:
            cpu = time.monotonic() - began  # a job killed or failed: its wall time counts
            if not job.future.done():
                job.future.set_exception(exc)
        finally:
            now = time.monotonic()
            entry.charge(cpu, now)
            entry.light = cpu < LIGHT_CPU
            entry.running = False
            self._heavy_running -= heavy
            if self._closed:
                worker.close()
            else:
                self._free.append(worker)
                self._dispatch()

    def _forget(self, now: float) -> None:
        """Drop the keys with nothing to do whose use has decayed to nothing."""
        self._keys = {
            name: k
            for name, k in self._keys.items()
            if k.waiting or k.running or k.decayed(now) > 0.01
        }

    def close(self) -> None:
        """Stop every worker (jobs in progress are lost; their callers get JobFailed)."""
        self._closed = True
        for warming in self._warming:
            warming.cancel()
        for worker in self._free:
            worker.close()
        self._free = []
        for entry in self._keys.values():
            for job in entry.waiting:
                if not job.future.done():
                    job.future.set_exception(JobFailed("the server is stopping"))
        for task in list(self._tasks):
            task.cancel()


class InlineWorkers:
    """The same interface as :class:`Workers`, running each job in a thread of this
    process: for an app embedded in another program (a test with its own bot)."""

    processes = 0

    async def run(
        self, key: str, name: str, *args: Any, timeout: float | None, light: bool = False
    ) -> Any:
        from . import jobs

        return await asyncio.wait_for(asyncio.to_thread(jobs.JOBS[name], *args), timeout)

    async def ready(self) -> None:
        return None

    def close(self) -> None:
        return None
