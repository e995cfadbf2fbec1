"""The live connection: a dropped WebSocket reconnects by itself and says hello again
with the seat token, so the player keeps playing."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import WebSocketRoute, expect

from .conftest import Server, open_page
from .helpers import join, play_turn, root


def test_a_dropped_connection_reconnects_and_keeps_the_seat(server: Server, new_context) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "greedy"])
    ctx = new_context()
    routes: list[WebSocketRoute] = []

    def through(ws: WebSocketRoute) -> None:
        # A transparent pass-through to the real server that the test can cut.
        ws.connect_to_server()
        routes.append(ws)

    ctx.route_web_socket("**/ws/tables/**", through)
    page = open_page(ctx, f"{server.url}/table/{table_id}")
    join(page, "A", "Ada")
    used: Counter[str] = Counter()
    play_turn(page, 0, used)
    expect(root(page)).to_have_attribute("data-moves", "2")

    welcomes = int(root(page).get_attribute("data-welcomes") or 0)
    connections = len(routes)
    routes[-1].close(code=1012, reason="server restart")
    # The page notices, reconnects, says hello with its token and is welcomed back.
    expect(root(page)).to_have_attribute("data-welcomes", str(welcomes + 1))
    expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "live")
    expect(root(page)).to_have_attribute("data-seat", "A")
    assert len(routes) == connections + 1
    play_turn(page, 2, used)  # the move goes through the new connection
    expect(root(page)).to_have_attribute("data-moves", "4")
    assert page.errors == []  # type: ignore[attr-defined]
