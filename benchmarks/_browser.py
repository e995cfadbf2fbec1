"""What the browser benchmarks share: a real ``peloton serve`` on SQLite in a temporary
directory with a page of Debian's Chromium (never a downloaded browser), and the
median / p95 / largest of a list of timings.

Used by ``editor_redraw.py``, ``cyclo_builder_redraw.py``, ``pistard_builder_redraw.py``
and ``tutorial_length.py``; prints nothing and asserts nothing.
"""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

from _servers import servers

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]


@contextmanager
def served_browser() -> Iterator[tuple[str, Browser]]:
    """The address of a fresh ``peloton serve`` and a Chromium to open pages in, both
    stopped on exit."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        servers(f"sqlite:///{Path(tmp) / 'bench.db'}") as running,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield running.urls[0], browser
        finally:
            browser.close()


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile ``share`` (0..1) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def print_times(rows: list[tuple[str, list[float]]]) -> None:
    """One line per timing: its label, then the median, p95 and largest, in ms."""
    width = max(len(label) for label, _ in rows) + 1
    for label, values in rows:
        print(
            f"{label:<{width}} {statistics.median(values):6.1f} "
            f"{percentile(values, 0.95):6.1f} {max(values):6.1f}"
        )
