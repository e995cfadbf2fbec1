"""How fast Mind Cycling's course editor redraws after an edit, as a designer feels it:
a real ``peloton serve`` (SQLite in a temporary directory), Debian's Chromium driven by
Playwright (never a downloaded browser), the editor's own start form making a blank road
of the largest size it offers (199 road rows, finish line after row 199, 9 lanes), then
``N`` edits made by clicking squares of the board with the editor's tools, the way a
designer does: a section tab put down, its type changed, taken away, a feed zone and a
rock put on a square, the eraser.

    .venv/bin/python benchmarks/editor_redraw.py [--edits 60] [--rows 199] [--lanes 9]
    .venv/bin/python benchmarks/editor_redraw.py --quick

Each edit is timed three ways: inside the page with ``performance.now()``, from the
click event reaching the page (a listener in the capture phase, before the editor's own)
to the first frame drawn after it (a ``requestAnimationFrame`` callback, then a task
after that frame); by the browser's own Event Timing of the click (from the input to the
next paint, in 8 ms steps); and by Playwright's clock around its click. The editor's
work and the browser's style, layout and paint of what it changed are in all three. The live check (``POST /api/editor/check``, sent a moment after the last
change) is waited for between edits, as a designer pausing between clicks lets it come,
and is not in the figure. Prints the median, the 95th percentile and the largest time
over the edits; ``--quick`` makes six edits (a check that the script runs).
"""

from __future__ import annotations

import argparse
import time

from playwright.sync_api import Page

from _browser import print_times, served_browser

#: Installed before the page's scripts: for each click on a square of the board, the
#: milliseconds from the event to the frame after it, and the browser's own Event Timing
#: entry of the click (its duration: from the input to the next paint, in 8 ms steps).
TIMER = """
window.__redraws = [];
window.__clicks = new Set(); // the timeStamp of each click on the board
window.addEventListener("click", (event) => {
  const on = event.target.closest && event.target.closest("[data-testid=editor-board] [data-square]");
  if (!on) return; // a tool button
  window.__clicks.add(event.timeStamp);
  const began = performance.now();
  requestAnimationFrame(() => setTimeout(() => window.__redraws.push(performance.now() - began), 0));
}, { capture: true });
window.__painted = [];
// An entry's target is gone when the square it names was drawn anew: its start time
// (the event's timeStamp) tells it.
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === "click" && window.__clicks.has(e.startTime)) window.__painted.push(e.duration);
}).observe({ type: "event", durationThreshold: 16, buffered: true });
"""

#: One cycle of edits: (tool, lane, row offset). Rows spread over the whole road, so
#: the edits are not all near its start (or all in view).
CYCLE = [
    ("plain", 0, 0),
    ("sprint", 2, 0),  # the same row's tab becomes a sprint tab
    ("feed", 3, 1),
    ("rocks", 5, 2),
    ("mountain", 1, 3),
    ("erase", 3, 1),  # the feed zone goes
    ("plain", 4, 3),  # the mountain tab becomes a plain one
    ("plain", 6, 3),  # and goes
]


def edits(count: int, rows: int, lanes: int) -> list[tuple[str, str]]:
    """``count`` edits as (tool, square), on rows spread along a road of ``rows`` rows."""
    out: list[tuple[str, str]] = []
    cycle = 0
    while len(out) < count:
        # Rows 5.. of the road, a new stretch each cycle (a start zone stays before).
        base = 5 + (cycle * 37) % max(1, rows - 10)
        for tool, lane, offset in CYCLE:
            out.append((tool, f"{'abcdefghi'[lane % lanes]}{min(rows, base + offset)}"))
        cycle += 1
    return out[:count]


def settle(page: Page) -> None:
    """Wait until the live check has answered the draft shown."""
    page.wait_for_function(
        "document.querySelector('[data-testid=check-state]').dataset.state !== 'checking'",
        timeout=30_000,
    )


def measure(
    page: Page, url: str, rows: int, lanes: int, count: int
) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds from click to drawn frame for each of ``count`` edits: inside the
    page, by the browser's Event Timing, and by Playwright's clock (its click,
    actionability checks included, to the frame)."""
    walls: list[float] = []
    page.add_init_script(TIMER)
    page.goto(f"{url}/editor")
    page.get_by_test_id("start-course").select_option("")
    page.get_by_test_id("start-rows").fill(str(rows))
    page.get_by_test_id("start-lanes").fill(str(lanes))
    page.get_by_test_id("start").click()
    board = page.locator("[data-testid=editor-board]")
    board.locator(f'[data-square="{"abcdefghi"[lanes - 1]}{rows}"]').wait_for(state="attached")
    settle(page)
    tool = None
    for wanted, square in edits(count, rows, lanes):
        if wanted != tool:
            page.get_by_test_id(f"tool-{wanted}").click()
            tool = wanted
        target = board.locator(f'[data-square="{square}"]')
        target.scroll_into_view_if_needed()
        settle(page)
        before = page.evaluate("window.__redraws.length")
        began = time.perf_counter()
        target.click()
        page.wait_for_function(f"window.__redraws.length > {before}")
        walls.append((time.perf_counter() - began) * 1000)
    # Event Timing entries come a little after their frame (and not at all for a click
    # painted within 16 ms, the least threshold: those count as 16).
    page.wait_for_timeout(500)
    times: list[float] = page.evaluate("window.__redraws")
    painted: list[float] = page.evaluate("window.__painted")
    painted += [16.0] * (len(times) - len(painted))
    return times, painted, walls


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edits", type=int, default=60, help="edits to time (N)")
    parser.add_argument("--rows", type=int, default=199, help="road rows (at most 199)")
    parser.add_argument("--lanes", type=int, default=9, help="lanes (at most 9)")
    parser.add_argument("--quick", action="store_true", help="six edits: the script runs")
    args = parser.parse_args()
    count = 6 if args.quick else args.edits
    with served_browser() as (url, browser):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        times, painted, walls = measure(page, url, args.rows, args.lanes, count)
    print(f"course {args.rows} rows x {args.lanes} lanes, {count} edits (ms: median, p95, max)")
    print_times(
        [
            ("click to the frame after it (performance.now)", times),
            ("click to next paint (Event Timing)", painted),
            ("Playwright's click to the frame (wall)", walls),
        ]
    )


if __name__ == "__main__":
    main()
