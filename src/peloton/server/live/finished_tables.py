"""Which finished tables keep their state in memory.

A running table always keeps its state. A finished one keeps it while someone watches
it or asked for it in the last :data:`KEEP_SECONDS`, and only the last
:data:`~..limits.FINISHED_IN_MEMORY` asked for past that; any other is let go and
replayed from the database when someone asks for it again
(:meth:`.tables.Tables.ensure_state`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict

from ..limits import FINISHED_IN_MEMORY
from .table import LiveTable

__all__ = ["KEEP_SECONDS", "FinishedTables"]

log = logging.getLogger("peloton.server")

#: A finished table's state is let go only when nobody asked for it this long.
KEEP_SECONDS = 60.0


class FinishedTables:
    """The finished tables of ``tables`` whose state is in memory, the least recently
    asked for first, and the sweeper that lets go of those nobody watches."""

    def __init__(self, tables: dict[str, LiveTable]) -> None:
        #: Every table of the server (shared with :class:`~.tables.Tables`).
        self.tables = tables
        self._order: OrderedDict[str, None] = OrderedDict()
        self._sweeper: asyncio.Task[None] | None = None

    def keep(self, table: LiveTable) -> None:
        """Count a finished table among those kept in memory, and let go of the state of
        the least recently asked for beyond :data:`~..limits.FINISHED_IN_MEMORY` (not
        while someone watches it or asked for it a moment ago)."""
        self._order[table.id] = None
        self._order.move_to_end(table.id)
        now = time.monotonic()
        for table_id in list(self._order):
            if len(self._order) <= FINISHED_IN_MEMORY:
                break
            old = self.tables.get(table_id)
            if old is not None and not _idle(old, now):
                continue
            del self._order[table_id]
            if old is not None:
                _let_go(old)

    def forget(self, table_id: str) -> None:
        """No longer count a table (this process let go of it)."""
        self._order.pop(table_id, None)

    def sweep(self) -> int:
        """Let go of the state of every finished table that nobody watches and nobody
        asked for in :data:`KEEP_SECONDS` (however few are kept); how many."""
        now = time.monotonic()
        gone = 0
        for table_id in list(self._order):
            old = self.tables.get(table_id)
            if old is not None and not _idle(old, now):
                continue
            del self._order[table_id]
            if old is not None:
                gone += _let_go(old)
        return gone

    def start(self) -> None:
        """Sweep every :data:`KEEP_SECONDS` / 2 from now on (in the event loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweeping(), name="finished-tables")

    def stop(self) -> None:
        """Stop sweeping."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(max(KEEP_SECONDS / 2, 0.05))
            try:
                self.sweep()
            except Exception:  # never let the sweeper die: memory would grow again
                log.exception("the finished tables could not be swept")


def _idle(table: LiveTable, now: float) -> bool:
    return not (table.connections or table.lock.locked() or now - table.used < KEEP_SECONDS)


def _let_go(table: LiveTable) -> int:
    """Drop a finished table's state and what comes with it (it is replayed from the
    database when asked for again); 1 if there was one."""
    if table.final is None or table.state is None:
        return 0
    table.state, table.texts, table.rng = None, [], None
    table.shown, table.shown_head = {}, None
    return 1
