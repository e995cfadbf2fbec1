"""The ASGI application of ``peloton serve``: routes, the WebSocket loop, start and stop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import errors as e
from .errors import ApiError, ProtocolError
from .http import api, competition_api, editor, profile_api, rules, seat_api, tutorial
from .limits import ClientGate, Limits, QuietLog
from .live import chat
from .live import messages as p
from .live.bot_turns import MarkClient
from .live.competitions import Competitions
from .live.table import Connection, LiveTable
from .live.tables import Tables
from .storage import database, store
from .transport import ABORT
from .work.replays import ReplayCache
from .work.solver import SOLVER_SECONDS, SolverService
from .work.workers import Workers

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

#: A connection's messages are read at this many a second at most (after a burst of
#: :data:`MESSAGE_BURST`): a client sending faster is read more slowly, not refused.
MESSAGES_PER_SECOND = 100.0
MESSAGE_BURST = 100.0


def worker_counts() -> tuple[int, int]:
    """Worker processes and heavy slots: one more process than cores (at least 3, at
    most 9), every one but one open to heavy work, so quick work always finds one."""
    processes = max(2, min(os.cpu_count() or 2, 8)) + 1
    return processes, processes - 1


async def _refuse(websocket: WebSocket, message: str) -> None:
    """Refuse a WebSocket before its handshake: ``429`` with a JSON error."""
    answer = JSONResponse({"error": {"code": e.RATE_LIMITED, "message": message}}, status_code=429)
    try:
        await websocket.send_denial_response(answer)
    except RuntimeError:  # a server without the denial extension: a plain refusal
        await websocket.close(code=1008)


async def table_socket(websocket: WebSocket) -> None:
    """``/ws/tables/{id}``: one client's messages, answered per docs/protocol.md (at
    most :attr:`~.limits.Limits.sockets_per_client` open at once per client address,
    :attr:`~.limits.Limits.sockets_per_minute` opened a minute)."""
    tables: Tables = websocket.app.state.tables
    gate: ClientGate = websocket.app.state.gate
    client = websocket.client.host if websocket.client else "?"
    wait = gate.socket_opens.allow(client)
    if wait > 0:
        await _refuse(websocket, f"you opened many connections this minute: wait {wait:.0f} s")
        return
    if not gate.sockets.take(client):
        await _refuse(
            websocket, f"you hold {gate.sockets.held(client)} connections: close some first"
        )
        return
    try:
        await _serve_socket(websocket, tables)
    finally:
        gate.sockets.give_back(client)


async def handle_frame(app: Starlette, table: LiveTable, conn: Connection, raw: Any) -> None:
    """Answer one client frame of ``table``: the same whether the client's socket is
    on this process or relayed from another node of a cluster (:mod:`.cluster.node`)."""
    tables: Tables = app.state.tables
    chats: chat.Chats = app.state.chats
    try:
        message = p.parse_message(raw)
        if isinstance(message, p.Ping):
            if not conn.greeted:
                raise ProtocolError(e.HELLO_FIRST, "send 'hello' before anything else")
            conn.send(p.PONG)
        elif isinstance(message, p.Hello):
            await tables.hello(table, conn, message)
        elif isinstance(message, p.ChatLog):
            await chats.greet(table, conn)
        elif isinstance(message, p.ChatPost):
            await chats.post(table, conn, message)
        elif isinstance(message, p.ChatMute):
            await chats.mute(table, conn, message)
        else:
            await tables.move(table, conn, message)
    except ProtocolError as exc:
        conn.send(p.error(exc.code, exc.message))
    except Exception as exc:  # a bug must not cost the client its table
        log.exception("table %s: message not handled", table.id)
        conn.send(
            p.error(
                e.INTERNAL,
                f"the server failed to handle this message ({type(exc).__name__})",
            )
        )


async def _frames(websocket: WebSocket) -> AsyncIterator[Any]:
    """A client's frames (text or bytes) until it goes away, a fast sender's read more
    slowly (it waits, the others do not)."""
    tokens, refilled = MESSAGE_BURST, time.monotonic()
    while True:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        now = time.monotonic()
        tokens = min(MESSAGE_BURST, tokens + (now - refilled) * MESSAGES_PER_SECOND)
        refilled = now
        tokens -= 1
        if tokens < 0:
            await asyncio.sleep(-tokens / MESSAGES_PER_SECOND)
        if frame["type"] == "websocket.disconnect":
            return
        raw = frame.get("text")
        yield frame.get("bytes") if raw is None else raw


async def _serve_socket(websocket: WebSocket, tables: Tables) -> None:
    await websocket.accept()
    cluster = getattr(websocket.app.state, "cluster", None)
    if cluster is not None:  # cluster mode: the table may be held by another node
        owner = await cluster.route(websocket.path_params["id"])
        if owner is not None:
            await cluster.relay(websocket, websocket.path_params["id"], owner, _frames(websocket))
            return
    table = tables.tables.get(websocket.path_params["id"])
    if table is None:
        await websocket.send_text(p.error(e.NOT_FOUND, f"no table {websocket.path_params['id']!r}"))
        await websocket.close(code=4404)
        return
    abort = websocket.scope.get("extensions", {}).get(ABORT, {}).get("abort")
    conn = Connection(websocket, abort)
    try:
        async for raw in _frames(websocket):
            await handle_frame(websocket.app, table, conn, raw)
            if conn.dropped:
                break
    finally:
        tables.disconnect(table, conn)


def _starting(url: str) -> contextlib.AbstractContextManager[None]:
    from .cluster.node import starting

    return starting(url)


async def _start_node(app: Starlette, tables: Tables, broker_url: str) -> Any:
    """Start this process as a node of a cluster (:mod:`.cluster.node`): it takes the
    unfinished tables nobody holds, and serves the others through their owners."""
    from .cluster import broker
    from .cluster.leases import Leases
    from .cluster.node import LEASE_SECONDS, Cluster

    hub = broker.connect(broker_url)
    leases = Leases(tables.engine, hub.node, ttl=LEASE_SECONDS)

    async def handle(table: LiveTable, conn: Connection, raw: Any) -> None:
        await handle_frame(app, table, conn, raw)

    node = Cluster(app, tables, hub, leases, handle)
    await node.start()
    app.state.cluster = node
    return node


def create_app(
    db_url: str | None = None,
    *,
    bot_delay: float = 0.4,
    solver_seconds: float = SOLVER_SECONDS,
    limits: Limits | None = None,
    broker_url: str | None = None,
) -> Starlette:
    """The web table: lobby API, table pages, live play; stored in ``db_url``
    (default: a SQLite file in the user's data directory). A solo table's solver line
    takes at most ``solver_seconds``; ``limits`` are the per-client limits (default:
    :class:`~.limits.Limits`' defaults). With ``broker_url`` (``redis://…``) the app is
    one node of a cluster sharing the database ``db_url`` (PostgreSQL) with the others
    (:mod:`.cluster.node`, docs/deployment.md); ``None``: one process serving every table."""
    url = db_url or database.default_db_url()
    limits = limits or Limits()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        processes, heavy = worker_counts()
        workers = Workers(processes, heavy)  # they start while the tables load
        warming = asyncio.ensure_future(workers.ready())
        # Cluster mode: the nodes start one at a time (the schema is made once).
        lock = contextlib.nullcontext() if broker_url is None else _starting(url)
        await run_in_threadpool(lock.__enter__)
        try:
            engine = await run_in_threadpool(database.create_db_engine, url)
            writer = store.Writer(engine)
            tables = Tables(writer, engine, workers, bot_delay=bot_delay)
            node = None
            if broker_url is None:
                await run_in_threadpool(tables.load)
            else:  # only the tables this node takes (the others are held elsewhere)
                node = await _start_node(app, tables, broker_url)
            competitions = Competitions(tables)
            await run_in_threadpool(competitions.load)
            await profile_api.start(app, tables)
            # Cluster mode: challenges and ratings are shared through the database.
            app.state.profiles.shared = app.state.ratings.shared = node is not None
        finally:
            await run_in_threadpool(lock.__exit__, None, None, None)
        await warming
        app.state.tables = tables
        app.state.workers = workers
        app.state.gate = ClientGate(limits)
        app.state.replays = ReplayCache()
        app.state.solver = SolverService(solver_seconds, per_client=limits.solves_per_client)
        app.state.competitions = competitions
        app.state.chats = chat.Chats(
            writer, engine, per_client=limits.chat_per_client, profiles=app.state.profiles
        )
        tables.start_bots()
        await competitions.resume()
        try:
            yield
        finally:
            app.state.solver.close()
            await tables.stop()
            if node is not None:
                await node.stop()
            workers.close()
            await run_in_threadpool(writer.close)
            engine.dispose()

    routes = [
        Route("/", api.lobby_page),
        Route("/table/{id}", api.table_page),
        Route("/editor", editor.editor_page),
        Route("/api/editor/check", editor.check_draft, methods=["POST"]),
        Route("/api/games", api.list_games),
        Route("/api/courses", api.courses),
        Route("/api/courses/check", api.check_course, methods=["POST"]),
        Route("/api/tables", api.list_tables, methods=["GET"]),
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables/{id}", api.table_detail),
        Route("/api/tables/{id}/join", api.join_table, methods=["POST"]),
        Route("/api/tables/{id}/rematch", api.rematch_table, methods=["POST"]),
        Route("/api/tables/{id}/record", api.table_record),
        Route("/api/tables/{id}/replay", api.table_replay),
        Route("/api/tables/{id}/solver", api.table_solver),
        Route("/api/replay", api.upload_replay, methods=["POST"]),
        *competition_api.ROUTES,
        *profile_api.ROUTES,
        *seat_api.ROUTES,
        *chat.ROUTES,
        *tutorial.ROUTES,
        Route("/rules", rules.index_page),
        Route("/rules/{game}", rules.game_page),
        Route("/api/rules", rules.api_index),
        Route("/api/rules/{game}", rules.api_rules),
        Route("/api/rules/{game}/terms", rules.api_terms),
        WebSocketRoute("/ws/tables/{id}", table_socket),
        Mount("/static", StaticFiles(directory=api.WEB_DIR, check_dir=False), name="static"),
    ]
    # Every request's code knows its client (a new table's bots count as its creator's).
    middleware = [Middleware(MarkClient)]
    if broker_url is not None:  # cluster mode: a table's requests go to its node
        from .cluster.forward import Forwarding

        middleware.insert(0, Middleware(Forwarding))
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={ApiError: api.api_error, 404: api.not_found},
    )
    app.state.broker_url = broker_url
    return app
