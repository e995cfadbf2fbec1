"""Live tables: the game state in memory, seats, connections, bots, and persistence.

The server is the only authority. A move is handled under its table's
:class:`asyncio.Lock`: checked by the rules, committed to the database, applied to
the in-memory state, then broadcast. Bad input gets an ``error`` to its sender and
leaves the table untouched. At start-up every unfinished table is rebuilt by
replaying its stored moves; finished tables are replayed on demand.

Every game is driven through the contract of docs/games.md (:mod:`.games`). At a
chance step the server draws the move itself, from an :class:`Rng` derived from the
table's stored seed and the move's index, and commits it like any move: a restarted
server rolls exactly the dice it would have rolled. For a game with hidden
information every message is built for its viewer (the connection's seat, ``None``
for a spectator) from ``snapshot(state, viewer)`` and ``public_moves(state, viewer)``,
and bots are given ``state.view(player)``, never the full state.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from ..bots import Bot, make_bot
from ..core.errors import CourseError, IllegalMoveError, NotationError, PelotonError
from ..core.protocol import CHANCE
from ..core.rng import Rng
from ..games import mindcycling as mc
from . import games, storage
from . import protocol as p

log = logging.getLogger("peloton.server")

HUMAN = "human"
OPEN, RUNNING, FINISHED = "open", "running", "finished"
MAX_NAME = 40
#: A connection whose client does not read its messages is dropped past this backlog.
MAX_BACKLOG = 1000
_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


class ApiError(Exception):
    """An HTTP error answer: ``{"error": {"code", "message", ...extra}}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON answer."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


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
        return _fresh_state(self.course, self.teams, self.wind, self.relay_limit, self.solo)


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
                self.rng = _record_of(self, self.state).chance_rng()
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


def _seat(table_id: str, row: storage.SeatRow, secret: int | None = None) -> Seat:
    bot = None if row.kind == HUMAN else _bot(table_id, row.seat, row.kind, secret)
    return Seat(row.seat, row.kind, row.name, row.token_hash, bot)


def _replay(table: LiveTable, texts: list[str]) -> Any:
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


def _fresh_state(course: mc.Course, teams: dict[str, str], wind: str, relay_limit: int, solo: bool) -> mc.State:
    if solo:
        return mc.new_solo(course, teams["A"], wind=wind, relay_limit=relay_limit)
    return mc.new_game(course, teams, wind=wind, relay_limit=relay_limit)


class Tables:
    """Every table of the server, and what can be done to them."""

    def __init__(self, writer: storage.Writer, engine: Any, bot_delay: float = 0.4) -> None:
        self.writer = writer
        self.engine = engine
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}

    # ------------------------------------------------------------ start and stop

    def load(self) -> None:
        """Rebuild every stored table (blocking: call before serving)."""
        for row in storage.load_tables(self.engine):
            try:
                table = self._from_row(row)
            except Exception as exc:  # a game no longer installed, a course now invalid
                log.error("table %s (%s): cannot be loaded (%s); skipped", row.id, row.game, exc)
                continue
            if table.final is None:
                try:
                    table.state = _replay(table, row.moves)
                except Exception as exc:
                    log.error("table %s: cannot be replayed (%s); skipped", row.id, exc)
                    continue
            self.tables[table.id] = table

    def _from_row(self, row: storage.TableRow) -> LiveTable:
        spec = games.spec(row.game)
        setup = None
        if spec.name == games.MIND_CYCLING:
            setup = McSetup(
                course=mc.Course.from_dict(row.course),
                course_name=row.course_name,
                teams=row.teams,
                riders=row.riders,
                wind=row.wind,
                relay_limit=row.relay_limit,
                solo=row.solo,
            )
        return LiveTable(
            id=row.id,
            created=row.created,
            spec=spec,
            seats={s.seat: _seat(row.id, s, row.seed) for s in row.seats},
            state=None,
            mc=setup,
            options=row.options or {},
            seed=row.seed,
            final=row.final if row.status == FINISHED else None,
        )

    def start_bots(self) -> None:
        """Let every bot (or chance step) whose turn it is move (after a restart)."""
        for table in self.tables.values():
            self._kick_bots(table)

    async def stop(self) -> None:
        """Stop the bots and close the connections."""
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for conn in list(table.connections):
                conn.close()

    # ------------------------------------------------------------ lobby

    def get(self, table_id: str) -> LiveTable:
        """The table, or a 404."""
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        return table

    def listing(self, status: str | None = None) -> list[dict[str, Any]]:
        """Table summaries, newest first, optionally only those of one status."""
        found = sorted(self.tables.values(), key=lambda t: t.created, reverse=True)
        return [t.summary() for t in found if status is None or t.status == status]

    async def create(self, request: Any) -> LiveTable:
        """A new table from a create request (docs/protocol.md)."""
        if not isinstance(request, dict):
            raise ApiError(400, "bad_request", "a create request is a JSON object (see docs/protocol.md)")
        game = request.get("game", games.MIND_CYCLING)
        if game == games.MIND_CYCLING:
            return await self._create_mc(request)
        if not isinstance(game, str):
            raise _bad(f"'game' must be a game's name, not {game!r}")
        try:
            spec = games.spec(game)
        except PelotonError as exc:
            raise _bad(str(exc)) from None
        checked = check_game_request(spec, request)
        table_id = self._new_id()
        table = LiveTable(
            id=table_id,
            created=storage.now().replace(microsecond=0),
            spec=spec,
            seats={},
            state=checked["state"],
            options=checked["options"],
            seed=secrets.randbelow(2**62),
        )
        table.seats = {
            letter: _seat(table_id, storage.SeatRow(letter, kind, None if kind == HUMAN else kind, None), table.seed)
            for letter, kind in zip(checked["letters"], checked["seats"], strict=True)
        }
        row = storage.TableRow(
            id=table.id,
            created=table.created,
            # Mind Cycling's columns are NOT NULL: neutral values for the other games.
            course_name="",
            course={},
            teams={},
            riders=0,
            wind="",
            relay_limit=0,
            solo=False,
            status=table.status,
            final=None,
            seats=[storage.SeatRow(s.seat, s.kind, s.name, None) for s in table.seats.values()],
            game=spec.name,
            options=table.options,
            seed=table.seed,
        )
        await self.writer.write(storage.insert_table(row))
        self.tables[table.id] = table
        self._kick_bots(table)
        return table

    async def _create_mc(self, request: dict[str, Any]) -> LiveTable:
        options = check_create_request(request)
        table_id = self._new_id()
        course: mc.Course = options["course"]
        setup = McSetup(
            course=course,
            course_name=course.name,
            teams=options["teams"],
            riders=options["riders"],
            wind=options["wind"],
            relay_limit=options["relay_limit"],
            solo=options["solo"],
        )
        table = LiveTable(
            id=table_id,
            created=storage.now().replace(microsecond=0),
            spec=games.spec(games.MIND_CYCLING),
            seats={},
            state=options["state"],
            mc=setup,
        )
        letters = list(options["teams"])
        table.seats = {
            t: _seat(table_id, storage.SeatRow(t, kind, None if kind == HUMAN else kind, None))
            for t, kind in zip(letters, options["seats"], strict=True)
        }
        row = storage.TableRow(
            id=table.id,
            created=table.created,
            course_name=setup.course_name,
            course=course.to_dict(),
            teams=setup.teams,
            riders=setup.riders,
            wind=setup.wind,
            relay_limit=setup.relay_limit,
            solo=setup.solo,
            status=table.status,
            final=None,
            seats=[storage.SeatRow(s.seat, s.kind, s.name, None) for s in table.seats.values()],
            game=games.MIND_CYCLING,
        )
        await self.writer.write(storage.insert_table(row))
        self.tables[table.id] = table
        self._kick_bots(table)
        return table

    def _new_id(self) -> str:
        while True:
            table_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))
            if table_id not in self.tables:
                return table_id

    async def join(self, table: LiveTable, request: Any) -> dict[str, str]:
        """Give a free human seat to a player; their secret seat token."""
        if not isinstance(request, dict):
            raise ApiError(400, "bad_request", "a join request is an object {\"seat\": \"A\", \"name\": \"Ada\"}")
        letter, name = request.get("seat"), request.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
            raise ApiError(400, "bad_request", f"'name' must be 1 to {MAX_NAME} characters, not {name!r}")
        name = " ".join(name.split())
        async with table.lock:
            seat = table.seats.get(letter) if isinstance(letter, str) else None
            if seat is None:
                raise ApiError(400, "bad_request", f"table {table.id} has no seat {letter!r} (seats: {', '.join(table.seats)})")
            if seat.kind != HUMAN:
                raise ApiError(400, "not_human", f"seat {seat.seat} is played by the {seat.kind} bot")
            if seat.taken:
                raise ApiError(409, "seat_taken", f"seat {seat.seat} is taken by {seat.name}")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            others_free = sum(1 for s in table.seats.values() if not s.taken) - 1
            status = RUNNING if others_free == 0 else OPEN
            await self.writer.write(storage.take_seat(table.id, seat.seat, name, digest, status))
            seat.name, seat.token_hash = name, digest
            self._send_welcomes(table)
            self._kick_bots(table)
        return {"seat": seat.seat, "token": token}

    def seat_of_token(self, table: LiveTable, token: str | None) -> str | None:
        """The seat whose token this is (``None`` for no token); :class:`ApiError`
        ``bad_token`` for a token that is not one of this table's."""
        if token is None:
            return None
        digest = hash_token(token)
        seat = next((s.seat for s in table.seats.values() if s.token_hash == digest), None)
        if seat is None:
            raise ApiError(403, "bad_token", f"this token is not a seat token of table {table.id}")
        return seat

    async def ensure_state(self, table: LiveTable) -> Any:
        """The table's state, replaying a finished table's moves on first use."""
        if table.state is not None:
            return table.state
        async with table.lock:
            if table.state is None:
                texts = await run_in_threadpool(storage.load_moves, self.engine, table.id)
                table.state = await run_in_threadpool(_replay, table, texts)
            return table.state

    async def record(self, table: LiveTable) -> Any:
        """The table's full game record (every hidden value in it: never send it as is
        for a game with hidden information; see :meth:`record_for`)."""
        state = await self.ensure_state(table)
        if table.mc is not None:
            return mc.Record.from_state(state, table.players())
        return _record_of(table, state)

    async def record_for(self, table: LiveTable, viewer: str | None) -> dict[str, Any]:
        """The record ``viewer`` may download: the whole record for a game without
        hidden information; otherwise the public record of that viewer (MT-4.1: a dial
        guessed right is never shown to the opponent, not even after the game)."""
        record = await self.record(table)
        data: dict[str, Any] = record.to_dict(viewer) if table.spec.hidden else record.to_dict()
        if data.get("seed") is not None and not (table.state is not None and table.state.is_over):
            # The seed foretells every future roll: it is given once the game is over.
            data["seed"] = None
        return data

    # ------------------------------------------------------------ live play

    def welcome(self, table: LiveTable, seat: str | None, snap: dict[str, Any] | None = None) -> str:
        """A ``welcome`` message: the full state as ``seat`` may see it."""
        assert table.state is not None
        return p.dumps(
            {
                "type": "welcome",
                "seat": seat,
                "table": table.full_summary(),
                "snapshot": snap if snap is not None else table.snapshot(seat),
            }
        )

    def _send_welcomes(self, table: LiveTable) -> None:
        # A seat was taken: the table's summary (and maybe its status) changed
        # without a move, so every client gets the full state again.
        if not table.connections or table.state is None:
            return
        shared = table.snapshot(None) if table.spec.viewer_free else None
        by_viewer: dict[str | None, dict[str, Any]] = {}
        for conn in table.connections:
            snap = shared
            if snap is None:
                snap = by_viewer.get(conn.seat)
                if snap is None:
                    snap = by_viewer[conn.seat] = table.snapshot(conn.seat)
            conn.send(self.welcome(table, conn.seat, snap))

    async def hello(self, table: LiveTable, conn: Connection, message: p.Hello) -> None:
        """Greet a client as a seat's player (valid token) or a spectator (none)."""
        await self.ensure_state(table)
        async with table.lock:
            seat: str | None = None
            if message.token is not None:
                digest = hash_token(message.token)
                seat = next((s.seat for s in table.seats.values() if s.token_hash == digest), None)
                if seat is None:
                    raise p.ProtocolError(p.BAD_TOKEN, f"this token is not a seat token of table {table.id}")
            conn.seat, conn.greeted = seat, True
            table.connections.add(conn)
            conn.send(self.welcome(table, seat))

    async def move(self, table: LiveTable, conn: Connection, message: p.MoveMessage) -> None:
        """Play a client's move, or raise the :class:`ProtocolError` saying why not."""
        if not conn.greeted:
            raise p.ProtocolError(p.HELLO_FIRST, "send 'hello' before anything else")
        if conn.seat is None:
            raise p.ProtocolError(p.SPECTATOR, "spectators cannot move; join a seat to play")
        async with table.lock:
            state = table.state
            assert state is not None
            if state.is_over:
                raise p.ProtocolError(p.GAME_OVER, "the game is over")
            if table.status != RUNNING:
                free = ", ".join(s.seat for s in table.seats.values() if not s.taken)
                raise p.ProtocolError(p.NOT_STARTED, f"the game starts when every human seat is taken (free: {free})")
            if state.is_chance:
                raise p.ProtocolError(p.CHANCE_STEP, "the server is rolling the dice: wait for the roll")
            if state.current_player != conn.seat:
                who = "team" if table.mc is not None else "seat"
                raise p.ProtocolError(
                    p.NOT_YOUR_TURN, f"it is {who} {state.current_player}'s turn, not {who} {conn.seat}'s"
                )
            played = len(table.texts)
            if message.index is not None and message.index != played:
                raise p.ProtocolError(p.STALE, f"'index' {message.index} is stale: {played} moves have been played")
            try:
                move = games.check_move(state, message.move)
            except NotationError as exc:
                raise p.ProtocolError(p.NOTATION, str(exc)) from None
            except IllegalMoveError as exc:
                raise p.ProtocolError(p.ILLEGAL_MOVE, str(exc)) from None
            except PelotonError as exc:  # e.g. a StateError of the engine
                raise p.ProtocolError(p.ILLEGAL_MOVE, str(exc)) from None
            try:
                await self._commit(table, move, conn.seat)
            except Exception as exc:
                log.exception("table %s: move %s not stored", table.id, move)
                raise p.ProtocolError(p.INTERNAL, f"the move could not be stored ({type(exc).__name__}); try again") from None

    async def _commit(self, table: LiveTable, move: Any, by: str) -> None:
        """Store a move, apply it, broadcast it (the table's lock is held).

        The move is checked, committed, and only then played on the live state (no
        copy per move). A game's final summary is stored by a second write; if the
        server dies between the two, the restart replays the table and finds it over.
        """
        state = table.state
        assert state is not None
        move = games.check_move(state, move) if table.mc is None else state.check(move)
        index = len(table.texts)
        text = str(move)
        await self.writer.write(storage.add_move(table.id, index, text))
        state.play(move)
        table.texts.append(text)
        if state.is_over:
            final = table.final_summary()
            try:
                await self.writer.write(storage.finish_table(table.id, final))
            except Exception:
                log.exception("table %s: final summary not stored (the moves are)", table.id)
            table.final = final  # summaries read the result from here from now on
        self._broadcast(table, index, text, by)
        self._kick_bots(table)

    def _broadcast(self, table: LiveTable, index: int, text: str, by: str) -> None:
        """Send the ``update`` of move ``index`` to every connection, each as its
        viewer may see it (Mind Cycling: one message for all)."""
        if not table.connections:
            return
        summary = table.summary()
        if table.spec.viewer_free:
            shared = self._update(index, text, by, table.snapshot(None), summary)
            for conn in table.connections:
                conn.send(shared)
            return
        built: dict[str | None, str] = {}
        for conn in table.connections:
            message = built.get(conn.seat)
            if message is None:
                shown = table.public_moves(conn.seat)[index] if table.spec.hidden else text
                message = built[conn.seat] = self._update(index, shown, by, table.snapshot(conn.seat), summary)
            conn.send(message)

    @staticmethod
    def _update(index: int, move: str, by: str, snap: dict[str, Any], summary: dict[str, Any]) -> str:
        # Key order matters to benchmarks/server_load.py, which reads the head of the text.
        return p.dumps({"type": "update", "index": index, "move": move, "by": by, "snapshot": snap, "table": summary})

    def disconnect(self, table: LiveTable, conn: Connection) -> None:
        """Forget a client that went away."""
        table.connections.discard(conn)
        conn.close()

    # ------------------------------------------------------------ bots and chance

    def _kick_bots(self, table: LiveTable) -> None:
        if table.bot_task is None and table.next_actor() is not None:
            table.bot_task = asyncio.create_task(self._bots(table), name=f"bots-{table.id}")

    async def _bots(self, table: LiveTable) -> None:
        """Play the bots' and the dice's moves while one is due, each after ``bot_delay``.

        At a chance step the server draws the move from the table's seeded generator.
        A bot thinks in a worker thread on a copy of the position (a game with hidden
        information: on the bot's own view), without the table's lock (a search bot
        may think for seconds); then its move is committed like a player's."""
        failures = 0
        while True:
            await asyncio.sleep(self.bot_delay + min(failures, 10))
            async with table.lock:
                actor = table.next_actor()
                state = table.state
                if actor is None or state is None:
                    table.bot_task = None
                    return
                index = len(table.texts)
                if actor == CHANCE:
                    try:
                        await self._commit(table, state.chance_move(table.chance_rng(index)), CHANCE)
                        failures = 0
                    except Exception:
                        failures += 1
                        table.rng = None  # rebuilt from the stored moves: the lost roll is drawn again
                        log.exception("table %s: chance move %d not played", table.id, index)
                    continue
                assert isinstance(actor, Seat) and actor.bot is not None
                seat, bot = actor, actor.bot
                position = state.view(seat.seat) if table.spec.hidden else state.copy()
            try:
                move = await run_in_threadpool(bot.choose, position)
                async with table.lock:
                    if table.state is not None and len(table.texts) == index:
                        await self._commit(table, move, seat.seat)
                failures = 0
            except Exception:
                failures += 1
                log.exception("table %s: bot %s could not move", table.id, seat.seat)


def _record_of(table: LiveTable, state: Any) -> Any:
    """The game's record of a table (with the chance seed where the record keeps one)."""
    record_cls = table.spec.module.Record
    record = record_cls.from_state(state, table.players())
    if table.seed is not None and hasattr(record, "seed") and record.seed is None:
        record.seed = table.seed
    return record


# ---------------------------------------------------------------- create requests

CREATE_KEYS = ("course", "riders", "wind", "relay_limit", "seats", "solo")
#: The keys of a create request for the other games.
GAME_KEYS = ("game", "options", "seats")


def _bad(message: str) -> ApiError:
    return ApiError(400, "bad_options", message)


def check_course(value: Any) -> mc.Course:
    """The course of a create request: a bundled name or a course object."""
    try:
        if isinstance(value, str):
            if value not in mc.bundled_names():
                raise CourseError(f"no bundled course called {value!r} (bundled: {', '.join(mc.bundled_names())})")
            return mc.Course.load(value)
        if isinstance(value, dict):
            return mc.Course.from_dict(value)
        raise CourseError(f"'course' must be a bundled course name or a course object, not {value!r}")
    except CourseError as exc:
        raise ApiError(400, "bad_course", str(exc), problems=exc.problems) from None


def check_create_request(request: Any) -> dict[str, Any]:
    """Validate a create request; the options with the new game's state."""
    if not isinstance(request, dict):
        raise ApiError(400, "bad_request", "a create request is a JSON object (see docs/protocol.md)")
    request = _merge_mc_options(request)
    unknown = sorted(set(request) - set(CREATE_KEYS))
    if unknown:
        raise _bad(f"unknown option(s) {', '.join(map(repr, unknown))}; options: {', '.join(CREATE_KEYS)}")
    solo = request.get("solo", False)
    if not isinstance(solo, bool):
        raise _bad(f"'solo' must be true or false, not {solo!r}")
    course = check_course(request.get("course", "solo" if solo else "standard"))
    seats = request.get("seats")
    kinds = [HUMAN, *games.bots_for(games.MIND_CYCLING)]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise _bad(f"'seats' must be a list of seat kinds ({', '.join(kinds)}), one per team, not {seats!r}")
    for kind in seats:
        if kind not in kinds:
            raise _bad(f"no seat kind {kind!r} at this game's tables; a seat is one of {', '.join(kinds)}")
    if solo and len(seats) != 1:
        raise _bad(f"the solo challenge has exactly one seat, not {len(seats)}")
    if not solo and not 2 <= len(seats) <= 7:
        raise _bad(f"a table has 2 to 7 seats, not {len(seats)}")
    riders = request.get("riders", len(mc.SOLO_COMPOSITION) if solo else 6)
    if isinstance(riders, bool) or not isinstance(riders, int) or not 3 <= riders <= 6:
        raise _bad(f"'riders' must be a whole number from 3 to 6, not {riders!r}")
    if solo and riders != len(mc.SOLO_COMPOSITION):
        raise _bad(f"the solo team has {len(mc.SOLO_COMPOSITION)} riders, not {riders}")
    wind = request.get("wind", "front")
    relay_limit = request.get("relay_limit", 3)
    teams = {"A": mc.SOLO_COMPOSITION} if solo else mc.default_teams(len(seats), riders)
    try:
        state = _fresh_state(course, teams, wind, relay_limit, solo)
    except CourseError as exc:
        raise ApiError(400, "bad_course", str(exc), problems=exc.problems) from None
    except PelotonError as exc:
        raise _bad(str(exc)) from None
    return {
        "course": course,
        "seats": seats,
        "riders": riders,
        "wind": wind,
        "relay_limit": relay_limit,
        "solo": solo,
        "teams": dict(state.teams),
        "state": state,
    }



def _merge_mc_options(request: dict[str, Any]) -> dict[str, Any]:
    """A Mind Cycling request with ``game`` and ``options`` folded into the old flat
    keys (both forms are accepted; ``players`` must agree with ``seats``)."""
    request = {k: v for k, v in request.items() if k != "game"}
    options = request.pop("options", None)
    if options is None:
        return request
    if not isinstance(options, dict):
        raise _bad(f"'options' must be an object of option values, not {options!r}")
    for key, value in options.items():
        if key == "players":
            seats = request.get("seats")
            if isinstance(seats, list) and value != len(seats):
                raise _bad(f"option 'players' is {value!r} but 'seats' lists {len(seats)} seats")
            continue
        if key in request and request[key] != value:
            raise _bad(f"option {key!r} is given twice with different values")
        request[key] = value
    return request


def check_game_request(spec: games.GameSpec, request: dict[str, Any]) -> dict[str, Any]:
    """Validate a create request of a game other than Mind Cycling: its seats, and
    its options through the game's ``from_options``; the new game's state."""
    unknown = sorted(set(request) - set(GAME_KEYS))
    if unknown:
        raise _bad(
            f"unknown key(s) {', '.join(map(repr, unknown))} for a {spec.name} table; "
            f"a request has {', '.join(GAME_KEYS)} (the game's settings go in 'options')"
        )
    options = request.get("options", {})
    if not isinstance(options, dict):
        raise _bad(f"'options' must be an object of option values, not {options!r}")
    unknown = sorted(set(options) - set(spec.options))
    if unknown:
        raise _bad(f"unknown option(s) {', '.join(map(repr, unknown))} of {spec.name}; options: {', '.join(spec.options)}")
    seats = request.get("seats")
    kinds = [HUMAN, *games.bots_for(spec.name)]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise _bad(f"'seats' must be a list of seat kinds ({', '.join(kinds)}), one per player, not {seats!r}")
    for kind in seats:
        if kind not in kinds:
            raise _bad(f"no seat kind {kind!r} at this game's tables; a seat is one of {', '.join(kinds)}")
    if not spec.min_seats <= len(seats) <= spec.max_seats:
        span = str(spec.min_seats) if spec.min_seats == spec.max_seats else f"{spec.min_seats} to {spec.max_seats}"
        raise _bad(f"a {spec.title} table has {span} seats, not {len(seats)}")
    if "players" in spec.options:
        if "players" in options and options["players"] != len(seats):
            raise _bad(f"option 'players' is {options['players']!r} but 'seats' lists {len(seats)} seats")
        options = {**options, "players": len(seats)}
    full = {**spec.defaults(), **options}
    try:
        games.check_choices(spec, full)
        state = spec.new_state(full)
    except PelotonError as exc:
        raise _bad(str(exc)) from None
    except (TypeError, ValueError) as exc:  # defensive: from_options should raise ConfigError
        raise _bad(f"bad options: {exc}") from None
    letters = list(state.players)
    if len(letters) != len(seats):
        raise _bad(f"a {spec.title} game with these options has {len(letters)} seats, not {len(seats)}")
    return {"state": state, "options": full, "seats": seats, "letters": letters}
