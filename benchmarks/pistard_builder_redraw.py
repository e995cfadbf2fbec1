"""How fast Pistard's layout builder redraws after a paint, as a designer feels it: a
real ``peloton serve`` (SQLite in a temporary directory), Debian's Chromium driven by
Playwright (never a downloaded browser), the builder opened on the default layout and
set to ``--rows`` rows (120, the longest track, by default), then ``N`` squares painted
by clicking them with the palette's colours in turn, the way a designer does.

    .venv/bin/python benchmarks/pistard_builder_redraw.py [--paints 30] [--rows 120]
    .venv/bin/python benchmarks/pistard_builder_redraw.py --quick

Each paint is timed as benchmarks/editor_redraw.py times an edit: inside the page from
the pointerdown reaching the page (a listener in the capture phase, before the
builder's own) to the first frame drawn after it; by the browser's Event Timing of the
pointerdown (input to next paint, in 8 ms steps; under 16 ms counts as 16); and by
Playwright's clock around its click. The live check (``POST /api/editor/check``, sent
a moment after the last paint) is waited for between paints and is not in the figure.
Prints the median, the 95th percentile and the largest time; ``--quick`` makes six
paints (a check that the script runs).
"""

from __future__ import annotations

import argparse
import time

from playwright.sync_api import Page

from _browser import print_times, served_browser

BOARD = "[data-testid=layout-board]"

#: Installed before the page's scripts: per pointerdown on a square, the milliseconds
#: to the frame after it, and the Event Timing entry of that pointerdown.
TIMER = """
window.__redraws = [];
window.__downs = new Set();
window.addEventListener("pointerdown", (event) => {
  const on = event.target.closest && event.target.closest("[data-testid=layout-board] [data-square]");
  if (!on) return;
  window.__downs.add(event.timeStamp);
  const began = performance.now();
  requestAnimationFrame(() => setTimeout(() => window.__redraws.push(performance.now() - began), 0));
}, { capture: true });
window.__painted = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === "pointerdown" && window.__downs.has(e.startTime)) window.__painted.push(e.duration);
}).observe({ type: "event", durationThreshold: 16, buffered: true });
"""


def paints(count: int, rows: int) -> list[tuple[str, str]]:
    """``count`` paints as (colour letter, square), spread round the loop."""
    return [("ygbr"[i % 4], f"{'abcd'[(i * 3) % 4]}{1 + (i * 37) % rows}") for i in range(count)]


def settle(page: Page) -> None:
    """Wait until the live check has answered the draft shown."""
    page.wait_for_function(
        "document.querySelector('[data-testid=check-state]').dataset.state !== 'checking'",
        timeout=30_000,
    )


def measure(
    page: Page, url: str, rows: int, count: int
) -> tuple[list[float], list[float], list[float]]:
    """Milliseconds from pointerdown to drawn frame for each of ``count`` paints: inside
    the page, by Event Timing, and by Playwright's clock."""
    walls: list[float] = []
    page.add_init_script(TIMER)
    page.goto(f"{url}/editor?game=pistard")
    settle(page)
    page.get_by_test_id("length").fill(str(rows))
    page.get_by_test_id("length").press("Enter")
    page.locator(f'{BOARD} [data-square="d{rows}"]').wait_for(state="attached")
    settle(page)
    for colour, square in paints(count, rows):
        page.get_by_test_id(f"colour-{colour}").click()
        target = page.locator(f'{BOARD} [data-square="{square}"]')
        target.scroll_into_view_if_needed()
        settle(page)
        before = page.evaluate("window.__redraws.length")
        began = time.perf_counter()
        target.click()
        page.wait_for_function(f"window.__redraws.length > {before}")
        walls.append((time.perf_counter() - began) * 1000)
    page.wait_for_timeout(500)  # Event Timing entries come a little after their frame
    times: list[float] = page.evaluate("window.__redraws")
    painted: list[float] = page.evaluate("window.__painted")
    painted += [16.0] * (len(times) - len(painted))
    return times, painted, walls


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--paints", type=int, default=30, help="paints to time (N)")
    parser.add_argument("--rows", type=int, default=120, help="track rows (20 to 120)")
    parser.add_argument("--quick", action="store_true", help="six paints: the script runs")
    args = parser.parse_args()
    count = 6 if args.quick else args.paints
    with served_browser() as (url, browser):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        times, painted, walls = measure(page, url, args.rows, count)
    print(f"layout {args.rows} rows x 4 lanes, {count} paints (ms: median, p95, max)")
    print_times(
        [
            ("pointerdown to the frame after it (performance.now)", times),
            ("pointerdown to next paint (Event Timing)", painted),
            ("Playwright's click to the frame (wall)", walls),
        ]
    )


if __name__ == "__main__":
    main()
