"""The lobby draws its tutorial, editor and competition links from what each game
offers (``GET /api/games``, issue 33, point 1): a game the lobby has never heard of,
the server tests' toy game, gets links of its own beside the bundled games'."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

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


def test_each_game_that_offers_a_page_gets_a_link(toy_server: Server, new_context: Any) -> None:
    page = open_page(new_context(), f"{toy_server.url}/")
    tutorial = page.get_by_test_id("tutorial-link")
    expect(tutorial).to_have_text("New to Mind Cycling? Learn in 5 minutes")
    expect(tutorial).to_have_attribute("href", "/tutorial")
    toy_tutorial = page.get_by_test_id("tutorial-link-more")
    expect(toy_tutorial).to_have_text("New to Count to five? Learn in 5 minutes")
    expect(toy_tutorial).to_have_attribute("href", "/tutorial?game=toy-count")
    expect(page.get_by_test_id("editor-link")).to_have_text("Design a Mind Cycling course")
    toy_editor = page.get_by_test_id("editor-link-more")
    expect(toy_editor).to_have_text("Design a Count to five course")
    expect(toy_editor).to_have_attribute("href", "/editor?game=toy-count")
    expect(page.locator(".competition-panel")).to_be_visible()
    assert page.errors == []  # type: ignore[attr-defined]
