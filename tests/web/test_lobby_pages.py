"""The lobby pages through the tables (issue 11, item 8): it loads the first page of
``GET /api/tables`` and the next ones when asked, never the whole list at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Server, open_page

#: Tables in the server's answer to one lobby request (docs/protocol.md).
PAGE = 50


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone: it knows exactly the tables made here."""
    srv = Server(tmp_path / "peloton.db", tmp_path / "server.log").start()
    yield srv
    srv.stop()


def test_the_lobby_loads_more_tables_when_asked(own_server: Server, new_context: Any) -> None:
    made = {own_server.create(game="mind-twist", seats=["human", "human"]) for _ in range(PAGE + 7)}
    page = open_page(new_context(), f"{own_server.url}/")
    cards = page.get_by_test_id("table-card")
    expect(cards).to_have_count(PAGE)
    more = page.get_by_test_id("more-tables")
    expect(more).to_be_visible()
    more.click()
    expect(cards).to_have_count(PAGE + 7)
    expect(more).to_have_count(0)  # the last page: nothing more to ask for
    shown = set(cards.evaluate_all("cs => cs.map(c => c.dataset.tableId)"))
    assert shown == made
    # The lobby's refresh (the first page again) keeps what was loaded.
    newest = own_server.create(game="mind-twist", seats=["human", "human"])
    expect(page.locator(f'[data-testid=table-card][data-table-id="{newest}"]')).to_have_count(1)
    expect(cards).to_have_count(PAGE + 8)
    assert page.errors == []  # type: ignore[attr-defined]
