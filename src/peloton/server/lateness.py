"""A monitor of the event loop's lateness, for benchmarks (``PELOTON_LOOP_LATENESS=1``).

Every :data:`PERIOD` seconds a task asks to wake up and notes how late it did: the
time every message of every table waits, at that moment, before the loop can look at
it. When the server stops, the percentiles are printed on stderr in one line
(``benchmarks/loop_lateness.py`` reads it). Off unless the variable is set: a server
has no use for it otherwise.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

#: Seconds between two wake-ups.
PERIOD = 0.010
#: At most this many samples are kept (the latest): about 50 minutes' worth.
KEPT = 300_000
ENV = "PELOTON_LOOP_LATENESS"


class LatenessMonitor:
    """Samples the running loop's lateness until :meth:`stop`."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            due = time.perf_counter() + PERIOD
            await asyncio.sleep(PERIOD)
            self.samples.append(max(0.0, time.perf_counter() - due))
            if len(self.samples) > KEPT:
                del self.samples[: len(self.samples) - KEPT]

    def stop(self) -> str:
        """Stop sampling; the one-line summary."""
        if self._task is not None:
            self._task.cancel()
        ms = sorted(s * 1000 for s in self.samples)
        if not ms:
            return "event-loop lateness: no samples"
        p50, p99 = ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        return (
            f"event-loop lateness: {len(ms)} samples every {PERIOD * 1000:g} ms, "
            f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {ms[-1]:.2f} ms"
        )


def monitor_if_asked() -> LatenessMonitor | None:
    """A started monitor when ``PELOTON_LOOP_LATENESS`` is set (call in the loop)."""
    if not os.environ.get(ENV):
        return None
    monitor = LatenessMonitor()
    monitor.start()
    return monitor


def report(monitor: LatenessMonitor | None) -> None:
    if monitor is not None:
        print(monitor.stop(), file=sys.stderr, flush=True)
