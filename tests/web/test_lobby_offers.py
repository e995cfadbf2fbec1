"""The lobby draws its tutorial, editor and competition links from what each game
offers (``GET /api/games``, issue 33, point 1): a game the lobby has never heard of,
the server tests' toy game, gets links of its own beside the bundled games'."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import httpx
import pytest
from playwright.sync_api import expect

from peloton.core.registry import EXTRA_GAMES_ENV

from .conftest import ROOT, Server, open_page


@pytest.fixture()
def toy_server(tmp_path: Path) -> Iterator[Server]:
    """A server that also hosts the toy game (tests/server/toy_game.py)."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    with mock.patch.dict(
        os.environ, {EXTRA_GAMES_ENV: "tests.server.toy_game", "PYTHONPATH": path}
    ):
        srv = Server(tmp_path / "peloton.db", tmp_path / "server.log").start()
    yield srv
    srv.stop()


def test_the_links_follow_the_game_chosen(toy_server: Server, new_context: Any) -> None:
    """Issue 34: the lobby shows "New to X?" for the game chosen, even a game it has
    never heard of (the toy game), and hides a link the chosen game does not offer."""
    page = open_page(new_context(), f"{toy_server.url}/")
    tutorial, editor = page.get_by_test_id("tutorial-link"), page.get_by_test_id("editor-link")
    expect(tutorial).to_have_text("New to Mind Cycling? Learn in 5 minutes")
    expect(tutorial).to_have_attribute("href", "/tutorial?game=mind-cycling")
    expect(editor).to_have_text("Design a Mind Cycling course")
    page.get_by_test_id("game-select").select_option("toy-count")
    expect(tutorial).to_have_text("New to Count to five? Learn in 5 minutes")
    expect(tutorial).to_have_attribute("href", "/tutorial?game=toy-count")
    expect(editor).to_have_attribute("href", "/editor?game=toy-count")
    expect(page.locator(".competition-panel")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]


def test_every_games_tutorial_and_editor_is_reached_from_the_lobby(
    server: Server, new_context: Any
) -> None:
    """Issue 34, point 6: every game registered with a tutorial or an editor is
    reachable from the lobby: choose it, follow its link, and its page opens on it."""
    games = httpx.get(f"{server.url}/api/games").json()["games"]
    assert {g["name"] for g in games if g["tutorial"]} == {g["name"] for g in games}
    page = open_page(new_context(), f"{server.url}/")
    for game in games:
        for offer, ready in (("tutorial", "step-title"), ("editor", None)):
            if not game[offer]:
                continue
            page.goto(f"{server.url}/")
            page.get_by_test_id("game-select").select_option(game["name"])
            link = page.get_by_test_id(f"{offer}-link")
            expect(link).to_have_attribute("data-game", game["name"])
            link.click()
            page.wait_for_url(f"**/{offer}?game={game['name']}")
            if ready:
                expect(page.get_by_test_id("game-title")).to_have_text(f"Learn {game['title']}")
                expect(page.get_by_test_id(ready)).not_to_have_text("…")
            expect(page.locator("h1")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]
