"""The bots' and the dice's turns at a table (what :class:`~.tables.Tables` lets
play when no human is due).

At a chance step the server draws the move itself from the table's seeded chance
stream and commits it like any move: a restarted server rolls exactly the dice it
would have rolled. Bots think in the worker processes (:mod:`..work.workers`, one key per
table), each decision seeded from the table's secret and the move's index
(:func:`~.table.decision_seed`), and are given ``state.view(player)`` in a game with
hidden information, never the full state.

A table's bots count against the share of the client that created it (issue 32,
point 2): the address of the request that opened it, as :class:`MarkClient` marks
every request (a table loaded at start-up counts as the first client whose request
lets its bots move, else as its own client). Their moves' cost is measured per kind:
the game, the bot and the table's options (:mod:`..work.workers`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from ...core.protocol import CHANCE
from ...core.rng import Rng
from ..limits import QuietLog
from ..work.jobs import Position
from ..work.workers import InlineWorkers, JobTimeout, Workers
from .presence import bot_of
from .table import LiveTable, Seat, decision_seed

log = logging.getLogger("peloton.server")
quiet = QuietLog(log)

#: Seconds one bot decision may take (a search bot thinks for at most a few); past it
#: the bot plays a legal move drawn from its decision's seed instead.
BOT_SECONDS = 60.0

#: ``commit(table, move, by)``: store a checked move, apply it and send it (the
#: table's lock held), as :meth:`~.tables.Tables` does for every move.
Commit = Callable[[LiveTable, Any, str], Awaitable[None]]

#: Tables whose creating client (and bots' kinds) are remembered (the oldest are forgotten: their bots
#: then count as their own client's).
CREATORS_KEPT = 10_000

#: The address of the client whose request (HTTP or WebSocket) the running code
#: serves; ``None`` outside a request (start-up, a clock's task).
REQUEST_CLIENT: ContextVar[str | None] = ContextVar("peloton_request_client", default=None)


class MarkClient:
    """ASGI middleware: marks each request's code with its client's address
    (:data:`REQUEST_CLIENT`), so that a table opened by a request knows whose it is
    without every path that opens one passing it along."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        token = REQUEST_CLIENT.set(str(client[0]) if client else None)
        try:
            await self.app(scope, receive, send)
        finally:
            REQUEST_CLIENT.reset(token)


def bot_kind(game: str, bot: str, options: dict[str, Any]) -> str:
    """What a bot's moves' cost is measured under: its game, its name and the table's
    options (a digest of them: a course may be large)."""
    text = json.dumps(options, sort_keys=True, default=str)
    digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    return f"bot_move {game} {bot} {digest}"


def _remember(kept: OrderedDict[Any, str], key: Any, value: str) -> None:
    """Keep ``value`` under ``key``, forgetting the oldest past :data:`CREATORS_KEPT`."""
    kept[key] = value
    while len(kept) > CREATORS_KEPT:
        kept.popitem(last=False)


class BotTurns:
    """Plays the bots' and the dice's moves of every table, one task per table while
    one of them is due, each move after ``bot_delay`` seconds."""

    def __init__(self, commit: Commit, workers: Workers | InlineWorkers, bot_delay: float) -> None:
        self.commit = commit
        self.workers = workers
        self.bot_delay = bot_delay
        #: Each table's creating client (by table id), as far as known.
        self._creators: OrderedDict[str, str] = OrderedDict()
        #: Each table's bots' kinds (by table id and bot): a table's options never
        #: change, and a course in them is large to digest at every move.
        self._kinds: OrderedDict[tuple[str, str], str] = OrderedDict()

    def kick(self, table: LiveTable) -> None:
        """Let the bot or the dice move when one is due and nothing plays for them yet.
        The first kick within a client's request (a table's creation) names the
        client whose share the table's bots count against."""
        if table.id not in self._creators:
            client = REQUEST_CLIENT.get()
            if client is not None:
                _remember(self._creators, table.id, client)
        if table.bot_task is None and table.next_actor() is not None:
            table.bot_task = asyncio.create_task(self._play(table), name=f"bots-{table.id}")

    def _chance_rng(self, table: LiveTable, index: int) -> Rng:
        """The generator of the chance move at move ``index``: the game's one stream
        where its record can position it (rebuilt from the stored moves after a restart,
        so a downloaded record resumes with the same rolls), else ``Rng(seed).spawn(index)``."""
        if table.rng is None:
            table.rng = table.spec.chance_stream(table.state, table.seed)
        return table.rng if table.rng is not None else Rng(table.seed or 0).spawn(index)

    async def _play(self, table: LiveTable) -> None:
        """Play the bots' and the dice's moves while one is due, each after ``bot_delay``.

        At a chance step the server draws the move from the table's seeded generator.
        A bot thinks in a worker process on a copy of the position (a game with hidden
        information: on the bot's own view), without the table's lock (a search bot
        may think for seconds), seeded for this decision alone; then its move is
        checked and committed like a player's."""
        failures = 0
        while True:
            await asyncio.sleep(self.bot_delay + min(failures, 10))
            async with table.lock:
                actor = table.next_actor()
                state = table.state
                if actor is None:
                    table.bot_task = None
                    return
                index = len(table.texts)
                if actor == CHANCE:
                    try:
                        move = table.spec.check_move(
                            state, state.chance_move(self._chance_rng(table, index))
                        )
                        await self.commit(table, move, CHANCE)
                        failures = 0
                    except Exception:
                        failures += 1
                        table.rng = (
                            None  # rebuilt from the stored moves: the lost roll is drawn again
                        )
                        log.exception("table %s: chance move %d not played", table.id, index)
                    continue
                assert isinstance(actor, Seat)
                seat = actor
                position = Position(
                    table.id, table.spec.name, table.options, table.seed,
                    list(table.texts), seat.seat if table.spec.hidden else None,
                )  # fmt: skip
            seed = decision_seed(table.secret, seat.seat, index)
            try:
                choice = await self._decide(table, seat, seed, position)
                async with table.lock:
                    # Not if the seat's player took it back from the stand-in meanwhile.
                    if len(table.texts) == index and table.next_actor() is seat:
                        await self.commit(
                            table, table.spec.check_move(table.state, choice), seat.seat
                        )
                failures = 0
            except Exception as exc:
                failures += 1
                quiet.warning(
                    f"bot-{table.id}",
                    "table %s: bot %s could not move (%s)",
                    table.id,
                    seat.seat,
                    exc,
                )

    def _kind(self, table: LiveTable, bot: str) -> str:
        """The kind of ``bot``'s moves at ``table`` (:func:`bot_kind`), digested once."""
        kind = self._kinds.get((table.id, bot))
        if kind is None:
            kind = bot_kind(table.spec.name, bot, table.options)
            _remember(self._kinds, (table.id, bot), kind)
        return kind

    async def _decide(self, table: LiveTable, seat: Seat, seed: int, position: Position) -> str:
        """The bot's move (notation) in ``position``: thought out in a worker, or, past
        :data:`BOT_SECONDS`, a legal move drawn from the decision's seed."""
        key = f"table:{table.id}"
        client = f"client:{self._creators.get(table.id, key)}"
        bot = bot_of(seat)
        try:
            move: str = await self.workers.run(
                key,
                "bot_move",
                bot,
                seed,
                position,
                timeout=BOT_SECONDS,
                client=client,
                kind=self._kind(table, bot),
            )
        except JobTimeout:
            quiet.warning(
                f"bot-slow-{table.id}",
                "table %s: bot %s thought over %g s; it plays a random move",
                table.id,
                seat.seat,
                BOT_SECONDS,
            )
            move = await self.workers.run(
                key, "random_move", seed, position, timeout=BOT_SECONDS, light=True, client=client
            )
        return move
