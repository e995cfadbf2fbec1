"""A table in memory: :class:`LiveTable` (its game, options, seats, state and
connections), :class:`Seat` (made from its stored row, with its bot) and
:class:`Connection`. Data only: what is done to a table is :mod:`.tables`' (the
authority), what a viewer is shown is :mod:`.views`'."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from starlette.websockets import WebSocket

from ..bots import Bot, make_bot
from ..core.protocol import CHANCE
from ..core.rng import Rng
from . import storage
from .games import HUMAN, GameSpec

log = logging.getLogger("peloton.server")

OPEN, RUNNING, FINISHED = "open", "running", "finished"
#: A connection whose client does not read its messages is dropped past this backlog.
MAX_BACKLOG = 1000


@dataclass
class Seat:
    """A seat: a human (free until someone joins) or a bot."""

    seat: str
    kind: str
    name: str | None = None
    token_hash: str | None = None
    bot: Bot | None = None

    @property
    def taken(self) -> bool:
        """Bots always sit; a human seat is taken once someone joined it."""
        return self.kind != HUMAN or self.token_hash is not None


def hash_token(token: str) -> str:
    """What the database stores of a seat token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def make_seat(table_id: str, row: storage.SeatRow, secret: int | None) -> Seat:
    """A seat as stored, with its bot. A bot is seeded from the table, the seat and
    the table's secret seed: each table's bots make their own choices, and a bot seeded
    from the public table id alone would let a player work out its next random (and
    maybe hidden) choice. Tables stored before they had a secret have none."""
    bot: Bot | None = None
    if row.kind != HUMAN:
        salt = f"{table_id}/{row.seat}" if secret is None else f"{table_id}/{row.seat}/{secret}"
        bot = make_bot(row.kind, int.from_bytes(hashlib.sha256(salt.encode()).digest()[:4], "big"))
    return Seat(row.seat, row.kind, row.name, row.token_hash, bot)


class Connection:
    """One WebSocket client. Messages are queued and sent by one task, so a slow
    client never holds up a table, and each client sees messages in order."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        #: The seat this client acts for (``None``: a spectator), once greeted.
        self.seat: str | None = None
        self.greeted = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._task = asyncio.create_task(self._pump())

    def send(self, text: str) -> None:
        """Queue a message for this client."""
        if self._queue.qsize() > MAX_BACKLOG:
            log.warning("dropping a client that does not read its messages")
            self.close()
            return
        self._queue.put_nowait(text)

    def close(self) -> None:
        """Stop sending (the queued messages are sent first)."""
        self._queue.put_nowait(None)

    async def _pump(self) -> None:
        try:
            while (text := await self._queue.get()) is not None:
                await self.websocket.send_text(text)
        except Exception:  # the client went away; the receive loop notices too
            return
        if self._queue.qsize() > MAX_BACKLOG:
            with contextlib.suppress(Exception):
                await self.websocket.close(code=1008)


@dataclass
class LiveTable:
    """A table in memory. ``state`` is ``None`` for a finished table not yet replayed
    (its summary then comes from ``final``). ``texts`` are the stored moves' texts
    (the full ones: every hidden value included)."""

    id: str
    created: datetime
    spec: GameSpec
    #: Every option of the game, as stored (objects, such as a course, included).
    options: dict[str, Any]
    seats: dict[str, Seat]
    state: Any
    #: Chance seed (a secret: it foretells every roll), also mixed into the bots' seeds.
    seed: int | None = None
    #: ``{moves, result[, round]}`` once the game is over.
    final: dict[str, Any] | None = None
    texts: list[str] = field(default_factory=list)
    #: The game's one chance stream, where its record can position one (rebuilt from
    #: the stored moves when ``None``).
    rng: Rng | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    @property
    def status(self) -> str:
        """``open`` (a human seat is free), ``running`` or ``finished``."""
        if self.final is not None or (self.state is not None and self.state.is_over):
            return FINISHED
        return RUNNING if all(s.taken for s in self.seats.values()) else OPEN

    @property
    def moves_played(self) -> int:
        """How many moves have been played (chance moves included)."""
        if self.state is None and self.final is not None:
            return int(self.final["moves"])
        return len(self.texts)

    @property
    def round(self) -> int | None:
        """The round being played, for a game that counts rounds (``state.round``)."""
        if self.state is None:
            return None if self.final is None else self.final.get("round")
        value = getattr(self.state, "round", None)
        return value if isinstance(value, int) else None

    def players(self) -> dict[str, dict[str, str]]:
        """The record's players: each seat's name and kind (under the key the game's
        records use, docs/games.md)."""
        key = self.spec.record_kind_key
        return {s.seat: {"name": s.name or "", key: s.kind} for s in self.seats.values()}

    def next_actor(self) -> Seat | str | None:
        """Who acts next without a client: :data:`CHANCE` at a chance step, a bot seat
        when a bot is to move; ``None`` otherwise (or before the game starts)."""
        state = self.state
        if state is None or state.is_over or self.status != RUNNING:
            return None
        if state.is_chance:
            return CHANCE
        seat = self.seats.get(state.current_player or "")
        return seat if seat is not None and seat.bot is not None else None
