"""Phone width (390 px): the board renders, scrolls inside its frame, and a whole game
is played by tapping."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import expect

from .conftest import Server, artifact, open_page
from .helpers import join, play_to_the_end, play_turn, root


def test_phone_width_board_and_play(server: Server, new_context) -> None:
    table_id = server.create(course="short", riders=3, seats=["human", "greedy"])
    page = open_page(new_context(390, 844), f"{server.url}/table/{table_id}")
    join(page, "A", "Pip")
    board = page.get_by_test_id("board")
    expect(board).to_be_visible()
    expect(page.locator("[data-testid=board] [data-square]")).to_have_count(42 * 5 + 1)
    expect(page.locator("[data-square].legal.place").first).to_be_visible()
    # The page itself does not scroll sideways; the road scrolls inside its frame.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    scroller = page.get_by_test_id("board-scroll")
    assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")
    box = board.bounding_box()
    assert box is not None and box["height"] > 150

    used: Counter[str] = Counter()
    play_turn(page, 0, used)
    expect(root(page)).to_have_attribute("data-moves", "2")  # Pip's placement, the bot's
    page.screenshot(path=artifact("setup-390.png"), full_page=True)

    used += play_to_the_end(server, table_id, {"A": page})
    assert used["place"] == 3
    result = server.table(table_id)["snapshot"]["result"]
    expect(page.get_by_test_id("trophy")).to_have_attribute("data-team", result["trophy"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=artifact("final-390.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


def test_phone_width_lobby_fits_the_screen(server: Server, new_context) -> None:
    page = open_page(new_context(390, 844), server.url + "/")
    expect(page.get_by_test_id("course-select")).to_have_value("standard")
    expect(page.get_by_test_id("create-table")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.get_by_test_id("create-table").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    page.screenshot(path=artifact("lobby-390.png"), full_page=True)
