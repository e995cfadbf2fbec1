"""Worker processes for the server's long work, scheduled fairly (issue 11, items 1 and
5; issue 32, point 2).

Bots' decisions, course checks and replays are CPU work: on the event loop (or in its
threads, under the GIL) one client's work would cost every table its latency. Here
each runs as a *job* (a function of :mod:`.jobs`, by name) in one of a few worker
processes, started with ``spawn``.

Every job belongs to a *key* (a table for its bots, a client address for its
requests) and to a *client* (whose share it counts against: the address that
created the table, or that made the request). Each job has a *cost*:

* **light**: its *kind* (for a bot: the game, the bot and the table's options) or,
  if its kind was never measured, its key's last job took under :data:`LIGHT_CPU`
  seconds of CPU, or the caller says it is quick by nature;
* **heavy**: that last measurement took :data:`LIGHT_CPU` or more;
* **unknown**: nothing is known of it yet (a new table's first bot move).

The scheduler is fair:

* a key has at most one job running at a time (its other jobs wait in order);
* a client has at most ``per_client`` jobs that are not light running at once
  (heavy or unknown): one client's twenty tables of a bot that solves its board on
  first use run one or two at a time, whoever else comes;
* heavy jobs share at most ``heavy_slots`` workers (fewer than all), and never go
  before a light or unknown job that may start: a new table's first move never
  queues behind jobs known to be long;
* among the jobs that may start, a free worker goes to the client that used the
  least CPU lately (then the key), each use halved every :data:`HALF_LIFE` seconds;
  and to the worker that ran the key's last job when it is free (its caches, a
  bot's solved board, are there);
* a job runs at most its ``timeout`` seconds: then its worker is killed (and
  replaced) and the caller gets :class:`JobTimeout`.

A worker process never outlives its server, however the server ends (SIGKILL
included): see :func:`die_with_server`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
import traceback
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Literal

from ..limits import QuietLog

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

#: A job using less CPU than this (seconds) is light.
LIGHT_CPU = 0.25
#: Seconds after which a key's (a client's) CPU use counts half.
HALF_LIFE = 30.0
#: How much lower than the server's the workers' CPU priority is (``nice``). None: on
#: a machine shared with other work, a lower priority starved the bots (a nice-5
#: worker got a few percent of a core beside ten busy processes).
NICENESS = 0
#: Kinds of job whose last cost is remembered (the oldest are forgotten).
KINDS_KEPT = 4096
#: Seconds between a worker's checks that its server is still there (the fallback
#: where the system does not signal a parent's death).
SERVER_CHECK_SECONDS = 1.0
#: ``prctl`` option (linux/prctl.h): the signal a process gets when its parent dies.
PR_SET_PDEATHSIG = 1

Cost = Literal["light", "unknown", "heavy"]


class JobTimeout(Exception):
    """A job ran longer than its time limit (its worker was replaced)."""


class JobFailed(Exception):
    """A job raised, or its worker died (the message says which; ``details``: the
    worker's traceback, for a debug log, never for a client)."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


def die_with_server(server: int) -> None:  # pragma: no cover - runs in the worker
    """In a worker process: end when the server (process ``server``, our parent) ends,
    however it ends, so that no solve or bot search goes on for nobody.

    On Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``,
    which fires when the *thread* that started us ends: the server starts its workers
    from its event loop's thread, the main one). A server already gone before that was
    set is seen at once (we were handed to another parent). Everywhere, a thread also
    checks every :data:`SERVER_CHECK_SECONDS` that our parent is still the server.
    The workers are started with ``spawn``, so the server is our parent itself (under
    ``forkserver`` it would be the fork server, and this check would end us at once).
    """
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != server:
        os._exit(1)

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(SERVER_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-server").start()


def _serve(conn: Connection, niceness: int, server: int) -> None:  # pragma: no cover - worker
    """A worker's loop: run each job sent, send back ``(outcome, cpu seconds)``. Nothing
    a job does ends the loop or prints (the server's log is the server's)."""
    die_with_server(server)
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
            target=_serve, args=(child, self.niceness, os.getpid()), daemon=True
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
    #: What the job's cost is measured and remembered under (``None``: only its key's).
    kind: str | None
    #: The caller's word: quick by nature (a key's and a kind's history decide first).
    light: bool


@dataclass
class _Use:
    """CPU seconds used lately, halved every :data:`HALF_LIFE` seconds."""

    used: float = 0.0
    stamp: float = field(default_factory=time.monotonic)

    def decayed(self, now: float) -> float:
        return float(self.used * 0.5 ** ((now - self.stamp) / HALF_LIFE))

    def charge(self, cpu: float, now: float) -> None:
        self.used = self.decayed(now) + cpu
        self.stamp = now


@dataclass
class _Client:
    """One client's use and its jobs running that are not light."""

    use: _Use = field(default_factory=_Use)
    running: int = 0


@dataclass
class _Key:
    """One key's jobs, its recent CPU use, its last job's cost and worker."""

    client: str
    use: _Use = field(default_factory=_Use)
    running: bool = False
    last: Cost | None = None
    worker: Worker | None = None
    waiting: deque[_Job] = field(default_factory=deque)


class Workers:
    """``processes`` worker processes shared fairly by keys and clients (see the
    module docstring): heavy jobs use at most ``heavy_slots`` of them at once, and one
    client runs at most ``per_client`` jobs that are not light (default: half the
    heavy slots, at least one)."""

    def __init__(
        self,
        processes: int,
        heavy_slots: int,
        *,
        per_client: int | None = None,
        niceness: int = NICENESS,
    ) -> None:
        if not 1 <= heavy_slots <= processes:
            raise ValueError(f"heavy_slots must be 1 to {processes}, not {heavy_slots}")
        self.processes = processes
        self.heavy_slots = heavy_slots
        self.per_client = max(1, heavy_slots // 2) if per_client is None else per_client
        if self.per_client < 1:
            raise ValueError(f"per_client must be 1 or more, not {per_client}")
        self._free = [Worker(niceness) for _ in range(processes)]
        self._keys: dict[str, _Key] = {}
        self._clients: dict[str, _Client] = {}
        #: The cost each kind of job was last measured at.
        self._kinds: OrderedDict[str, Cost] = OrderedDict()
        self._heavy_running = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._warming: list[asyncio.Future[None]] = []
        self._closed = False

    async def run(
        self,
        key: str,
        name: str,
        *args: Any,
        timeout: float | None,
        light: bool = False,
        client: str | None = None,
        kind: str | None = None,
    ) -> Any:
        """Run job ``name`` on ``args`` for ``key`` once a worker is free for it; its
        result. ``client``: whose share it counts against (default: ``key``); ``kind``:
        what its cost is measured under, shared by every key (a bot's game, name and
        options). ``light``: what a job of a kind and key never measured is taken for
        (a request that is quick by nature); else it is *unknown* until measured."""
        if self._closed:
            raise JobFailed("the server is stopping")
        entry = self._keys.get(key)
        if entry is None:
            entry = self._keys[key] = _Key(client or key)
        elif client is not None:
            entry.client = client
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        entry.waiting.append(_Job(name, args, timeout, future, kind, light))
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

    def cost(self, key: str, kind: str | None = None, light: bool = False) -> Cost:
        """What a job of ``kind`` for ``key`` is taken to cost now: its kind's last
        measurement, else its key's last job's, else light if ``light``, else unknown."""
        if kind is not None and kind in self._kinds:
            return self._kinds[kind]
        entry = self._keys.get(key)
        if entry is not None and entry.last is not None:
            return entry.last
        return "light" if light else "unknown"

    def _client(self, name: str) -> _Client:
        found = self._clients.get(name)
        if found is None:
            found = self._clients[name] = _Client()
        return found

    def _dispatch(self) -> None:
        now = time.monotonic()
        while self._free:
            best: tuple[tuple[bool, float, float], str, _Key, Cost] | None = None
            for name, entry in self._keys.items():
                if not entry.waiting or entry.running:
                    continue
                job = entry.waiting[0]
                cost = self.cost(name, job.kind, job.light)
                client = self._client(entry.client)
                if cost != "light" and client.running >= self.per_client:
                    continue  # the client's share of long work is in use
                if cost == "heavy" and self._heavy_running >= self.heavy_slots:
                    continue  # long work leaves a worker to the rest
                # Jobs known to be long go last; then the lightest user goes first.
                rank = (cost == "heavy", client.use.decayed(now), entry.use.decayed(now))
                if best is None or rank < best[0]:
                    best = (rank, name, entry, cost)
            if best is None:
                break
            _, _, entry, cost = best
            job = entry.waiting.popleft()
            if job.future.cancelled():  # its caller went away
                continue
            # The worker that ran the key's last job, if free: its caches are warm.
            worker = entry.worker if entry.worker in self._free else self._free[-1]
            self._free.remove(worker)
            entry.running = True
            if cost != "light":
                self._client(entry.client).running += 1
            self._heavy_running += cost == "heavy"
            task = asyncio.create_task(self._execute(worker, entry, job, cost))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        if len(self._keys) > 1000:
            self._forget(now)

    async def _execute(self, worker: Worker, entry: _Key, job: _Job, cost: Cost) -> None:
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
            measured: Cost = "light" if cpu < LIGHT_CPU else "heavy"
            client = self._client(entry.client)
            entry.use.charge(cpu, now)
            client.use.charge(cpu, now)
            entry.last, entry.worker = measured, worker
            if job.kind is not None:
                self._kinds[job.kind] = measured
                self._kinds.move_to_end(job.kind)
                while len(self._kinds) > KINDS_KEPT:
                    self._kinds.popitem(last=False)
            entry.running = False
            if cost != "light":
                client.running -= 1
            self._heavy_running -= cost == "heavy"
            if self._closed:
                worker.close()
            else:
                self._free.append(worker)
                self._dispatch()

    def _forget(self, now: float) -> None:
        """Drop the keys and clients with nothing to do whose use has decayed to nothing."""
        self._keys = {
            name: k
            for name, k in self._keys.items()
            if k.waiting or k.running or k.use.decayed(now) > 0.01
        }
        busy = {k.client for k in self._keys.values()}
        self._clients = {
            name: c
            for name, c in self._clients.items()
            if name in busy or c.running or c.use.decayed(now) > 0.01
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
        self,
        key: str,
        name: str,
        *args: Any,
        timeout: float | None,
        light: bool = False,
        client: str | None = None,
        kind: str | None = None,
    ) -> Any:
        from . import jobs

        return await asyncio.wait_for(asyncio.to_thread(jobs.JOBS[name], *args), timeout)

    async def ready(self) -> None:
        return None

    def close(self) -> None:
        return None
