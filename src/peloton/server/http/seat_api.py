"""HTTP handlers of leaving a table and taking a seat back (docs/protocol.md,
"Clocks and absent players"); what they do is :class:`~..live.presence.Presence`'s."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .api import read_json, tables_of, viewer_of


async def leave_table(request: Request) -> Response:
    """``POST /api/tables/{id}/leave`` (a seat token in ``Authorization``): the seat's
    player leaves; the table's stand-in bot plays the seat from now on."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    return JSONResponse(await tables.presence.leave(table, viewer))


async def reclaim_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/reclaim`` (the seat's token in ``Authorization``, an
    optional body ``{"seat": "A"}``): the player takes their seat back from the bot."""
    tables = tables_of(request)
    table = tables.get(request.path_params["id"])
    viewer = viewer_of(request, table)
    body = await read_json(request) if request.headers.get("content-length", "0") != "0" else {}
    return JSONResponse(await tables.presence.reclaim(table, viewer, body))


ROUTES = [
    Route("/api/tables/{id}/leave", leave_table, methods=["POST"]),
    Route("/api/tables/{id}/reclaim", reclaim_seat, methods=["POST"]),
]
