"""Competitions at the table server: series of a game's games (a stage race, an
omnium...) played at tables that follow one another with the same seats.

A game offers competitions by declaring them (``GameInfo.competitions``, a
:class:`~peloton.core.offers.Competitions`: its kinds and how to show them); a
competition's kind names its game (kinds are told apart across games: the first game
declaring a kind has it), and a request may name the game too.

A competition is created with its first table. When one of its tables finishes, the
server hands the game back to the competition (``competition.add``), opens the next
table (``next_options``) with the same seats — bots carry over, each human seat keeps
its player's name and seat token — and tells everyone at the finished table where the
game goes on (a ``next`` message, docs/protocol.md).

The database keeps a competition's kind, settings, seats and the ids of its tables,
in order. At start-up each unfinished competition is rebuilt by handing it back its
finished tables' games, replayed through the rules, so that the standings are always
the games' own; a finished one keeps its final standings, and is rebuilt only when
its file is asked for. The next table is stored in the same
transaction as the competition's new list of tables; a server stopped between a
table's end and its successor opens the successor when it starts again.

Anything wrong with a stored competition (a table missing, a game that is not the
one it asked for) stops it with a ``problem`` that its page shows: nothing is deleted.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import secrets
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import bindparam, insert, select, update
from starlette.concurrency import run_in_threadpool

from ...core.errors import PelotonError
from ...core.offers import Competitions as Offer
from .. import games
from ..errors import BAD_OPTIONS, BAD_REQUEST, NOT_FOUND, NOT_HUMAN, ApiError, shown
from ..games import HUMAN, bots_for
from ..limits import MAX_LEGS
from ..storage import store
from . import messages as p
from .competition_kinds import Competition, game_of, game_word, kind_class, offer_of
from .requests import check_create, creator_of
from .table import FINISHED, LiveTable, hash_token
from .tables import Tables, new_id

log = logging.getLogger("peloton.server")


class CompetitionRequest(BaseModel):
    """A competition's create request (docs/protocol.md, "Competitions"): no other
    key; the kind's ``settings`` are checked by the kind, ``game`` by
    :func:`request_game`, ``creator`` by :func:`.requests.creator_of`."""

    model_config = ConfigDict(strict=True, extra="forbid")

    kind: str
    settings: dict[str, Any] = Field(default_factory=dict)
    seats: list[Any] = Field(min_length=1)
    creator: Any = None
    game: Any = None


#: The keys of a create request.
REQUEST_KEYS = tuple(CompetitionRequest.model_fields)
RUNNING, STOPPED = "running", "stopped"


@dataclass
class CompetitionSeat:
    """A seat of a competition: a bot, or a human with (once taken) its player's name
    and the hash of its seat token, the same at every table of the competition."""

    seat: str
    kind: str
    name: str | None = None
    token_hash: str | None = None


@dataclass
class LiveCompetition:
    """A competition in memory: its engine object, seats and tables."""

    id: str
    created: datetime
    kind: str
    settings: dict[str, Any]
    #: Its seats, in order (``A``, ``B``...), the same at every table (a game of two
    #: teams, such as a sprint heat, seats its two).
    seats: list[CompetitionSeat]
    #: Its tables' ids, game by game (the last one may be under way).
    tables: list[str]
    #: The engine's competition (``None`` when its settings no longer load).
    competition: Competition | None
    #: The game it plays (``""``: the game whose competitions have its kind).
    game: str = ""
    #: The standings after each game taken back (for the plot of the standings page).
    history: list[dict[str, Any]] = field(default_factory=list)
    #: Why the competition stopped, if something stored is wrong.
    problem: str | None = None
    #: Once over: ``{"standings", "history", "winner"}``, stored, so that a restarted
    #: server lists it without replaying its games (:meth:`Competitions.ensure`).
    final: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        if not self.game:
            self.game = game_of(self.kind)

    @property
    def offer(self) -> Offer | None:
        """What its game says of its competitions (``None``: the game is gone)."""
        return offer_of(self.game)

    @property
    def status(self) -> str:
        """``running``, ``finished`` or ``stopped`` (a ``problem``)."""
        if self.problem is not None:
            return STOPPED
        if self.final is not None:
            return FINISHED
        return STOPPED if self.competition is None else RUNNING

    @property
    def standings(self) -> dict[str, Any]:
        """The standings after the games shown so far (``history``: a game handed back
        shows with the table after it, in one step), the final ones once over."""
        if self.final is not None:
            return dict(self.final["standings"])
        if self.history:
            return self.history[-1]
        return self.competition.standings if self.competition is not None else {}

    @property
    def winner(self) -> str | None:
        """Who won, once over."""
        return self.final.get("winner") if self.final is not None else None

    def finish(self) -> None:
        """Keep the final standings of a competition that is over (``final``)."""
        assert self.competition is not None and self.competition.is_over
        standings = self.history[-1] if self.history else self.competition.standings
        self.final = {"standings": standings, "history": list(self.history),
                      "winner": self.competition.winner}  # fmt: skip

    def players(self) -> dict[str, tuple[str | None, str | None]]:
        """Each taken human seat's name and token hash, for its tables."""
        return {s.seat: (s.name, s.token_hash) for s in self.seats if s.token_hash is not None}

    @property
    def title(self) -> str:
        cls = kind_class(self.game, self.kind)
        return str(cls.title) if cls is not None else self.kind


# ---------------------------------------------------------------- storage


def insert_competition(comp: LiveCompetition) -> store.Write:
    """A write storing a new competition."""
    row = {
        "id": comp.id,
        "created": comp.created,
        "kind": comp.kind,
        "settings": json.dumps(comp.settings),
        "seats": json.dumps([asdict(s) for s in comp.seats]),
        "tables": json.dumps(comp.tables),
        "final": None,
    }
    return [(insert(store.competitions), row)]


_SET_TABLES = (
    update(store.competitions)
    .where(store.competitions.c.id == bindparam("c_id"))
    .values(tables=bindparam("tables"), seats=bindparam("seats"))
)


def set_tables(comp: LiveCompetition, tables: list[str]) -> store.Write:
    """A write giving a competition its list of tables (one more) and its seats."""
    seats = json.dumps([asdict(s) for s in comp.seats])
    return [(_SET_TABLES, {"c_id": comp.id, "tables": json.dumps(tables), "seats": seats})]


_SET_FINAL = (
    update(store.competitions)
    .where(store.competitions.c.id == bindparam("c_id"))
    .values(final=bindparam("final"))
)


def set_final(comp: LiveCompetition) -> store.Write:
    """A write keeping a finished competition's final standings."""
    return [(_SET_FINAL, {"c_id": comp.id, "final": json.dumps(comp.final)})]


def load_rows(engine: Any) -> list[LiveCompetition]:
    """Every stored competition, its engine object not yet built."""
    with engine.connect() as conn:
        rows = list(conn.execute(select(store.competitions)))
    found = []
    for r in rows:
        created = r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC)
        try:
            settings, seats, tables = (json.loads(x) for x in (r.settings, r.seats, r.tables))
            kept = [CompetitionSeat(**seat) for seat in seats]
            if not isinstance(settings, dict) or not all(isinstance(t, str) for t in tables):
                raise ValueError("settings must be an object, tables a list of ids")
        except (ValueError, TypeError) as exc:  # a row edited by hand
            log.error("competition %s cannot be read (%s); skipped", r.id, exc)
            continue
        comp = LiveCompetition(r.id, created, r.kind, settings, kept, tables, None)
        if r.final:
            comp.final = json.loads(r.final)
            comp.history = list(comp.final.get("history", []))
        found.append(comp)
    return found


# ---------------------------------------------------------------- requests


def check_request(
    request: Any,
) -> tuple[str, dict[str, Any], list[CompetitionSeat], Competition]:
    """A create request, checked: its kind, settings (``players`` from the seats),
    seats and the new competition (its game: :func:`request_game`). ``400
    bad_request`` for a malformed request, ``400 bad_options`` for settings the kind
    refuses (its own message)."""
    if not isinstance(request, dict):
        raise ApiError(
            400, BAD_REQUEST, 'a competition request is an object {"kind", "settings", "seats"}'
        )
    envelope = _read_request(request)
    game = request_game(request)
    offer = offer_of(game)
    known = {} if offer is None else offer.kinds
    # A kind that is no string (an object is no dict key) is answered as an unknown one.
    if envelope == "kind" or request["kind"] not in known:
        what = shown(request.get("kind"))
        raise ApiError(
            400, BAD_OPTIONS, f"unknown competition kind {what} (kinds: {', '.join(known)})"
        )
    kind: str = request["kind"]
    if envelope == "settings":
        what = shown(request["settings"])
        raise ApiError(400, BAD_OPTIONS, f"'settings' must be an object, not {what}")
    if isinstance(envelope, str):  # the seats
        what = shown(request.get("seats"))
        raise ApiError(400, BAD_OPTIONS, f"'seats' must list one seat kind per team, not {what}")
    settings, seats = envelope.settings, envelope.seats
    if "players" in settings and settings["players"] != len(seats):
        raise ApiError(
            400,
            BAD_OPTIONS,
            f"setting 'players' is {settings['players']!r} but 'seats' lists {len(seats)} seats",
        )
    bots = [HUMAN, *bots_for(game)]
    for seat in seats:
        if seat not in bots:
            raise ApiError(
                400,
                BAD_OPTIONS,
                f"no seat kind {repr(seat)[:60]} in a competition; a seat is one of "
                f"{', '.join(bots)}",
            )
    legs = settings.get("legs")
    if isinstance(legs, list) and len(legs) > MAX_LEGS:
        raise ApiError(
            400, BAD_OPTIONS, f"a stage race has at most {MAX_LEGS} legs here, not {len(legs)}"
        )
    settings = {**settings, "players": len(seats)}
    try:
        competition = known[kind].from_settings(settings)
    except PelotonError as exc:
        raise ApiError(400, BAD_OPTIONS, f"a {known[kind].title}: {exc}") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:  # defensive: a kind
        # raises ConfigError for what it refuses; any other error is still the request's
        raise ApiError(400, BAD_OPTIONS, f"bad settings: {exc}") from None
    letters = [chr(ord("A") + i) for i in range(len(seats))]
    kept = [CompetitionSeat(letter, seat) for letter, seat in zip(letters, seats, strict=True)]
    return kind, competition.settings, kept, competition


def _read_request(request: dict[str, Any]) -> CompetitionRequest | str:
    """The request's envelope, or the name of its first field that is wrong (the
    answer needs the game's kinds); ``400 bad_request`` for a key it has no use for."""
    try:
        return CompetitionRequest.model_validate(request)
    except ValidationError as exc:
        problems = exc.errors(include_url=False)
    if any(problem["type"] == "extra_forbidden" for problem in problems):
        unknown = sorted(set(request) - set(REQUEST_KEYS))
        raise ApiError(
            400,
            BAD_REQUEST,
            f"unknown key(s) {', '.join(map(repr, unknown))} of a competition request "
            f"(keys: {', '.join(REQUEST_KEYS)})",
        )
    return str(problems[0]["loc"][0])


def request_game(request: dict[str, Any]) -> str:
    """The game a create request is for: its ``game``, else the game whose
    competitions have its ``kind`` (the first game offering competitions when no game
    has it, for the kinds it names); ``400 bad_options`` for a game without any."""
    offering = [spec.name for spec in games.offering("competitions")]
    game = request.get("game")
    if game is None:
        kind = request.get("kind")
        game = (game_of(kind) if isinstance(kind, str) else "") or next(iter(offering), "")
    if game not in offering:
        raise ApiError(
            400,
            BAD_OPTIONS,
            f"{repr(game)[:40]} is not a game with competitions "
            f"(games: {', '.join(offering) or 'none'})",
        )
    return str(game)


def table_request(comp: LiveCompetition) -> dict[str, Any]:
    """The create request of the competition's next table: every seat, or the two
    ``teams`` of a heat. An option the competition leaves ``None`` is the game's
    default (a leg's course: its mode's own), which a create request says by leaving
    it out."""
    assert comp.competition is not None
    options = comp.competition.next_options() or {}
    given = {k: v for k, v in options.items() if v is not None}
    teams = given.get("teams")
    by_letter = {s.seat: s.kind for s in comp.seats}
    seats = [by_letter[t] for t in teams] if isinstance(teams, list) else list(by_letter.values())
    # A heat one team rides alone (an odd team's pursuit, CY-12.5) is a one-seat game.
    return {"game": comp.game, "options": given, "seats": seats, "solo": len(seats) == 1}


# ---------------------------------------------------------------- the authority


class Competitions:
    """Every competition of the server; called by :class:`~.tables.Tables` when one of
    its tables finishes."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.competitions: dict[str, LiveCompetition] = {}
        #: Competitions whose last table finished without a successor (a restart).
        self._pending: list[LiveCompetition] = []
        tables.on_finish = self.taken_back

    def get(self, comp_id: str) -> LiveCompetition:
        """The competition, or a 404."""
        comp = self.competitions.get(comp_id)
        if comp is None:
            raise ApiError(404, NOT_FOUND, f"no competition {comp_id!r}")
        return comp

    def find(self) -> list[LiveCompetition]:
        """Every competition, newest first."""
        return sorted(self.competitions.values(), key=lambda c: (c.created, c.id), reverse=True)

    # ------------------------------------------------------------ start-up

    def load(self) -> None:
        """Rebuild every stored unfinished competition from its tables (blocking: after
        :meth:`Tables.load`, before serving). A finished one keeps its stored ``final``
        standings and is rebuilt only when its file is asked for (:meth:`ensure`): a
        competition's games replay in about a second, too long to repeat for every
        finished one at every start."""
        for comp in load_rows(self.tables.engine):
            self.competitions[comp.id] = comp
            first = self.tables.tables.get(comp.tables[0]) if comp.tables else None
            if first is not None:  # the game of its tables, which the row does not keep
                comp.game = first.spec.name
            for table_id in comp.tables:
                table = self.tables.tables.get(table_id)
                if table is not None:
                    table.competition = comp.id
            if comp.final is not None:
                continue
            comp.competition, comp.history, comp.problem = self._rebuilt(comp)
            if comp.problem is not None:
                log.error("competition %s stopped: %s", comp.id, comp.problem)
            elif comp.competition is not None and comp.competition.is_over:
                comp.finish()  # its end was not stored: the server stopped at that moment
            elif comp.competition is not None and comp.competition.next_options() is not None:
                last = self.tables.tables[comp.tables[-1]]
                if last.status == FINISHED:
                    self._pending.append(comp)

    def _rebuilt(
        self, comp: LiveCompetition
    ) -> tuple[Competition | None, list[dict[str, Any]], str | None]:
        """The competition rebuilt from its settings and its finished tables' games,
        replayed from the database; the standings after each; what is wrong, if
        anything. Blocking; touches no live table's state."""
        try:
            cls = kind_class(comp.game, comp.kind)
            if cls is None:
                raise KeyError(f"{comp.game or 'no game'} has no competition {comp.kind!r}")
            competition = cls.from_settings(comp.settings)
        except (KeyError, PelotonError) as exc:
            return None, [], f"its settings no longer load ({exc})"
        history: list[dict[str, Any]] = []
        for index, table_id in enumerate(comp.tables, start=1):
            table = self.tables.tables.get(table_id)
            if table is None:
                return competition, history, f"its game {index}, table {table_id}, is missing"
            if table.status != FINISHED:
                break
            state = table.spec.new_state(table.options, table.seed)
            try:
                for text in store.load_moves(self.tables.engine, table.id):
                    state.play(text)
                competition.add(state, table.players())
            except PelotonError as exc:
                return competition, history, f"its game {index}, table {table.id}: {exc}"
            history.append(copy.deepcopy(competition.standings))
        return competition, history, None

    async def ensure(self, comp: LiveCompetition) -> Competition | None:
        """The engine's competition, rebuilt from its tables on first use after a
        restart (a finished one); ``None`` when it stopped."""
        if comp.competition is None and comp.problem is None:
            async with comp.lock:
                if comp.competition is None and comp.problem is None:
                    competition, _, problem = await run_in_threadpool(self._rebuilt, comp)
                    comp.problem = problem
                    comp.competition = competition
        return comp.competition if comp.problem is None else None

    async def resume(self) -> None:
        """Open the next table of every competition whose last table finished while the
        server was down."""
        pending, self._pending = self._pending, []
        for comp in pending:
            async with comp.lock:
                try:
                    await self._open_next(comp)
                except Exception:
                    log.exception("competition %s: its next table could not be opened", comp.id)

    # ------------------------------------------------------------ create and go on

    async def create(
        self, request: Any
    ) -> tuple[LiveCompetition, LiveTable, dict[str, str] | None]:
        """A new competition and its first table (docs/protocol.md); the creator's seat
        and token, the same at each of its tables, when the request seats them."""
        creator = creator_of(request)
        kind, settings, seats, competition = await run_in_threadpool(check_request, request)
        game = request_game(request)
        seated = None
        if creator is not None:
            letter, name = creator
            mine = next((s for s in seats if s.seat == letter), None)
            if mine is None:
                raise ApiError(
                    400,
                    BAD_REQUEST,
                    f"'creator' seat {letter!r} is not a seat of this competition "
                    f"(seats: {', '.join(s.seat for s in seats)})",
                )
            if mine.kind != HUMAN:
                raise ApiError(400, NOT_HUMAN, f"seat {letter} is played by the {mine.kind} bot")
            token = secrets.token_urlsafe(24)
            mine.name, mine.token_hash = name, hash_token(token)
            seated = {"seat": letter, "token": token}
        comp = LiveCompetition(
            self._new_id(),
            store.now().replace(microsecond=0),
            kind,
            settings,
            seats,
            [],
            competition,
            game,
        )
        seed = secrets.randbelow(2**62)
        created = await run_in_threadpool(check_create, table_request(comp), seed)
        comp.tables.append(self.tables.unused_id())
        table, _ = await self.tables.open_checked(
            created, seed, None, table_id=comp.tables[0], players=comp.players(),
            competition=comp.id, also=insert_competition(comp),
        )  # fmt: skip
        self.competitions[comp.id] = comp
        return comp, table, seated

    def _new_id(self) -> str:
        while True:
            comp_id = new_id()
            if comp_id not in self.competitions:
                return comp_id

    async def taken_back(self, table: LiveTable) -> None:
        """A table of a competition has finished: hand its game back, open the next
        table and tell everyone at this one (``next``)."""
        comp = self.competitions.get(table.competition or "")
        if comp is None or comp.competition is None or comp.problem is not None:
            return
        async with comp.lock:
            if not comp.tables or comp.tables[-1] != table.id:
                return  # not its current game (taken back already)
            try:
                comp.competition.add(table.state, table.players())
            except PelotonError as exc:
                comp.problem = f"its game {len(comp.tables)}, table {table.id}: {exc}"
                log.error("competition %s stopped: %s", comp.id, comp.problem)
                return
            standings = copy.deepcopy(comp.competition.standings)
            _take_joined(comp, table)
            shown = False
            try:
                if not comp.competition.is_over:
                    await self._open_next(comp)
                else:  # shown over at once (no wait between the last game and its end)
                    comp.history.append(standings)
                    shown = True
                    comp.finish()
                    await self.tables.writer.write(set_tables(comp, comp.tables) + set_final(comp))
            except Exception as exc:  # the game is stored: a restart opens the next table
                log.exception("competition %s: its next table could not be opened", comp.id)
                comp.problem = (
                    f"its next table could not be opened ({type(exc).__name__}); "
                    "the server opens it when it starts again"
                )
                return
            finally:  # shown with the next table, never before it (one consistent page)
                if not shown:
                    comp.history.append(standings)
        message = next_message(comp, self.tables)
        for conn in table.connections:
            conn.send(message)

    async def _open_next(self, comp: LiveCompetition) -> LiveTable:
        """Open the competition's next table, its players seated (its lock held)."""
        seed = secrets.randbelow(2**62)
        created = await run_in_threadpool(check_create, table_request(comp), seed)
        table_id = self.tables.unused_id()
        following = [*comp.tables, table_id]
        table, _ = await self.tables.open_checked(
            created, seed, None, table_id=table_id, players=comp.players(),
            competition=comp.id, also=set_tables(comp, following),
        )  # fmt: skip
        comp.tables = following
        return table


def _take_joined(comp: LiveCompetition, table: LiveTable) -> None:
    """Take the players who joined one of the competition's human seats at ``table``
    (a seat nobody took at its creation): their seat stays theirs at the next tables
    (stored with the competition's next write)."""
    for seat in comp.seats:
        at = table.seats.get(seat.seat)
        if at is not None and at.kind == HUMAN and at.token_hash != seat.token_hash:
            seat.name, seat.token_hash = at.name, at.token_hash


def next_message(comp: LiveCompetition, tables: Tables) -> str:
    """The ``next`` message: where the competition goes on (its next table and the
    seats it has), or that it is over (``id`` null); its standings page either way."""
    over = comp.competition is not None and comp.competition.is_over
    following = None if over else comp.tables[-1]
    table = None if following is None else tables.tables.get(following)
    return p.dumps(
        {
            "type": "next",
            "competition": comp.id,
            "id": following,
            "url": f"/table/{following}" if following else f"/competitions/{comp.id}",
            "standings": f"/competitions/{comp.id}",
            "game": game_word(comp.game, comp.kind),
            "number": len(comp.tables),
            "over": over,
            "seats": list(table.seats) if table is not None else [],
        }
    )
