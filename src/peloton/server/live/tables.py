"""The authority over every table: create, join, move, commit (bots and chance play
through :mod:`.bot_turns`).

Each event makes one pass, under its table's :class:`asyncio.Lock`: check it once →
commit it to the database → apply it to the state in memory → build every viewer's
message (:mod:`.views`) → send. Bad input raises :class:`~..errors.ApiError` or
:class:`~..errors.ProtocolError` for its sender alone and leaves the table untouched.
At start-up every unfinished table is rebuilt by replaying its stored moves; finished
tables are replayed on demand.

Every game is driven through its :class:`~..games.GameSpec`.

Only unfinished tables keep their state in memory, and the finished tables someone
watches or asked for a moment ago (:mod:`.finished_tables` decides which); any other
finished table is replayed from the database when someone asks for it.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from starlette.concurrency import run_in_threadpool

from ...core.errors import PelotonError
from .. import errors as e
from ..errors import ApiError, ProtocolError
from ..games import HUMAN, spec
from ..limits import MAX_TABLE_MOVES, QuietLog
from ..storage import store
from ..work.workers import InlineWorkers, Workers
from . import messages as p
from . import views
from .bot_turns import BotTurns
from .finished_tables import FinishedTables
from .presence import Presence, stored
from .requests import Created, check_create, checked_name, creator_of
from .table import ABANDONED, FINISHED, OPEN, RUNNING, Connection, LiveTable, hash_token, make_seat

__all__ = ["FINISHED", "OPEN", "RUNNING", "ApiError", "Connection", "LiveTable", "Tables"]

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def new_id() -> str:
    """A new id of 8 letters and digits (a table's, a competition's)."""
    return "".join(secrets.choice(_ID_ALPHABET) for _ in range(8))


class Tables:
    """Every table of the server, and what can be done to them."""

    def __init__(
        self,
        writer: store.Writer,
        engine: Any,
        workers: Workers | InlineWorkers | None = None,
        bot_delay: float = 0.4,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.writer = writer
        self.engine = engine
        #: Where bots think: the server's worker processes (in this process without them).
        self.workers = workers if workers is not None else InlineWorkers()
        #: The bots' and the dice's turns, committed like a player's move.
        self.bots = BotTurns(self._commit, self.workers, bot_delay)
        self.tables: dict[str, LiveTable] = {}
        #: The finished tables whose state is in memory, and their sweeper.
        self.finished = FinishedTables(self.tables)
        #: The clocks and stand-ins (``now``: the clock they read).
        self.presence = Presence(
            self.tables, writer, now, kick=self.bots.kick, keep=self.finished.keep
        )
        #: Called (under the table's lock) when a table of a competition finishes: the
        #: competition takes the game back and opens its next table (:mod:`.competitions`).
        self.on_finish: Callable[[LiveTable], Awaitable[None]] | None = None
        #: Called (under the table's lock) when any table finishes: its players' ratings.
        self.on_rated: Callable[[LiveTable], Awaitable[None]] | None = None
        #: Whether this process may still commit to a table (cluster mode: it holds
        #: the table's lease, :mod:`..cluster.node`); ``None``: always (one process).
        self.holds: Callable[[str], bool] | None = None
        #: Called with a new table's id before it is stored (cluster mode: its lease
        #: is taken, the creating process holds it); ``None``: nothing to do.
        self.claim: Callable[[str], Awaitable[None]] | None = None

    # ------------------------------------------------------------ start and stop

    def load(self) -> None:
        """Rebuild every stored table (blocking: call before serving)."""
        for row in store.load_tables(self.engine):
            table = self.build(row)
            if table is not None:
                self.tables[table.id] = table

    def load_one(self, table_id: str) -> LiveTable | None:
        """Rebuild one stored table by id (blocking), as :meth:`load` does at start-up;
        ``None`` when there is no such table or it cannot be loaded. Call
        :meth:`start_table` next, in the event loop, to run its clocks and bots."""
        row = store.load_table(self.engine, table_id)
        table = None if row is None else self.build(row)
        if table is not None:
            self.tables[table.id] = table
        return table

    def build(self, row: store.TableRow) -> LiveTable | None:
        """The live table of a stored row, its moves replayed (``None``, logged, when
        it cannot be rebuilt); not yet one of this server's tables."""
        try:
            game = spec(row.game)
            # In the game's order (the database returns them by letter: B before R).
            rank = {letter: i for i, letter in enumerate(game.letters)}
            order = sorted(row.seats, key=lambda s: rank.get(s.seat, len(rank)))
            table = LiveTable(
                id=row.id,
                created=row.created,
                spec=game,
                options=row.options,
                seats={s.seat: make_seat(s) for s in order},
                state=None,
                seed=row.seed,
                secret=row.secret,
                final=row.final if row.status in (FINISHED, ABANDONED) else None,
                rematch=row.rematch,
                rated=row.rated,
            )
            self.presence.restore(table, row.clock, row.status)
            if table.final is None:
                table.state = self._replay(table, row.moves)
        except Exception as exc:  # a game no longer installed, a course now invalid
            log.error("table %s (%s): cannot be loaded (%s); skipped", row.id, row.game, exc)
            return None
        return table

    @staticmethod
    def _replay(table: LiveTable, texts: list[str]) -> Any:
        """The table's state after its stored moves (sets ``table.texts``)."""
        state = table.spec.new_state(table.options, table.seed)
        played: list[str] = []
        if len(texts) > MAX_TABLE_MOVES:
            log.error(
                "table %s: %d stored moves; the server replays %d at most",
                table.id,
                len(texts),
                MAX_TABLE_MOVES,
            )
            texts = texts[:MAX_TABLE_MOVES]
        for i, text in enumerate(texts):
            try:
                state.play(text)
            except PelotonError as exc:  # a database edited by hand; keep what replays
                log.error(
                    "table %s: stored move %d %r rejected (%s); the table stops there",
                    table.id,
                    i,
                    text,
                    exc,
                )
                break
            played.append(text)
        table.texts = played
        return state

    def start_bots(self) -> None:
        """Let every bot (or chance step) whose turn it is move (after a restart)."""
        for table in self.tables.values():
            self.bots.kick(table)
        self.presence.start()
        self.finished.start()

    def start_table(self, table: LiveTable) -> None:
        """Run a table loaded by :meth:`load_one` (in the event loop): its clocks go on
        from their checkpoint and its bots (or dice) move when due, as after a restart."""
        self.presence.start_table(table)
        self.bots.kick(table)

    def release(self, table_id: str) -> LiveTable | None:
        """Let go of a table at once (this process no longer holds it): its bots and
        clock stop and its state leaves memory, without writing anything (another
        process may hold it now). Its connections are left to the caller to close."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return None
        self.finished.forget(table_id)
        self.presence.forget(table)
        if table.bot_task is not None:
            table.bot_task.cancel()
            table.bot_task = None
        return table

    async def stop(self) -> None:
        """Stop the bots and close the connections (the running clocks are saved)."""
        await self.presence.stop()
        self.finished.stop()
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for conn in list(table.connections):
                conn.close()

    # ------------------------------------------------------------ tables and seats

    def get(self, table_id: str) -> LiveTable:
        """The table, or a 404."""
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, e.NOT_FOUND, f"no table {table_id!r}")
        return table

    def find(
        self,
        status: str | None = None,
        *,
        after: tuple[datetime, str] | None = None,
        limit: int | None = None,
    ) -> list[LiveTable]:
        """The tables, newest first (then by id), optionally only those of one status,
        only those after ``after`` (a table's ``(created, id)``) and at most ``limit``."""
        found = sorted(self.tables.values(), key=lambda t: (t.created, t.id), reverse=True)
        if after is not None:
            found = [t for t in found if (t.created, t.id) < after]
        found = [t for t in found if status is None or t.status == status]
        return found if limit is None else found[:limit]

    async def create(self, request: Any) -> LiveTable:
        """A new table from a create request (docs/protocol.md)."""
        table, _ = await self.create_seated(request)
        return table

    async def create_seated(
        self, request: Any, profile: str | None = None
    ) -> tuple[LiveTable, dict[str, str] | None]:
        """A new table from a create request (docs/protocol.md), and the seat and token
        of its creator when the request seats them (``"creator": {"seat", "name"}``),
        signed in with ``profile`` (its name) when given."""
        creator = creator_of(request)
        seed = secrets.randbelow(2**62)
        # A thread, not the event loop: a game checks its options (a course) here.
        created = await run_in_threadpool(check_create, request, seed)
        return await self._open(created, seed, creator, profile=profile)

    async def _open(
        self,
        created: Created,
        seed: int,
        creator: tuple[str, str] | None,
        *,
        table_id: str | None = None,
        players: dict[str, tuple[str | None, str | None]] | None = None,
        competition: str | None = None,
        also: store.Write | None = None,
        profile: str | None = None,
    ) -> tuple[LiveTable, dict[str, str] | None]:
        """Store and start a checked new table, its creator (seat, name) seated. A
        competition's table (``competition``) has its ``players`` seated already (seat
        → name and token hash: the competition's, the same at each of its tables).
        ``also`` is committed in the same transaction (the competition's own row)."""
        seats = [
            store.SeatRow(s, k, None if k == HUMAN else k, None)
            for s, k in zip(created.letters, created.seats, strict=True)
        ]
        for kept in seats:
            if players and kept.kind == HUMAN and kept.seat in players:
                kept.name, kept.token_hash = players[kept.seat]
        token = None
        if creator is not None:
            letter, name = creator
            mine = next((r for r in seats if r.seat == letter), None)
            if mine is None:
                raise ApiError(
                    400,
                    e.BAD_REQUEST,
                    f"'creator' seat {letter!r} is not a seat of this table "
                    f"(seats: {', '.join(created.letters)})",
                )
            if mine.kind != HUMAN:
                raise ApiError(400, e.NOT_HUMAN, f"seat {letter} is played by the {mine.kind} bot")
            token = secrets.token_urlsafe(24)
            mine.name, mine.token_hash, mine.profile = name, hash_token(token), profile
        table = LiveTable(
            id=table_id or self.unused_id(),
            created=store.now().replace(microsecond=0),
            spec=created.spec,
            options=created.options,
            seats={r.seat: make_seat(r) for r in seats},
            state=created.state,
            seed=seed,
            secret=store.new_secret(),
            competition=competition,
            rated=created.rated,
        )
        self.presence.setup(table, created.clock, created.standin)
        row = store.TableRow(
            table.id,
            table.created,
            table.spec.name,
            table.options,
            seed,
            table.status,
            None,
            seats,
            secret=table.secret,
            rated=created.rated,
            clock=stored(table),
        )
        if self.claim is not None:
            await self.claim(table.id)
        await self.writer.write(store.insert_table(row) + (also or []))
        self.tables[table.id] = table
        self.bots.kick(table)
        seated = None if creator is None or token is None else {"seat": creator[0], "token": token}
        return table, seated

    #: Store and start a checked new table (a competition's next game).
    open_checked = _open

    async def rematch(self, table: LiveTable, viewer: str | None) -> dict[str, Any]:
        """Open the rematch of a finished table (the same options and seats: bots stay
        bots, a new seed) and seat ``viewer`` in their seat of it, under their name.
        Idempotent: the first call opens it and invites everyone at the old table
        (a ``rematch`` message); a later one joins the same rematch. The answer is the
        rematch's ``id`` and ``url``, and ``seat`` and ``token`` when ``viewer`` was
        seated by this call (``null`` when their seat there is already taken)."""
        if viewer is None:
            raise ApiError(403, e.BAD_TOKEN, "only a player of this table may ask for its rematch")
        async with table.lock:
            if table.status != FINISHED:
                raise ApiError(
                    409, e.NOT_FINISHED, f"table {table.id} is not finished: no rematch yet"
                )
            rematch = self.tables.get(table.rematch) if table.rematch else None
            if rematch is None:
                request = {
                    "game": table.spec.name,
                    "options": table.options,
                    "seats": [s.kind for s in table.seats.values()],
                    "solo": len(table.seats) == 1 and table.spec.min_seats == 1,
                    "rated": table.rated,
                    "clock": table.clock.control.to_json() if table.clock else None,
                    "standin": table.standin,
                }
                seed = secrets.randbelow(2**62)
                created = await run_in_threadpool(check_create, request, seed)
                rematch, _ = await self._open(created, seed, None)
                await self.writer.write(store.set_rematch(table.id, rematch.id))
                table.rematch = rematch.id
                self._send(views.invitations(table, viewer))
        answer: dict[str, Any] = {"id": rematch.id, "url": f"/table/{rematch.id}"}
        mine = rematch.seats.get(viewer)
        name = table.seats[viewer].name or viewer
        if mine is not None and mine.kind == HUMAN and not mine.taken:
            profile = table.seats[viewer].profile  # signed in there, signed in here
            answer |= await self.join(rematch, {"seat": viewer, "name": name}, profile)
        else:
            answer |= {"seat": None, "token": None}
        return answer

    def unused_id(self) -> str:
        """A new table id, not yet used."""
        while True:
            table_id = new_id()
            if table_id not in self.tables:
                return table_id

    async def join(
        self, table: LiveTable, request: Any, profile: str | None = None
    ) -> dict[str, str]:
        """Give a free human seat to a player (signed in with ``profile``, its name,
        or anonymous); their secret seat token."""
        if not isinstance(request, dict):
            raise ApiError(
                400, e.BAD_REQUEST, 'a join request is an object {"seat": "A", "name": "Ada"}'
            )
        letter, name = request.get("seat"), checked_name(request.get("name"))
        async with table.lock:
            seat = table.seats.get(letter) if isinstance(letter, str) else None
            if seat is None:
                seats = ", ".join(table.seats)
                raise ApiError(
                    400, e.BAD_REQUEST, f"table {table.id} has no seat {letter!r} (seats: {seats})"
                )
            if seat.kind != HUMAN:
                raise ApiError(
                    400, e.NOT_HUMAN, f"seat {seat.seat} is played by the {seat.kind} bot"
                )
            if seat.taken:
                raise ApiError(409, e.SEAT_TAKEN, f"seat {seat.seat} is taken by {seat.name}")
            mine = next(
                (s.seat for s in table.seats.values() if profile and s.profile == profile), ""
            )
            if mine:  # one profile, one seat: a result rates each player once
                raise ApiError(409, e.SEAT_TAKEN, f"{profile} already sits at seat {mine}")
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            others_free = sum(1 for s in table.seats.values() if not s.taken) - 1
            status = RUNNING if others_free == 0 else OPEN
            await self.writer.write(
                store.take_seat(table.id, seat.seat, name, digest, status, profile)
            )
            seat.name, seat.token_hash, seat.profile = name, digest, profile
            self.presence.sync(table)  # the last seat taken: the first clock runs
            if table.state is not None:
                self._send(views.welcomes(table))
            self.bots.kick(table)
        return {"seat": seat.seat, "token": token}

    @staticmethod
    def seat_of_token(table: LiveTable, token: str | None) -> str | None:
        """The seat whose token this is (``None`` for no token); :class:`ApiError`
        ``bad_token`` for a token that is not one of this table's."""
        if token is None:
            return None
        digest = hash_token(token)
        seat = next((s.seat for s in table.seats.values() if s.token_hash == digest), None)
        if seat is None:
            raise ApiError(403, e.BAD_TOKEN, f"this token is not a seat token of table {table.id}")
        return seat

    async def ensure_state(self, table: LiveTable) -> Any:
        """The table's state, replaying a finished table's moves on first use."""
        table.used = time.monotonic()
        if table.final is not None:
            self.finished.keep(table)
        if table.state is not None:
            return table.state
        async with table.lock:
            if table.state is None:
                texts = await run_in_threadpool(store.load_moves, self.engine, table.id)
                table.state = await run_in_threadpool(self._replay, table, texts)
            return table.state

    async def record_for(self, table: LiveTable, viewer: str | None) -> dict[str, Any]:
        """The record ``viewer`` may download: the whole record for a game without
        hidden information; otherwise the public record of that viewer (MT-4.1: a dial
        guessed right is never shown to the opponent, not even after the game)."""
        state = await self.ensure_state(table)
        record = table.spec.record(state, table.players(), table.seed)
        data: dict[str, Any] = record.to_dict(viewer) if table.spec.hidden else record.to_dict()
        if data.get("seed") is not None and not state.is_over:
            # The seed foretells every future roll: it is given once the game is over.
            data["seed"] = None
        return data

    # ------------------------------------------------------------ live play

    async def hello(self, table: LiveTable, conn: Connection, message: p.Hello) -> None:
        """Greet a client as a seat's player (valid token) or a spectator (none)."""
        await self.ensure_state(table)
        async with table.lock:
            try:
                seat = self.seat_of_token(table, message.token)
            except ApiError as exc:
                raise ProtocolError(exc.code, exc.message) from None
            conn.seat, conn.greeted = seat, True
            table.connections.add(conn)
            conn.send(views.welcome(table, seat))

    async def move(self, table: LiveTable, conn: Connection, message: p.MoveMessage) -> None:
        """Play a client's move, or raise the :class:`ProtocolError` saying why not."""
        if not conn.greeted:
            raise ProtocolError(e.HELLO_FIRST, "send 'hello' before anything else")
        if conn.seat is None:
            raise ProtocolError(e.SPECTATOR, "spectators cannot move; join a seat to play")
        async with table.lock:
            state = table.state
            if table.abandoned:  # over, unfinished: no seat will ever be free to fill
                raise ProtocolError(
                    e.GAME_OVER, f"table {table.id} is abandoned: every player left it"
                )
            if state.is_over:
                raise ProtocolError(e.GAME_OVER, "the game is over")
            if len(table.texts) >= MAX_TABLE_MOVES:
                raise ProtocolError(
                    e.GAME_OVER,
                    f"the table has reached this server's limit of {MAX_TABLE_MOVES} moves",
                )
            if table.status != RUNNING:
                free = ", ".join(s.seat for s in table.seats.values() if not s.taken)
                raise ProtocolError(
                    e.NOT_STARTED, f"the game starts when every human seat is taken (free: {free})"
                )
            if state.is_chance:
                raise ProtocolError(
                    e.CHANCE_STEP, "the server is rolling the dice: wait for the roll"
                )
            if state.current_player != conn.seat:
                raise ProtocolError(
                    e.NOT_YOUR_TURN,
                    f"it is seat {state.current_player}'s turn, not seat {conn.seat}'s",
                )
            await self.presence.check_mover(table, conn.seat)
            played = len(table.texts)
            if message.index is not None and message.index != played:
                raise ProtocolError(
                    e.STALE, f"'index' {message.index} is stale: {played} moves have been played"
                )
            try:
                move = table.spec.check_move(state, message.move)
            except PelotonError as exc:
                raise e.move_error(exc) from None
            try:
                await self._commit(table, move, conn.seat)
            except ProtocolError:
                raise
            except Exception as exc:
                log.exception("table %s: move %s not stored", table.id, move)
                raise ProtocolError(
                    e.INTERNAL, f"the move could not be stored ({type(exc).__name__}); try again"
                ) from None

    async def _commit(self, table: LiveTable, move: Any, by: str) -> None:
        """Store a checked move, apply it, send every viewer its update, and let the
        bots or the dice go on (the table's lock is held).

        The move is committed before it is played on the live state (no copy per
        move). A game's final summary is stored by a second write; if the server dies
        between the two, the restart replays the table and finds it over.
        """
        if self.holds is not None and not self.holds(table.id):
            # A second owner must never commit: this process lost the table's lease.
            raise ProtocolError(
                e.INTERNAL, f"this server no longer holds table {table.id}: reconnect"
            )
        state = table.state
        index = len(table.texts)
        text = str(move)
        await self.writer.write(store.add_move(table.id, index, text))
        said = views.sentences_before(table, move)
        state.play(move)
        table.texts.append(text)
        self.presence.after_move(table, by)
        if state.is_over:
            final = views.final(table)
            try:
                await self.writer.write(store.finish_table(table.id, final))
            except Exception:
                log.exception("table %s: final summary not stored (the moves are)", table.id)
            table.final = final  # summaries read the result from here from now on
            if self.on_rated is not None:  # rated before anyone hears the game ended
                await self.on_rated(table)
        self._send(views.updates(table, index, text, by, said))
        if table.final is not None:
            table.used = time.monotonic()
            self.finished.keep(table)
            if table.competition is not None and self.on_finish is not None:
                try:
                    await self.on_finish(table)
                except Exception:  # the game is stored; a restart takes it back again
                    log.exception("table %s: not handed back to its competition", table.id)
        self.bots.kick(table)

    @staticmethod
    def _send(messages: list[tuple[Connection, str]]) -> None:
        for conn, text in messages:
            conn.send(text)

    def disconnect(self, table: LiveTable, conn: Connection) -> None:
        """Forget a client that went away."""
        table.connections.discard(conn)
        conn.close()
