"""HTTP handlers of docs/protocol.md ("Competitions"): the kinds, the list, a new
competition, its standings and its file, and the standings page. What is done to a
competition is :mod:`..live.competitions`'."""

from __future__ import annotations

import json
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import RATE_LIMITED, STOPPED, ApiError
from ..games import HUMAN
from ..limits import LOBBY_PAGE
from ..live.competition_kinds import game_word, kind_facts
from ..live.competitions import RUNNING, Competitions, LiveCompetition
from ..live.views import iso
from .api import client_of, gate_of, not_found_page, page, read_json, tables_of


def competitions_of(request: Request) -> Competitions:
    """The server's competitions."""
    found: Competitions = request.app.state.competitions
    return found


# ---------------------------------------------------------------- what is shown


def game_name(comp: LiveCompetition, options: dict[str, Any]) -> str:
    """One of a competition's games in a few words, as its game says it
    (``itt on prologue``)."""
    offer = comp.offer
    return "game" if offer is None else offer.game_name(options)


def summary(comp: LiveCompetition, request: Request) -> dict[str, Any]:
    """A competition in the lobby's list and at the head of its page: ``games`` is how
    many games it has when its kind says so in advance (a stage race's legs, an
    omnium's events; ``null`` for a tournament, whose heats depend on the results),
    ``leader`` who leads the standings (both as its game reads them)."""
    current = comp.tables[-1] if comp.tables and comp.status == RUNNING else None
    standings, offer = comp.standings, comp.offer
    leader = None if offer is None else offer.leader(standings)
    total = None if offer is None else offer.games(standings)
    return {
        "id": comp.id,
        "url": f"/competitions/{comp.id}",
        "kind": comp.kind,
        "title": comp.title,
        "game": game_word(comp.game, comp.kind),
        "status": comp.status,
        "created": iso(comp.created),
        "seats": [
            {"seat": s.seat, "kind": s.kind, "name": s.name if s.kind == HUMAN else s.kind}
            for s in comp.seats
        ],
        "played": len(comp.history),
        "games": total,
        "current": current,
        "leader": leader if comp.history else None,
        "winner": comp.winner,
        "problem": comp.problem,
    }


def detail(comp: LiveCompetition, request: Request) -> dict[str, Any]:
    """``GET /api/competitions/{id}``: the summary, the settings, every table so far
    (its game, status and result), the standings and the standings after each game."""
    tables = tables_of(request).tables
    games = []
    for number, table_id in enumerate(comp.tables, start=1):
        table = tables.get(table_id)
        games.append(
            {
                "number": number,
                "table": table_id,
                "url": f"/table/{table_id}",
                "name": game_name(comp, table.options) if table is not None else "?",
                "status": table.status if table is not None else "missing",
                "seats": list(table.seats) if table is not None else [],
            }
        )
    return {
        **summary(comp, request),
        "settings": comp.settings,
        "tables": games,
        "standings": comp.standings if comp.status != "stopped" or comp.history else None,
        "history": comp.history,
    }


# ---------------------------------------------------------------- handlers


async def standings_page(request: Request) -> Response:
    """``GET /competitions/{id}``; the 404 page for an unknown competition."""
    comp_id = request.path_params["id"]
    if comp_id not in competitions_of(request).competitions:
        return not_found_page(f"There is no competition “{comp_id}” on this server.")
    return page("competition.html")


async def list_kinds(request: Request) -> Response:
    """``GET /api/competitions/kinds``: the kinds a competition may be, and their settings."""
    return JSONResponse({"kinds": kind_facts()})


async def list_competitions(request: Request) -> Response:
    """``GET /api/competitions``: the :data:`~..limits.LOBBY_PAGE` newest competitions."""
    found = competitions_of(request).find()[:LOBBY_PAGE]
    return JSONResponse({"competitions": [summary(c, request) for c in found]})


async def create_competition(request: Request) -> Response:
    """``POST /api/competitions`` (at most
    :attr:`~..limits.Limits.competitions_per_minute` a minute per client, else ``429``):
    the competition and its first table, the creator's seat token there."""
    wait = gate_of(request).competitions.allow(client_of(request))
    if wait > 0:
        raise ApiError(
            429,
            RATE_LIMITED,
            f"you created many competitions this minute: wait {wait:.0f} s",
            retry_after=round(wait, 1),
        )
    comp, table, seated = await competitions_of(request).create(await read_json(request))
    cluster = getattr(request.app.state, "cluster", None)
    if cluster is not None:  # cluster mode: this node runs it (docs/decisions.md)
        await cluster.claim_competition(comp.id)
    answer: dict[str, Any] = {
        "id": comp.id,
        "url": f"/competitions/{comp.id}",
        "table": table.id,
        "table_url": f"/table/{table.id}",
        **(seated or {}),
    }
    if seated is not None:  # a heat of two teams may not seat the creator's team
        answer["plays"] = seated["seat"] in table.seats
    return JSONResponse(answer, status_code=201)


async def competition_detail(request: Request) -> Response:
    """``GET /api/competitions/{id}``."""
    comp = competitions_of(request).get(request.path_params["id"])
    return JSONResponse(detail(comp, request))


async def competition_file(request: Request) -> Response:
    """``GET /api/competitions/{id}/file``: the competition file (``to_dict()``, what
    ``cy.load_competition`` reads), as a download: the games taken back so far."""
    comp = competitions_of(request).get(request.path_params["id"])
    competition = await competitions_of(request).ensure(comp)
    if competition is None:
        raise ApiError(409, STOPPED, f"competition {comp.id} stopped: {comp.problem}")
    async with comp.lock:
        data = await run_in_threadpool(competition.to_dict)
    return Response(
        json.dumps(data, indent=1) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="peloton-{comp.id}.json"'},
    )


ROUTES = [
    Route("/competitions/{id}", standings_page),
    Route("/api/competitions/kinds", list_kinds),
    Route("/api/competitions", list_competitions, methods=["GET"]),
    Route("/api/competitions", create_competition, methods=["POST"]),
    Route("/api/competitions/{id}", competition_detail),
    Route("/api/competitions/{id}/file", competition_file),
]
