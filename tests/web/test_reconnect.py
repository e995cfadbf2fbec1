"""A table page whose connection dies comes back to the live table by itself (issue 11,
item 6): the page pings, takes a connection that brings nothing for too long for dead
(a network that dropped it without a close, a server that dropped a client too slow
to read), and reconnects; and a server that stops and starts again is found again.

The page's ping timing is made short for the test (``globalThis.pelotonLiveTiming``,
read by ``api.js``'s ``LiveSocket``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from .conftest import Server, open_page
from .helpers import play_over_socket, root

#: Ping every 0.3 s, give up after 1.5 s of silence.
FAST_TIMING = "globalThis.pelotonLiveTiming = { pingEvery: 300, deadAfter: 1500 };"


def _twist_table(server: Server) -> tuple[str, dict[str, str]]:
    """A Mind Twist table of two humans, both seats taken; its id and their tokens."""
    table = server.create(game="mind-twist", seats=["human", "human"])
    tokens = {
        s: server.post(f"/api/tables/{table}/join", {"seat": s, "name": s})["token"] for s in "RB"
    }
    return table, tokens


def _live(page: Page, welcomes: int, moves: int) -> None:
    """The page shows the live table after its ``welcomes``-th welcome, ``moves`` in."""
    r = root(page)
    expect(r).to_have_attribute("data-welcomes", str(welcomes))
    expect(r).to_have_attribute("data-moves", str(moves))
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")


def test_a_silent_connection_is_taken_for_dead_and_replaced(
    server: Server, new_context: Any
) -> None:
    """The page's first connection stops carrying anything either way (no close: what
    a dead network or a stuck server looks like). The page must notice by itself,
    reconnect, and show the move played meanwhile."""
    table, tokens = _twist_table(server)
    connections: list[WebSocketRoute] = []
    frozen = {"first": False}

    def route(ws: WebSocketRoute) -> None:
        number = len(connections)
        connections.append(ws)
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            if not (number == 0 and frozen["first"]):
                ws.send(message)

        def up(message: str | bytes) -> None:
            if not (number == 0 and frozen["first"]):
                upstream.send(message)

        upstream.on_message(down)
        ws.on_message(up)

    ctx = new_context()
    ctx.add_init_script(FAST_TIMING)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route_web_socket("**/ws/tables/*", route)
    page.goto(f"{server.url}/table/{table}")
    _live(page, welcomes=1, moves=0)

    frozen["first"] = True
    play_over_socket(server, table, tokens["R"], "dial:2", 0)
    _live(page, welcomes=2, moves=1)  # a second connection, and its welcome
    assert len(connections) >= 2
    play_over_socket(server, table, tokens["B"], "pass", 1)
    expect(root(page)).to_have_attribute("data-moves", "2")  # and it is live
    assert errors == []


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone: it is stopped and started again."""
    srv = Server(tmp_path / "peloton.db", tmp_path / "server.log").start()
    yield srv
    srv.stop()


def test_the_page_finds_a_restarted_server(own_server: Server, new_context: Any) -> None:
    """The server stops (the page's connection closes) and starts again on the same
    address and database: the page reconnects and plays on."""
    table, tokens = _twist_table(own_server)
    ctx = new_context()
    ctx.add_init_script(FAST_TIMING)
    page = open_page(ctx, f"{own_server.url}/table/{table}")
    _live(page, welcomes=1, moves=0)
    play_over_socket(own_server, table, tokens["R"], "dial:3", 0)
    _live(page, welcomes=1, moves=1)

    own_server.stop()
    expect(page.get_by_test_id("connection")).not_to_have_attribute("data-state", "live")
    own_server.start()
    _live(page, welcomes=2, moves=1)
    play_over_socket(own_server, table, tokens["B"], "guess:3", 1)
    expect(root(page)).to_have_attribute("data-moves", "2")
    assert page.errors == []  # type: ignore[attr-defined]
