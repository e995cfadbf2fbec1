"""The course editor redraws only what an edit changed (issue 34, point 4): the board's
SVG nodes added, removed and recoloured by an edit are watched with a MutationObserver
on a short and on the longest road, and are the same few on both; what the edits leave
drawn is what drawing the course afresh (a reload) draws. No clock is read:
``benchmarks/editor_redraw.py`` times the redraw."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from .conftest import Server, open_page

#: Records, for one edit, the nodes put in or taken out of the board's SVG (a group drawn
#: whole counts once) and the squares whose fill or class changed.
WATCH = """() => {
  const root = document.querySelector("[data-testid=editor-board] svg.board");
  window.__changes = { added: 0, removed: 0, recoloured: [], reclassed: [], touched: 0 };
  window.__watch = new MutationObserver((records) => {
    for (const r of records) {
      window.__changes.touched += 1;
      window.__changes.added += r.addedNodes.length;
      window.__changes.removed += r.removedNodes.length;
      const square = r.type === "attributes" && r.target.dataset && r.target.dataset.square;
      if (square && r.attributeName === "fill") window.__changes.recoloured.push(square);
      if (square && r.attributeName === "class") window.__changes.reclassed.push(square);
    }
  });
  window.__watch.observe(root, { subtree: true, childList: true, attributes: true });
  return root.querySelectorAll("*").length;
}"""


def start_road(page: Page, rows: int) -> None:
    page.get_by_test_id("start-course").select_option("")
    page.get_by_test_id("start-rows").fill(str(rows))
    page.get_by_test_id("start-lanes").fill("9")
    page.get_by_test_id("start").click()
    expect(page.locator("[data-testid=editor-board] [data-square]")).to_have_count(rows * 9 + 1)


def edit(page: Page, tool: str, square: str) -> dict[str, Any]:
    """Use `tool` on `square` (a click, as a designer does); the board's changes it made.
    The click's handler redraws before the click returns."""
    page.get_by_test_id(f"tool-{tool}").click()
    page.evaluate(WATCH)
    page.locator(f'[data-testid=editor-board] [data-square="{square}"]').click()
    return changes(page)


def changes(page: Page) -> dict[str, Any]:
    """The board's changes since WATCH, and the watch stopped."""
    found: dict[str, Any] = page.evaluate(
        "() => { window.__watch.takeRecords(); window.__watch.disconnect(); return window.__changes; }"
    )
    return found


def rows_of(squares: list[str]) -> set[int]:
    return {int(s[1:]) for s in squares}


def edits_on(page: Page, rows: int) -> list[dict[str, Any]]:
    """The same five edits near the start of a road of `rows` rows (MC-1.2: a tab starts
    a section; feed zones and rocks sit on squares), each one's changes."""
    start_road(page, rows)
    # A plain section from row 20 on: the edits below end their stretches there.
    edit(page, "plain", "a20")
    return [
        edit(page, "feed", "c5"),
        edit(page, "rocks", "f6"),
        edit(page, "sprint", "b10"),  # rows 10..19 become a sprint
        edit(page, "sprint", "b10"),  # and the start zone again
        edit(page, "erase", "f6"),  # a rock's square takes the click (its drawing lets it through)
    ]


def test_an_edit_redraws_only_what_it_changed_however_long_the_road(
    server: Server, new_context
) -> None:
    page = open_page(new_context(1280, 800), f"{server.url}/editor")
    short = edits_on(page, 40)
    long = edits_on(page, 199)
    drawn = page.evaluate(
        "document.querySelectorAll('[data-testid=editor-board] svg.board *').length"
    )
    assert drawn > 2000  # the longest road: 199 x 9 squares, their bands and labels
    assert short == long
    feed, rock, sprint, back, unrock = long
    # A feed zone or a rock: one group drawn (the rock's square also says it is one).
    assert (feed["added"], feed["removed"], feed["recoloured"]) == (1, 0, [])
    assert (rock["added"], rock["removed"], rock["reclassed"]) == (1, 0, ["f6"])
    assert (unrock["added"], unrock["removed"], unrock["reclassed"]) == (0, 1, ["f6"])
    # A tab: the squares of the rows whose section changed take its colour, and the
    # bands above them are drawn again (the start zone's shorter, the sprint's new).
    for tab in (sprint, back):
        assert len(tab["recoloured"]) == 10 * 9
        assert rows_of(tab["recoloured"]) == set(range(10, 20))
        assert tab["added"] + tab["removed"] == 3
    assert page.evaluate("document.querySelector('[data-square=b12]').getAttribute('fill')") == (
        page.evaluate("document.querySelector('[data-square=b3]').getAttribute('fill')")
    )


def test_what_the_edits_leave_drawn_is_the_course_drawn_afresh(server: Server, new_context) -> None:
    page = open_page(new_context(1280, 800), f"{server.url}/editor")
    start_road(page, 60)
    for tool, square in [
        ("plain", "a20"),
        ("sprint", "c8"),
        ("mountain", "d40"),
        ("feed", "e12"),
        ("feed", "a45"),
        ("rocks", "b41"),
        ("rocks", "c42"),
        ("plain", "a40"),  # the mountain becomes a plain section
        ("erase", "a45"),
        ("sprint", "c8"),  # the sprint tab goes
    ]:
        edit(page, tool, square)
    board = "document.querySelector('[data-testid=editor-board] svg.board').innerHTML"
    edited = page.evaluate(board)
    # The draft is kept: a reload draws the same course from nothing.
    page.reload()
    expect(page.locator("[data-testid=editor-board] [data-square]")).to_have_count(60 * 9 + 1)
    assert page.evaluate(board) == edited
    assert page.errors == []  # type: ignore[attr-defined]
