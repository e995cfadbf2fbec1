"""Every limit the table server puts on its clients, in one place (issue 11), and the
small tools that keep them: per-client rate limits and counts, and a quiet log.

Two kinds of limits:

* **Sizes and times**, the same for every server: how large a request, a record, a
  WebSocket backlog may be, how long a request may take to arrive. They protect the
  server from any single request.
* **Per-client limits** (:class:`Limits`): how many tables one client address may
  create a minute, how many WebSockets it may hold, how many solver runs it may
  queue. They protect the other clients from one client. ``peloton serve --limits
  relaxed`` turns them off (one trusted address making every request: the test
  suite, a benchmark, a LAN party behind one NAT).

A client is its IP address as the socket shows it (a proxy in front of the server
makes every client one address: run such a server with ``--limits relaxed`` and
limit at the proxy).

The game sizes themselves (course rows, board lengths, targets) are the games' own
caps, checked by each game's ``from_options`` and course loader.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, fields

# ---------------------------------------------------------------- sizes and times

#: The largest request body (bytes): a record of the longest game is a few hundred KB.
MAX_BODY = 1 << 20
#: An uploaded record (``POST /api/replay``): at most this many bytes and moves. The
#: longest games the games' own caps allow are a few thousand moves (the longest
#: course with the most teams crawling up it: about 8,200), and a move is about 10 to
#: 20 bytes.
MAX_RECORD_BYTES = 512 * 1024
MAX_RECORD_MOVES = 10_000
#: The server plays and replays at most this many moves of one table: a backstop
#: behind every game's own end (each game bounds its length; see docs/protocol.md).
MAX_TABLE_MOVES = MAX_RECORD_MOVES
#: JSON a client sends may nest this deep and hold integers of this many digits at
#: most (a course, a record and a create request nest 4 levels; seeds have 19 digits).
MAX_JSON_DEPTH = 32
MAX_INT_DIGITS = 40
#: A request's line, headers and body must arrive within this many seconds of its
#: first byte (a client that drips them holds a connection for no more).
REQUEST_SECONDS = 10.0
#: The most bytes of a request line and headers.
MAX_HEAD_BYTES = 64 * 1024
#: Seconds an idle keep-alive connection stays open.
KEEP_ALIVE_SECONDS = 5
#: A WebSocket client that has this many messages (or bytes) waiting for it, or whose
#: one message has waited this many seconds to be taken, does not read: its
#: connection is closed (the browser reconnects and gets a fresh ``welcome``).
MAX_BACKLOG = 256
MAX_BACKLOG_BYTES = 2 << 20
SEND_STALL_SECONDS = 30.0
#: The most legs of a stage race created at the server: the rules' tour has four, and
#: each leg's game is set up when the race is made (a long list would hold a thread).
MAX_LEGS = 12
#: The lobby's page size (``GET /api/tables``).
LOBBY_PAGE = 50
#: Finished tables whose state stays in memory after a replay (the others are
#: replayed from the database when asked for).
FINISHED_IN_MEMORY = 64


# ---------------------------------------------------------------- per-client limits


@dataclass(frozen=True)
class Limits:
    """The per-client limits of a server (``None``: no limit)."""

    #: Tables one address may create in a minute.
    tables_per_minute: int | None = 30
    #: WebSockets one address may hold open at once.
    sockets_per_client: int | None = 50
    #: WebSockets one address may open in a minute.
    sockets_per_minute: int | None = 240
    #: Solver runs (solo solves) one address may have queued or running at once.
    solves_per_client: int | None = 1
    #: Course checks and record uploads one address may have in the workers at once.
    checks_per_client: int | None = 2
    #: Competitions one address may create in a minute (each opens its tables after).
    competitions_per_minute: int | None = 5
    #: Sign-in challenges one address may ask for in a minute (a person needs one a
    #: sign-in; a household or school behind one address, a few).
    challenges_per_minute: int | None = 30
    #: Chat messages one address may write at one table in a chat rate window (every
    #: seat and spectator connection of it together): reconnecting does not give a
    #: spectator more (:mod:`.live.chat`).
    chat_per_client: int | None = 10

    @classmethod
    def named(cls, name: str) -> Limits:
        """``default`` or ``relaxed`` (no per-client limit)."""
        if name == "default":
            return cls()
        if name == "relaxed":
            return cls(**{f.name: None for f in fields(cls)})
        raise ValueError(f"limits must be 'default' or 'relaxed', not {name!r}")


LIMIT_NAMES = ("default", "relaxed")


class RateLimit:
    """At most ``count`` events per ``seconds`` for each key (a sliding window).
    ``count`` ``None``: no limit."""

    def __init__(
        self, count: int | None, seconds: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.count = count
        self.seconds = seconds
        self.clock = clock
        self._events: dict[str, deque[float]] = {}

    def wait(self, key: str) -> float:
        """The seconds until an event of ``key`` would be allowed (0.0: now); nothing is
        recorded (:meth:`allow` records)."""
        if self.count is None:
            return 0.0
        now = self.clock()
        events = self._events.get(key)
        if events is None:
            return 0.0
        while events and events[0] <= now - self.seconds:
            events.popleft()
        return events[0] + self.seconds - now if len(events) >= self.count else 0.0

    def allow(self, key: str) -> float:
        """Record an event of ``key`` if it is allowed: 0.0. Otherwise the seconds until
        it would be (nothing recorded)."""
        if self.count is None:
            return 0.0
        wait = self.wait(key)
        if wait > 0:
            return wait
        now = self.clock()
        self._events.setdefault(key, deque()).append(now)
        if len(self._events) > 10_000:  # forget the keys that fell quiet
            self._events = {
                k: v for k, v in self._events.items() if v and v[-1] > now - self.seconds
            }
        return 0.0


class Counts:
    """How many of something each key holds now, within ``limit`` (``None``: no limit)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self._held: defaultdict[str, int] = defaultdict(int)

    def take(self, key: str) -> bool:
        """Take one for ``key`` if it has fewer than the limit; whether it did."""
        if self.limit is not None and self._held[key] >= self.limit:
            return False
        self._held[key] += 1
        return True

    def give_back(self, key: str) -> None:
        """Give back one taken by ``key``."""
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]

    def held(self, key: str) -> int:
        return self._held.get(key, 0)


class ClientGate:
    """A server's per-client limits (:class:`Limits`) at work: the tables each client
    created lately, the WebSockets it holds and opened lately, its checks in the
    workers."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.tables = RateLimit(limits.tables_per_minute)
        self.socket_opens = RateLimit(limits.sockets_per_minute)
        self.sockets = Counts(limits.sockets_per_client)
        self.checks = Counts(limits.checks_per_client)
        self.competitions = RateLimit(limits.competitions_per_minute)
        self.challenges = RateLimit(limits.challenges_per_minute)


class QuietLog:
    """A logger that says one thing at most ``per_minute`` times a minute, then once how
    many times it kept quiet: a flood of clients cannot flood the log."""

    def __init__(
        self,
        logger: logging.Logger,
        per_minute: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.clock = clock
        self._limit = RateLimit(per_minute, 60.0, clock)
        self._quiet: defaultdict[str, int] = defaultdict(int)

    def warning(self, key: str, message: str, *args: object) -> None:
        """Log ``message`` under ``key`` unless that key spoke too often this minute."""
        if self._limit.allow(key) > 0:
            self._quiet[key] += 1
            return
        skipped = self._quiet.pop(key, 0)
        if skipped:
            message += f" (and {skipped} more like it not logged)"
        self.logger.warning(message, *args)
