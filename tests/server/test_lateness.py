"""The event loop's lateness monitor (``PELOTON_LOOP_LATENESS=1``) that
``benchmarks/loop_lateness.py`` reads from a stopping server."""

from __future__ import annotations

import asyncio
import re

import pytest

from peloton.server.lateness import LatenessMonitor, monitor_if_asked


def test_the_monitor_samples_the_loop_and_sums_up_in_one_line() -> None:
    async def run() -> str:
        monitor = LatenessMonitor()
        monitor.start()
        while len(monitor.samples) < 5:
            await asyncio.sleep(0.01)
        return monitor.stop()

    line = asyncio.run(run())
    assert re.fullmatch(
        r"event-loop lateness: \d+ samples every 10 ms, p50 [\d.]+ ms, p99 [\d.]+ ms, "
        r"max [\d.]+ ms",
        line,
    ), line


def test_the_monitor_runs_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    async def asked() -> bool:
        monitor = monitor_if_asked()
        if monitor is not None:
            monitor.stop()
        return monitor is not None

    monkeypatch.delenv("PELOTON_LOOP_LATENESS", raising=False)
    assert not asyncio.run(asked())
    monkeypatch.setenv("PELOTON_LOOP_LATENESS", "1")
    assert asyncio.run(asked())
