"""Ratings of profiles, per game: openskill's Bradley–Terry model (full pairing: every
seat against every other), updated once per finished rated table.

Each seat of a finished table is a team of one, ranked by the game's own result
(the places :mod:`peloton.analysis.metrics` measures for ``peloton simulate``: 1 for
the best, equal places for a tie). The update takes every seat's rating: a signed-in
player's own (a new profile starts at openskill's 25 ± 8.33), a bot's fixed rating
(:data:`BOT_RATINGS`, measured by ``benchmarks/bot_ratings.py``), and a fresh 25 ±
8.33 for an anonymous player. Only the signed-in players' new ratings are kept: a
bot's rating never moves at a table, nor does anyone's at an unrated table.
The rating shown is the conservative :func:`ordinal`, mu − 3σ.

Every update is one row per rated player in ``rated_games`` (before and after, with
the place), written in one transaction, at most once per table and player (a unique
key). A profile's rating is its last row. At start-up, every finished rated table
with no rows yet (the server died between the game's end and its ratings) is
replayed and rated, in the order the tables finished: a crash loses no rating.
:meth:`Ratings.rebuild` computes them all again from the finished tables.

In cluster mode (:attr:`Ratings.shared`) several nodes rate tables into one database:
each rating reads the updates the other nodes stored since (so it starts from every
player's current rating) and stores its own in the same transaction, under a
PostgreSQL advisory lock, so two nodes never number two updates alike nor rate from
the same stale rating; a player's page and the leaderboards read the new updates first.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from openskill.models import BradleyTerryFull
from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    delete,
    func,
    insert,
    select,
    text,
)
from starlette.concurrency import run_in_threadpool

from ...analysis.metrics import metrics_for
from ..storage import store
from .table import LiveTable

log = logging.getLogger("peloton.server")

#: The bots' fixed ratings: ``{game: {bot: [mu, sigma]}}``.
BOT_RATINGS = Path(__file__).resolve().parent / "bot_ratings.json"

#: Not Plackett–Luce: with ties among three seats or more, openskill's Plackett–Luce
#: gives a seat placed after a tie more than the tied winners (tests/server/
#: test_ratings.py found it); full-pairing Bradley–Terry never ranks a worse place
#: above a better one. With two seats the two give the same ratings.
MODEL = BradleyTerryFull()
#: A new profile's (and an anonymous player's) rating.
START = (MODEL.mu, MODEL.sigma)

SCHEMA = MetaData()

rated_games = Table(
    "rated_games",
    SCHEMA,
    Column("seq", Integer, primary_key=True, autoincrement=False),  # the order of updates
    Column("table_id", String(32), nullable=False),
    Column("player", String(40), nullable=False),  # a profile's name
    Column("game", String(32), nullable=False),
    Column("place", Integer, nullable=False),  # 1 for the best; equal for a tie
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "player", name="rated_once"),
)


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu − 3σ, which the player's true skill exceeds with about
    99.7% confidence (a new profile shows 0)."""
    return mu - 3 * sigma


@cache
def bot_ratings() -> dict[str, dict[str, tuple[float, float]]]:
    """The bots' fixed ratings, by game and bot (empty without the file)."""
    if not BOT_RATINGS.is_file():
        return {}
    data = json.loads(BOT_RATINGS.read_text(encoding="utf-8"))
    return {
        game: {bot: (float(r[0]), float(r[1])) for bot, r in bots.items()}
        for game, bots in data["ratings"].items()
    }


def bot_rating(game: str, bot: str) -> tuple[float, float]:
    """A bot's fixed rating in ``game`` (a bot not measured yet: a new player's)."""
    return bot_ratings().get(game, {}).get(bot, START)


@dataclass(frozen=True)
class Change:
    """One player's rating update at one table."""

    seq: int
    table_id: str
    player: str
    game: str
    place: int
    before: tuple[float, float]
    after: tuple[float, float]
    created: datetime

    def row(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "table_id": self.table_id, "player": self.player,
            "game": self.game, "place": self.place,
            "mu_before": self.before[0], "sigma_before": self.before[1],
            "mu": self.after[0], "sigma": self.after[1], "created": self.created,
        }  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """As the API gives it (docs/protocol.md)."""
        return {
            "table": self.table_id,
            "game": self.game,
            "place": self.place,
            "before": round(ordinal(*self.before), 2),
            "after": round(ordinal(*self.after), 2),
        }


@dataclass
class Rating:
    """A profile's current rating in one game."""

    mu: float
    sigma: float
    games: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rating": round(ordinal(self.mu, self.sigma), 2),
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "games": self.games,
        }


def rateable(table: LiveTable) -> bool:
    """Whether a table's result rates anyone: rated, played to its end (not
    abandoned), two seats or more, one taken by a signed-in player."""
    return (
        table.rated
        and not table.abandoned
        and len(table.seats) >= 2
        and any(s.profile for s in table.seats.values())
        and table.competition is None
    )


def places(table: LiveTable, state: Any) -> dict[str, int]:
    """Each seat's place in a finished game (1 for the best, equal for a tie), as
    ``peloton simulate`` measures it."""
    start = table.spec.new_state(table.options, table.seed)
    measured = metrics_for(table.spec.name, start).measure(state)
    return dict(zip(state.players, measured.ranks, strict=True))


#: The PostgreSQL advisory lock the nodes of a cluster take to rate a table in turn.
RATINGS_LOCK = 0x70656C72  # "pelr"


class Ratings:
    """Every profile's ratings, and their updates as tables finish."""

    def __init__(self, writer: store.Writer, engine: Engine) -> None:
        self.writer = writer
        self.engine = engine
        #: (game, player) -> current rating.
        self.current: dict[tuple[str, str], Rating] = {}
        #: player -> their updates, oldest first.
        self.history: dict[str, list[Change]] = {}
        #: Ids of the tables already rated.
        self.rated: set[str] = set()
        self.seq = 0
        self._lock = asyncio.Lock()
        #: Cluster mode: other nodes store updates in the same database.
        self.shared = False

    # ------------------------------------------------------------ reading

    def rating(self, game: str, player: str) -> tuple[float, float]:
        """A player's (mu, sigma) in ``game`` (a new player's before any game)."""
        found = self.current.get((game, player))
        return START if found is None else (found.mu, found.sigma)

    def of_player(self, player: str) -> dict[str, Rating]:
        """A player's rating in each game they were rated in."""
        return {game: r for (game, who), r in self.current.items() if who == player}

    def leaderboard(self, game: str, limit: int = 100) -> list[tuple[str, Rating]]:
        """The best ``limit`` players of ``game`` by :func:`ordinal` (then by name)."""
        rows = [(who, r) for (g, who), r in self.current.items() if g == game]
        rows.sort(key=lambda x: (-ordinal(x[1].mu, x[1].sigma), x[0].casefold()))
        return rows[:limit]

    # ------------------------------------------------------------ start-up

    def load(self) -> None:
        """Create the ratings table if missing and read every update (blocking)."""
        SCHEMA.create_all(self.engine)
        with self.engine.connect() as conn:
            self._read_new(conn)

    def refresh(self) -> None:
        """Read the updates other nodes stored since the last read (blocking; cluster
        mode: call before showing ratings)."""
        with self.engine.connect() as conn:
            self._read_new(conn)

    def _read_new(self, conn: Connection) -> None:
        query = select(rated_games).where(rated_games.c.seq > self.seq)
        for r in conn.execute(query.order_by(rated_games.c.seq)):
            created = r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC)
            change = Change(
                r.seq, r.table_id, r.player, r.game, r.place,
                (r.mu_before, r.sigma_before), (r.mu, r.sigma), created,
            )  # fmt: skip
            self._remember([change])

    def catch_up(self, tables: Iterable[LiveTable]) -> int:
        """Rate every finished rated table not rated yet (the server stopped between a
        game's end and its ratings), in the order they finished (blocking: call before
        serving). How many tables were rated."""
        pending = {
            t.id: t
            for t in tables
            if t.final is not None and rateable(t) and t.id not in self.rated
        }
        if not pending:
            return 0
        moves = store.moves
        with self.engine.connect() as conn:
            ends = {
                r.table_id: r.last
                for r in conn.execute(
                    select(moves.c.table_id, func.max(moves.c.created).label("last"))
                    .where(moves.c.table_id.in_(list(pending)))
                    .group_by(moves.c.table_id)
                )
            }
        order = sorted(pending.values(), key=lambda t: (_utc(ends.get(t.id)), t.created, t.id))
        for table in order:
            state = table.spec.new_state(table.options, table.seed)
            for move in store.load_moves(self.engine, table.id):
                state.play(move)
            if not state.is_over:  # a database edited by hand
                log.error("table %s: finished but its moves do not end the game", table.id)
                continue
            changes = self.rate(table, places(table, state), _utc(ends.get(table.id)))
            if not changes:
                continue
            with self.engine.begin() as conn:
                conn.execute(insert(rated_games), [c.row() for c in changes])
            self._remember(changes)
            log.info("table %s: rated at start-up (%d players)", table.id, len(changes))
        return len(order)

    def rebuild(self, tables: Iterable[LiveTable]) -> int:
        """Forget every rating and compute them all again from the finished tables
        (blocking). How many tables were rated."""
        with self.engine.begin() as conn:
            conn.execute(delete(rated_games))
        self.current, self.history, self.rated, self.seq = {}, {}, set(), 0
        return self.catch_up(tables)

    # ------------------------------------------------------------ updates

    def rate(self, table: LiveTable, place: dict[str, int], when: datetime) -> list[Change]:
        """The updates a finished table makes, its seats at ``place`` (1 for the best,
        equal for a tie; see :func:`places`). Nothing is changed yet."""
        if not rateable(table) or table.id in self.rated:
            return []
        game = table.spec.name
        seats = list(table.seats.values())
        before = [
            bot_rating(game, s.kind) if s.is_bot else
            self.rating(game, s.profile) if s.profile else START
            for s in seats
        ]  # fmt: skip
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
        after = MODEL.rate(teams, ranks=[place[s.seat] for s in seats])
        changes = []
        for s, old, new in zip(seats, before, after, strict=True):
            if s.profile and not s.is_bot:
                self.seq += 1
                changes.append(
                    Change(
                        self.seq,
                        table.id,
                        s.profile,
                        game,
                        place[s.seat],
                        old,
                        (new[0].mu, new[0].sigma),
                        when,
                    )
                )
        return changes

    async def table_finished(self, table: LiveTable) -> None:
        """Rate a table that just finished (called under its lock). A failed write is
        logged and changes nothing: the next start-up rates the table."""
        async with self._lock:
            try:
                if self.shared:
                    await run_in_threadpool(self._rate_shared, table, store.now())
                    return
                changes = (
                    self.rate(table, places(table, table.state), store.now())
                    if rateable(table) and table.id not in self.rated
                    else []
                )
                if changes:
                    await self.writer.write([(insert(rated_games), c.row()) for c in changes])
                    self._remember(changes)
            except Exception:
                self.seq = max((c.seq for h in self.history.values() for c in h), default=0)
                log.exception("table %s: ratings not stored (the next start rates it)", table.id)

    def _rate_shared(self, table: LiveTable, when: datetime) -> None:
        """Cluster mode: read what other nodes rated since, rate ``table`` and store its
        updates, in one transaction holding the cluster's ratings lock (blocking)."""
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK})
            self._read_new(conn)
            changes = self.rate(table, places(table, table.state), when) if rateable(table) else []
            if changes:
                conn.execute(insert(rated_games), [c.row() for c in changes])
        self._remember(changes)

    def _remember(self, changes: list[Change]) -> None:
        for c in changes:
            old = self.current.get((c.game, c.player))
            self.current[(c.game, c.player)] = Rating(*c.after, (old.games if old else 0) + 1)
            self.history.setdefault(c.player, []).append(c)
            self.rated.add(c.table_id)
            self.seq = max(self.seq, c.seq)


def _utc(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
