"""HTTP handlers of docs/protocol.md ("HTTP API"): games, courses, tables, joining,
records, replays. What a viewer is shown is built by :mod:`.views`; what is done to
a table by :class:`~.tables.Tables`.

For a game with hidden information the table detail, the record and the
replay are given as their viewer may see them: the seat of the token in an
``Authorization: Bearer <token>`` header, or a spectator without one.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ..core import record as core_record
from ..core.errors import CourseError, PelotonError, RecordError
from ..core.registry import FIRST_GAME
from . import games, views
from .errors import BAD_RECORD, BAD_REQUEST, NOT_FOUND, TOO_LARGE, ApiError
from .live import FINISHED, OPEN, RUNNING, LiveTable
from .tables import Tables

#: The largest request body accepted (a record of a long game is about 20 KB).
MAX_BODY = 1 << 20
WEB_DIR = Path(__file__).resolve().parent.parent / "web"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Peloton</title></head>
<body><h1>Peloton</h1><p>The web front end ({page}) is not installed yet.
The API is described in docs/protocol.md; try <a href="/api/tables">/api/tables</a>.</p></body></html>
"""


def tables_of(request: Request) -> Tables:
    """The server's tables."""
    found: Tables = request.app.state.tables
    return found


async def read_json(request: Request) -> Any:
    """The request's JSON body; a 400 if it is too large or not JSON."""
    body = await _body(request)
    try:
        return json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise ApiError(400, BAD_REQUEST, f"the request body is not valid JSON: {exc}") from None


async def _body(request: Request) -> bytes:
    """The request body, read up to :data:`MAX_BODY` bytes."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise ApiError(413, TOO_LARGE, f"request body over {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise ApiError(
            400, BAD_REQUEST, "the client went away before sending its request"
        ) from None
    return b"".join(chunks)


def page(name: str) -> Response:
    """A page of the web front end (read on each request), or a placeholder."""
    path = WEB_DIR / name
    if path.is_file():
        return HTMLResponse(path.read_text(encoding="utf-8"))
    return HTMLResponse(PLACEHOLDER.format(page=name))


async def lobby_page(request: Request) -> Response:
    """``GET /``."""
    return page("index.html")


async def table_page(request: Request) -> Response:
    """``GET /table/{id}``."""
    tables_of(request).get(request.path_params["id"])
    return page("table.html")


def viewer_of(request: Request, table: LiveTable) -> str | None:
    """The seat of the request's token (``Authorization: Bearer <token>``), or
    ``None`` (a spectator) without one; ``403 bad_token`` for a wrong token."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(400, BAD_REQUEST, "the Authorization header must be 'Bearer <seat token>'")
    return tables_of(request).seat_of_token(table, token.strip())


async def list_games(request: Request) -> Response:
    """``GET /api/games``: the games a table may play, their options, seats and bots."""
    found = await run_in_threadpool(lambda: [views.game(spec) for spec in games.available()])
    return JSONResponse({"games": found})


def course_game(name: Any) -> games.GameSpec:
    """The game with courses that a courses request is about (the first game by default)."""
    name = FIRST_GAME if name is None else name
    try:
        game = games.spec(name) if isinstance(name, str) else None
    except PelotonError:
        game = None
    if game is None or game.course_cls is None:
        raise ApiError(400, BAD_REQUEST, f"{name!r} is not a game with courses")
    return game


async def courses(request: Request) -> Response:
    """``GET /api/courses[?game=...]``: a game's bundled courses."""
    game = course_game(request.query_params.get("game"))
    return JSONResponse({"courses": await run_in_threadpool(game.courses)})


async def check_course(request: Request) -> Response:
    """``POST /api/courses/check``: validate a course text (TOML or JSON) or object."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ApiError(400, BAD_REQUEST, 'send {"text": "...", "format": "toml" | "json"}')
    course_cls = course_game(body.get("game")).course_cls
    try:
        if isinstance(body.get("course"), dict):
            course = course_cls.from_dict(body["course"])
        else:
            text, fmt = body.get("text"), body.get("format")
            if not isinstance(text, str):
                raise ApiError(
                    400, BAD_REQUEST, f"'text' must be the course file's text, not {text!r}"
                )
            if fmt is None:
                fmt = "json" if text.lstrip().startswith("{") else "toml"
            if fmt not in ("toml", "json"):
                raise ApiError(400, BAD_REQUEST, f"'format' must be 'toml' or 'json', not {fmt!r}")
            course = course_cls.from_text(text, toml=fmt == "toml", source="uploaded course")
    except CourseError as exc:
        return JSONResponse({"ok": False, "problems": exc.problems})
    return JSONResponse({"ok": True, "course": course.to_dict()})


async def list_tables(request: Request) -> Response:
    """``GET /api/tables[?status=open|running|finished]``, newest first."""
    status = request.query_params.get("status")
    if status is not None and status not in (OPEN, RUNNING, FINISHED):
        raise ApiError(
            400, BAD_REQUEST, f"status must be open, running or finished, not {status!r}"
        )
    return JSONResponse({"tables": [views.summary(t) for t in tables_of(request).find(status)]})


async def create_table(request: Request) -> Response:
    """``POST /api/tables``."""
    table = await tables_of(request).create(await read_json(request))
    return JSONResponse({"id": table.id, "url": f"/table/{table.id}"}, status_code=201)


async def table_detail(request: Request) -> Response:
    """``GET /api/tables/{id}``: the full summary, the viewer's seat and snapshot."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    await tables.ensure_state(table)
    return JSONResponse(views.detail(table, viewer))


async def table_solver(request: Request) -> Response:
    """``GET /api/tables/{id}/solver``: the solver's best line for a solo table
    (``running`` until the solve is done)."""
    table = tables_of(request).get(request.path_params["id"])
    if len(table.seats) != 1 or table.spec.solve_solo_fn is None:
        raise ApiError(
            400, BAD_REQUEST, "only a solo table of a game with a solver has a solver line"
        )
    return JSONResponse(request.app.state.solver.answer(table.spec.name, table.options))


async def join_table(request: Request) -> Response:
    """``POST /api/tables/{id}/join``: a seat token."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    return JSONResponse(await tables.join(table, await read_json(request)))


async def table_record(request: Request) -> Response:
    """``GET /api/tables/{id}/record``: the game record, as a download."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    data = await tables.record_for(table, viewer)
    return Response(
        json.dumps(data, indent=1) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="peloton-{table.id}.json"'},
    )


async def table_replay(request: Request) -> Response:
    """``GET /api/tables/{id}/replay``: the viewer's replay of the moves so far."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    await tables.ensure_state(table)
    texts = list(table.texts)  # the moves so far; the table plays on meanwhile
    return JSONResponse(await run_in_threadpool(views.table_replay, table, texts, viewer))


def _uploaded_replay(body: bytes) -> dict[str, Any]:
    """The replay of an uploaded record of any game (blocking). A record of a game this
    server does not host is refused by the first game's loader, whose message names
    the record's game."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None
    data = core_record.decode_record(text)
    try:
        game = games.spec(data["game"])
    except PelotonError:
        game = games.spec(FIRST_GAME)
    record = game.module.Record.from_dict(data)
    return views.record_replay(game, record)


async def upload_replay(request: Request) -> Response:
    """``POST /api/replay``: replay an uploaded record, or ``400 bad_record``."""
    body = await _body(request)
    try:
        answer = await run_in_threadpool(_uploaded_replay, body)
    except RecordError as exc:
        raise ApiError(400, BAD_RECORD, str(exc), index=exc.index) from None
    except PelotonError as exc:  # defensive: the loader should only raise RecordError
        raise ApiError(400, BAD_RECORD, str(exc), index=None) from None
    return JSONResponse(answer)


async def api_error(request: Request, exc: Exception) -> Response:
    """An :class:`ApiError` as its JSON answer."""
    assert isinstance(exc, ApiError)
    if exc.code == NOT_FOUND and not request.url.path.startswith("/api/"):
        return HTMLResponse(
            f"<!doctype html><title>Not found</title><p>{html.escape(exc.message)}</p>",
            status_code=404,
        )
    return JSONResponse(exc.body(), status_code=exc.status)
