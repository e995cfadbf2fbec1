"""Clocks the solver tests hand the solver (``clock=``), so no test reads the wall
clock or depends on the machine's speed."""

from __future__ import annotations


class JumpingClock:
    """A clock standing at 0 for ``readings`` readings, then far past any deadline; it
    counts the readings taken after the jump."""

    def __init__(self, readings: int) -> None:
        self.left = readings
        self.late = 0

    def __call__(self) -> float:
        if self.left > 0:
            self.left -= 1
            return 0.0
        self.late += 1
        return 1e9
