"""HTTP handlers of docs/protocol.md ("HTTP API"): games, courses, tables, joining,
records, replays. What a viewer is shown is built by :mod:`..live.views`; what is done to
a table by :class:`~..live.tables.Tables`.

For a game with hidden information the table detail, the record and the
replay are given as their viewer may see them: the seat of the token in an
``Authorization: Bearer <token>`` header, or a spectator without one.
"""

from __future__ import annotations

import base64
import binascii
import html
import json
from datetime import datetime
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from ...core.errors import PelotonError
from ...core.registry import FIRST_GAME
from .. import games
from ..errors import (
    BAD_COURSE,
    BAD_RECORD,
    BAD_REQUEST,
    BUSY,
    NOT_FOUND,
    RATE_LIMITED,
    TOO_LARGE,
    ApiError,
)
from ..inputs import InputError, loads_json
from ..limits import LOBBY_PAGE, MAX_BODY, MAX_RECORD_BYTES, ClientGate
from ..live import views
from ..live.table import ABANDONED, FINISHED, OPEN, RUNNING, LiveTable
from ..live.tables import Tables
from ..work.replays import ReplayCache
from ..work.workers import JobFailed, JobTimeout, Workers

#: Seconds a course check or a replay may take in a worker.
CHECK_SECONDS = 30.0
REPLAY_SECONDS = 60.0
WEB_DIR = Path(__file__).resolve().parents[2] / "web"

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Peloton</title></head>
<body><h1>Peloton</h1><p>The web front end ({page}) is not installed yet.
The API is described in docs/protocol.md; try <a href="/api/tables">/api/tables</a>.</p></body></html>
"""


def tables_of(request: Request) -> Tables:
    """The server's tables."""
    found: Tables = request.app.state.tables
    return found


def workers_of(request: Request) -> Workers:
    found: Workers = request.app.state.workers
    return found


def gate_of(request: Request) -> ClientGate:
    found: ClientGate = request.app.state.gate
    return found


def client_of(request: Request) -> str:
    """The client's address: whom the per-client limits count (docs/protocol.md, "Limits")."""
    return request.client.host if request.client else "?"


async def read_json(request: Request) -> Any:
    """The request's JSON body; a 400 if it is not JSON the server reads
    (:func:`~..inputs.loads_json`), a 413 if it is too large."""
    body = await _body(request)
    try:
        return loads_json(body)
    except InputError as exc:
        raise ApiError(400, BAD_REQUEST, str(exc)) from None


async def _body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The request body, read up to ``limit`` bytes (a 413 beyond, before reading it
    when the request says its length)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, TOO_LARGE, f"request body of {declared} bytes is over {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, TOO_LARGE, f"request body over {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise ApiError(
            400, BAD_REQUEST, "the client went away before sending its request"
        ) from None
    return b"".join(chunks)


async def in_worker(request: Request, name: str, *args: Any, timeout: float, light: bool) -> Any:
    """Run job ``name`` for this request's client in the workers, within the client's
    share (:attr:`~..limits.Limits.checks_per_client` jobs at once, else ``429``)."""
    client = client_of(request)
    gate = gate_of(request)
    if not gate.checks.take(client):
        raise ApiError(
            429,
            RATE_LIMITED,
            "you have other checks or replays in progress: wait for their answers",
        )
    try:
        return await workers_of(request).run(
            f"client:{client}", name, *args, timeout=timeout, light=light
        )
    finally:
        gate.checks.give_back(client)


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
    """``GET /table/{id}``; the 404 page for an unknown table."""
    table_id = request.path_params["id"]
    if table_id not in tables_of(request).tables:
        return not_found_page(f"There is no table “{table_id}” on this server.")
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
    """``POST /api/courses/check``: validate a course text (TOML or JSON) or object, in
    a worker process (a course a client makes up may be expensive to check)."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ApiError(400, BAD_REQUEST, 'send {"text": "...", "format": "toml" | "json"}')
    game = course_game(body.get("game"))
    return await course_check(request, "check_course", game.name, body)


async def course_check(request: Request, job: str, *args: Any) -> Response:
    """The answer of a course-checking ``job`` run in a worker within the client's share
    of checks: ``400 bad_course`` when it takes over :data:`CHECK_SECONDS` or fails,
    ``400 bad_request`` when the job refuses the request."""
    try:
        outcome, answer = await in_worker(request, job, *args, timeout=CHECK_SECONDS, light=True)
    except JobTimeout:
        raise ApiError(
            400, BAD_COURSE, f"checking this course took over {CHECK_SECONDS:g} s", problems=[]
        ) from None
    except JobFailed:
        raise ApiError(400, BAD_COURSE, "this course could not be checked", problems=[]) from None
    if outcome != "ok":
        raise ApiError(400, BAD_REQUEST, answer)
    return JSONResponse(answer)


def _cursor(table: Any) -> str:
    """The lobby's cursor after ``table`` (a live table or a stored row: its
    ``created`` and ``id``): where the next page starts (opaque to clients)."""
    text = f"{table.created.isoformat()}|{table.id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _after(cursor: str) -> tuple[datetime, str]:
    """The (created, id) a cursor points after; ``400`` for a cursor the server did not give."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, table_id = text.split("|", 1)
        return datetime.fromisoformat(created), table_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise ApiError(400, BAD_REQUEST, "'cursor' must be the 'next' of an earlier page") from None


async def list_tables(request: Request) -> Response:
    """``GET /api/tables[?status=open|running|finished|abandoned][&cursor=...]``: a page of
    :data:`~..limits.LOBBY_PAGE` tables, newest first, and the cursor of the next page
    (``next``, ``null`` on the last page)."""
    status = request.query_params.get("status")
    if status is not None and status not in (OPEN, RUNNING, FINISHED, ABANDONED):
        raise ApiError(
            400,
            BAD_REQUEST,
            f"status must be open, running, finished or abandoned, not {status!r}",
        )
    cursor = request.query_params.get("cursor")
    after = _after(cursor) if cursor else None
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None:  # every node's tables (:mod:`..cluster.lobby`)
        found = await cluster.lobby(status, after, LOBBY_PAGE + 1)
        more = len(found) > LOBBY_PAGE
        found = found[:LOBBY_PAGE]
        following = _cursor(found[-1][0]) if more else None
        return JSONResponse({"tables": [line for _, line in found], "next": following})
    page = tables_of(request).find(status, after=after, limit=LOBBY_PAGE + 1)
    more = len(page) > LOBBY_PAGE
    page = page[:LOBBY_PAGE]
    following = _cursor(page[-1]) if more else None
    return JSONResponse({"tables": [views.summary(t) for t in page], "next": following})


def allow_new_table(request: Request) -> None:
    """Count a new table against this client's share (at most
    :attr:`~..limits.Limits.tables_per_minute` a minute, else ``429 rate_limited``)."""
    wait = gate_of(request).tables.allow(client_of(request))
    if wait > 0:
        raise ApiError(
            429,
            RATE_LIMITED,
            f"you created many tables this minute: wait {wait:.0f} s",
            retry_after=round(wait, 1),
        )


async def create_table(request: Request) -> Response:
    """``POST /api/tables`` (at most :attr:`~..limits.Limits.tables_per_minute` a
    minute per client, else ``429``)."""
    allow_new_table(request)
    body = await read_json(request)
    profile = request.app.state.profiles.signed_in(body)  # the creator's, if signed in
    table, seated = await tables_of(request).create_seated(body, profile)
    return JSONResponse(
        {"id": table.id, "url": f"/table/{table.id}", **(seated or {})}, status_code=201
    )


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
    return JSONResponse(
        request.app.state.solver.answer(table.spec.name, table.options, client_of(request))
    )


async def join_table(request: Request) -> Response:
    """``POST /api/tables/{id}/join``: a seat token."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    body = await read_json(request)
    profile = request.app.state.profiles.signed_in(body)  # "profile": a session token
    return JSONResponse(await tables.join(table, body, profile))


async def rematch_table(request: Request) -> Response:
    """``POST /api/tables/{id}/rematch`` (a seat token in ``Authorization``): the
    rematch of a finished table, opened by the first player to ask, and this player's
    seat token there (per client, as many a minute as tables may be created)."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    if table.rematch is None:
        allow_new_table(request)
    return JSONResponse(await tables.rematch(table, viewer))


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


def _json(answer: bytes) -> Response:
    return Response(answer, media_type="application/json")


async def table_replay(request: Request) -> Response:
    """``GET /api/tables/{id}/replay``: the viewer's replay of the moves so far
    (docs/protocol.md, "Replays"), built in a worker (or kept from an earlier ask)."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    await tables.ensure_state(table)
    texts = list(table.texts)  # the moves so far; the table plays on meanwhile
    cache: ReplayCache = request.app.state.replays
    key = (table.id, viewer, len(texts))
    answer = cache.get(key)
    if answer is None:
        args = (table.spec.name, table.options, table.seed, texts, viewer, table.players())
        try:
            answer = await in_worker(
                request, "table_replay", *args, timeout=REPLAY_SECONDS, light=False
            )
        except (JobTimeout, JobFailed):
            raise ApiError(
                429, BUSY, "the replay could not be built now: ask again in a minute"
            ) from None
        cache.put(key, answer)
    # The chat grows without moves: added to each answer, never cached with it.
    return _json(await request.app.state.chats.with_chat(table, answer))


async def upload_replay(request: Request) -> Response:
    """``POST /api/replay``: replay an uploaded record (at most
    :data:`~..limits.MAX_RECORD_BYTES` bytes and :data:`~..limits.MAX_RECORD_MOVES`
    moves), or ``400 bad_record``. The record is read and replayed in a worker; an
    option with choices is one of them or an object, as at table creation."""
    body = await _body(request, MAX_RECORD_BYTES)
    try:
        outcome, answer, index = await in_worker(
            request, "upload_replay", body, timeout=REPLAY_SECONDS, light=False
        )
    except JobTimeout:
        raise ApiError(
            400, BAD_RECORD, f"replaying this record took over {REPLAY_SECONDS:g} s", index=None
        ) from None
    except JobFailed:
        raise ApiError(400, BAD_RECORD, "this record could not be replayed", index=None) from None
    if outcome != "ok":
        raise ApiError(400, BAD_RECORD, answer, index=index)
    return _json(answer)


def not_found_page(message: str) -> Response:
    """The site's 404 page for a browser, saying ``message``, with the way back to the
    lobby."""
    path = WEB_DIR / "404.html"
    text = path.read_text(encoding="utf-8") if path.is_file() else "<p>{message}</p>"
    return HTMLResponse(text.replace("{message}", html.escape(message)), status_code=404)


async def not_found(request: Request, exc: Exception) -> Response:
    """An unknown address (no route, no static file): the 404 page for a browser, a
    JSON error under ``/api/``."""
    path = request.url.path
    if path.startswith("/api/"):
        message = f"no API endpoint {path!r} (see docs/protocol.md)"
        body = json.dumps({"error": {"code": NOT_FOUND, "message": message}}, ensure_ascii=True)
        return Response(body.encode(), status_code=404, media_type="application/json")
    return not_found_page(f"There is no page at {path}.")


async def api_error(request: Request, exc: Exception) -> Response:
    """An :class:`ApiError` as its JSON answer."""
    assert isinstance(exc, ApiError)
    if exc.code == NOT_FOUND and not request.url.path.startswith("/api/"):
        return not_found_page(exc.message)
    headers = (
        {"Retry-After": str(max(1, round(exc.extra["retry_after"])))}
        if "retry_after" in exc.extra
        else None
    )
    # ensure_ascii: a message quoting what a client sent stays ASCII whatever it sent.
    body = json.dumps(exc.body(), ensure_ascii=True).encode()
    return Response(body, status_code=exc.status, media_type="application/json", headers=headers)
