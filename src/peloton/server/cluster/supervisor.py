"""``peloton serve --workers N``: N node processes of one cluster on one machine,
sharing one listening socket (issue 19).

The parent binds the port once and hands the socket to each worker (an inherited
file descriptor: every worker accepts on it, the kernel spreads the connections).
Each worker is a whole ``peloton serve`` node of the cluster (its own node id,
tables, bots and clocks) on the shared database and broker. The parent only
supervises: it prints what the workers print (each line marked with the worker's
number: ``worker 2: Peloton is serving on …`` once it accepts connections; their
errors go to stderr unmarked), says when every worker serves, starts again a worker
that died (unless it keeps dying at once), and on Ctrl-C or SIGTERM stops every
worker before it exits (SIGTERM: exit code 0), its last line saying so once every
worker's own last line is printed. A worker whose parent dies (SIGKILL) stops by
itself (:func:`watch_parent`), and its own worker processes end with it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

#: A worker that dies within this many seconds of its start died "at once".
QUICK_DEATH_SECONDS = 10.0
#: After this many quick deaths in a row, a worker slot is given up on: the parent
#: stops everything (a worker that cannot start will not start the next time either).
QUICK_DEATHS_ALLOWED = 3
#: Seconds the workers have to stop after SIGTERM, before SIGKILL.
STOP_SECONDS = 20.0
#: What a worker prints once it accepts connections (run._Server).
SERVING = "Peloton is serving on "
#: How long a worker waits between checks that its parent is still alive.
PARENT_CHECK_SECONDS = 1.0


@dataclass
class Worker:
    """One worker slot: its process (started again when it dies)."""

    number: int
    proc: subprocess.Popen[str] | None = None
    started: float = 0.0
    quick_deaths: int = 0
    ready: threading.Event = field(default_factory=threading.Event)
    #: The thread printing its lines.
    relay: threading.Thread | None = None


class Supervisor:
    """Runs ``count`` workers, each ``command`` plus ``--socket-fd FD`` for the shared
    socket ``sock``; :meth:`run` returns the exit code."""

    def __init__(self, command: list[str], sock: socket.socket, count: int, address: str) -> None:
        self.command = command
        self.sock = sock
        self.count = count
        self.address = address
        self.workers = [Worker(n) for n in range(1, count + 1)]
        self.stopping: int | None = None  # the signal that asked to stop
        self.lock = threading.Lock()

    def _start(self, worker: Worker) -> None:
        fd = self.sock.fileno()
        worker.ready.clear()
        worker.proc = subprocess.Popen(
            [*self.command, "--socket-fd", str(fd)],
            stdout=subprocess.PIPE,
            # Its errors (and its event-loop lateness report) go straight to stderr.
            text=True,
            pass_fds=(fd,),
            # Its own session: Ctrl-C at a terminal reaches the parent only, which
            # stops each worker once, cleanly.
            start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        worker.started = time.monotonic()
        with self.lock:
            print(f"worker {worker.number}: started (process {worker.proc.pid})", flush=True)
        worker.relay = threading.Thread(target=self._relay, args=(worker, worker.proc), daemon=True)
        worker.relay.start()

    def _relay(self, worker: Worker, proc: subprocess.Popen[str]) -> None:
        """Print a worker's lines, marked with its number; note when it serves."""
        assert proc.stdout is not None
        for line in proc.stdout:
            text = line.rstrip("\n")
            if text.startswith(SERVING):
                worker.ready.set()
            elif text == "Press Ctrl-C to stop.":
                continue
            with self.lock:
                print(f"worker {worker.number}: {text}", flush=True)

    def _on_signal(self, signum: int, _frame: object) -> None:
        self.stopping = signum

    def run(self) -> int:
        """Start the workers, supervise them until a signal, stop them; the exit code."""
        previous = {
            sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            return self._supervise()
        finally:
            self._stop_all()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            why = "" if self.stopping is None else f" ({signal.Signals(self.stopping).name})"
            print(f"Peloton stopped{why}: its {self.count} workers ended.", flush=True)

    def _supervise(self) -> int:
        for worker in self.workers:
            self._start(worker)
        announced = False
        while self.stopping is None:
            if not announced and all(w.ready.is_set() for w in self.workers):
                with self.lock:
                    print(f"Peloton's {self.count} workers are serving.", flush=True)
                    print("Press Ctrl-C to stop.", flush=True)
                announced = True
            for worker in self.workers:
                assert worker.proc is not None
                code = worker.proc.poll()
                if code is None or self.stopping is not None:
                    continue
                lived = time.monotonic() - worker.started
                worker.quick_deaths = worker.quick_deaths + 1 if lived < QUICK_DEATH_SECONDS else 0
                if worker.quick_deaths >= QUICK_DEATHS_ALLOWED:
                    print(
                        f"peloton: error: worker {worker.number} died {worker.quick_deaths} times "
                        f"right after starting (exit code {code}): stopping (see its messages above)",
                        file=sys.stderr,
                        flush=True,
                    )
                    return 1
                with self.lock:
                    print(
                        f"worker {worker.number}: died (exit code {code}): starting it again",
                        flush=True,
                    )
                self._start(worker)
            time.sleep(0.1)
        if self.stopping == signal.SIGINT:
            return 130  # what an interrupted command exits with
        return 0

    def _stop_all(self) -> None:
        running = [w.proc for w in self.workers if w.proc is not None and w.proc.poll() is None]
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for proc in running:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for worker in self.workers:  # their last lines before the parent's
            if worker.relay is not None:
                worker.relay.join(timeout=5)


def watch_parent() -> None:
    """In a worker: stop (SIGTERM to itself) if the supervising parent is gone, so that
    no worker outlives a parent killed with SIGKILL."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, daemon=True, name="watch-parent").start()
