"""The Mind Cycling board in a real browser: train links end on the square the follower
may take the wheel on (MC-6.1, MC-6.4), wheel and relay destinations are played by a
click on the board (MC-6.4, MC-6.5), the legend names every mark, the finish label
covers no rider, and the zoom, the overview strip and the sticky lane letters work at
1280 px and on a phone."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from .conftest import Server, artifact, open_page
from .helpers import box_in_view, play_over_socket, root

#: Setup (MC-3) in notation: BD1 stands right behind AD1, so it is linked to it in
#: round 1 (MC-6.1); AD1 is the first to ride (MC-4.3).
SETUP = ["AD1@a5", "BD1@a4", "AS1@c5", "BS1@e5", "AC1@e3", "BC1@c1"]
#: AD1 rides diagonally to b10: BD1 may now take the wheel on b9, right behind it
#: (MC-6.4), or a relay on b11, in front of it (MC-6.5), and has priority (MC-4.4).
LEADER_MOVES = "AD1-b10"


def _two_humans(server: Server) -> tuple[str, dict[str, str]]:
    """A short-course table of two human teams of three, set up as SETUP says."""
    table = server.create(course="short", riders=3, seats=["human", "human"])
    tokens = {
        s: server.post(f"/api/tables/{table}/join", {"seat": s, "name": s})["token"] for s in "AB"
    }
    for i, move in enumerate(SETUP):
        play_over_socket(server, table, tokens[move[0]], move, i)
    return table, tokens


def _as_seat(ctx: BrowserContext, server: Server, table: str, token: str) -> Page:
    """The table page of ``ctx`` holding ``token`` (as the seat's own browser would)."""
    ctx.add_init_script(f"localStorage.setItem('peloton.token.{table}', {json.dumps(token)})")
    return open_page(ctx, f"{server.url}/table/{table}")


def _centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _link_end(page: Page, link: str) -> tuple[float, float]:
    """Where the link's line ends, in page pixels."""
    return _on_the_board(
        page,
        f'[data-link="{link}"] line',
        """l => { const p = l.ownerSVGElement.createSVGPoint();
                 p.x = l.x2.baseVal.value; p.y = l.y2.baseVal.value;
                 const q = p.matrixTransform(l.getScreenCTM()); return [q.x, q.y]; }""",
    )


def _on_the_board(page: Page, selector: str, script: str) -> tuple[float, float]:
    """``script`` evaluated on a board element. The board is drawn again with each table
    message, so an element found just before a redraw may be detached (no SVG owner)
    when the script runs: then find it again (a readiness poll, not a timing test)."""
    for _ in range(50):
        try:
            return tuple(page.locator(selector).evaluate(script))  # type: ignore[return-value]
        except PlaywrightError:
            page.wait_for_timeout(100)
    return tuple(page.locator(selector).evaluate(script))  # type: ignore[return-value]


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return abs(a[0] - b[0]) < 1.5 and abs(a[1] - b[1]) < 1.5


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_train_link_ends_where_the_follower_may_take_the_wheel(
    server: Server, new_context: Any, width: int, height: int
) -> None:
    """MC-6.1, MC-6.4: before AD1 moves, BD1's link ends on its shelter square a5, where
    AD1 stands; once AD1 has ridden to b10 it ends on b9, directly behind AD1's new
    square — not on AD1 itself."""
    table, tokens = _two_humans(server)
    page = _as_seat(new_context(width, height), server, table, tokens["B"])
    expect(root(page)).to_have_attribute("data-moves", str(len(SETUP)))
    link = page.locator('[data-link="BD1>AD1"]')
    expect(link).to_have_attribute("data-to", "a5")
    assert _near(
        _link_end(page, "BD1>AD1"), _centre(page, '[data-testid=board] [data-square="a5"]')
    )

    play_over_socket(server, table, tokens["A"], LEADER_MOVES, len(SETUP))
    expect(root(page)).to_have_attribute("data-moves", str(len(SETUP) + 1))
    expect(link).to_have_attribute("data-to", "b9")
    expect(page.locator('[data-testid=board] [data-rider="AD1"]')).to_have_attribute(
        "data-at", "b10"
    )
    end = _link_end(page, "BD1>AD1")
    assert _near(end, _centre(page, '[data-testid=board] [data-square="b9"]'))
    assert not _near(end, _centre(page, '[data-testid=board] [data-rider="AD1"]'))
    # The link starts at the follower.
    start = _on_the_board(
        page,
        '[data-link="BD1>AD1"] line',
        """l => { const p = l.ownerSVGElement.createSVGPoint();
                 p.x = l.x1.baseVal.value; p.y = l.y1.baseVal.value;
                 const q = p.matrixTransform(l.getScreenCTM()); return [q.x, q.y]; }""",
    )
    assert _near(start, _centre(page, '[data-testid=board] [data-rider="BD1"]'))
    page.screenshot(path=artifact(f"board-link-{width}.png"))
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_link_behind_an_attack_is_drawn_cut(server: Server, new_context: Any) -> None:
    """MC-7.3: AD1 attacks to b10; nobody may follow it, so BD1's link is drawn cut
    (still ending behind AD1) and no wheel or relay square is lit."""
    table, tokens = _two_humans(server)
    play_over_socket(server, table, tokens["A"], LEADER_MOVES + "!", len(SETUP))
    page = _as_seat(new_context(), server, table, tokens["B"])
    expect(root(page)).to_have_attribute("data-moves", str(len(SETUP) + 1))
    link = page.locator('[data-link="BD1>AD1"]')
    expect(link).to_have_class(re.compile(r"\bcut\b"))
    expect(link).to_have_attribute("data-to", "b9")
    expect(page.locator("[data-testid=board] [data-square].train")).to_have_count(0)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_click_on_a_wheel_destination_plays_the_wheel(server: Server, new_context: Any) -> None:
    """MC-6.4, MC-6.5: BD1's wheel square b9 and relay square b11 are lit as train
    destinations; a click on b9 plays the wheel (not the plain ride to b9, which stays
    a button away)."""
    table, tokens = _two_humans(server)
    play_over_socket(server, table, tokens["A"], LEADER_MOVES, len(SETUP))
    page = _as_seat(new_context(), server, table, tokens["B"])
    expect(root(page)).to_have_attribute("data-my-turn", "true")
    wheel = page.locator('[data-testid=board] [data-square="b9"]')
    relay = page.locator('[data-testid=board] [data-square="b11"]')
    expect(wheel).to_have_class(re.compile(r"\blegal\b.*\btrain\b.*\bwheel\b"))
    expect(relay).to_have_class(re.compile(r"\blegal\b.*\btrain\b.*\brelay\b"))
    expect(page.get_by_test_id("plain-ride-button").first).to_be_visible()
    wheel.hover()
    expect(page.get_by_test_id("hint")).to_contain_text("takes the wheel of AD1 to b9")
    page.screenshot(path=artifact("board-wheel-1280.png"))
    wheel.click()
    expect(root(page)).to_have_attribute("data-moves", str(len(SETUP) + 2))
    moves = server.get(f"/api/tables/{table}/record")["moves"]
    assert moves[-1] == "BD1-b9w"
    expect(page.locator('[data-testid=board] [data-rider="BD1"]')).to_have_attribute(
        "data-at", "b9"
    )
    assert page.errors == []  # type: ignore[attr-defined]


LEGEND_KEYS = [
    "disc",
    "domestique",
    "sprinter",
    "climber",
    "bottle",
    "no-bottle",
    "current",
    "moved",
    "exhausted",
    "wind",
    "link",
    "link-cut",
    "last",
    "legal",
    "attack",
    "wheel",
    "feed",
    "wind-direction",
]


def test_the_legend_names_every_mark_and_folds_on_a_phone(server: Server, new_context: Any) -> None:
    table = server.create(course="short", riders=3, seats=["human", "greedy"])
    url = f"{server.url}/table/{table}"
    page = open_page(new_context(), url)
    legend = page.get_by_test_id("mc-legend")
    expect(legend).to_have_attribute("open", "")
    for key in LEGEND_KEYS:
        expect(legend.locator(f'[data-legend="{key}"]')).to_be_visible()
    # The samples are drawn like the board: a moved rider faded as much as on the road.
    faded = legend.locator(".moved-sample").evaluate("g => getComputedStyle(g).opacity")
    assert float(faded) < 1
    phone = open_page(new_context(390, 844), url)
    folded = phone.get_by_test_id("mc-legend")
    expect(folded).not_to_have_attribute("open", "")
    expect(folded.locator('[data-legend="moved"]')).to_be_hidden()
    folded.locator("summary").click()
    expect(folded.locator('[data-legend="moved"]')).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=artifact("board-legend-390.png"), full_page=True)
    assert page.errors == [] and phone.errors == []  # type: ignore[attr-defined]


def _boxes_meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_the_finish_label_covers_no_rider(server: Server, new_context: Any) -> None:
    """A race of three bots to the end (MC-8): twelve riders across the line in the
    finish zone, others still on the road; the label meets none of them."""
    table = server.create(course="short", riders=6, players=3, seats=["greedy"] * 3)
    for _ in range(6000):  # poll while the bots race; not a timing assertion
        if server.table(table)["status"] == "finished":
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the bots' race did not end")
    for width, height in [(1280, 800), (390, 844)]:
        page = open_page(new_context(width, height), f"{server.url}/table/{table}")
        expect(root(page)).to_have_attribute("data-phase", "over")
        expect(page.locator("[data-finished]").first).to_be_attached()
        label = page.get_by_test_id("finish-label")
        box = box_in_view(label)
        assert box["width"] > 0
        riders = page.locator(
            "[data-testid=board] [data-finished], [data-testid=board] [data-rider]"
        )
        assert riders.count() >= 12
        for i in range(riders.count()):
            other = riders.nth(i).bounding_box()
            assert other is None or not _boxes_meet(box, other), riders.nth(i).get_attribute(
                "data-finished"
            ) or riders.nth(i).get_attribute("data-rider")
        page.screenshot(path=artifact(f"board-finish-{width}.png"))
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_zoom_overview_and_sticky_lane_letters(
    server: Server, new_context: Any, width: int, height: int
) -> None:
    """The standard course is long: the zoom buttons (and ctrl + wheel) change the
    board's scale, a click on the overview strip brings that part of the road into
    view, and the lane letters stay at the left edge of the scrolled road."""
    table = server.create(course="standard", riders=4, seats=["human", "greedy"])
    page = open_page(new_context(width, height), f"{server.url}/table/{table}")
    board = page.get_by_test_id("board")
    scroller = page.get_by_test_id("board-scroll")
    expect(board).to_have_attribute("data-zoom", "1")
    natural = float(board.get_attribute("width") or 0)
    page.get_by_test_id("zoom-in").click()
    expect(board).to_have_attribute("data-zoom", "1.25")
    assert float(board.get_attribute("width") or 0) == pytest.approx(natural * 1.25, abs=1)
    expect(page.get_by_test_id("zoom-level")).to_have_text("125%")
    page.get_by_test_id("zoom-out").click()
    page.get_by_test_id("zoom-out").click()
    expect(board).to_have_attribute("data-zoom", "0.8")
    # A square's size on screen follows the zoom.
    size = page.locator('[data-testid=board] [data-square="c3"]').bounding_box()
    assert size is not None and size["width"] == pytest.approx(
        42 * 0.8 if width > 600 else 36 * 0.8, abs=1.5
    )
    # Ctrl + wheel over the road zooms too.
    sbox = scroller.bounding_box()
    assert sbox is not None
    page.mouse.move(sbox["x"] + sbox["width"] / 2, sbox["y"] + sbox["height"] / 2)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    expect(board).to_have_attribute("data-zoom", "1")

    # The overview: a click near its right end shows the end of the course.
    before = scroller.evaluate("s => s.scrollLeft")
    overview = page.get_by_test_id("overview")
    obox = overview.bounding_box()
    assert obox is not None
    overview.click(position={"x": obox["width"] * 0.9, "y": obox["height"] / 2})
    last_row = int(
        page.locator("[data-testid=board] [data-square]").evaluate_all(
            "rs => Math.max(...rs.map(r => Number(r.dataset.square.slice(1)) || 0))"
        )
    )
    # The strip shows the rows and the finish (two rows wide); a click centres the row
    # under it.
    clicked = round(0.9 * (last_row + 2) + 0.5)
    nav = page.get_by_test_id("board-nav")
    first, last = (
        int(nav.get_attribute("data-first") or 0),
        int(nav.get_attribute("data-last") or 0),
    )
    assert first <= clicked <= last
    assert scroller.evaluate("s => s.scrollLeft") > before
    # The row clicked is on screen, and the frame of the strip moved there.
    row = page.locator(
        f'[data-testid=board] [data-square="c{min(clicked, last_row)}"]'
    ).bounding_box()
    assert row is not None and sbox["x"] <= row["x"] + row["width"] / 2 <= sbox["x"] + sbox["width"]
    frame = page.get_by_test_id("overview-window").bounding_box()
    assert frame is not None and frame["x"] > obox["x"] + obox["width"] / 3

    # The lane letters are still at the left edge of the road in view, level with
    # their lanes.
    for lane in "ae":
        letter = page.locator(f'[data-testid=lane-rail] [data-lane="{lane}"]').bounding_box()
        assert letter is not None
        assert sbox["x"] <= letter["x"] <= sbox["x"] + 12
        square = page.locator(
            f'[data-testid=board] [data-square="{lane}{min(clicked, last_row)}"]'
        ).bounding_box()
        assert square is not None
        assert abs((letter["y"] + letter["height"] / 2) - (square["y"] + square["height"] / 2)) < 3
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=artifact(f"board-overview-{width}.png"))
    assert page.errors == []  # type: ignore[attr-defined]
