"""Who is at a table: its clocks (:mod:`.clocks`), the stand-in bot that plays an
abandoned seat, leaving and taking a seat back, and tables whose every player left.

A table chooses at creation a time control and a stand-in level (``standin``, a bot
of the game, ``medium`` by default). The clock of the seat to move runs only while a
person plays it: bots, stand-ins and chance steps have no clock (a bot cannot lose
on time). When a seat's flag falls, or its player leaves (``POST .../leave``), the
stand-in bot plays the seat at once, in the worker processes like any bot; the
player takes it back with their seat token (``POST .../reclaim``), with the time the
seat had when they left (a turn-based seat in the turn it left goes on with that turn's
time; only a seat whose flag fell gets the grace of :data:`~.clocks.RECLAIM_GRACE`):
leaving and coming back never gives time. When every person at a table has left,
the table ends as ``abandoned`` (a competition's table is played out by the
stand-ins instead, so that the competition goes on).

Durability: the time control, the stand-in level, each seat's seconds left, the turn
begun (``turn``: its player may have left it) and the seats the stand-in plays are
one JSON value of the table's row (``clock``), written at each leave, take-back and
fallen flag, and every :data:`SAVE_EVERY` seconds for the tables whose moves changed
their clocks. A clean stop saves every clock as it stands; a restart resumes the
running one where it stood. Only time measured while the server runs is charged, on
the monotonic clock: the downtime costs nobody anything.
(After a crash, the clocks resume as the last checkpoint stored them, at most
:data:`SAVE_EVERY` seconds before it.)

Every method that changes a table is called with the table's lock held, except
:meth:`Presence.leave`, :meth:`Presence.reclaim` and :meth:`Presence.check_flags`,
which take it.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import bindparam, update

from .. import errors as e
from ..errors import ApiError, ProtocolError
from ..games import HUMAN, GameSpec, bots_for
from ..storage import store
from . import views
from .clocks import Clock, ClockError, TimeControl, parse_time_control
from .table import ABANDONED, FINISHED, OPEN, LiveTable, Seat

log = logging.getLogger("peloton.server")

#: Seconds between two checkpoints of the clocks that moves changed: what a crash (not
#: a clean stop, which stores every clock) may lose of them.
SAVE_EVERY = 5.0
#: The stand-in level of a table that names none.
DEFAULT_STANDIN = "medium"
LEFT, TIMEOUT = "left", "timeout"

_SET_CLOCK = (
    update(store.tables)
    .where(store.tables.c.id == bindparam("t_id"))
    .values(clock=bindparam("clock"))
)
_ABANDON = (
    update(store.tables)
    .where(store.tables.c.id == bindparam("t_id"))
    .values(clock=bindparam("clock"), status=bindparam("status"), final=bindparam("final"))
)


def check_settings(spec: GameSpec, request: dict[str, Any]) -> tuple[TimeControl, str]:
    """A create request's time control (``clock``) and stand-in level (``standin``);
    ``400 bad_options`` saying what is wrong."""
    try:
        control = parse_time_control(request.get("clock"))
    except ClockError as exc:
        raise ApiError(400, e.BAD_OPTIONS, str(exc)) from None
    standin = request.get("standin", DEFAULT_STANDIN)
    levels = [b for b in bots_for(spec.name) if b != "random"]
    if not isinstance(standin, str) or standin not in levels:
        raise ApiError(
            400,
            e.BAD_OPTIONS,
            f"'standin' must be the bot that plays a seat its player left, one of "
            f"{', '.join(levels)}, not {repr(standin)[:60]}",
        )
    return control, standin


def stored(table: LiveTable) -> str:
    """The table's ``clock`` column: time control, stand-in, seconds left, the turn
    begun, absent seats."""
    return json.dumps(_kept(table))


def _kept(table: LiveTable) -> dict[str, Any]:
    data: dict[str, Any] = {"standin": table.standin}
    clock = table.clock
    if clock is not None:
        data |= {"control": clock.control.to_json(), "remaining": clock.saved()}
        data["running"] = clock.running
        if clock.turn is not None:  # a turn its player left: taken back, it goes on
            data["turn"] = clock.turn
    away = {s.seat: s.away for s in table.seats.values() if s.away}
    if away:
        data["away"] = away
    return data


class Presence:
    """The clocks and stand-ins of every table of a :class:`~.tables.Tables`: its
    ``tables`` (by id) and database ``writer``; ``kick`` lets a table's bots move,
    ``keep`` counts a table that is over among the finished ones.

    ``now`` is the clock the clocks read (seconds; the monotonic clock by default, a
    test's own clock in tests): nothing here reads any other."""

    def __init__(
        self,
        tables: dict[str, LiveTable],
        writer: store.Writer,
        now: Callable[[], float],
        *,
        kick: Callable[[LiveTable], None],
        keep: Callable[[LiveTable], None],
    ) -> None:
        self.tables = tables
        self.writer = writer
        self.kick = kick
        self.keep = keep
        self.now = now
        #: Each clocked table's timer, due when its running clock's flag falls.
        self._timers: dict[str, asyncio.TimerHandle] = {}
        #: The checks the timers started (kept: a task nobody holds may be collected).
        self._checks: set[asyncio.Task[None]] = set()
        #: The tables whose clocks moves changed since the last checkpoint.
        self._dirty: set[str] = set()
        self._saver: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ a table's settings

    def setup(self, table: LiveTable, control: TimeControl, standin: str) -> None:
        """Give a new table its time control and stand-in level."""
        table.standin = standin
        if control.clocked:
            table.clock = Clock(control, list(table.seats), self.now)

    def restore(self, table: LiveTable, text: str | None, status: str) -> None:
        """Give a loaded table what its row's ``clock`` column kept (a table stored by
        an older server has none: no clock, the default stand-in, nobody away)."""
        table.abandoned = status == ABANDONED
        data = json.loads(text) if text else {}
        table.standin = data.get("standin", DEFAULT_STANDIN)
        for letter, why in (data.get("away") or {}).items():
            seat = table.seats.get(letter)
            if seat is not None and seat.kind == HUMAN:
                seat.away, seat.standin = why, table.standin
        if data.get("control"):
            control = parse_time_control(data["control"])
            if control.clocked:
                table.clock = Clock(control, list(table.seats), self.now, data.get("remaining"))
                # A turn resumed where it stood at the stop: not a fresh turn, nor is
                # the turn its player left (a row of an older server: the running one).
                running = data.get("running")
                turn = data.get("turn")
                table.clock.resume(
                    running if running in table.seats else None,
                    turn if turn in table.seats else None,
                )

    def write(self, table: LiveTable) -> store.Write:
        """The write keeping the table's ``clock`` column as it stands."""
        return [(_SET_CLOCK, {"t_id": table.id, "clock": stored(table)})]

    # ------------------------------------------------------------ the running clock

    @staticmethod
    def runner(table: LiveTable) -> str | None:
        """The seat whose clock should run: the seat to move, while a person plays it."""
        state = table.state
        if (
            table.clock is None
            or state is None
            or table.status in (OPEN, FINISHED, ABANDONED)
            or state.is_over
            or state.is_chance
        ):
            return None
        seat = table.seats.get(state.current_player or "")
        if seat is None or seat.kind != HUMAN or seat.away:
            return None
        return seat.seat

    def sync(self, table: LiveTable) -> None:
        """Run the clock of the seat that should have it (a new turn starts it afresh)."""
        clock = table.clock
        if clock is None:
            return
        runner = self.runner(table)
        if clock.running != runner:
            clock.start(runner)
            self._schedule(table)

    def after_move(self, table: LiveTable, by: str) -> None:
        """A move of ``by`` was played: charge it (a real-time seat earns its
        increment) and start the next turn's clock. The clocks are stored by the next
        checkpoint (:data:`SAVE_EVERY`), not with the move: a statement in each move's
        transaction cost a clocked move about a third more of the server's time
        (``benchmarks/server_load.py --clock rapid``)."""
        if table.clock is None:
            return
        table.clock.moved(by)
        self.sync(table)
        self._dirty.add(table.id)

    async def _checkpoints(self) -> None:
        """Every :data:`SAVE_EVERY` seconds, store the clocks moves changed since the
        last time, every table's in one statement."""
        while True:
            await asyncio.sleep(SAVE_EVERY)
            try:
                await self._save_dirty()
            except Exception:  # kept in memory: the next checkpoint tries again
                log.exception("the clocks could not be stored")

    async def _save_dirty(self) -> None:
        dirty, self._dirty = self._dirty, set()
        ops: store.Write = []
        for table_id in dirty:
            table = self.tables.get(table_id)
            if table is not None and table.clock is not None:
                ops += self.write(table)
        if ops:
            try:
                await self.writer.write(ops)
            except Exception:
                self._dirty |= dirty
                raise

    async def check_mover(self, table: LiveTable, seat: str) -> None:
        """Refuse a move from a seat the stand-in plays, or whose flag has fallen (the
        stand-in takes that seat now)."""
        if table.clock is not None and table.clock.fallen() == seat:
            await self._flag(table, seat)
        mine = table.seats[seat]
        if mine.away:
            why = "your time ran out" if mine.away == TIMEOUT else "you left the table"
            raise ProtocolError(
                e.AWAY,
                f"seat {seat} is played by a bot ({mine.standin}) since {why}: "
                "take your seat back first",
            )

    # ------------------------------------------------------------ flags

    def start(self) -> None:
        """Run the clocks of the loaded tables and set their timers (in the running
        event loop)."""
        for table in self.tables.values():
            self.sync(table)
            self._schedule(table)
        if self._saver is None:
            self._saver = asyncio.create_task(self._checkpoints(), name="clock-checkpoints")

    def start_table(self, table: LiveTable) -> None:
        """Run the clock of one table loaded while serving (as :meth:`start` does for
        every table loaded before)."""
        self.sync(table)
        self._schedule(table)

    def forget(self, table: LiveTable) -> None:
        """Stop a table's timer (its process let go of it; nothing is saved)."""
        timer = self._timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        self._dirty.discard(table.id)

    def _schedule(self, table: LiveTable) -> None:
        """Set the table's timer to its running clock's deadline (one timer per table:
        a move costs no scan of the other tables). A timer that fires early, or late,
        only makes the table's flag be checked: the clock decides."""
        old = self._timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        deadline = table.clock.deadline() if table.clock is not None else None
        if deadline is None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not serving yet: start() sets every timer
            return
        delay = max(0.0, deadline - self.now()) + 0.01
        self._timers[table.id] = loop.call_later(delay, self._due, table)

    def _due(self, table: LiveTable) -> None:
        self._timers.pop(table.id, None)
        task = asyncio.ensure_future(self._check(table))
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def _check(self, table: LiveTable) -> None:
        try:
            async with table.lock:
                clock = table.clock
                seat = clock.fallen() if clock is not None else None
                if seat is not None:
                    await self._flag(table, seat)
                else:
                    self._schedule(table)
        except Exception:  # the next move or start checks again
            log.exception("table %s: the clock could not be checked", table.id)

    async def check_flags(self) -> list[tuple[str, str]]:
        """Let every fallen flag fall: the stand-in plays those seats from now on. The
        ``(table, seat)`` pairs whose flag fell."""
        fallen = []
        for table in list(self.tables.values()):
            if table.clock is None or table.clock.fallen() is None:
                continue
            async with table.lock:
                seat = table.clock.fallen()
                if seat is not None:
                    await self._flag(table, seat)
                    fallen.append((table.id, seat))
        return fallen

    async def _flag(self, table: LiveTable, letter: str) -> None:
        """``letter``'s time is out: the stand-in plays it from now on (lock held)."""
        assert table.clock is not None
        seat = table.seats[letter]
        table.clock.stop()
        seat.away, seat.standin = TIMEOUT, table.standin
        try:
            await self.writer.write(self.write(table))
        except Exception:  # kept in memory; the next move's write stores it
            log.exception("table %s: seat %s's fallen flag not stored", table.id, letter)
        log.info(
            "table %s: seat %s ran out of time; the %s bot plays it",
            table.id,
            letter,
            table.standin,
        )
        self._changed(table)

    def _changed(self, table: LiveTable) -> None:
        """A seat changed hands: every viewer gets a fresh ``welcome``; bots go on."""
        self.sync(table)
        if table.state is not None:
            for conn, text in views.welcomes(table):
                conn.send(text)
        self.kick(table)

    # ------------------------------------------------------------ leave and come back

    @staticmethod
    def _playing(table: LiveTable, doing: str) -> None:
        if table.status in (FINISHED, ABANDONED):
            raise ApiError(
                409, e.GAME_OVER, f"table {table.id} is {table.status}: nothing to {doing}"
            )
        if table.status == OPEN:
            raise ApiError(
                409,
                e.NOT_STARTED,
                f"the game at table {table.id} has not started: nothing to {doing}",
            )

    async def leave(self, table: LiveTable, viewer: str | None) -> dict[str, Any]:
        """The player of seat ``viewer`` leaves: the stand-in plays the seat at once.
        The table is abandoned when every person at it has left."""
        if viewer is None:
            raise ApiError(403, e.BAD_TOKEN, "leaving a table needs your seat token")
        async with table.lock:
            self._playing(table, "leave")
            seat = table.seats[viewer]
            if seat.away == LEFT:
                raise ApiError(409, e.ALREADY_LEFT, f"you already left seat {viewer}")
            if table.clock is not None and table.clock.running == viewer:
                table.clock.stop()
            before = seat.away, seat.standin
            seat.away, seat.standin = LEFT, table.standin
            humans = [s for s in table.seats.values() if s.kind == HUMAN]
            if table.competition is None and all(s.away == LEFT for s in humans):
                await self._abandon(table, before, seat)
            else:
                try:
                    await self.writer.write(self.write(table))
                except Exception:
                    seat.away, seat.standin = before
                    self.sync(table)
                    raise
                self._changed(table)
        return {"seat": viewer, "away": LEFT, "table": views.summary(table)}

    async def _abandon(self, table: LiveTable, before: tuple[Any, Any], seat: Seat) -> None:
        final = {**views.final(table), "abandoned": True}
        ops: store.Write = [
            (
                _ABANDON,
                {
                    "t_id": table.id,
                    "clock": stored(table),
                    "status": ABANDONED,
                    "final": json.dumps(final),
                },
            )
        ]
        try:
            await self.writer.write(ops)
        except Exception:
            seat.away, seat.standin = before
            self.sync(table)
            raise
        table.abandoned, table.final = True, final
        if table.clock is not None:
            table.clock.stop()
        # Over like a finished table: its state may leave memory like one's.
        self.keep(table)
        log.info("table %s: every player left; the table is abandoned", table.id)
        self._changed(table)

    async def reclaim(self, table: LiveTable, viewer: str | None, request: Any) -> dict[str, Any]:
        """The player of seat ``viewer`` (their token's seat) takes it back from the
        stand-in; ``request`` may name the seat (``{"seat": "A"}``), which must be theirs."""
        if viewer is None:
            raise ApiError(
                403,
                e.BAD_TOKEN,
                "taking a seat back needs the seat's token (Authorization: Bearer <token>)",
            )
        asked = request.get("seat") if isinstance(request, dict) else None
        if asked is not None and asked != viewer:
            raise ApiError(
                403,
                e.BAD_TOKEN,
                f"this token is seat {viewer}'s: it cannot take back seat {str(asked)[:8]!r}",
            )
        async with table.lock:
            self._playing(table, "take back")
            seat = table.seats[viewer]
            if not seat.away:
                raise ApiError(409, e.NOT_AWAY, f"seat {viewer} is already played by you")
            before = seat.away, seat.standin
            seat.away, seat.standin = None, None
            clock = table.clock
            kept = None if clock is None else clock.remaining[viewer]
            # Only a fallen flag earns the grace (a seat left with its flag down, then
            # left again, has no time either): leaving and coming back gives none.
            if clock is not None and (before[0] == TIMEOUT or clock.left(viewer) <= 0):
                clock.grace(viewer)
            try:
                await self.writer.write(self.write(table))
            except Exception:
                seat.away, seat.standin = before
                if clock is not None and kept is not None:
                    clock.remaining[viewer] = kept
                raise
            self._changed(table)
        return {"seat": viewer, "away": None, "table": views.summary(table)}

    # ------------------------------------------------------------ stop

    async def stop(self) -> None:
        """Stop the timers and store every clock as it stands (the running ones
        charged up to now: a restart resumes them from there)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        if self._saver is not None:
            self._saver.cancel()
        if self._checks:
            await asyncio.gather(*list(self._checks), return_exceptions=True)
        ops: store.Write = []
        for table in self.tables.values():
            if table.clock is not None and table.status not in (FINISHED, ABANDONED):
                ops += self.write(table)
        if ops:
            try:
                await self.writer.write(ops)
            except Exception:
                log.exception("the clocks could not be saved at the stop")


def bot_of(seat: Seat) -> str:
    """The bot that plays ``seat`` now: its own, or the stand-in of its absent player."""
    if seat.standin is not None:
        return seat.standin
    return seat.kind


__all__ = ["DEFAULT_STANDIN", "LEFT", "TIMEOUT", "Presence", "bot_of", "check_settings"]
