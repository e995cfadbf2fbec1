"""``peloton serve``: the web table, one process or a node of a cluster (the server's
modules load only when it starts)."""

from __future__ import annotations

from typing import Annotated

import typer

from .base import EXIT_USAGE, fail
from .help import Command


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``."""
    app.command(cls=Command)(serve)


# ---------------------------------------------------------------- serve


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            envvar="PELOTON_DB_URL",
            help="Database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB "
            "(default: a SQLite file in your data directory).",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.")] = 0.4,
    solver_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds the solo solver may spend on a solo table's course, from the moment it is asked for."
        ),
    ] = 20.0,
    limits: Annotated[
        str,
        typer.Option(
            help="Per-client limits: 'default' (per client address: 30 new tables a minute, 50 open "
            "connections, 240 new connections a minute, one solver run, two checks or replays at once) "
            "or 'relaxed' (none: for tests, benchmarks and trusted networks where every client has one address)."
        ),
    ] = "default",
    broker: Annotated[
        str | None,
        typer.Option(
            envvar="PELOTON_BROKER_URL",
            help="Cluster mode: the Redis that carries messages between the nodes, "
            "redis://HOST:PORT/DB. Every node serves every table (it relays to the node that "
            "runs it); needs a PostgreSQL --db shared by every node (docs/deployment.md).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Node processes on this machine, sharing the port (cluster mode: more than 1 "
            "needs --broker and a PostgreSQL --db). A worker that dies is started again."
        ),
    ] = 1,
    socket_fd: Annotated[
        int | None, typer.Option(hidden=True, help="A worker's inherited listening socket.")
    ] = None,
) -> None:
    """Serve the web table: lobby, live games, spectators and replays (one process; or,
    with --broker, a node of a cluster: docs/deployment.md)."""
    if not 0 <= port <= 65535:
        raise fail(f"--port must be 0 (any free port) to 65535, not {port}", EXIT_USAGE)
    if bot_delay < 0:
        raise fail(f"--bot-delay must be 0 or more seconds, not {bot_delay}", EXIT_USAGE)
    if not solver_seconds > 0:
        raise fail(f"--solver-seconds must be more than 0, not {solver_seconds}", EXIT_USAGE)
    if limits not in ("default", "relaxed"):
        raise fail(f"--limits must be 'default' or 'relaxed', not {limits!r}", EXIT_USAGE)
    check_cluster(db, broker, workers)
    from ..server.run import serve as run_server  # the server's dependencies load only here

    code = run_server(host, port, db, bot_delay, solver_seconds, limits, broker, workers, socket_fd)
    raise typer.Exit(code)


def check_cluster(db: str | None, broker: str | None, workers: int) -> None:
    """Refuse, with what to give, a cluster asked for without what it needs: a Redis
    broker and a PostgreSQL database shared by every node."""
    from ..server.cluster.broker import check_url  # light: the Redis client loads only to connect

    if workers < 1:
        raise fail(f"--workers must be 1 or more, not {workers}", EXIT_USAGE)
    if broker is not None:
        try:
            check_url(broker)
        except ValueError as exc:
            raise fail(f"--broker: {exc}", EXIT_USAGE) from None
    postgres = db is not None and db.split(":", 1)[0].split("+", 1)[0] in ("postgresql", "postgres")
    needs = (
        "cluster mode needs a Redis broker and a PostgreSQL database shared by every node: "
        "give --broker redis://HOST:PORT/DB and --db postgresql://USER:PASSWORD@HOST/DB"
    )
    if workers > 1 and broker is None:
        raise fail(
            f"--workers {workers} runs a cluster: {needs} (or leave --workers out)", EXIT_USAGE
        )
    if broker is not None and not postgres:
        what = "the default SQLite file" if db is None else f"{db.split(':', 1)[0]}"
        raise fail(f"--broker runs a cluster, not on {what}: {needs}", EXIT_USAGE)
