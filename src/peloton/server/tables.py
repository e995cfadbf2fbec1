"""Live tables: the game state in memory, seats, connections, bots, and persistence.

The server is the only authority. A move is handled under its table's
:class:`asyncio.Lock`: checked by the rules, committed to the database, applied to
the in-memory state, then broadcast. Bad input gets an ``error`` to its sender and
leaves the table untouched. At start-up every unfinished table is rebuilt by
replaying its stored moves; finished tables are replayed on demand.

Every game is driven through the contract of docs/games.md (:mod:`.games`). At a
chance step the server draws the move itself from the table's seeded chance stream
(:meth:`LiveTable.chance_rng`) and commits it like any move: a restarted server
rolls exactly the dice it would have rolled. For a game with hidden
information every message is built for its viewer (the connection's seat, ``None``
for a spectator) from ``snapshot(state, viewer)`` and ``public_moves(state, viewer)``,
and bots are given ``state.view(player)``, never the full state.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from starlette.concurrency import run_in_threadpool

from ..core.errors import IllegalMoveError, NotationError, PelotonError
from ..core.protocol import CHANCE
from ..games import mindcycling as mc
from . import games, storage
from . import protocol as p
from .live import (
    FINISHED,
    OPEN,
    RUNNING,
    Connection,
    LiveTable,
    McSetup,
    Seat,
    hash_token,
    make_seat,
    record_of,
    replay_moves,
)
from .requests import HUMAN, ApiError, bad_options, check_create_request, check_game_request

__all__ = ["FINISHED", "OPEN", "RUNNING", "ApiError", "Connection", "LiveTable", "Tables"]

log = logging.getLogger("peloton.server")

MAX_NAME = 40
_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


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
                    table.state = replay_moves(table, row.moves)
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
            seats={s.seat: make_seat(row.id, s, row.seed) for s in row.seats},
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
            raise bad_options(f"'game' must be a game's name, not {game!r}")
        try:
            spec = games.spec(game)
        except PelotonError as exc:
            raise bad_options(str(exc)) from None
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
            letter: make_seat(table_id, storage.SeatRow(letter, kind, None if kind == HUMAN else kind, None), table.seed)
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
            t: make_seat(table_id, storage.SeatRow(t, kind, None if kind == HUMAN else kind, None))
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
                table.state = await run_in_threadpool(replay_moves, table, texts)
            return table.state

    async def record(self, table: LiveTable) -> Any:
        """The table's full game record (every hidden value in it: never send it as is
        for a game with hidden information; see :meth:`record_for`)."""
        state = await self.ensure_state(table)
        if table.mc is not None:
            return mc.Record.from_state(state, table.players())
        return record_of(table, state)

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
