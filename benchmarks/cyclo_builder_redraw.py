"""How fast the Cyclo course builder redraws after a board is added, as a designer
feels it: a real ``peloton serve`` (SQLite in a temporary directory), Debian's Chromium
driven by Playwright, the builder opened on board A1 alone, then boards added by
clicking them in the tray, six a course (C1 D2 C2 B2 F1 E1, up to a seven-board course
of 210 spaces), the course started again from A1 after each six.

    .venv/bin/python benchmarks/cyclo_builder_redraw.py [--adds 30]
    .venv/bin/python benchmarks/cyclo_builder_redraw.py --quick

Each add is timed from the click event reaching the page (a listener in the capture
phase, before the builder's own) to the first frame drawn after it (a
``requestAnimationFrame`` callback, then a task after that frame): the placed boards,
the course strip (redrawn whole), the facts and the mode select, and the browser's
style, layout and paint of them. The live check (``POST /api/editor/check``, sent a
moment after the last edit) is waited for between adds and is not in the figure.
Prints the median, the 95th percentile and the largest time; ``--quick`` makes six adds
(a check that the script runs).
"""

from __future__ import annotations

import argparse

from playwright.sync_api import Page

from _browser import print_times, served_browser

#: The boards added to A1, one course's worth, in order.
ADDS = ["C1", "D2", "C2", "B2", "F1", "E1"]

#: Installed before the page's scripts: for each click on a tray board, the
#: milliseconds from the event to the frame after it.
TIMER = """
window.__redraws = [];
window.addEventListener("click", (event) => {
  if (!(event.target.closest && event.target.closest("[data-testid=tray-board]"))) return;
  const began = performance.now();
  requestAnimationFrame(() => setTimeout(() => window.__redraws.push(performance.now() - began), 0));
}, { capture: true });
"""


def settle(page: Page) -> None:
    """Wait until the live check has answered the course shown."""
    page.wait_for_function(
        "document.querySelector('[data-testid=check-state]').dataset.state !== 'checking'",
        timeout=30_000,
    )


def measure(page: Page, url: str, count: int) -> list[float]:
    """Milliseconds from click to drawn frame for each of ``count`` board adds."""
    page.add_init_script(TIMER)
    page.goto(f"{url}/editor?game=cyclo")
    page.get_by_test_id("tray-board").nth(11).wait_for(state="attached")
    done = 0
    while done < count:
        page.get_by_test_id("start-course").select_option("")  # board A1 alone
        page.get_by_test_id("start").click()
        settle(page)
        for name in ADDS[: count - done]:
            before = page.evaluate("window.__redraws.length")
            page.locator(f'[data-testid=tray-board][data-board="{name}"]').click()
            page.wait_for_function(f"window.__redraws.length > {before}")
            settle(page)
            done += 1
    times: list[float] = page.evaluate("window.__redraws")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--adds", type=int, default=30, help="board adds to time")
    parser.add_argument("--quick", action="store_true", help="six adds: the script runs")
    args = parser.parse_args()
    count = 6 if args.quick else args.adds
    with served_browser() as (url, browser):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        times = measure(page, url, count)
    print(f"{count} board adds (ms: median, p95, max)")
    print_times([("click to the frame after it (performance.now)", times)])


if __name__ == "__main__":
    main()
