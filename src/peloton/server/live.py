"""A table in memory (:class:`LiveTable`): its game, seats, connections and state,
and what it shows each viewer. :class:`peloton.server.tables.Tables` acts on them."""

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
from ..core.errors import PelotonError
from ..core.protocol import CHANCE
from ..core.rng import Rng
from ..games import mindcycling as mc
from . import games, storage
from .requests import HUMAN, fresh_mc_state

log = logging.getLogger("peloton.server")

OPEN, RUNNING, FINISHED = "open", "running", "finished"
#: A connection whose client does not read its messages is dropped past this backlog.
MAX_BACKLOG = 1000


def hash_token(token: str) -> str:
    """What the database stores of a seat token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def iso(moment: datetime) -> str:
    """``2026-11-29T23:30:00Z``."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Seat:
    """A team's seat: a human (free until someone joins) or a bot."""

    seat: str
    kind: str
    name: str | None = None
    token_hash: str | None = None
    bot: Bot | None = None

    @property
    def taken(self) -> bool:
        """Bots always sit; a human seat is taken once someone joined it."""
        return self.kind != HUMAN or self.token_hash is not None

    def summary(self) -> dict[str, Any]:
        """The seat in a table summary."""
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "taken": self.taken}


class Connection:
    """One WebSocket client. Messages are queued and sent by one task, so a slow
    client never holds up a table, and each client sees messages in order."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
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
class McSetup:
    """A Mind Cycling table's options, as its own columns store them."""

    course: mc.Course
    course_name: str
    teams: dict[str, str]
    riders: int
    wind: str
    relay_limit: int
    solo: bool

    def fresh_state(self) -> mc.State:
        """The game before its first move."""
        return fresh_mc_state(self.course, self.teams, self.wind, self.relay_limit, self.solo)


@dataclass
class LiveTable:
    """A table in memory. ``state`` is ``None`` for a finished table not yet replayed
    (its summary then comes from ``final``). ``texts`` are the stored moves' texts
    (the full ones: for Mind Twist they include every dial)."""

    id: str
    created: datetime
    spec: games.GameSpec
    seats: dict[str, Seat]
    state: Any
    #: Mind Cycling's options (its own columns); ``None`` for the other games.
    mc: McSetup | None = None
    #: The other games' options, every option present (defaults filled in).
    options: dict[str, Any] = field(default_factory=dict)
    #: Chance seed: roll ``i`` is drawn from ``Rng(seed).spawn(i)``.
    seed: int | None = None
    final: dict[str, Any] | None = None
    texts: list[str] = field(default_factory=list)
    #: The chance stream, where the game's record can position one (see chance_rng).
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

    def fresh_state(self) -> Any:
        """The game before its first move (knowing its chance seed, where it keeps one)."""
        if self.mc is not None:
            return self.mc.fresh_state()
        state = self.spec.new_state(self.options)
        if self.seed is not None and hasattr(state, "seed"):
            state.seed = self.seed
        return state

    def result_json(self) -> Any:
        """The result as JSON (the final one once finished)."""
        state = self.state
        if self.final is not None:
            return self.final["result"]
        assert state is not None
        if self.mc is not None:
            return state.result.to_dict()
        return self.spec.snapshot(state, None).get("result")

    def summary(self) -> dict[str, Any]:
        """The table summary of docs/protocol.md."""
        status = self.status
        data: dict[str, Any] = {
            "id": self.id,
            "status": status,
            "created": iso(self.created),
            "game": self.spec.name,
            "title": self.spec.title,
        }
        if self.mc is not None:
            state = self.state
            rnd = state.round if state is not None else (self.final or {}).get("round", 0)
            data.update(
                course=self.mc.course_name,
                riders=self.mc.riders,
                wind=self.mc.wind,
                relay_limit=self.mc.relay_limit,
                solo=self.mc.solo,
                round=rnd,
            )
        else:
            data["options"] = self.options
        data["moves"] = self.moves_played
        data["seats"] = [s.summary() for s in self.seats.values()]
        if status == FINISHED:
            data["result"] = self.result_json()
        return data

    def full_summary(self) -> dict[str, Any]:
        """The summary with Mind Cycling's ``course_data`` (the table of a ``welcome``)."""
        if self.mc is None:
            return self.summary()
        return {**self.summary(), "course_data": self.mc.course.to_dict()}

    def players(self) -> dict[str, dict[str, str]]:
        """The record's players: each seat's name and controller (Mind Cycling's
        records call it ``controller``, the other games' ``kind``: docs/games.md)."""
        key = "controller" if self.mc is not None else "kind"
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

    def chance_rng(self, index: int) -> Rng:
        """The generator of the chance move at move ``index``.

        Where the game's record can position its chance stream (Pistard's
        ``Record.chance_rng``: ``Rng(seed)`` advanced past the recorded rolls), the table
        draws from that one stream, rebuilt from the stored moves after a restart: the
        rolls go on exactly, and a downloaded record resumes with the same rolls.
        Otherwise each roll's generator is derived from (seed, index) alone."""
        record_cls = getattr(self.spec.module, "Record", None)
        if self.state is not None and hasattr(record_cls, "chance_rng"):
            if self.rng is None:
                self.rng = record_of(self, self.state).chance_rng()
            return self.rng
        return Rng(self.seed or 0).spawn(index)

    def final_summary(self) -> dict[str, Any]:
        """What a finished table keeps in the database."""
        assert self.state is not None
        data: dict[str, Any] = {"moves": len(self.texts), "result": self.result_json()}
        if self.mc is not None:
            data["round"] = self.state.round
        return data

    # ------------------------------------------------------------ per-viewer views

    def snapshot(self, viewer: str | None) -> dict[str, Any]:
        """The position as ``viewer`` may see it."""
        assert self.state is not None
        return self.spec.snapshot(self.state, viewer)

    def public_moves(self, viewer: str | None) -> list[str]:
        """The moves as ``viewer`` may see them."""
        if not self.spec.hidden:
            return list(self.texts)
        assert self.state is not None
        return self.spec.public_moves(self.state, viewer)


def _bot(table_id: str, seat: str, kind: str, secret: int | None = None) -> Bot:
    # Seeded from the table and seat: each table's bots make their own choices. Where
    # the table has a secret seed (every game but Mind Cycling), it is mixed in: a bot
    # seeded from the public table id alone would let a player work out its next
    # random choice (a Mind Twist bot's hidden dial).
    salt = f"{table_id}/{seat}" if secret is None else f"{table_id}/{seat}/{secret}"
    seed = int.from_bytes(hashlib.sha256(salt.encode()).digest()[:4], "big")
    return make_bot(kind, seed)


def make_seat(table_id: str, row: storage.SeatRow, secret: int | None = None) -> Seat:
    bot = None if row.kind == HUMAN else _bot(table_id, row.seat, row.kind, secret)
    return Seat(row.seat, row.kind, row.name, row.token_hash, bot)


def replay_moves(table: LiveTable, texts: list[str]) -> Any:
    """The table's state after its stored moves (sets ``table.texts``)."""
    state = table.fresh_state()
    played: list[str] = []
    for i, text in enumerate(texts):
        try:
            state.play(text)
        except PelotonError as exc:  # a database edited by hand; keep what replays
            log.error("table %s: stored move %d %r rejected (%s); the table stops there", table.id, i, text, exc)
            break
        played.append(text)
    table.texts = played
    return state


def record_of(table: LiveTable, state: Any) -> Any:
    """The game's record of a table (with the chance seed where the record keeps one)."""
    record_cls = table.spec.module.Record
    record = record_cls.from_state(state, table.players())
    if table.seed is not None and hasattr(record, "seed") and record.seed is None:
        record.seed = table.seed
    return record
