"""Time controls and the clocks of a table: pure arithmetic, no I/O.

A table's time control is chosen when it is created (docs/protocol.md, "Clocks"):

* ``none``: no clock (the default; a table plays at its players' pace);
* ``realtime``: each seat has a bank of seconds, charged while it is that seat's
  turn, and earns ``increment`` seconds with each move it plays (10 min + 10 s);
* ``turn``: each move of a seat must come within ``hours`` of its turn starting.

A :class:`Clock` keeps each seat's remaining seconds and which seat's clock runs,
reading the time from an injected ``now`` function (the server's monotonic clock; a
test's hand-moved one). Only time measured by ``now`` is ever charged: nothing here
reads a wall clock, so a server that was down charges nobody for the downtime.
Which seat's clock runs is the table's business (:mod:`.presence`): here a clock is
started, stopped and asked when its flag falls.

Leaving a seat and taking it back never gives time (issue 32): a seat taken back has
the seconds it had when its player left (its clock did not run while the stand-in
played it), and a turn-based seat taken back in the turn it left goes on with that
turn's time (:attr:`Clock.turn`: the turn starts once, when it begins, not again when
its player comes back). Only a seat whose flag fell gets :data:`RECLAIM_GRACE`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

NONE, REALTIME, TURN = "none", "realtime", "turn"
KINDS = (NONE, REALTIME, TURN)

#: A real-time bank of at least this many seconds and at most...
MIN_BANK, MAX_BANK = 30.0, 4 * 3600.0
#: ...an increment of at most this many seconds per move.
MAX_INCREMENT = 600.0
#: A turn-based table gives each move at least one hour and at most two weeks.
MIN_HOURS, MAX_HOURS = 1.0, 14 * 24.0
#: A seat whose flag fell gets at least this many seconds back when its player takes
#: the seat again (a bank at zero would fall again at once); no other seat gets any.
RECLAIM_GRACE = 60.0


class ClockError(ValueError):
    """A time control that cannot be used; the message says what is wrong."""


@dataclass(frozen=True)
class TimeControl:
    """A table's time control: its ``kind``, a real-time ``bank`` and ``increment``
    (seconds), or a turn-based table's ``hours`` per move."""

    kind: str = NONE
    bank: float = 0.0
    increment: float = 0.0
    hours: float = 0.0

    @property
    def clocked(self) -> bool:
        """Whether the table has a clock at all."""
        return self.kind != NONE

    @property
    def per_move(self) -> float:
        """Seconds a turn-based move may take."""
        return self.hours * 3600.0

    def to_json(self) -> dict[str, Any]:
        """The control as stored and as clients see it."""
        if self.kind == REALTIME:
            return {"kind": REALTIME, "bank": self.bank, "increment": self.increment}
        if self.kind == TURN:
            return {"kind": TURN, "hours": self.hours}
        return {"kind": NONE}

    def describe(self) -> str:
        """The control in words: ``10 min + 10 s``, ``24 h per move``, ``no clock``."""
        if self.kind == REALTIME:
            return f"{_amount(self.bank)} + {_amount(self.increment)}"
        if self.kind == TURN:
            return f"{self.hours:g} h per move"
        return "no clock"


def _amount(seconds: float) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds:g} s"


#: Named time controls a table may ask for by name (``"clock": "rapid"``).
PRESETS: dict[str, TimeControl] = {
    "none": TimeControl(),
    "blitz": TimeControl(REALTIME, bank=180.0, increment=2.0),
    "rapid": TimeControl(REALTIME, bank=600.0, increment=10.0),
    "slow": TimeControl(REALTIME, bank=1800.0, increment=30.0),
    "daily": TimeControl(TURN, hours=24.0),
    "relaxed": TimeControl(TURN, hours=72.0),
}


def _number(data: Mapping[str, Any], key: str, low: float, high: float, unit: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ClockError(f"clock {key!r} must be a number of {unit}, not {value!r}")
    if not low <= value <= high:
        raise ClockError(f"clock {key!r} must be {low:g} to {high:g} {unit}, not {value!r}")
    return float(value)


def parse_time_control(data: Any) -> TimeControl:
    """A create request's ``clock``: absent (``None``), a preset's name
    (:data:`PRESETS`) or an object ``{"kind": "realtime", "bank": 600, "increment":
    10}`` / ``{"kind": "turn", "hours": 24}`` / ``{"kind": "none"}``; raises
    :class:`ClockError` saying what is wrong."""
    if data is None:
        return TimeControl()
    if isinstance(data, str):
        preset = PRESETS.get(data)
        if preset is None:
            raise ClockError(
                f"no time control {data[:40]!r}; presets: {', '.join(PRESETS)}, or an object "
                '{"kind": "realtime", "bank": 600, "increment": 10} or {"kind": "turn", "hours": 24}'
            )
        return preset
    if not isinstance(data, dict):
        raise ClockError(f"'clock' must be a preset's name or an object, not {repr(data)[:60]}")
    kind = data.get("kind")
    allowed = {NONE: {"kind"}, REALTIME: {"kind", "bank", "increment"}, TURN: {"kind", "hours"}}
    if kind not in allowed:
        raise ClockError(f"clock 'kind' must be one of {', '.join(KINDS)}, not {kind!r}")
    unknown = sorted(set(data) - allowed[kind])
    if unknown:
        raise ClockError(
            f"a {kind} clock has no {', '.join(map(repr, unknown))} "
            f"(it has {', '.join(sorted(allowed[kind]))})"
        )
    if kind == REALTIME:
        bank = _number(data, "bank", MIN_BANK, MAX_BANK, "seconds")
        increment = _number(
            {"increment": data.get("increment", 0)}, "increment", 0, MAX_INCREMENT, "seconds"
        )
        return TimeControl(REALTIME, bank=bank, increment=increment)
    if kind == TURN:
        return TimeControl(TURN, hours=_number(data, "hours", MIN_HOURS, MAX_HOURS, "hours"))
    return TimeControl()


class Clock:
    """The clocks of a table's seats: each seat's remaining seconds, the one seat
    whose clock runs (``running``, since ``since`` on the ``now`` clock) and the seat
    whose turn has begun and not yet ended with a move (``turn``)."""

    def __init__(
        self,
        control: TimeControl,
        seats: list[str],
        now: Callable[[], float],
        remaining: Mapping[str, float] | None = None,
    ) -> None:
        self.control = control
        self.now = now
        start = control.bank if control.kind == REALTIME else control.per_move
        self.remaining: dict[str, float] = {s: start for s in seats}
        if remaining:
            self.remaining.update(
                {s: float(v) for s, v in remaining.items() if s in self.remaining}
            )
        self.running: str | None = None
        self.since = 0.0
        #: The seat whose turn began (its clock started) and has not ended with a move,
        #: whether its clock runs or stopped meanwhile (its player left): a turn-based
        #: seat whose clock starts again in that turn keeps what it had left.
        self.turn: str | None = None

    def left(self, seat: str, at: float | None = None) -> float:
        """The seconds ``seat`` has left (its running clock read at ``at``, default now);
        never below zero."""
        base = self.remaining[seat]
        if seat == self.running:
            base -= (self.now() if at is None else at) - self.since
        return max(0.0, base)

    def start(self, seat: str | None) -> None:
        """Run ``seat``'s clock (``None``: no clock runs), the one running stopped
        without credit. A turn-based seat gets its full time per move when its turn
        begins; in a turn already begun (:attr:`turn`: its player left and took the
        seat back before the turn's move) it keeps what it had left."""
        at = self.now()
        self._charge(at)
        self.running = seat
        self.since = at
        if seat is None or seat == self.turn:
            return
        self.turn = seat
        if self.control.kind == TURN:
            self.remaining[seat] = self.control.per_move

    def resume(self, seat: str | None, turn: str | None = None) -> None:
        """Run ``seat``'s clock from now on with the time it had, in the turn of
        ``turn`` (default: ``seat``'s) that had begun (a table loaded after a restart:
        the downtime is not charged, and no turn begins anew)."""
        self.running = seat
        self.turn = turn if turn is not None else seat
        self.since = self.now()

    def moved(self, seat: str) -> None:
        """``seat`` played a move: its turn is over (whoever played it, the stand-in
        too), its clock is charged and stopped, and a real-time seat earns its
        increment (only a move played on its own running clock does)."""
        at = self.now()
        if self.turn == seat:
            self.turn = None
        if self.running != seat:
            return
        self._charge(at)
        if self.control.kind == REALTIME:
            self.remaining[seat] += self.control.increment
        self.running = None

    def stop(self) -> None:
        """Stop the running clock, charging it (no increment)."""
        self._charge(self.now())
        self.running = None

    def _charge(self, at: float) -> None:
        if self.running is not None:
            self.remaining[self.running] = self.left(self.running, at)
            self.since = at

    def deadline(self) -> float | None:
        """When (on the ``now`` clock) the running seat's flag falls; ``None`` when no
        clock runs."""
        if self.running is None:
            return None
        return self.since + self.remaining[self.running]

    def fallen(self) -> str | None:
        """The seat whose flag has fallen (its clock runs and shows zero), if any."""
        deadline = self.deadline()
        if deadline is None or self.now() < deadline:
            return None
        return self.running

    def grace(self, seat: str) -> None:
        """A seat whose flag fell, taken back by its player, has at least
        :data:`RECLAIM_GRACE` seconds (a turn-based one too, in the turn its flag fell
        in; its next turn has the full time per move anyway). The caller gives it to
        such a seat only: any other keeps what it had."""
        self.remaining[seat] = max(self.remaining[seat], RECLAIM_GRACE)

    def view(self) -> dict[str, Any]:
        """What every viewer sees: the control, each seat's seconds left (read now, to
        the tenth) and whose clock runs."""
        at = self.now()
        return {
            **self.control.to_json(),
            "remaining": {s: round(self.left(s, at), 1) for s in self.remaining},
            "running": self.running,
        }

    def saved(self) -> dict[str, float]:
        """Each seat's seconds left as of now: what the database keeps."""
        at = self.now()
        return {s: round(self.left(s, at), 3) for s in self.remaining}
