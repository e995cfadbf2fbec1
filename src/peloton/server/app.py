"""The ASGI application of ``peloton serve``: routes, the WebSocket loop, start and stop."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import api, storage
from . import errors as e
from . import protocol as p
from .errors import ApiError, ProtocolError
from .live import Connection
from .solver import SOLVER_SECONDS, SolverService
from .tables import Tables

log = logging.getLogger("peloton.server")


async def table_socket(websocket: WebSocket) -> None:
    """``/ws/tables/{id}``: one client's messages, answered per docs/protocol.md."""
    tables: Tables = websocket.app.state.tables
    await websocket.accept()
    table = tables.tables.get(websocket.path_params["id"])
    if table is None:
        await websocket.send_text(p.error(e.NOT_FOUND, f"no table {websocket.path_params['id']!r}"))
        await websocket.close(code=4404)
        return
    conn = Connection(websocket)
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            raw = frame.get("text")
            if raw is None:
                raw = frame.get("bytes")
            try:
                message = p.parse_message(raw)
                if isinstance(message, p.Ping):
                    if not conn.greeted:
                        raise ProtocolError(e.HELLO_FIRST, "send 'hello' before anything else")
                    conn.send(p.PONG)
                elif isinstance(message, p.Hello):
                    await tables.hello(table, conn, message)
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
    except WebSocketDisconnect:
        pass
    finally:
        tables.disconnect(table, conn)


def create_app(
    db_url: str | None = None, *, bot_delay: float = 0.4, solver_seconds: float = SOLVER_SECONDS
) -> Starlette:
    """The web table: lobby API, table pages, live play; stored in ``db_url``
    (default: a SQLite file in the user's data directory). A solo table's solver line
    takes at most ``solver_seconds``."""
    url = db_url or storage.default_db_url()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        engine = await run_in_threadpool(storage.create_db_engine, url)
        writer = storage.Writer(engine)
        tables = Tables(writer, engine, bot_delay=bot_delay)
        await run_in_threadpool(tables.load)
        app.state.tables = tables
        app.state.solver = SolverService(solver_seconds)
        tables.start_bots()
        try:
            yield
        finally:
            app.state.solver.close()
            await tables.stop()
            await run_in_threadpool(writer.close)
            engine.dispose()

    routes = [
        Route("/", api.lobby_page),
        Route("/table/{id}", api.table_page),
        Route("/api/games", api.list_games),
        Route("/api/courses", api.courses),
        Route("/api/courses/check", api.check_course, methods=["POST"]),
        Route("/api/tables", api.list_tables, methods=["GET"]),
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables/{id}", api.table_detail),
        Route("/api/tables/{id}/join", api.join_table, methods=["POST"]),
        Route("/api/tables/{id}/record", api.table_record),
        Route("/api/tables/{id}/replay", api.table_replay),
        Route("/api/tables/{id}/solver", api.table_solver),
        Route("/api/replay", api.upload_replay, methods=["POST"]),
        WebSocketRoute("/ws/tables/{id}", table_socket),
        Mount("/static", StaticFiles(directory=api.WEB_DIR, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={ApiError: api.api_error})
