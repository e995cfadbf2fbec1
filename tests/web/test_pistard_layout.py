"""Pistard's table on one screen: at 1280×800 the track and the dice controls are in
view together without scrolling; on a 390×844 phone the track fits the width and the
screen's height and the dice are played by tapping; every rider shows its base colour
(its colour bonus) as the ring round its disc."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Locator, Page, expect

from .conftest import Server, artifact, open_page
from .helpers import box_in_view, join, root

#: The base ring colours of pistard.js (BASE_RING), as computed styles give them.
RINGS = {
    "yellow": "rgb(234, 179, 8)",
    "green": "rgb(22, 163, 74)",
    "blue": "rgb(37, 99, 235)",
    "red": "rgb(220, 38, 38)",
}


def _my_turn(server: Server, table: str, page: Page) -> dict[str, Any]:
    """The snapshot once seat A is to act (polling while the bots and dice move; not a
    timing assertion), with the page showing it."""
    for _ in range(5000):
        snap = server.table(table)["snapshot"]
        if snap["current_player"] == "A" and not snap["is_over"]:
            expect(root(page)).to_have_attribute("data-moves", str(snap["moves_played"]))
            expect(root(page)).to_have_attribute("data-my-turn", "true")
            return dict(snap)
        time.sleep(0.02)
    raise AssertionError(f"table {table} is stuck")


def _inside(locator: Locator, width: int, height: int) -> None:
    """Every element of ``locator`` lies wholly in the ``width``×``height`` viewport."""
    assert locator.count() > 0
    for i in range(locator.count()):
        box = locator.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, box
        assert box["x"] + box["width"] <= width + 0.5, box
        assert box["y"] + box["height"] <= height + 0.5, box


def test_track_and_dice_share_one_1280_by_800_screen(server: Server, new_context: Any) -> None:
    table = server.create(game="pistard", seats=["human", "greedy", "greedy"])
    page = open_page(new_context(1280, 800), f"{server.url}/table/{table}")
    join(page, "A", "Ada")
    _my_turn(server, table, page)
    board = page.get_by_test_id("board")
    expect(page.get_by_test_id("assign-button").first).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    _inside(board, 1280, 800)
    _inside(page.get_by_test_id("dice"), 1280, 800)
    _inside(page.get_by_test_id("assign-button"), 1280, 800)
    box = board.bounding_box()
    assert box is not None and box["width"] > 700  # a track to play on, not a stamp
    page.screenshot(path=artifact("pistard-first-move-1280.png"))

    # The first move: a die for each rider; then the race, a die and a lit square.
    for _ in range(8):
        snap = _my_turn(server, table, page)
        if snap["phase"] != "first":
            break
        page.get_by_test_id("assign-button").first.click()
        expect(root(page)).not_to_have_attribute("data-moves", str(snap["moves_played"]))
    dice = page.get_by_test_id("die-button")
    stuck = page.get_by_test_id("stuck-button")
    expect(dice.or_(stuck).first).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    _inside(board, 1280, 800)
    _inside(dice.or_(stuck), 1280, 800)
    if dice.count():
        dice.first.click()
        lit = page.locator("[data-testid=board] [data-square].legal")
        expect(lit.first).to_be_visible()
        _inside(lit, 1280, 800)
    page.screenshot(path=artifact("pistard-race-one-screen-1280.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def test_pistard_on_a_phone(server: Server, new_context: Any) -> None:
    table = server.create(game="pistard", seats=["human", "greedy"])
    page = open_page(new_context(390, 844), f"{server.url}/table/{table}")
    join(page, "A", "Pip")
    snap = _my_turn(server, table, page)
    board = page.get_by_test_id("board")
    box = board.bounding_box()
    assert box is not None
    # The upright track fits the width and the screen's height: all of it in view at once.
    assert box["width"] <= 390 and box["height"] <= 844 - 60
    assert box["width"] > 300
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The dice are big enough to tap, and tapping one plays it.
    button = page.get_by_test_id("assign-button").first
    tap = box_in_view(button)
    assert tap["height"] >= 24 and tap["x"] + tap["width"] <= 390
    page.screenshot(path=artifact("pistard-phone-390.png"))
    button.click()
    expect(root(page)).not_to_have_attribute("data-moves", str(snap["moves_played"]))
    assert page.errors == []  # type: ignore[attr-defined]


def test_every_rider_shows_its_base_colour(server: Server, new_context: Any) -> None:
    """Each rider's ring is its base colour (the colour bonus), not hidden by a shared
    style: riders of different bases have different rings."""
    table = server.create(game="pistard", seats=["human", "greedy", "greedy"])
    page = open_page(new_context(), f"{server.url}/table/{table}")
    bodies = page.locator("[data-testid=board] .pi-rider .body")
    expect(bodies.first).to_be_attached()
    # The board is drawn again with each table message; a ring read just as it is
    # replaced has no computed style: read again (a readiness poll, not a timing test).
    script = "bs => bs.map(b => [b.dataset.base, b.isConnected ? getComputedStyle(b).stroke : ''])"
    seen = bodies.evaluate_all(script)
    for _ in range(50):
        if seen and all(stroke for _, stroke in seen):
            break
        page.wait_for_timeout(100)
        seen = bodies.evaluate_all(script)
    assert len(seen) >= 8
    by_base: dict[str, set[str]] = {}
    for base, stroke in seen:
        by_base.setdefault(base, set()).add(stroke)
    assert set(by_base) == set(RINGS)
    for base, strokes in by_base.items():
        assert strokes == {RINGS[base]}, (base, strokes)
    assert len({RINGS[b] for b in by_base}) == 4
    assert page.errors == []  # type: ignore[attr-defined]
