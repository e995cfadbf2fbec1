"""Running the web table under uvicorn (what ``peloton serve`` does)."""

from __future__ import annotations

import gc
import socket
import sys

import uvicorn

from . import database
from .app import create_app
from .lateness import LatenessMonitor, monitor_if_asked, report
from .limits import KEEP_ALIVE_SECONDS, Limits
from .protocols import HttpProtocol, WebSocketProtocol

#: Frames up to this size reach the protocol, which answers ``too_large`` above
#: 4096 bytes; larger frames close the connection (WebSocket code 1009).
WS_MAX_FRAME = 64 * 1024


class _Server(uvicorn.Server):
    """A uvicorn server that prints its address once it accepts connections."""

    address = ""
    lateness: LatenessMonitor | None = None

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
) -> int:
    """Serve until interrupted; the exit code. ``port`` 0 picks a free port;
    ``limits``: the per-client limits, ``default`` or ``relaxed`` (:mod:`.limits`)."""
    url = db_url or database.default_db_url()
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except (OSError, OverflowError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc).rstrip(".")
        print(
            f"peloton: error: cannot listen on {host}:{port}: {reason}",
            file=sys.stderr,
        )
        return 1
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    print(f"Peloton database: {database.safe_url(url)}", flush=True)
    problem = database.unreachable(url)
    if problem is not None:
        print(
            f"peloton: error: cannot open the database {database.safe_url(url)}: {problem}",
            file=sys.stderr,
        )
        return 1
    config = uvicorn.Config(
        create_app(
            url, bot_delay=bot_delay, solver_seconds=solver_seconds, limits=Limits.named(limits)
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
    server.address = f"http://{shown}:{bound}"
    try:
        server.run(sockets=[sock])
    finally:
        report(server.lateness)
    if not server.started:
        print(
            "peloton: error: the server could not start (see the messages above)", file=sys.stderr
        )
        return 1
    return 0
