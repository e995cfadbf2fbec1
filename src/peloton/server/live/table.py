"""A table in memory: :class:`LiveTable` (its game, options, seats, state and
connections), :class:`Seat` (made from its stored row) and :class:`Connection`.
Data only: what is done to a table is :mod:`.tables`' (the authority), what a viewer
is shown is :mod:`.views`'."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from starlette.websockets import WebSocket

from ...core.protocol import CHANCE
from ...core.rng import Rng
from ..games import HUMAN, GameSpec
from ..limits import MAX_BACKLOG, MAX_BACKLOG_BYTES, MAX_TABLE_MOVES, SEND_STALL_SECONDS, QuietLog
from ..storage import store
from .clocks import Clock

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

OPEN, RUNNING, FINISHED = "open", "running", "finished"
#: A table whose every player left before the end (:mod:`.presence`).
ABANDONED = "abandoned"


@dataclass
class Seat:
    """A seat: a human (free until someone joins) or a bot (``kind`` is its name)."""

    seat: str
    kind: str
    name: str | None = None
    token_hash: str | None = None
    #: The profile the seat was taken with (``None``: anonymous, or a bot).
    profile: str | None = None
    #: Why the stand-in bot plays this human seat (``left``, ``timeout``), if it does.
    away: str | None = None
    #: The bot level that plays the seat while its player is away (:mod:`.presence`).
    standin: str | None = None

    @property
    def taken(self) -> bool:
        """Bots always sit; a human seat is taken once someone joined it."""
        return self.kind != HUMAN or self.token_hash is not None

    @property
    def is_bot(self) -> bool:
        return self.kind != HUMAN


def hash_token(token: str) -> str:
    """What the database stores of a seat token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def make_seat(row: store.SeatRow) -> Seat:
    """A seat as stored."""
    return Seat(row.seat, row.kind, row.name, row.token_hash, row.profile)


def decision_seed(secret: str, seat: str, index: int) -> int:
    """The seed of the bot of ``seat`` for move ``index`` of the table whose secret is
    ``secret`` (256 bits of it, from a hash): nobody who sees the table can work it out
    (the secret is never sent), and each decision has its own, so a restarted server
    does not replay a bot's earlier choices."""
    digest = hashlib.sha256(f"peloton-bot/{secret}/{seat}/{index}".encode()).digest()
    return int.from_bytes(digest, "big")


class Connection:
    """One WebSocket client. Messages are queued and sent by one task, so a slow
    client never holds up a table, and each client sees messages in order.

    A client that does not read its messages is dropped (its connection aborted, the
    browser reconnects and gets a fresh ``welcome``): when more than
    :data:`~..limits.MAX_BACKLOG` messages or :data:`~..limits.MAX_BACKLOG_BYTES` bytes
    wait for it, or one message has waited :data:`~..limits.SEND_STALL_SECONDS` to be
    taken (noticed when the next message is queued). The log says so once per client at most (and a few times a minute in all).
    """

    def __init__(self, websocket: WebSocket, abort: Callable[[], None] | None = None) -> None:
        self.websocket = websocket
        #: The seat this client acts for (``None``: a spectator), once greeted.
        self.seat: str | None = None
        self.greeted = False
        self._abort = abort
        self._queue: deque[str | None] = deque()
        self._bytes = 0
        self._ready = asyncio.Event()
        self.dropped = False
        #: When the message being sent started (``None``: nothing being sent).
        self._sending_since: float | None = None
        self._task = asyncio.create_task(self._pump())

    def send(self, text: str) -> None:
        """Queue a message for this client."""
        if self.dropped:
            return
        self._queue.append(text)
        self._bytes += len(text)
        self._ready.set()
        if len(self._queue) > MAX_BACKLOG or self._bytes > MAX_BACKLOG_BYTES:
            self.drop(f"{len(self._queue)} messages ({self._bytes} bytes) waited for it")
        elif (
            self._sending_since is not None
            and time.monotonic() - self._sending_since > SEND_STALL_SECONDS
        ):
            waited = time.monotonic() - self._sending_since
            self.drop(f"a message waited {waited:.0f} s to be taken")

    def close(self) -> None:
        """Stop sending (the queued messages are sent first)."""
        self._queue.append(None)
        self._ready.set()

    @property
    def address(self) -> str:
        """The client's address ("?" when unknown): a relayed client's too, whose
        stand-in socket carries the address its node saw."""
        client = self.websocket.client
        return str(client.host) if client is not None else "?"

    def drop(self, why: str) -> None:
        """Give up on a client that does not read: abort its connection at once (a close
        frame could not reach it past the messages it does not take)."""
        if self.dropped:
            return
        self.dropped = True
        self._queue.clear()
        self._bytes = 0
        self._ready.set()
        quiet.warning(
            "slow-client",
            "closed the connection of %s, which does not read its messages (%s)",
            self.address,
            why,
        )
        if self._abort is not None:
            self._abort()
        else:
            self._task.cancel()

    async def _pump(self) -> None:
        try:
            while True:
                await self._ready.wait()
                if self.dropped:
                    return
                if not self._queue:
                    self._ready.clear()
                    continue
                text = self._queue.popleft()
                if text is None:
                    return
                self._bytes -= len(text)
                # No timer per message (it cost a quarter of the server's CPU per
                # move): a send stuck this long is noticed when the next message comes.
                self._sending_since = time.monotonic()
                await self.websocket.send_text(text)
                self._sending_since = None
        except Exception:  # the client went away; the receive loop notices too
            return
        finally:
            with contextlib.suppress(Exception):
                self._ready.set()


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
    #: Chance seed (a secret: it foretells every roll).
    seed: int | None = None
    #: The bots' secret (:func:`decision_seed`); never sent to anyone.
    secret: str = ""
    #: ``{moves, result[, round]}`` once the game is over.
    final: dict[str, Any] | None = None
    texts: list[str] = field(default_factory=list)
    #: The game's one chance stream, where its record can position one (rebuilt from
    #: the stored moves when ``None``).
    rng: Rng | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    #: When the table was last asked for (a finished table's state may then be let go).
    used: float = field(default_factory=time.monotonic)
    #: The id of the table its rematch opened (the same options and seats), if any.
    rematch: str | None = None
    #: The competition whose game this table plays (:mod:`.competitions`), if any.
    competition: str | None = None
    #: Whether its result changes its players' ratings (:mod:`.ratings`).
    rated: bool = True
    #: The seats' clocks (``None``: a table without a time control), :mod:`.presence`.
    clock: Clock | None = None
    #: The bot level that plays a seat its player left or ran out of time on.
    standin: str = "medium"
    #: Every person at the table left before the end: it is over, unfinished.
    abandoned: bool = False
    #: The snapshot (without legal moves) each viewer was last sent, by seat (``None``:
    #: spectators, and everyone where the snapshot is the same for all): the bases of
    #: the next ``update``'s changes (:mod:`.views`). One per viewer, not per connection.
    shown: dict[str | None, dict[str, Any]] = field(default_factory=dict)
    #: The summary last sent to every connection: the base of the next ``table_changes``.
    shown_head: dict[str, Any] | None = None

    @property
    def status(self) -> str:
        """``open`` (a human seat is free), ``running``, ``finished`` or ``abandoned``."""
        if self.abandoned:
            return ABANDONED
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
        if (
            state is None
            or state.is_over
            or self.status != RUNNING
            or len(self.texts) >= MAX_TABLE_MOVES
        ):
            return None
        if state.is_chance:
            return CHANCE
        seat = self.seats.get(state.current_player or "")
        return seat if seat is not None and (seat.is_bot or seat.away) else None
