"""Pistard's layout builder in a real browser (issue 34, point 3): squares painted by
clicking and dragging, a design check turning broken and back, a share link opened in
another browser, a table created on the painted layout and raced on its colours
(PI-1.1); on a phone's screen too; and a damaged link or file opening nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from peloton.games.pistard.layout_design import DESIGN_RULES
from peloton.games.pistard.track import COLOUR_OF_LETTER, Layout

from .conftest import Server, artifact, open_page
from .helpers import root

DEFAULT_ROWS = Layout.load("default").rows
BUILDER = "[data-testid=layout-board]"


def square(page: Page, name: str, board: str = BUILDER):  # type: ignore[no-untyped-def]
    return page.locator(f'{board} [data-square="{name}"]')


def colours(page: Page, board: str = BUILDER) -> dict[str, str]:
    """Every square's colour as the page draws it: ``{"a1": "red", ...}``."""
    found: dict[str, str] = page.eval_on_selector_all(
        f"{board} [data-square]",
        "els => Object.fromEntries(els.map(e => [e.dataset.square, e.dataset.colour]))",
    )
    return found


def rule(page: Page, key: str):  # type: ignore[no-untyped-def]
    return page.get_by_test_id(f"rule-{key}")


def open_builder(page_url: str, ctx: Any) -> Page:
    page = open_page(ctx, page_url)
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    return page


def test_paint_check_share_and_race_on_a_layout_pi_1_1(
    server: Server, new_context: Any, tmp_path: Path
) -> None:
    page = open_builder(f"{server.url}/editor?game=pistard", new_context(1280, 900))
    # The default layout opens, every design rule holding (its file's header).
    expect(page.get_by_test_id("name")).to_have_value("my default")
    expect(square(page, "d40")).to_have_attribute("data-colour", "green")
    for key, title in DESIGN_RULES:
        expect(rule(page, key)).to_have_attribute("data-state", "holds")
        expect(rule(page, key)).to_contain_text(title)

    # Row 6 (lane a yellow) painted red: lane a is red on rows 4, 5 and 6, and row 6
    # has no yellow: two checks broken, the layout still valid (it races).
    page.get_by_test_id("colour-r").click()
    square(page, "a6").click()
    expect(rule(page, "no-triples")).to_have_attribute("data-state", "broken")
    expect(rule(page, "no-triples")).to_contain_text("broken at row 4")
    expect(rule(page, "row-colours")).to_contain_text("broken at row 6")
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    expect(square(page, "a6")).to_have_class(re.compile("pl-advice"))
    # Painted back: both hold again.
    page.get_by_test_id("colour-y").click()
    square(page, "a6").click()
    expect(rule(page, "no-triples")).to_have_attribute("data-state", "holds")
    expect(rule(page, "row-colours")).to_have_attribute("data-state", "holds")

    # A drag paints every square it crosses: lane b of rows 1-3 green.
    page.get_by_test_id("colour-g").click()
    start = square(page, "b1").bounding_box()
    end = square(page, "b3").bounding_box()
    assert start and end
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
    page.mouse.up()
    for name in ("b1", "b2", "b3"):
        expect(square(page, name)).to_have_attribute("data-colour", "green")
    expect(rule(page, "no-triples")).to_contain_text("broken at row 1")  # rows 1, 2 and 3
    # The drag is undone as one edit, and redone.
    page.get_by_test_id("undo").click()
    for row in (2, 3):
        default = COLOUR_OF_LETTER[DEFAULT_ROWS[row - 1][1]]
        expect(square(page, f"b{row}")).to_have_attribute("data-colour", default)
    expect(rule(page, "no-triples")).to_have_attribute("data-state", "holds")
    page.keyboard.press("Control+y")
    expect(square(page, "b3")).to_have_attribute("data-colour", "green")
    # The keyboard paints too: from the cursor (b3, last painted) one row on and one
    # lane out, in red.
    page.get_by_test_id("layout-board").focus()
    page.keyboard.press("r")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    expect(page.get_by_test_id("row-facts")).to_contain_text(
        "cursor c4 (green): Enter paints it red"
    )
    page.keyboard.press("Enter")
    expect(square(page, "c4")).to_have_attribute("data-colour", "red")
    page.keyboard.press("ArrowLeft")  # back to row 3, for the row tools
    # The row tools change the row last painted (row 3): a copy of row 2 before it.
    expect(page.get_by_test_id("copy-before")).to_have_text("Copy row 2 to row 3")
    page.get_by_test_id("copy-before").click()
    expect(square(page, "a3")).to_have_attribute("data-colour", "blue")  # row 2 "bgyg"
    # Shuffled, row 3 keeps its colours in another order.
    row3 = ["blue", "green", "yellow", "green"]
    page.get_by_test_id("shuffle").click()
    shuffled = [colours(page)[f"{lane}3"] for lane in "abcd"]
    assert sorted(shuffled) == sorted(row3) and shuffled != row3
    page.get_by_test_id("name").fill("Painted")
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    painted = colours(page)
    assert painted["b1"] == painted["b2"] == "green"
    assert [painted[f"{lane}3"] for lane in "abcd"] == shuffled
    assert painted["a4"] == COLOUR_OF_LETTER[DEFAULT_ROWS[3][0]]
    page.screenshot(path=artifact("pistard-builder-1280.png"), full_page=True)

    # Downloaded, the layout file reads back as the layout painted, as TOML and as JSON.
    for kind in ("toml", "json"):
        with page.expect_download() as download:
            page.get_by_test_id(f"download-{kind}").click()
        assert download.value.suggested_filename == f"painted.{kind}"
        path = tmp_path / f"painted.{kind}"
        download.value.save_as(path)
        drawn = Layout.from_file(path)
        assert drawn.name == "Painted"
        assert {n: drawn.colour_name(code) for n, code in drawn.codes.items()} == painted

    # The share link opens the same layout in another browser (no stored draft there).
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("share-url")).to_have_value(re.compile("course="))
    link = page.get_by_test_id("share-url").input_value()
    assert re.fullmatch(rf"{re.escape(server.url)}/editor\?game=pistard&course=[\w-]+\.\w+", link)
    other = open_builder(link, new_context(1280, 900))
    expect(other.get_by_test_id("name")).to_have_value("Painted")
    expect(other.get_by_test_id("notice")).to_have_text("Opened the shared layout.")
    assert colours(other) == painted

    # A table on it: seated as team A, greedy bots, the track in the painted colours.
    page.get_by_test_id("players").select_option("3")
    page.get_by_test_id("player-name").fill("Ada")
    page.get_by_test_id("play").click()
    expect(page).to_have_url(re.compile(r"/table/"))
    expect(root(page)).to_have_attribute("data-seat", "A")
    board = "[data-testid=board]"
    expect(square(page, "b2", board)).to_have_attribute("data-colour", "green")
    assert colours(page, board) == painted
    table = server.table(page.url.rsplit("/", 1)[1])
    assert [s["kind"] for s in table["seats"]] == ["human", "greedy", "greedy"]
    assert table["snapshot"]["track"]["name"] == "Painted"
    assert page.errors == [] and other.errors == []  # type: ignore[attr-defined]


def test_the_builder_works_on_a_phone(server: Server, new_context: Any) -> None:
    page = open_builder(f"{server.url}/editor?game=pistard", new_context(375, 812))
    board = page.get_by_test_id("layout-board").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 375
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # The upright track: a square big enough to tap, painted by a tap.
    box = square(page, "c20").bounding_box()
    assert box is not None and box["width"] >= 14 and box["height"] >= 14, box
    page.get_by_test_id("colour-b").click()
    square(page, "c20").click()
    expect(square(page, "c20")).to_have_attribute("data-colour", "blue")
    expect(rule(page, "row-colours")).to_have_attribute("data-state", "broken")
    page.get_by_test_id("length").fill("24")
    page.get_by_test_id("length").press("Enter")
    expect(page.locator(f"{BUILDER} [data-square]")).to_have_count(24 * 4)
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    page.get_by_test_id("length").fill("12")
    page.get_by_test_id("length").press("Enter")
    expect(page.get_by_test_id("problem-text")).to_have_text(
        ["the track must have 20 to 120 rows, not 12"]
    )
    expect(page.get_by_test_id("play")).to_be_disabled()
    expect(rule(page, "doubles")).to_have_attribute("data-state", "unknown")
    page.screenshot(path=artifact("pistard-builder-375.png"), full_page=True)
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_damaged_link_or_file_opens_nothing(
    server: Server, new_context: Any, tmp_path: Path
) -> None:
    ctx = new_context(1280, 900)
    page = open_builder(f"{server.url}/editor?game=pistard", ctx)
    page.get_by_test_id("name").fill("Kept")
    page.get_by_test_id("share").click()
    expect(page.get_by_test_id("share-url")).to_have_value(re.compile("course="))
    link = page.get_by_test_id("share-url").input_value()
    body, _, checksum = link.rpartition(".")
    flipped = f"{body[:-3]}{'A' if body[-3] != 'A' else 'B'}{body[-2:]}.{checksum}"
    for bad in (flipped, link[: len(link) - 20]):
        other = open_page(new_context(1280, 900), bad)
        expect(other.get_by_test_id("error")).to_contain_text(
            "the shared layout cannot be opened: the share link was"
        )
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "x"\nrows = ["ygbr",\n')
    page.get_by_test_id("upload").set_input_files(str(broken))
    expect(page.get_by_test_id("error")).to_contain_text("broken.toml cannot be opened")
    expect(page.get_by_test_id("error")).to_contain_text("not valid TOML")
    expect(page.get_by_test_id("name")).to_have_value("Kept")
    # Start from the bundled layout, then undo: the layout before comes back.
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("name")).to_have_value("my default")
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("name")).to_have_value("Kept")
    assert page.errors == []  # type: ignore[attr-defined]


#: Records the track's SVG changes from now on: nodes put in or taken out, and the
#: squares whose fill changed.
WATCH = """() => {
  const root = document.querySelector("[data-testid=layout-board] svg");
  window.__changes = { added: 0, removed: 0, recoloured: [] };
  window.__watch = new MutationObserver((records) => {
    for (const r of records) {
      window.__changes.added += r.addedNodes.length;
      window.__changes.removed += r.removedNodes.length;
      const square = r.type === "attributes" && r.target.dataset && r.target.dataset.square;
      if (square && r.attributeName === "fill") window.__changes.recoloured.push(square);
    }
  });
  window.__watch.observe(root, { subtree: true, childList: true, attributes: true });
}"""


def test_a_paint_redraws_its_square_only(server: Server, new_context: Any) -> None:
    """On the longest track (120 rows, 480 squares) a paint recolours the one square
    it paints and draws no node anew (benchmarks/pistard_builder_redraw.py times it)."""
    page = open_builder(f"{server.url}/editor?game=pistard", new_context(1280, 900))
    page.get_by_test_id("length").fill("120")
    page.get_by_test_id("length").press("Enter")
    expect(page.locator(f"{BUILDER} [data-square]")).to_have_count(480)
    expect(page.get_by_test_id("check-state")).to_have_attribute("data-state", "valid")
    page.get_by_test_id("colour-r").click()
    for name in ("c77", "a118", "d3"):
        before = colours(page)[name]
        page.evaluate(WATCH)
        square(page, name).click()
        found = page.evaluate(
            "() => { window.__watch.takeRecords(); window.__watch.disconnect(); return window.__changes; }"
        )
        if before == "red":
            assert found["recoloured"] == [], found
        else:
            assert found["recoloured"] == [name], found
        assert found["added"] == found["removed"] == 0, found
    assert page.errors == []  # type: ignore[attr-defined]
