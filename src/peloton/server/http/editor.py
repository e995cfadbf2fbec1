"""The course editor's page and its check (docs/protocol.md, "HTTP API"):
``GET /editor`` and ``POST /api/editor/check``. The check runs in a worker
(:func:`..work.drafts.check_draft`), within the client's share of checks, like
``POST /api/courses/check``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ...core.errors import ConfigError
from .. import games
from ..errors import BAD_REQUEST, ApiError
from .api import course_check, not_found_page, page, read_json


async def editor_page(request: Request) -> Response:
    """``GET /editor[?game=]``: the course editor; the 404 page for a game without one."""
    try:
        _, editor = games.offered("editor", request.query_params.get("game"))
    except ConfigError as exc:
        return not_found_page(f"There is no course editor here: {exc}.")
    return page(editor.page)


async def check_draft(request: Request) -> Response:
    """``POST /api/editor/check``: a draft course's problems, each placed on the road,
    and its course file (:func:`..work.drafts.check_draft`); ``400`` for a body that is not
    a check (``bad_request``) or a course that could not be checked (``bad_course``),
    ``413`` for a body over the server's limit."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise ApiError(
            400,
            BAD_REQUEST,
            'send {"course": {...}}, {"text": "...", "format": "toml"} or {"link": "..."}',
        )
    return await course_check(request, "check_draft", body)
