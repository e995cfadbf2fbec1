"""Running the web table under uvicorn (what ``peloton serve`` does).

SIGTERM (a service manager's stop, ``kill``) stops the server as Ctrl-C does: the
connections are closed, the running clocks saved, a cluster node's leases given back
and the worker processes ended; then ``peloton serve`` prints a last line
(:data:`STOPPED`) and exits with code 0 (a stop asked for is no failure; Ctrl-C
still exits 130, an interrupted command's code). However the server ends, even by
SIGKILL, its worker processes end with it (:func:`.work.workers.die_with_server`).
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import sys
from collections.abc import Iterator

import uvicorn

from .app import create_app
from .cluster import broker, supervisor
from .lateness import LatenessMonitor, monitor_if_asked, report
from .limits import KEEP_ALIVE_SECONDS, Limits
from .storage import database
from .transport import HttpProtocol, WebSocketProtocol

#: The last line ``peloton serve`` prints once it has stopped (then the signal's name).
STOPPED = "Peloton stopped"

#: Frames up to this size reach the protocol, which answers ``too_large`` above
#: 4096 bytes; larger frames close the connection (WebSocket code 1009).
WS_MAX_FRAME = 64 * 1024


class _Server(uvicorn.Server):
    """A uvicorn server that prints its address once it accepts connections."""

    address = ""
    lateness: LatenessMonitor | None = None
    #: The signal that stopped the server, if one did.
    stopped_by: int | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """uvicorn's, but a SIGTERM is not raised again once the server has stopped:
        uvicorn does so to die of it (exit code -15, "Terminated" under make), after the
        clean stop it already made."""
        with super().capture_signals():
            yield
            captured: list[int] = getattr(self, "_captured_signals", [])
            if captured:
                self.stopped_by = captured[-1]
            if signal.SIGTERM in captured:
                captured[:] = [s for s in captured if s != signal.SIGTERM]

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            self.lateness = monitor_if_asked()
            quiet_gc()
            print(f"Peloton is serving on {self.address}", flush=True)
            print("Press Ctrl-C to stop.", flush=True)


def quiet_gc() -> None:
    """Keep the cyclic garbage collector's pauses short.

    A full collection scans every tracked object: the libraries, the loaded tables
    and the engine's memo of moves. On a busy server that took 70-200 ms, stalling
    every table at once. So what is alive now (after start-up) and what survives each
    full collection is frozen: later collections scan only newer objects. The cost is
    that a frozen object that later becomes part of a garbage cycle is never freed;
    the server's long-lived objects (tables, states, moves) are freed by reference
    counting, not by the cycle collector.
    """
    gc.collect()
    gc.freeze()

    def freeze_survivors(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            gc.freeze()

    gc.callbacks.append(freeze_survivors)


def serve(
    host: str,
    port: int,
    db_url: str | None,
    bot_delay: float,
    solver_seconds: float = 20.0,
    limits: str = "default",
    broker_url: str | None = None,
    workers: int = 1,
    socket_fd: int | None = None,
) -> int:
    """Serve until interrupted; the exit code. ``port`` 0 picks a free port;
    ``limits``: the per-client limits, ``default`` or ``relaxed`` (:mod:`.limits`).

    With ``broker_url`` this process is a node of a cluster (issue 19: the database is
    PostgreSQL, shared by every node); with ``workers`` > 1 it binds the port and
    supervises that many node processes sharing it (:mod:`.cluster.supervisor`). A worker
    gets the shared socket as ``socket_fd``."""
    url = db_url or database.default_db_url()
    if socket_fd is not None:  # a worker of `--workers`: the parent bound and checked
        try:
            sock = socket.socket(fileno=socket_fd)
        except OSError as exc:
            print(f"peloton: error: --socket-fd {socket_fd}: {exc.strerror}", file=sys.stderr)
            return 1
        supervisor.watch_parent()
    else:
        bound_sock = _bind(host, port)
        if bound_sock is None:
            return 1
        sock = bound_sock
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if sock.family == socket.AF_INET6 else host
    address = f"http://{shown}:{bound}"
    if socket_fd is None and not _reachable(url, broker_url):
        return 1
    if workers > 1:
        command = [sys.executable, "-m", "peloton", "serve", "--host", host, "--port", str(bound)]
        command += ["--bot-delay", str(bot_delay), "--solver-seconds", str(solver_seconds)]
        command += ["--limits", limits]
        # The URLs go by environment, not argument: a password is not shown by `ps`.
        os.environ["PELOTON_DB_URL"] = url
        if broker_url is not None:
            os.environ["PELOTON_BROKER_URL"] = broker_url
        sock.listen(2048)  # connections wait in the queue while the workers start
        return supervisor.Supervisor(command, sock, workers, address).run()
    config = uvicorn.Config(
        create_app(
            url,
            bot_delay=bot_delay,
            solver_seconds=solver_seconds,
            limits=Limits.named(limits),
            broker_url=broker_url,
        ),
        log_level="warning",
        access_log=False,
        # uvicorn's protocols, with a deadline for every request to arrive and a way
        # to drop a WebSocket client that stopped reading (issue 11).
        http=HttpProtocol,
        ws=WebSocketProtocol,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        ws_max_size=WS_MAX_FRAME,
        # Snapshots are a few KB: compressing every update costs more CPU than it saves.
        ws_per_message_deflate=False,
        lifespan="on",
    )
    server = _Server(config)
    server.address = address
    try:
        server.run(sockets=[sock])
    finally:
        report(server.lateness)
        if server.started:
            why = (
                "" if server.stopped_by is None else f" ({signal.Signals(server.stopped_by).name})"
            )
            print(f"{STOPPED}{why}: every table saved, every worker process ended.", flush=True)
    if not server.started:
        print(
            "peloton: error: the server could not start (see the messages above)", file=sys.stderr
        )
        return 1
    return 0


def _bind(host: str, port: int) -> socket.socket | None:
    """The listening socket on ``host``:``port``, or ``None`` (the error printed)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).rstrip(".")
        print(f"peloton: error: cannot listen on {host}:{port}: {reason}", file=sys.stderr)
        sock.close()
        return None
    return sock


def _reachable(url: str, broker_url: str | None) -> bool:
    """Whether the database (made ready: created or migrated, once, before any worker
    starts) and the broker answer; else the reason is printed."""
    checks = [("database", "open", url, database.safe_url, database.unreachable)]
    if broker_url is not None:
        checks.append(("broker", "reach", broker_url, broker.safe_url, broker.unreachable))
    for what, verb, address, safe, unreachable in checks:
        print(f"Peloton {what}: {safe(address)}", flush=True)
        problem = unreachable(address)
        if problem is not None:
            print(
                f"peloton: error: cannot {verb} the {what} {safe(address)}: {problem}",
                file=sys.stderr,
            )
            return False
    return True
