"""HTTP handlers of docs/protocol.md ("Profiles and ratings"): challenges, registering,
signing in, a player's page and a game's leaderboard. What a profile is is
:mod:`..storage.profiles`'; how ratings move is :mod:`..live.ratings`'."""

from __future__ import annotations

import math
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from ...core.errors import PelotonError
from .. import games
from ..errors import BAD_REQUEST, NOT_FOUND, RATE_LIMITED, ApiError
from ..live.ratings import Ratings, bot_ratings, ordinal
from ..live.table import LiveTable
from ..live.tables import Tables
from ..live.views import iso
from ..storage import store
from ..storage.profiles import Profiles
from .api import client_of, gate_of, not_found_page, page, read_json, tables_of

#: A player's page lists at most this many tables, the newest first.
PLAYER_TABLES = 200


async def start(app: Starlette, tables: Tables) -> None:
    """Read the profiles and ratings, rate the tables that finished unrated while the
    server was down, and rate every table that finishes from now on."""
    profiles = Profiles(tables.writer, tables.engine)
    ratings = Ratings(tables.writer, tables.engine)
    await run_in_threadpool(profiles.load)
    await run_in_threadpool(ratings.load)
    await run_in_threadpool(ratings.catch_up, list(tables.tables.values()))
    tables.on_rated = ratings.table_finished
    app.state.profiles, app.state.ratings = profiles, ratings


def profiles_of(request: Request) -> Profiles:
    found: Profiles = request.app.state.profiles
    return found


def ratings_of(request: Request) -> Ratings:
    found: Ratings = request.app.state.ratings
    return found


# ---------------------------------------------------------------- profiles


async def challenge(request: Request) -> Response:
    """``POST /api/profiles/challenge`` ``{"name"}``: a challenge and the text to sign
    (at most :attr:`~..limits.Limits.challenges_per_minute` a minute per client, else
    ``429 rate_limited`` with ``Retry-After``)."""
    wait = gate_of(request).challenges.allow(client_of(request))
    if wait > 0:
        raise ApiError(
            429,
            RATE_LIMITED,
            f"you asked for many sign-in challenges this minute: wait {math.ceil(wait)} s "
            "(a challenge is good for two minutes: answer the last one)",
            retry_after=round(wait, 1),
        )
    profiles, body = profiles_of(request), await read_json(request)
    if profiles.shared:  # the name is looked up in the database (cluster mode)
        return JSONResponse(await run_in_threadpool(profiles.challenge, body))
    return JSONResponse(profiles.challenge(body))


async def register(request: Request) -> Response:
    """``POST /api/profiles`` ``{"name", "key", "challenge", "signature"}``: a new
    profile and its first session."""
    answer = await profiles_of(request).register(await read_json(request))
    return JSONResponse(answer, status_code=201)


async def sign_in(request: Request) -> Response:
    """``POST /api/profiles/session`` ``{"name", "challenge", "signature"}``: a session."""
    return JSONResponse(await profiles_of(request).sign_in(await read_json(request)))


async def sign_out(request: Request) -> Response:
    """``POST /api/profiles/sign-out`` ``{"session"}``: the session is forgotten."""
    body = await read_json(request)
    await profiles_of(request).sign_out(body.get("session") if isinstance(body, dict) else None)
    return JSONResponse({"ok": True})


def _their_table(table: LiveTable, name: str, ratings: Ratings) -> dict[str, Any]:
    """One of a player's tables on their page."""
    seat = next(s for s in table.seats.values() if s.profile == name)
    change = next((c for c in ratings.history.get(name, []) if c.table_id == table.id), None)
    return {
        "id": table.id,
        "url": f"/table/{table.id}",
        "game": table.spec.name,
        "title": table.spec.title,
        "status": table.status,
        "created": iso(table.created),
        "seat": seat.seat,
        "rated": table.rated,
        "players": [
            {"seat": s.seat, "name": s.name, "kind": s.kind, "profile": s.profile}
            for s in table.seats.values()
        ],
        "rating": None if change is None else change.to_dict(),
    }


def _stored_tables(tables: Tables, name: str) -> list[LiveTable]:
    """Cluster mode: a player's tables as the database has them, newest first (this
    node's own from memory); blocking."""
    rows = store.lobby_rows(tables.engine, None, None, PLAYER_TABLES, profile=name)
    found = (tables.tables.get(row.id) or tables.build(row) for row in rows)
    return [table for table in found if table is not None]


async def player(request: Request) -> Response:
    """``GET /api/players/{name}``: the profile, its ratings and its tables."""
    name = request.path_params["name"]
    profile = profiles_of(request).get(name)
    if profile is None:
        raise ApiError(404, NOT_FOUND, f"no player {name!r}")
    ratings = ratings_of(request)
    if ratings.shared:  # cluster mode: other nodes rate tables too
        await run_in_threadpool(ratings.refresh)
    tables = tables_of(request)
    if getattr(request.app.state, "cluster", None) is not None:  # every node's tables
        theirs = await run_in_threadpool(_stored_tables, tables, profile.name)
    else:
        theirs = [
            t for t in tables.find() if any(s.profile == profile.name for s in t.seats.values())
        ][:PLAYER_TABLES]
    rated = [
        {"game": game, "title": _title(game), **r.to_dict()}
        for game, r in sorted(ratings.of_player(profile.name).items())
    ]
    return JSONResponse({
        "name": profile.name,
        "created": iso(profile.created),
        "ratings": rated,
        "tables": [_their_table(t, profile.name, ratings) for t in theirs],
    })  # fmt: skip


def _title(game: str) -> str:
    try:
        return games.spec(game).title
    except PelotonError:
        return game


def _game(request: Request) -> games.GameSpec:
    name = request.path_params["game"]
    try:
        return games.spec(name)
    except PelotonError:
        raise ApiError(404, NOT_FOUND, f"no game {name!r}") from None


async def leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard/{game}``: the best players of a game, and its bots'
    fixed ratings for comparison."""
    spec = _game(request)
    limit = request.query_params.get("limit", "100")
    if not limit.isdigit() or not 1 <= int(limit) <= 1000:
        raise ApiError(400, BAD_REQUEST, f"'limit' must be 1 to 1000, not {limit!r}")
    ratings = ratings_of(request)
    if ratings.shared:  # cluster mode: other nodes rate tables too
        await run_in_threadpool(ratings.refresh)
    board = ratings.leaderboard(spec.name, int(limit))
    bots = sorted(bot_ratings().get(spec.name, {}).items(), key=lambda b: -ordinal(*b[1]))
    return JSONResponse({
        "game": spec.name,
        "title": spec.title,
        "games": [{"name": g.name, "title": g.title} for g in games.available()],
        "players": [
            {"rank": i + 1, "name": who, **r.to_dict()} for i, (who, r) in enumerate(board)
        ],
        "bots": [
            {"name": bot, "rating": round(ordinal(mu, sigma), 2), "mu": round(mu, 3),
             "sigma": round(sigma, 3)}
            for bot, (mu, sigma) in bots
        ],
    })  # fmt: skip


# ---------------------------------------------------------------- pages


async def profile_page(request: Request) -> Response:
    """``GET /profile``: make a profile, sign in, move its key to another device."""
    return page("profile.html")


async def player_page(request: Request) -> Response:
    """``GET /players/{name}``; the 404 page for a name nobody has."""
    name = request.path_params["name"]
    if profiles_of(request).get(name) is None:
        return not_found_page(f"There is no player “{name}” on this server.")
    return page("profile.html")


async def leaderboard_page(request: Request) -> Response:
    """``GET /leaderboard/{game}``; ``/leaderboard`` opens the first game's."""
    if "game" not in request.path_params:
        return RedirectResponse(f"/leaderboard/{games.available()[0].name}")
    try:
        games.spec(request.path_params["game"])
    except PelotonError:
        return not_found_page(f"There is no game “{request.path_params['game']}”.")
    return page("leaderboard.html")


ROUTES = [
    Route("/profile", profile_page),
    Route("/players/{name}", player_page),
    Route("/leaderboard", leaderboard_page),
    Route("/leaderboard/{game}", leaderboard_page),
    Route("/api/profiles/challenge", challenge, methods=["POST"]),
    Route("/api/profiles", register, methods=["POST"]),
    Route("/api/profiles/session", sign_in, methods=["POST"]),
    Route("/api/profiles/sign-out", sign_out, methods=["POST"]),
    Route("/api/players/{name}", player),
    Route("/api/leaderboard/{game}", leaderboard),
]
