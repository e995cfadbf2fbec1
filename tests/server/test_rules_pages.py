"""The rules on the web server: ``/rules``, ``/rules/{game}``, ``/api/rules/{game}``
and its terms, served by the server's own handlers (no table, so no database)."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from peloton import rulebook
from peloton.server.errors import ApiError
from peloton.server.http import api, rules


class RulesClient:
    """GET requests to an ASGI app, in process."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    def get(self, path: str) -> httpx.Response:
        async def fetch() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://rules") as c:
                return await c.get(path)

        return asyncio.run(fetch())


@pytest.fixture(scope="module")
def client() -> RulesClient:
    app = Starlette(
        routes=[
            Route("/rules", rules.index_page),
            Route("/rules/{game}", rules.game_page),
            Route("/api/rules", rules.api_index),
            Route("/api/rules/{game}", rules.api_rules),
            Route("/api/rules/{game}/terms", rules.api_terms),
        ],
        exception_handlers={ApiError: api.api_error},
    )
    return RulesClient(app)


def test_the_app_serves_the_rules_routes() -> None:
    from peloton.server.app import create_app

    paths = {getattr(r, "path", "") for r in create_app("sqlite:///:memory:").routes}
    assert {
        "/rules",
        "/rules/{game}",
        "/api/rules",
        "/api/rules/{game}",
        "/api/rules/{game}/terms",
    } <= paths


def test_index_lists_every_page(client: RulesClient) -> None:
    data = client.get("/api/rules").json()
    assert [g["name"] for g in data["games"]] == rulebook.games()
    assert {g["prefix"] for g in data["games"]} >= {"MC", "MT", "PI"}
    page = client.get("/rules").text
    for game in rulebook.games():
        assert f'href="/rules/{game}"' in page


@pytest.mark.parametrize("game", rulebook.games())
def test_game_page_and_its_json(client: RulesClient, game: str) -> None:
    book = rulebook.load(game)
    page = client.get(f"/rules/{game}")
    assert page.status_code == 200
    for rid in book.rule_ids:
        assert page.text.count(f'id="{rid}"') == 1, rid
    embedded = re.search(
        r'<script type="application/json" id="rules-data">(.*?)</script>', page.text, re.S
    )
    assert embedded is not None
    data = json.loads(embedded.group(1))
    assert data == client.get(f"/api/rules/{game}").json()
    assert len(data["diagrams"]) == len(book.diagrams)
    for diagram in data["diagrams"]:
        snap = diagram["snapshot"]
        assert snap["game"] == game and snap["legal"] == []  # to look at, not to play
        assert diagram["table"]["game"] == game
    terms = client.get(f"/api/rules/{game}/terms").json()
    assert set(terms) == set(book.terms)
    for term in terms.values():
        assert term["href"] == f"/rules/{game}#{term['rule']}"


def test_mind_cycling_diagrams_carry_their_course_and_wind(client: RulesClient) -> None:
    data = client.get("/api/rules/mind-cycling").json()
    winds = {d["table"]["wind"] for d in data["diagrams"]}
    assert winds == {"front", "left"}
    assert all("course_data" in d["table"] for d in data["diagrams"])


def test_unknown_game(client: RulesClient) -> None:
    page = client.get("/rules/chess")
    assert page.status_code == 404 and "no rules page for" in page.text
    answer = client.get("/api/rules/chess")
    assert answer.status_code == 404
    assert "no rules page for 'chess'" in answer.json()["error"]["message"]
    assert client.get("/api/rules/chess/terms").status_code == 404


def test_lobby_and_table_pages_lead_to_the_rules() -> None:
    assert 'href="/rules"' in (api.WEB_DIR / "index.html").read_text(encoding="utf-8")
    table = (api.WEB_DIR / "table.html").read_text(encoding="utf-8")
    assert 'id="rules-toggle"' in table and "rules_panel.js" in table
