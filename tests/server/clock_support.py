"""In-process tables for the clock tests: a :class:`~peloton.server.live.tables.Tables` on
a real database (SQLite or PostgreSQL), a clock moved by hand (:class:`HandClock`:
no test waits for time to pass), and WebSocket stand-ins that keep what they are sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from peloton.server.errors import ProtocolError
from peloton.server.live import messages as p
from peloton.server.live.table import Connection, LiveTable
from peloton.server.live.tables import Tables
from peloton.server.storage import database, store

#: Mind Cycling for two: seat A moves, then B, then A... (MC-3.1: the teams place
#: their riders in turn).
TWO_HUMANS: dict[str, Any] = {"game": "mind-cycling", "seats": ["human", "human"]}


class HandClock:
    """A clock that moves only when a test moves it (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class Socket:
    """What a :class:`Connection` needs of a WebSocket: it keeps every message sent."""

    client = None

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(json.loads(text))


class Player:
    """A client at a table, greeted with its seat token (``None``: a spectator)."""

    def __init__(self, tables: Tables, table: LiveTable, token: str | None) -> None:
        self.tables, self.table, self.token = tables, table, token
        self.socket = Socket()
        self.conn = Connection(self.socket)  # type: ignore[arg-type]

    async def hello(self) -> None:
        await self.tables.hello(self.table, self.conn, p.Hello(self.token))

    async def move(self, text: str | None = None) -> str:
        """Play ``text`` (default: the first legal move); the move played."""
        state = self.table.state
        text = text if text is not None else str(state.legal_moves()[0])
        await self.tables.move(self.table, self.conn, p.MoveMessage(text, None))
        return text

    async def refused(self) -> ProtocolError:
        """The error a move from this client gets now."""
        try:
            await self.move()
        except ProtocolError as exc:
            return exc
        raise AssertionError("the move was accepted")


@asynccontextmanager
async def served(db_url: str, now: HandClock, bot_delay: float = 0) -> AsyncIterator[Tables]:
    """A started :class:`Tables` on ``db_url`` (every stored table loaded), reading
    ``now``, whose bots wait ``bot_delay`` before each move; stopped cleanly (its
    clocks saved) at the end."""
    engine = database.create_db_engine(db_url)
    writer = store.Writer(engine)
    tables = Tables(writer, engine, bot_delay=bot_delay, now=now)
    tables.load()
    tables.start_bots()
    try:
        yield tables
    finally:
        await tables.stop()
        writer.close()
        engine.dispose()


async def seated(tables: Tables, request: dict[str, Any]) -> tuple[LiveTable, dict[str, Player]]:
    """A new table of ``request`` with every human seat taken, each player greeted."""
    table = await tables.create(request)
    players = {}
    for letter, seat in table.seats.items():
        if seat.kind == "human":
            answer = await tables.join(table, {"seat": letter, "name": f"Player {letter}"})
            players[letter] = Player(tables, table, answer["token"])
    for player in players.values():
        await player.hello()
    return table, players


async def bots_done(table: LiveTable) -> None:
    """Wait until no bot of the table has a move to make (bots think in threads)."""
    for _ in range(2000):
        task = table.bot_task
        if task is None:
            return
        await asyncio.wait({task}, timeout=0.05)
    raise AssertionError("the bots did not finish")
