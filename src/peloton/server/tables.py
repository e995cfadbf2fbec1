"""Live tables: the game state in memory, seats, connections, bots, and persistence.

The server is the only authority. A move is handled under its table's
:class:`asyncio.Lock`: checked by the rules, committed to the database, applied to
the in-memory :class:`State`, then broadcast. Bad input gets an ``error`` to its
sender and leaves the table untouched. At start-up every unfinished table is
rebuilt by replaying its stored moves; finished tables are replayed on demand.
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

from ..bots import Bot, bot_names, make_bot
from ..core.errors import CourseError, IllegalMoveError, NotationError, PelotonError
from ..games import mindcycling as mc
from ..games.mindcycling.snapshot import snapshot
from . import protocol as p
from . import storage

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
class LiveTable:
    """A table in memory. ``state`` is ``None`` for a finished table not yet replayed
    (its summary then comes from ``final``)."""

    id: str
    created: datetime
    course: mc.Course
    course_name: str
    teams: dict[str, str]
    riders: int
    wind: str
    relay_limit: int
    solo: bool
    seats: dict[str, Seat]
    state: mc.State | None
    final: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None

    @property
    def status(self) -> str:
        """``open`` (a human seat is free), ``running`` or ``finished``."""
        if self.final is not None or (self.state is not None and self.state.is_over):
            return FINISHED
        return RUNNING if all(s.taken for s in self.seats.values()) else OPEN

    def summary(self) -> dict[str, Any]:
        """The table summary of docs/protocol.md."""
        state = self.state
        if state is not None:
            rnd, count, result = state.round, len(state.history), state.result.to_dict()
        else:
            assert self.final is not None
            rnd, count, result = self.final["round"], self.final["moves"], self.final["result"]
        status = self.status
        data: dict[str, Any] = {
            "id": self.id,
            "status": status,
            "created": iso(self.created),
            "course": self.course_name,
            "riders": self.riders,
            "wind": self.wind,
            "relay_limit": self.relay_limit,
            "solo": self.solo,
            "round": rnd,
            "moves": count,
            "seats": [s.summary() for s in self.seats.values()],
        }
        if status == FINISHED:
            data["result"] = result
        return data

    def full_summary(self) -> dict[str, Any]:
        """The summary with ``course_data`` (the table of a ``welcome``)."""
        return {**self.summary(), "course_data": self.course.to_dict()}

    def players(self) -> dict[str, dict[str, str]]:
        """The record's players: each team's name and controller."""
        return {s.seat: {"name": s.name or "", "controller": s.kind} for s in self.seats.values()}

    def bot_to_move(self) -> Seat | None:
        """The bot seat to act now, if the game is running and a bot is to act."""
        state = self.state
        if state is None or state.is_over or self.status != RUNNING:
            return None
        seat = self.seats.get(state.current_player or "")
        return seat if seat is not None and seat.bot is not None else None

    def final_summary(self) -> dict[str, Any]:
        """What a finished table keeps in the database."""
        assert self.state is not None
        return {"round": self.state.round, "moves": len(self.state.history), "result": self.state.result.to_dict()}


def _bot(table_id: str, seat: str, kind: str) -> Bot:
    # Seeded from the table and seat: each table's bots make their own choices.
    seed = int.from_bytes(hashlib.sha256(f"{table_id}/{seat}".encode()).digest()[:4], "big")
    return make_bot(kind, seed)


def _seat(table_id: str, row: storage.SeatRow) -> Seat:
    bot = None if row.kind == HUMAN else _bot(table_id, row.seat, row.kind)
    return Seat(row.seat, row.kind, row.name, row.token_hash, bot)


def _replay(table: LiveTable, texts: list[str]) -> mc.State:
    state = _fresh_state(table.course, table.teams, table.wind, table.relay_limit, table.solo)
    for i, text in enumerate(texts):
        try:
            state.play(text)
        except PelotonError as exc:  # a database edited by hand; keep what replays
            log.error("table %s: stored move %d %r rejected (%s); the table stops there", table.id, i, text, exc)
            break
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
                course = mc.Course.from_dict(row.course)
            except PelotonError as exc:
                log.error("table %s: stored course rejected (%s); skipped", row.id, exc)
                continue
            table = LiveTable(
                id=row.id,
                created=row.created,
                course=course,
                course_name=row.course_name,
                teams=row.teams,
                riders=row.riders,
                wind=row.wind,
                relay_limit=row.relay_limit,
                solo=row.solo,
                seats={s.seat: _seat(row.id, s) for s in row.seats},
                state=None,
                final=row.final if row.status == FINISHED else None,
            )
            if table.final is None:
                table.state = _replay(table, row.moves)
            self.tables[table.id] = table

    def start_bots(self) -> None:
        """Let every bot whose turn it is move (after a restart)."""
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
        options = check_create_request(request)
        table_id = self._new_id()
        course: mc.Course = options["course"]
        table = LiveTable(
            id=table_id,
            created=storage.now().replace(microsecond=0),
            course=course,
            course_name=course.name,
            teams=options["teams"],
            riders=options["riders"],
            wind=options["wind"],
            relay_limit=options["relay_limit"],
            solo=options["solo"],
            seats={},
            state=options["state"],
        )
        letters = list(options["teams"])
        table.seats = {
            t: _seat(table_id, storage.SeatRow(t, kind, None if kind == HUMAN else kind, None))
            for t, kind in zip(letters, options["seats"], strict=True)
        }
        row = storage.TableRow(
            id=table.id,
            created=table.created,
            course_name=table.course_name,
            course=course.to_dict(),
            teams=table.teams,
            riders=table.riders,
            wind=table.wind,
            relay_limit=table.relay_limit,
            solo=table.solo,
            status=table.status,
            final=None,
            seats=[storage.SeatRow(s.seat, s.kind, s.name, None) for s in table.seats.values()],
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

    async def ensure_state(self, table: LiveTable) -> mc.State:
        """The table's state, replaying a finished table's moves on first use."""
        if table.state is not None:
            return table.state
        async with table.lock:
            if table.state is None:
                texts = await run_in_threadpool(storage.load_moves, self.engine, table.id)
                table.state = await run_in_threadpool(_replay, table, texts)
            return table.state

    async def record(self, table: LiveTable) -> mc.Record:
        """The table's game record (MC-10.3), with players' names and controllers."""
        state = await self.ensure_state(table)
        return mc.Record.from_state(state, table.players())

    # ------------------------------------------------------------ live play

    def welcome(self, table: LiveTable, seat: str | None, snap: dict[str, Any] | None = None) -> str:
        """A ``welcome`` message: the full state."""
        assert table.state is not None
        return p.dumps(
            {
                "type": "welcome",
                "seat": seat,
                "table": table.full_summary(),
                "snapshot": snap if snap is not None else snapshot(table.state),
            }
        )

    def _send_welcomes(self, table: LiveTable) -> None:
        # A seat was taken: the table's summary (and maybe its status) changed
        # without a move, so every client gets the full state again.
        if not table.connections or table.state is None:
            return
        snap = snapshot(table.state)
        for conn in table.connections:
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
            if state.current_player != conn.seat:
                raise p.ProtocolError(
                    p.NOT_YOUR_TURN, f"it is team {state.current_player}'s turn, not team {conn.seat}'s"
                )
            played = len(state.history)
            if message.index is not None and message.index != played:
                raise p.ProtocolError(p.STALE, f"'index' {message.index} is stale: {played} moves have been played")
            try:
                move = state.check(message.move)
            except NotationError as exc:
                raise p.ProtocolError(p.NOTATION, str(exc)) from None
            except IllegalMoveError as exc:
                raise p.ProtocolError(p.ILLEGAL_MOVE, str(exc)) from None
            try:
                await self._commit(table, move, conn.seat)
            except Exception as exc:
                log.exception("table %s: move %s not stored", table.id, move)
                raise p.ProtocolError(p.INTERNAL, f"the move could not be stored ({type(exc).__name__}); try again") from None

    async def _commit(self, table: LiveTable, move: mc.Move, by: str) -> None:
        """Store a move, apply it, broadcast it (the table's lock is held).

        The move is checked, committed, and only then played on the live state (no
        copy per move). A game's final summary is stored by a second write; if the
        server dies between the two, the restart replays the table and finds it over.
        """
        state = table.state
        assert state is not None
        move = state.check(move)
        index = len(state.history)
        await self.writer.write(storage.add_move(table.id, index, str(move)))
        state.play(move)
        after = state
        if state.is_over:
            try:
                await self.writer.write(storage.finish_table(table.id, table.final_summary()))
            except Exception:
                log.exception("table %s: final summary not stored (the moves are)", table.id)
        text = p.dumps(
            {
                "type": "update",
                "index": index,
                "move": str(move),
                "by": by,
                "snapshot": snapshot(after),
                "table": table.summary(),
            }
        )
        for conn in table.connections:
            conn.send(text)
        self._kick_bots(table)

    def disconnect(self, table: LiveTable, conn: Connection) -> None:
        """Forget a client that went away."""
        table.connections.discard(conn)
        conn.close()

    # ------------------------------------------------------------ bots

    def _kick_bots(self, table: LiveTable) -> None:
        if table.bot_task is None and table.bot_to_move() is not None:
            table.bot_task = asyncio.create_task(self._bots(table), name=f"bots-{table.id}")

    async def _bots(self, table: LiveTable) -> None:
        """Play the bots' moves while a bot is to act, each after ``bot_delay``.

        A bot thinks in a worker thread on a copy of the position, without the table's
        lock (a search bot may think for seconds), then its move is committed like a
        player's."""
        failures = 0
        while True:
            await asyncio.sleep(self.bot_delay + min(failures, 10))
            async with table.lock:
                seat = table.bot_to_move()
                if seat is None or seat.bot is None or table.state is None:
                    table.bot_task = None
                    return
                position = table.state.copy()
            try:
                move = await run_in_threadpool(seat.bot.choose, position)
                async with table.lock:
                    if table.state is not None and table.state.history == position.history:
                        await self._commit(table, move, seat.seat)
                failures = 0
            except Exception:
                failures += 1
                log.exception("table %s: bot %s could not move", table.id, seat.seat)


# ---------------------------------------------------------------- create requests

CREATE_KEYS = ("course", "riders", "wind", "relay_limit", "seats", "solo")


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
    unknown = sorted(set(request) - set(CREATE_KEYS))
    if unknown:
        raise _bad(f"unknown option(s) {', '.join(map(repr, unknown))}; options: {', '.join(CREATE_KEYS)}")
    solo = request.get("solo", False)
    if not isinstance(solo, bool):
        raise _bad(f"'solo' must be true or false, not {solo!r}")
    course = check_course(request.get("course", "solo" if solo else "standard"))
    seats = request.get("seats")
    kinds = [HUMAN, *bot_names()]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise _bad(f"'seats' must be a list of seat kinds ({', '.join(kinds)}), one per team, not {seats!r}")
    for kind in seats:
        if kind not in kinds:
            raise _bad(f"unknown seat kind {kind!r}; a seat is one of {', '.join(kinds)}")
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

