"""The chat of a table: who may write, what a message may hold, how fast, and where
it is kept (docs/protocol.md, "Chat").

Seated players and spectators write in their table's chat over the table's
WebSocket. Each message is checked (:func:`checked_text`: control and invisible
format characters dropped, 1 to :data:`MAX_CHAT_CHARS` characters, something
visible), limited per writer (:data:`CHAT_RATE` messages in :data:`CHAT_RATE_SECONDS`
per seat, or per connection for a spectator) and per client address at the table
(:attr:`~..limits.Limits.chat_per_client` in the same window, every seat and
connection of the address together: reconnecting gives no more), committed to the
database, and only then sent to
everyone at the table, its sender included, like a move. A seated player may mute
the spectators (they may then read but not write); the setting is kept with the
table. Each table keeps its last :data:`MAX_CHAT_KEPT` messages: older ones are
deleted as new ones come.

A table's chat is read from the database the first time someone comes to the table
(or asks for its replay) after a start, so a restarted server shows it again.
Nothing here knows a game: a message only records how many moves had been played
when it was written, where a replay shows it.

A spectator may sign with a name, but not one that is, or looks like
(:func:`~..storage.profiles.name_looks`), a seat's name at the table or a profile's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
import unicodedata
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import icu  # type: ignore[import-untyped]
from sqlalchemy import Engine, bindparam, delete, insert, select
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import (
    BAD_CHAT,
    CHAT_FLOOD,
    CHAT_MUTED,
    HELLO_FIRST,
    INTERNAL,
    SPECTATOR,
    ProtocolError,
)
from ..inputs import name_problem
from ..limits import Limits, RateLimit
from ..storage import store
from ..storage.profiles import Profiles, name_key, name_looks
from . import messages as p
from .requests import MAX_NAME
from .table import Connection, LiveTable

log = logging.getLogger("peloton.server")

_ICU_CHAR = icu.Char
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT

#: The longest message, in characters (once control characters are dropped).
MAX_CHAT_CHARS = 500
#: A writer (a seat, or a spectator's connection) may send this many messages in
#: this many seconds; one more is refused (``chat_flood``) and not kept.
CHAT_RATE = 5
CHAT_RATE_SECONDS = 10.0
#: The messages a table keeps (the oldest go first): what a reload, a replay and the
#: chat download show.
MAX_CHAT_KEPT = 300
#: Tables whose chat stays in memory while nobody is at them (others are read again).
MAX_ROOMS = 512

# Characters that reorder the text shown after them (bidirectional overrides and
# isolates): a message could make the next line read backwards. Dropped.
_BIDI = frozenset(chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# How an unnamed spectator is shown ("spectator 3"): not a name one may choose.
_NUMBERED = re.compile(r"spectator\s*\d+", re.IGNORECASE)
# Line and paragraph breaks: a chat message is one line, so each becomes a space.
_BREAKS = frozenset("\t\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
# Categories dropped: control characters, lone surrogates, and the invisible format
# characters (zero-width spaces and joiners, byte order marks, direction marks, tags...)
# that would let a message show blank or hide what it says.
_DROPPED = frozenset(("Cc", "Cs", "Cf"))
# The tag block (U+E0000 to U+E007F): invisible, whatever category a Unicode version
# gives its unassigned points.
_TAGS = range(0xE0000, 0xE0080)


def _invisible(ch: str) -> bool:
    """A character that shows nothing: a format or control character, a tag, or one
    Unicode says to show as nothing (Default_Ignorable_Code_Point: Hangul fillers,
    reserved points) other than a mark (variation selectors, which pick how an emoji
    shows, are kept)."""
    category = unicodedata.category(ch)
    if category in _DROPPED or ord(ch) in _TAGS:
        return True
    return category != "Mn" and bool(_ICU_CHAR.hasBinaryProperty(ch, _IGNORABLE))


def clean_text(text: str) -> str:
    """``text`` as the chat keeps it: every line break a space, control characters,
    lone surrogates and invisible characters (:func:`_invisible`: format characters,
    category Cf, with the direction overrides; the tag block) dropped, spaces trimmed
    at both ends."""
    kept = []
    for ch in text:
        if ch in _BREAKS:
            kept.append(" ")
        elif ch in _BIDI or _invisible(ch):
            continue
        else:
            kept.append(ch)
    return "".join(kept).strip()


def checked_text(text: str) -> str:
    """The cleaned message (:func:`clean_text`), or :class:`ProtocolError`
    ``bad_chat`` saying why it cannot be sent (nothing visible, or over the limit)."""
    cleaned = clean_text(text)
    if not cleaned:
        raise ProtocolError(
            BAD_CHAT,
            "the message is empty: it has nothing visible (spaces and invisible characters "
            "only); write something to send",
        )
    if len(cleaned) > MAX_CHAT_CHARS:
        raise ProtocolError(
            BAD_CHAT,
            f"the message has {len(cleaned)} characters, over the limit of {MAX_CHAT_CHARS}",
        )
    return cleaned


def checked_spectator_name(name: str) -> str:
    """A spectator's chosen name, as a seat's (1 to 40 printable characters, spaces
    squeezed) but not ``spectator N``, or ``bad_chat``."""
    problem = name_problem(name, MAX_NAME)
    if problem is not None:
        raise ProtocolError(BAD_CHAT, f"chat 'name' {problem}, not {name[:60]!r}")
    squeezed = " ".join(name.split())
    if _NUMBERED.fullmatch(squeezed):
        # Shown as it is, it would pass for another, unnamed spectator.
        raise ProtocolError(
            BAD_CHAT, f"chat 'name' {squeezed!r} is how unnamed spectators are shown: pick another"
        )
    return squeezed


def alike(one: str, other: str) -> bool:
    """Whether two names would be taken for each other: the same in any case, or
    looking alike (:func:`~..storage.profiles.name_looks`, spaces squeezed)."""
    one, other = " ".join(one.split()), " ".join(other.split())
    return name_key(one) == name_key(other) or bool(name_looks(one) & name_looks(other))


def seat_named(table: LiveTable, name: str) -> str | None:
    """The seat of ``table`` whose player's name ``name`` is or looks like, if any."""
    for letter, seat in table.seats.items():
        if seat.name and alike(seat.name, name):
            return letter
    return None


@dataclass(frozen=True)
class ChatEntry:
    """One kept message: its number at the table (``idx``, from 0), when and by whom
    (``seat``, ``None`` for a spectator; ``name`` as shown) it was written, and how
    many moves had been played then (``move``)."""

    idx: int
    created: datetime
    seat: str | None
    name: str
    text: str
    move: int

    def to_json(self) -> dict[str, Any]:
        """The message as the protocol sends it."""
        return {
            "id": self.idx,
            "at": self.created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "move": self.move,
        }


@dataclass
class Room:
    """A table's chat in memory: its kept messages, its mute setting, its writers'
    rate windows and the numbers of its unnamed spectators."""

    entries: deque[ChatEntry]
    next_idx: int
    muted: bool
    muted_by: str | None
    rate: RateLimit
    #: Per client address: every seat and connection of the address together.
    by_address: RateLimit = field(default_factory=lambda: RateLimit(None))
    #: The table's connections (a room with nobody at its table may be let go).
    watchers: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    spectators: weakref.WeakKeyDictionary[Connection, int] = field(
        default_factory=weakref.WeakKeyDictionary
    )
    spectators_seen: int = 0
    #: Messages committed (or failed: ``None``) but not yet sent, by number; the next
    #: number to send (:meth:`settle`).
    settled: dict[int, ChatEntry | None] = field(default_factory=dict)
    next_to_send: int = 0

    def spectator_number(self, conn: Connection) -> int:
        """The number of a spectator's connection ("spectator 3"), given when it first
        writes without a name (players who watched before taking a seat get none)."""
        number = self.spectators.get(conn)
        if number is None:
            self.spectators_seen += 1
            number = self.spectators[conn] = self.spectators_seen
        return number

    def settle(self, idx: int, entry: ChatEntry | None, to: set[Connection]) -> None:
        """Message ``idx`` is committed (``entry``) or failed (``None``): keep and send
        to ``to`` every message now ready in number order (a message committed before
        one numbered earlier waits for it)."""
        self.settled[idx] = entry
        while self.next_to_send in self.settled:
            ready = self.settled.pop(self.next_to_send)
            self.next_to_send += 1
            if ready is None:
                continue
            self.entries.append(ready)
            out = p.dumps({"type": "chat", "message": ready.to_json()})
            for conn in to:
                conn.send(out)

    def log(self) -> list[dict[str, Any]]:
        """The kept messages, oldest first, as the protocol sends them."""
        return [entry.to_json() for entry in self.entries]


# ---------------------------------------------------------------- storage

_INSERT = insert(store.chat_messages)
_PRUNE = delete(store.chat_messages).where(
    store.chat_messages.c.table_id == bindparam("t_id"),
    store.chat_messages.c.idx <= bindparam("upto"),
)
_UNSET = delete(store.chat_settings).where(store.chat_settings.c.table_id == bindparam("t_id"))
_SET = insert(store.chat_settings)


def add_message(table_id: str, entry: ChatEntry) -> store.Write:
    """A write keeping ``entry`` and deleting what falls out of the kept messages."""
    ops: store.Write = [
        (
            _INSERT,
            {
                "table_id": table_id,
                "idx": entry.idx,
                "created": entry.created,
                "seat": entry.seat,
                "name": entry.name,
                "text": entry.text,
                "move": entry.move,
            },
        )
    ]
    if entry.idx >= MAX_CHAT_KEPT:
        ops.append((_PRUNE, {"t_id": table_id, "upto": entry.idx - MAX_CHAT_KEPT}))
    return ops


def set_muted(table_id: str, muted: bool, seat: str) -> store.Write:
    """A write keeping a table's mute setting (one row a table: replaced)."""
    row = {"table_id": table_id, "muted": int(muted), "seat": seat, "changed": store.now()}
    return [(_UNSET, {"t_id": table_id}), (_SET, row)]


def load_room(engine: Engine, table_id: str, clock: Callable[[], float]) -> Room:
    """A table's chat as stored (blocking: run in a thread)."""
    messages, settings = store.chat_messages, store.chat_settings
    with engine.connect() as conn:
        rows = conn.execute(
            select(messages)
            .where(messages.c.table_id == table_id)
            .order_by(messages.c.idx.desc())
            .limit(MAX_CHAT_KEPT)
        ).all()
        setting = conn.execute(select(settings).where(settings.c.table_id == table_id)).first()
    entries = deque(
        (
            ChatEntry(
                r.idx,
                r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC),
                r.seat,
                r.name,
                r.text,
                r.move,
            )
            for r in reversed(rows)
        ),
        maxlen=MAX_CHAT_KEPT,
    )
    first = entries[-1].idx + 1 if entries else 0
    return Room(
        entries=entries,
        next_idx=first,
        next_to_send=first,
        muted=bool(setting.muted) if setting is not None else False,
        muted_by=setting.seat if setting is not None else None,
        rate=RateLimit(CHAT_RATE, CHAT_RATE_SECONDS, clock),
    )


# ---------------------------------------------------------------- the chats of a server


class Chats:
    """Every table's chat: greeting a client with the chat so far, posting, muting.

    ``clock`` times the rate limits (tests inject one); ``per_client``: the messages
    one address may write at a table in a window (``None``: no such limit);
    ``profiles``: the names a spectator may not sign with (``None``: none)."""

    def __init__(
        self,
        writer: store.Writer,
        engine: Engine,
        clock: Callable[[], float] = time.monotonic,
        *,
        per_client: int | None = Limits.chat_per_client,
        profiles: Profiles | None = None,
    ) -> None:
        self.writer = writer
        self.engine = engine
        self.clock = clock
        self.per_client = per_client
        self.profiles = profiles
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def room(self, table: LiveTable) -> Room:
        """The table's chat, read from the database on first use."""
        room = self.rooms.get(table.id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(table.id)
            if room is None:
                room = await run_in_threadpool(load_room, self.engine, table.id, self.clock)
                room.watchers = table.connections
                room.by_address = RateLimit(self.per_client, CHAT_RATE_SECONDS, self.clock)
                self._let_go()
                self.rooms[table.id] = room
        return room

    def _let_go(self) -> None:
        """Past :data:`MAX_ROOMS`, forget the chats of tables nobody is at (they are
        read again when someone comes)."""
        if len(self.rooms) < MAX_ROOMS:
            return
        for table_id, room in list(self.rooms.items()):
            idle = room.next_to_send == room.next_idx  # no message being committed
            if not room.watchers and not room.lock.locked() and idle:
                del self.rooms[table_id]

    async def greet(self, table: LiveTable, conn: Connection) -> None:
        """Send a client the chat so far (``chat_log``: asked for after ``hello``)."""
        if not conn.greeted:
            raise ProtocolError(HELLO_FIRST, "send 'hello' before anything else")
        room = await self.room(table)
        message: dict[str, Any] = {
            "type": "chat_log",
            "muted": room.muted,
            "muted_by": room.muted_by,
            "messages": room.log(),
            "limits": {
                "chars": MAX_CHAT_CHARS,
                "messages": CHAT_RATE,
                "seconds": CHAT_RATE_SECONDS,
            },
        }
        if conn.seat is None and conn in room.spectators:
            message["spectator"] = room.spectators[conn]
        conn.send(p.dumps(message))

    async def post(self, table: LiveTable, conn: Connection, message: p.ChatPost) -> None:
        """Keep a client's message and send it to everyone at the table, or raise the
        :class:`ProtocolError` saying why not (nothing is kept then)."""
        if not conn.greeted:
            raise ProtocolError(HELLO_FIRST, "send 'hello' before anything else")
        text = checked_text(message.text)
        room = await self.room(table)
        seat = conn.seat
        if seat is None:
            if room.muted:
                raise ProtocolError(
                    CHAT_MUTED, "the players have muted the spectators: you may read the chat only"
                )
            if message.name is not None and message.name.strip():
                name = await self._spectator_name(table, message.name)
            else:
                name = f"spectator {room.spectator_number(conn)}"
        else:
            name = table.seats[seat].name or seat
        self._count(room, conn)
        entry = ChatEntry(
            room.next_idx,
            store.now().replace(microsecond=0),
            seat,
            name,
            text,
            table.moves_played,
        )
        room.next_idx += 1
        try:
            await self.writer.write(add_message(table.id, entry))
        except Exception as exc:
            room.settle(entry.idx, None, table.connections)
            log.exception("table %s: chat message %d not stored", table.id, entry.idx)
            raise ProtocolError(
                INTERNAL, f"the message could not be stored ({type(exc).__name__}); send it again"
            ) from None
        room.settle(entry.idx, entry, table.connections)

    def _count(self, room: Room, conn: Connection) -> None:
        """Count a message against its writer's and its address's allowance, or raise
        ``chat_flood`` (nothing counted then). Numbered and counted at once (no wait in
        between: nothing else runs), then committed without a lock, so that the
        messages of a busy table share commits; they are sent in their numbers' order
        once committed (:meth:`Room.settle`)."""
        writer = f"seat:{conn.seat}" if conn.seat is not None else f"conn:{id(conn)}"
        address = conn.address
        wait = room.rate.wait(writer)
        if wait > 0:
            raise ProtocolError(
                CHAT_FLOOD,
                f"you are writing too fast: at most {CHAT_RATE} messages in "
                f"{CHAT_RATE_SECONDS:g} s; wait {max(1, round(wait))} s",
            )
        wait = room.by_address.wait(address)
        if wait > 0:
            raise ProtocolError(
                CHAT_FLOOD,
                f"too many messages at this table from one address: at most {self.per_client} "
                f"in {CHAT_RATE_SECONDS:g} s from one address, every connection of it "
                f"together; wait {max(1, round(wait))} s",
            )
        room.rate.allow(writer)
        room.by_address.allow(address)

    async def _spectator_name(self, table: LiveTable, name: str) -> str:
        """A spectator's chosen name (:func:`checked_spectator_name`), or ``bad_chat``
        when it is, or looks like, a seat's name at the table or a profile's: a
        spectator cannot pass for a player."""
        name = checked_spectator_name(name)
        seat = seat_named(table, name)
        if seat is not None:
            raise ProtocolError(
                BAD_CHAT,
                f"chat 'name' {name!r} is, or looks like, the name of the player at seat "
                f"{seat}: pick another",
            )
        profiles = self.profiles
        if profiles is not None:
            look = profiles.look_alike
            found = await run_in_threadpool(look, name) if profiles.shared else look(name)
            if found is not None:
                raise ProtocolError(
                    BAD_CHAT,
                    f"chat 'name' {name!r} is, or looks like, the name of the registered "
                    f"player {found.name!r}: pick another",
                )
        return name

    async def mute(self, table: LiveTable, conn: Connection, message: p.ChatMute) -> None:
        """A seated player mutes or unmutes the spectators; everyone at the table is
        told (``chat_muted``)."""
        if not conn.greeted:
            raise ProtocolError(HELLO_FIRST, "send 'hello' before anything else")
        if conn.seat is None:
            raise ProtocolError(SPECTATOR, "only a seated player may mute the spectators")
        room = await self.room(table)
        async with room.lock:
            await self.writer.write(set_muted(table.id, message.muted, conn.seat))
            room.muted, room.muted_by = message.muted, conn.seat
            out = p.dumps({"type": "chat_muted", "muted": room.muted, "by": conn.seat})
            for other in table.connections:
                other.send(out)

    async def log(self, table: LiveTable) -> list[dict[str, Any]]:
        """The table's kept messages, oldest first."""
        return (await self.room(table)).log()

    async def with_chat(self, table: LiveTable, replay: bytes) -> bytes:
        """A replay answer (a JSON object) with the table's chat as ``"chat"``: the
        whole kept chat; each message's ``move`` says where the replay reaches it."""
        chat = p.dumps({"chat": await self.log(table)}).encode()
        return replay.rstrip()[:-1] + b"," + chat[1:]


async def chat_download(request: Request) -> Response:
    """``GET /api/tables/{id}/chat``: the table's chat (the kept messages and the mute
    setting), sent as a download."""
    tables = request.app.state.tables
    chats: Chats = request.app.state.chats
    table = tables.get(request.path_params["id"])
    room = await chats.room(table)
    data = {
        "format": "peloton-chat/1",
        "table": table.id,
        "game": table.spec.name,
        "muted": room.muted,
        "messages": room.log(),
    }
    return Response(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="peloton-{table.id}-chat.json"'},
    )


ROUTES = [Route("/api/tables/{id}/chat", chat_download)]
