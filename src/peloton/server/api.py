"""HTTP handlers of docs/protocol.md ("HTTP API"): games, courses, tables, joining,
records, replays.

For a game with hidden information (Mind Twist) the table detail, the record and the
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
from ..core import registry
from ..core.errors import ConfigError, CourseError, PelotonError, RecordError
from ..games import mindcycling as mc
from ..games.mindcycling.snapshot import snapshot
from . import games
from .tables import FINISHED, OPEN, RUNNING, ApiError, LiveTable, Tables

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
        raise ApiError(400, "bad_request", f"the request body is not valid JSON: {exc}") from None


async def _body(request: Request) -> bytes:
    """The request body, read up to :data:`MAX_BODY` bytes."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise ApiError(413, "too_large", f"request body over {MAX_BODY} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise ApiError(400, "bad_request", "the client went away before sending its request") from None
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
        raise ApiError(400, "bad_request", "the Authorization header must be 'Bearer <seat token>'")
    return tables_of(request).seat_of_token(table, token.strip())


async def list_games(request: Request) -> Response:
    """``GET /api/games``: the games a table may play, their options, seats and bots."""
    found = await run_in_threadpool(games.available)
    return JSONResponse({"games": [spec.describe() for _, spec in found]})


async def courses(request: Request) -> Response:
    """``GET /api/courses``: the bundled courses."""
    return JSONResponse({"courses": [mc.Course.load(n).to_dict() for n in mc.bundled_names()]})


async def check_course(request: Request) -> Response:
    """``POST /api/courses/check``: validate a course text (TOML or JSON) or object."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", 'send {"text": "...", "format": "toml" | "json"}')
    try:
        if isinstance(body.get("course"), dict):
            course = mc.Course.from_dict(body["course"])
        else:
            text, fmt = body.get("text"), body.get("format")
            if not isinstance(text, str):
                raise ApiError(400, "bad_request", f"'text' must be the course file's text, not {text!r}")
            if fmt is None:
                fmt = "json" if text.lstrip().startswith("{") else "toml"
            if fmt not in ("toml", "json"):
                raise ApiError(400, "bad_request", f"'format' must be 'toml' or 'json', not {fmt!r}")
            course = mc.Course.from_text(text, toml=fmt == "toml", source="uploaded course")
    except CourseError as exc:
        return JSONResponse({"ok": False, "problems": exc.problems})
    return JSONResponse({"ok": True, "course": course.to_dict()})


async def list_tables(request: Request) -> Response:
    """``GET /api/tables[?status=open|running|finished]``, newest first."""
    status = request.query_params.get("status")
    if status is not None and status not in (OPEN, RUNNING, FINISHED):
        raise ApiError(400, "bad_request", f"status must be open, running or finished, not {status!r}")
    return JSONResponse({"tables": tables_of(request).listing(status)})


async def create_table(request: Request) -> Response:
    """``POST /api/tables``."""
    table = await tables_of(request).create(await read_json(request))
    return JSONResponse({"id": table.id, "url": f"/table/{table.id}"}, status_code=201)


async def table_detail(request: Request) -> Response:
    """``GET /api/tables/{id}``: summary, ``course_data`` and snapshot."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    await tables.ensure_state(table)
    return JSONResponse({**table.full_summary(), "seat": viewer, "snapshot": table.snapshot(viewer)})


async def table_solver(request: Request) -> Response:
    """``GET /api/tables/{id}/solver``: the solver's best line for a solo table's course,
    team and rules (``running`` until the solve is done)."""
    table = tables_of(request).get(request.path_params["id"])
    setup = table.mc
    if setup is None or not setup.solo:
        raise ApiError(400, "bad_request", "only a solo Mind Cycling table has a solver line")
    answer = request.app.state.solver.answer(setup.course, setup.teams["A"], setup.wind, setup.relay_limit)
    return JSONResponse(answer)


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


def replay_of(record: mc.Record) -> dict[str, Any]:
    """Moves and the snapshot before each move and after the last (blocking)."""
    return {
        "game": games.MIND_CYCLING,
        "moves": list(record.moves),
        "snapshots": [snapshot(s) for s in record.states()],
        "course_data": record.course.to_dict(),
        "players": record.players,
    }


def table_replay_of(table: LiveTable, texts: list[str], viewer: str | None) -> dict[str, Any]:
    """A table's replay (its moves ``texts``) as ``viewer`` may see it (blocking): every
    position is a snapshot for ``viewer`` of the full state, and the moves are its
    public ones."""
    spec = table.spec
    state = table.fresh_state()
    snaps = [spec.snapshot(state, viewer)]
    for text in texts:
        state.play(text)
        snaps.append(spec.snapshot(state, viewer))
    return {
        "game": spec.name,
        "moves": spec.public_moves(state, viewer) if spec.hidden else list(texts),
        "snapshots": snaps,
        "options": table.options,
        "players": table.players(),
    }


async def table_replay(request: Request) -> Response:
    """``GET /api/tables/{id}/replay``."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    if table.mc is not None:
        record = await tables.record(table)
        return JSONResponse(await run_in_threadpool(replay_of, record))
    await tables.ensure_state(table)
    texts = list(table.texts)  # the moves so far; the table plays on meanwhile
    return JSONResponse(await run_in_threadpool(table_replay_of, table, texts, viewer))


def uploaded_replay_of(record: Any) -> dict[str, Any]:
    """The replay of an uploaded record of any game (blocking). Its positions are
    spectators' snapshots; its moves are the record's own (the uploader's file)."""
    if isinstance(record, mc.Record):
        return replay_of(record)
    game = record.to_dict().get("game")
    spec = games.spec(game)
    return {
        "game": spec.name,
        "moves": list(record.moves),
        "snapshots": [spec.snapshot(s, None) for s in record.states()],
        "options": record.to_dict().get("options", {}),
        "players": record.players,
    }


def _load_record(body: bytes) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("the record is not UTF-8 text") from None
    data = core_record.decode_record(text)
    game = data["game"]
    if game != games.MIND_CYCLING and game in registry.names():
        try:
            spec = games.spec(game)
        except ConfigError as exc:
            raise RecordError(str(exc)) from None
        return spec.module.Record.from_dict(data)
    return mc.Record.from_dict(data)  # Mind Cycling's loader names any other game


async def upload_replay(request: Request) -> Response:
    """``POST /api/replay``: replay an uploaded record, or ``400 bad_record``."""
    body = await _body(request)
    try:
        record = await run_in_threadpool(_load_record, body)
        answer = await run_in_threadpool(uploaded_replay_of, record)
    except RecordError as exc:
        raise ApiError(400, "bad_record", str(exc), index=exc.index) from None
    except PelotonError as exc:  # defensive: the loader should only raise RecordError
        raise ApiError(400, "bad_record", str(exc), index=None) from None
    return JSONResponse(answer)


async def api_error(request: Request, exc: Exception) -> Response:
    """An :class:`ApiError` as its JSON answer."""
    assert isinstance(exc, ApiError)
    if exc.status == 404 and not request.url.path.startswith("/api/"):
        return HTMLResponse(f"<!doctype html><title>Not found</title><p>{html.escape(exc.message)}</p>", status_code=404)
    return JSONResponse(exc.body(), status_code=exc.status)
