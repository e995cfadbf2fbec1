"""A fuzzing campaign against a running ``peloton serve`` (issue 11, "And keep
measuring"): Hypothesis draws hostile inputs for every HTTP endpoint and every
WebSocket message type, sends them over real sockets, and checks after each one:

- no 5xx answer, no reset connection, no answer slower than :data:`REQUEST_PATIENCE`;
- over WebSockets, only the protocol's messages and error codes (never ``internal``),
  and no connection closed by the server (but for frames over 64 KiB: code 1009);
- no traceback in the server's output;
- no unintended state change: the target tables' moves and snapshots are what the
  accepted moves made them (a move is accepted only if the server said so);
- another table's latency unaffected: a control client pings its own table from a
  thread for the whole campaign, and another thread pings a table of a second,
  untouched server as a yardstick: a ping to the fuzzed server may be slow only when
  the yardstick's pings at the same moment are slow too (the machine is busy), never
  on its own (see :meth:`Campaign.latency_problem`).

What is sent is drawn in :mod:`.fuzz_inputs`. ``tests/server/test_fuzz.py`` runs a
few dozen inputs per database in ``make test``;
``benchmarks/fuzz_server.py`` runs a larger campaign and prints the figures. Failures
are collected (not raised at once), so that one run reports every kind it found.
"""

from __future__ import annotations

import contextlib
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from .fuzz_inputs import (
    encode,
    fill,
    hellos,
    junk_frames,
    legal_move,
    move_fields,
    mutated,
    mutated_moves,
    path_part,
    raw_bodies,
)
from .helpers import TIMEOUT, WS, Server, create, join

#: Seconds one fuzz request may take before it counts as a ``timeout`` failure (the
#: campaign then stops: the server is stuck on it).
REQUEST_PATIENCE = TIMEOUT
#: The control client's pings during the campaign may take at most this many times
#: the slowest of its quiet pings or of the yardstick's pings at the same moment,
#: plus :data:`LATENCY_SLACK` seconds.
LATENCY_FACTOR = 20
LATENCY_SLACK = 0.5

#: The protocol's error codes (docs/protocol.md); ``internal`` is not among those a
#: fuzz input may cause: it means the server failed on the message.
ERROR_CODES = {
    "bad_json", "unknown_type", "too_large", "bad_request", "hello_first", "bad_token", "spectator",
    "not_your_turn", "stale", "notation", "illegal_move", "game_over", "not_started", "chance_step", "not_found",
    "bad_chat", "chat_flood", "chat_muted",
}  # fmt: skip

# ---------------------------------------------------------------- the arena


@dataclass
class Seat:
    """A seat's live connection at a target table, and what it last saw."""

    table: str
    seat: str
    token: str
    ws: WS
    snapshot: dict[str, Any]
    moves: int = 0
    #: The last messages this connection heard, in short (what a failure shows).
    heard: list[str] = field(default_factory=list)


@dataclass
class Campaign:
    """The server under fuzz, its target tables, its control client, and the tally."""

    server: Server
    #: An untouched server whose pings measure how busy the machine is.
    yardstick: Server
    http: httpx.Client = field(init=False)
    seats: dict[str, Seat] = field(default_factory=dict)
    templates: dict[str, Any] = field(default_factory=dict)
    tried: Counter[str] = field(default_factory=Counter)
    seconds: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    stopped: str = ""
    #: (start, end) of each control ping, and of each yardstick ping.
    control_pings: list[tuple[float, float]] = field(default_factory=list)
    yardstick_pings: list[tuple[float, float]] = field(default_factory=list)
    control_quiet: float = 0.0
    _stop_control: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _log_seen: int = 0

    def __post_init__(self) -> None:
        self.http = httpx.Client(base_url=self.server.url, timeout=REQUEST_PATIENCE)
        http = self.http
        mc_table = create(http, course="short", riders=3, seats=["human", "human"])
        mt_table = create(http, game="mind-twist", seats=["human", "human"])
        pi_table = create(http, game="pistard", seats=["human", "human"])
        for table, letters in ((mc_table, "AB"), (mt_table, "RB")):
            for letter in letters:
                token = join(http, table, letter, f"Fuzz {letter}")
                ws = WS(self.server, table)
                self.seats[f"{table}/{letter}"] = Seat(
                    table, letter, token, ws, ws.hello(token)["snapshot"]
                )
        for seat in self.seats.values():  # the second join sent everyone a welcome
            seat.ws.drain()
        self.tables = {"mind-cycling": mc_table, "mind-twist": mt_table, "pistard": pi_table}
        self.templates = {
            "create": {"course": "short", "riders": 3, "wind": "front", "relay_limit": 3, "seats": ["human", "greedy"]},
            "create-game": {"game": "mind-twist", "options": {"length": 20, "milestones": [5, 10]}, "seats": ["human", "random"]},
            "check": {"course": {"name": "c", "lanes": 5, "finish": 40, "sections": [[9, "plain"]], "feed": [], "rocks": []}},
            "check-text": {"text": 'name = "c"\nlanes = 5\nfinish = 40\nsections = [[9, "plain"]]\n', "format": "toml"},
            "join": {"seat": "A", "name": "Ada"},
            # Human seats nobody takes: a competition the fuzzer creates waits, idle.
            "competition": {"kind": "stage", "settings": {"legs": [{"mode": "itt", "course": "prologue"}], "level": "starter"}, "seats": ["human", "human"]},
            "record-mc": http.get(f"/api/tables/{mc_table}/record").json(),
            "record-mt": http.get(f"/api/tables/{mt_table}/record").json(),
            "record-pi": http.get(f"/api/tables/{pi_table}/record").json(),
        }  # fmt: skip
        self.join_table = create(http, course="short", riders=3, seats=["human", "human"])
        control_table = create(http, game="mind-twist", seats=["human", "human"])
        self.control = WS(self.server, control_table)
        self.control.hello()
        with httpx.Client(base_url=self.yardstick.url, timeout=TIMEOUT) as other:
            self.reference = WS(
                self.yardstick, create(other, game="mind-twist", seats=["human", "human"])
            )
        self.reference.hello()
        self.control_quiet = max(
            end - start for start, end in (_ping(self.control) for _ in range(20))
        )
        self._log_seen = len(self.server.output)
        for ws, out in ((self.control, self.control_pings), (self.reference, self.yardstick_pings)):
            thread = threading.Thread(target=self._ping_for_ever, args=(ws, out), daemon=True)
            thread.start()
            self._threads.append(thread)

    # ------------------------------------------------------------ control client

    def _ping_for_ever(self, ws: WS, out: list[tuple[float, float]]) -> None:
        while not self._stop_control.wait(0.05):
            try:
                out.append(_ping(ws))
            except Exception:  # a lost connection: an endless ping
                out.append((time.monotonic(), float("inf")))
                return

    def slow_pings(self) -> list[tuple[float, float]]:
        """The control pings slower than allowed: (seconds, allowed)."""
        slow = []
        for start, end in self.control_pings:
            busy = max(
                (e - s for s, e in self.yardstick_pings if s < end and e > start), default=0.0
            )
            allowed = LATENCY_FACTOR * max(self.control_quiet, busy) + LATENCY_SLACK
            if end - start > allowed:
                slow.append((end - start, allowed))
        return slow

    def latency_problem(self) -> str:
        """What was wrong with the control client's latency during the campaign ("" if
        nothing)."""
        slow = self.slow_pings()
        if not slow:
            return ""
        worst, allowed = max(slow)
        return (
            f"another table's pings: {len(slow)} of {len(self.control_pings)} too slow, the worst "
            f"{worst:.2f} s (allowed then {allowed:.2f} s; quiet: {self.control_quiet * 1000:.0f} ms)"
        )

    def close(self) -> None:
        self._stop_control.set()
        for thread in self._threads:
            thread.join(timeout=TIMEOUT)
        for seat in self.seats.values():
            with contextlib.suppress(Exception):
                seat.ws.close()
        for ws in (self.control, self.reference):
            with contextlib.suppress(Exception):
                ws.close()
        self.http.close()

    # ------------------------------------------------------------ tally

    def fail(self, kind: str, what: str) -> None:
        self.failures[kind] += 1
        shown = self.examples.setdefault(kind, [])
        if len(shown) < 3:
            shown.append(what[:600])

    def summary(self) -> str:
        lines = [f"{sum(self.tried.values())} inputs tried:"]
        lines += [
            f"  {name}: {count}"
            + (f" ({self.seconds[name]:.1f} s)" if name in self.seconds else "")
            for name, count in sorted(self.tried.items())
        ]
        lines.append(f"{sum(self.failures.values())} failures:" if self.failures else "no failures")
        for kind, count in self.failures.most_common():
            lines.append(f"  {kind}: {count}")
            lines += [f"      e.g. {example}" for example in self.examples[kind]]
        if self.stopped:
            lines.append(f"stopped early: {self.stopped}")
        latency = self.latency_problem()
        if latency:
            lines.append(latency)
        rtts = [e - s for s, e in self.control_pings if e != float("inf")] or [0.0]
        yard = [e - s for s, e in self.yardstick_pings if e != float("inf")] or [0.0]
        lines.append(
            f"another table's pings: {len(self.control_pings)}, median {statistics.median(rtts) * 1000:.0f} ms, "
            f"worst {max(rtts) * 1000:.0f} ms (quiet: {self.control_quiet * 1000:.0f} ms; the yardstick "
            f"server's meanwhile: median {statistics.median(yard) * 1000:.0f} ms, worst {max(yard) * 1000:.0f} ms)"
        )
        return "\n".join(lines)

    def check_log(self, what: str) -> None:
        """A traceback printed since the last check is a failure (of ``what``, or of
        the input before it)."""
        lines = self.server.output[self._log_seen :]
        self._log_seen += len(lines)
        found = [line for line in lines if "Traceback" in line]
        if found:
            errors = [line.strip() for line in lines if line.strip() and not line.startswith(" ")]
            # The log may lag behind the answer: the input is this one or the one before.
            error = errors[-1] if errors else found[0]
            exception = error.split(":", 1)[0].rsplit(".", 1)[-1][:60]
            self.fail(
                f"traceback in the server log: {exception}", f"{error[:200]} (seen after {what})"
            )

    # ------------------------------------------------------------ HTTP

    def http_plans(
        self,
    ) -> list[st.SearchStrategy[tuple[str, str, str, bytes | None, dict[str, str]]]]:
        """Hostile HTTP requests: (kind, method, path, body, headers). Every choice is
        drawn here, from the campaign's fixed tables and templates, never from live
        state (Hypothesis must see the same choices for the same draws)."""
        mc, mt, pi = self.tables["mind-cycling"], self.tables["mind-twist"], self.tables["pistard"]
        t = self.templates

        def post(kind: str, path: str, bodies: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
            return st.builds(
                lambda b: (kind, "POST", path, encode(b).encode("utf-8", "surrogatepass"), {}),
                bodies,
            )

        records = (
            st.sampled_from(["record-mc", "record-mt", "record-pi"]).map(t.get).flatmap(mutated)
        )
        raw_paths = st.sampled_from(
            [
                "/api/tables",
                "/api/courses/check",
                "/api/replay",
                f"/api/tables/{mc}/join",
                "/api/competitions",
            ]
        )
        junk_paths = st.sampled_from([
            "/api/tables/{}", "/api/tables/{}/record", "/api/tables/{}/replay", "/api/tables/{}/solver",
            "/table/{}", "/static/{}", "/static/js/{}", "/api/{}", "/{}",
            "/api/competitions/{}", "/api/competitions/{}/file", "/competitions/{}",
        ])  # fmt: skip
        tokens = st.one_of(
            st.sampled_from(sorted(s.token for s in self.seats.values())),
            st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60),
        )
        schemes = st.sampled_from(["Bearer {}", "bearer {}", "{}", "Basic {}", "Bearer  {} "])
        detail_paths = st.sampled_from(
            [f"/api/tables/{x}{end}" for x in (mc, mt, pi) for end in ("", "/record", "/replay")]
        )
        return [
            post("POST /api/tables", "/api/tables", mutated(t["create"])),
            post("POST /api/tables (game)", "/api/tables", mutated(t["create-game"])),
            post("POST /api/courses/check", "/api/courses/check", mutated(t["check"])),
            post("POST /api/courses/check (text)", "/api/courses/check", mutated(t["check-text"])),
            post("POST /api/tables/{id}/join", f"/api/tables/{self.join_table}/join", mutated(t["join"])),
            post("POST /api/replay", "/api/replay", records),
            post("POST /api/competitions", "/api/competitions", mutated(t["competition"])),
            st.builds(lambda p, b: ("POST raw body", "POST", p, b, {}), raw_paths, raw_bodies()),
            st.builds(lambda p, x: ("GET junk path", "GET", p.format(x), None, {}), junk_paths, path_part()),
            st.builds(
                lambda p, s, k: ("GET with Authorization", "GET", p, None, {"Authorization": s.format(k)}),
                detail_paths, schemes, tokens,
            ),
            st.builds(
                lambda k, v: ("GET /api/tables?query", "GET", f"/api/tables?{k}={v}", None, {}),
                st.sampled_from(["status", "cursor", "page", "limit", "offset"]), path_part(),
            ),
        ]  # fmt: skip

    def http_input(self, plan: tuple[str, str, str, bytes | None, dict[str, str]]) -> None:
        """Send one hostile HTTP request and check its answer."""
        kind, method, path, data, headers = plan
        self.tried[kind] += 1
        began = time.monotonic()
        try:
            self._http(kind, method, path, data, headers)
        finally:
            self.seconds[kind] += time.monotonic() - began

    def _http(
        self, kind: str, method: str, path: str, data: bytes | None, headers: dict[str, str]
    ) -> None:
        what = f"{method} {path[:150]} {(data or b'')[:120]!r}"
        try:
            answer = self.http.request(method, path, content=data, headers=headers)
        except httpx.TimeoutException:
            self.fail(f"timeout: {kind}", what)
            self.stopped = f"no answer in {REQUEST_PATIENCE} s to {what}"
            return
        except httpx.LocalProtocolError:  # the client would not send it (a bad header)
            self.tried["(not sent: refused by the HTTP client)"] += 1
            return
        except httpx.TransportError as exc:
            self.fail(f"connection reset: {kind}", f"{what} -> {exc!r}")
            return
        if answer.status_code >= 500:
            self.fail(f"{answer.status_code}: {kind}", what)
        elif answer.status_code >= 400 and (method == "POST" or kind != "GET junk path"):
            # A documented endpoint's error is JSON (an unknown route may answer plain text).
            try:
                error = answer.json()["error"]
                assert error["code"] and error["message"]
            except Exception:
                self.fail(f"{answer.status_code} without a JSON error: {kind}", what)
        self.check_log(what)

    # ------------------------------------------------------------ WebSocket
    #
    # A WebSocket plan is drawn before it meets the table: where a frame needs a legal
    # move, the seat's token or its move count, the plan holds a placeholder (and a
    # number that picks among the legal moves), filled in when the frame is sent.

    def ws_plans(self) -> list[st.SearchStrategy[tuple[str, str, Any]]]:
        """(kind, seat key, frame plans)."""
        seats = st.sampled_from(sorted(self.seats))
        return [
            st.tuples(st.just("move (mutated)"), seats, st.lists(mutated_moves(), min_size=1, max_size=3)),
            st.tuples(st.just("move (fields)"), seats, st.lists(move_fields(), min_size=1, max_size=3)),
            st.tuples(st.just("hello"), seats, st.lists(hellos(), min_size=1, max_size=2)),
            st.tuples(st.just("ping"), seats, st.lists(mutated({"type": "ping"}), min_size=1, max_size=2)),
            st.tuples(st.just("junk"), seats, st.lists(junk_frames(), min_size=1, max_size=3)),
            st.tuples(st.just("duplicate move"), seats, st.tuples(st.integers(0, 2**16), st.booleans()).map(lambda x: [x])),
            st.tuples(
                st.just("fresh connection"), seats,
                st.tuples(st.booleans(), st.lists(st.one_of(mutated_moves(), hellos(), junk_frames()), min_size=1, max_size=3)),
            ),
        ]  # fmt: skip

    def ws_input(self, plan: tuple[str, str, Any]) -> None:
        """Send a plan's frames on one connection of a target table and check."""
        kind, key, frames = plan
        self.tried[f"ws {kind}"] += 1
        began = time.monotonic()
        try:
            self._ws(kind, self.seats[key], frames)
        finally:
            self.seconds[f"ws {kind}"] += time.monotonic() - began

    def _ws(self, kind: str, seat: Seat, frames: Any) -> None:
        if kind == "fresh connection":
            self._fresh_connection(seat, *frames)
            return
        if kind == "duplicate move":
            pick, stale = frames[0]
            current = next(
                (
                    s
                    for s in self.seats.values()
                    if s.table == seat.table and s.snapshot.get("current_player") == s.seat
                ),
                None,
            )
            move = None if current is None else legal_move(current.snapshot, pick)
            if current is None or move is None:
                return
            first = encode({"type": "move", "move": move, "index": current.moves})
            again = encode({"type": "move", "move": move}) if stale else first
            self._send(current, [first, again], kind)
            return
        self._send(seat, [fill(f, seat) for f in frames], kind)

    def _send(self, seat: Seat, frames: list[str | bytes], kind: str) -> None:
        frames = alone_if_big(frames)
        what = f"ws {kind} as {seat.seat}: {[f[:100] for f in frames]!r}"
        try:
            for frame in frames:
                seat.ws.send(frame)
            self._settle(what, first=seat)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            # A frame over 64 KiB closes the connection (1009; the client may see the
            # TCP connection go before the close frame while it still sends).
            big = any(len(f) > 64 * 1024 for f in frames)
            if not (big and code in (1009, None)):
                self.fail(f"ws closed by the server ({code}): {kind}", what)
            self._reconnect(seat)
            self._settle(what)
        except TimeoutError:
            self.fail(f"ws timeout: {kind}", what)
            self.stopped = f"no answer in {TIMEOUT} s to {what}"
            return
        self.check_log(what)
        self._check_state(what)

    def _settle(self, what: str, first: Seat | None = None) -> None:
        """Read every connection up to the answer of a ``ping`` (``first``'s first: once
        it answers, the frames sent on it have been handled); check what came."""
        order = sorted(self.seats.values(), key=lambda s: s is not first)
        for seat in order:
            for message in seat.ws.drain():
                self._heard(seat, message, what)
        for seat in order:
            # A hello with another token (or none) may have changed who this connection
            # is: it says hello again as its seat.
            seat.ws.send(encode({"type": "hello", "token": seat.token}))
            while (message := seat.ws.recv())["type"] != "welcome":
                self._heard(seat, message, what)
            seat.snapshot = message["snapshot"]

    def _heard(self, seat: Seat, message: dict[str, Any], what: str) -> None:
        kind = message.get("type")
        detail = (
            message.get("code") or message.get("index") or (message.get("table") or {}).get("moves")
        )
        seat.heard = [*seat.heard[-5:], f"{kind}:{detail}"]
        if kind == "error":
            if message.get("code") not in ERROR_CODES:
                self.fail(f"ws error code {message.get('code')!r}", f"{what} -> {message}")
        elif kind == "update":
            seat.snapshot = message["snapshot"]
            seat.moves = message["index"] + 1
        elif kind == "welcome":
            if message["seat"] not in (seat.seat, None):
                self.fail("ws welcome for another seat", f"{what} -> {message['seat']}")
            # (The moves played are counted from updates only: a move the server played
            # without an update would show in the next state check.)
            seat.snapshot = message["snapshot"]
        elif kind != "pong":
            self.fail(f"ws message of type {kind!r}", f"{what} -> {str(message)[:200]}")

    def _reconnect(self, seat: Seat) -> None:
        with contextlib.suppress(Exception):
            seat.ws.close()
        seat.ws = WS(self.server, seat.table)
        welcome = seat.ws.hello(seat.token)
        seat.snapshot, seat.moves = welcome["snapshot"], welcome["table"]["moves"]
        seat.heard = [*seat.heard[-5:], "reconnected"]

    def _check_state(self, what: str) -> None:
        """Each target table is what the accepted moves made it."""
        for seat in self.seats.values():
            detail = self.http.get(
                f"/api/tables/{seat.table}", headers={"Authorization": f"Bearer {seat.token}"}
            )
            if detail.status_code != 200:
                self.fail("table detail refused", f"{what} -> {detail.status_code}")
                continue
            body = detail.json()
            if body["moves"] != seat.moves:
                self.fail(
                    "state: the table's moves are not the accepted ones", f"{what} -> {seat.table}"
                )
                seat.moves = body["moves"]
            if body["snapshot"] != seat.snapshot:
                self.fail(
                    "state: a table changed without an accepted move",
                    f"{what} -> {seat.table}/{seat.seat}",
                )
                seat.snapshot = body["snapshot"]

    def _fresh_connection(self, seat: Seat, unknown: bool, plans: list[Any]) -> None:
        """Frames on a new connection, before (or instead of) its hello."""
        ws = WS(self.server, "nosuchtable" if unknown else seat.table)
        frames = alone_if_big([fill(f, seat) for f in plans])
        what = f"ws fresh connection: {[f[:100] for f in frames]!r}"
        try:
            for frame in frames:
                ws.send(frame)
            # Then a hello and a ping: once the pong comes, every frame was answered.
            ws.send(encode({"type": "hello", "token": None}))
            ws.send(encode({"type": "ping"}))
            while True:
                message = ws.recv(timeout=TIMEOUT)
                if message.get("type") == "error" and message.get("code") not in ERROR_CODES:
                    self.fail(f"ws error code {message.get('code')!r}", f"{what} -> {message}")
                if message.get("type") == "pong" or message.get("code") == "not_found":
                    break
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            big = any(len(f) > 64 * 1024 for f in frames)
            if code != 4404 and not (big and code in (1009, None)):
                self.fail(f"ws closed by the server ({code}): fresh connection", what)
        except TimeoutError:
            self.fail("ws timeout: fresh connection", what)
        finally:
            with contextlib.suppress(Exception):
                ws.close()
        self._settle(what)
        self.check_log(what)
        self._check_state(what)


def alone_if_big(frames: list[str | bytes]) -> list[str | bytes]:
    """A frame over 64 KiB is sent alone: it closes the connection, perhaps before the
    frames sent just before it are handled, and their answers would be lost."""
    big = [f for f in frames if len(f) > 64 * 1024]
    return big[:1] or frames


def _ping(ws: WS) -> tuple[float, float]:
    """A ping and its answer: (sent, answered), in ``time.monotonic()`` seconds."""
    began = time.monotonic()
    ws.quiet()
    return began, time.monotonic()


def one_input(
    campaign: Campaign,
) -> tuple[st.SearchStrategy[tuple[Any, ...]], Callable[[tuple[Any, ...]], None]]:
    """The strategy and body of a Hypothesis test: one HTTP request or a few WebSocket
    frames per example.

    Each example draws a plan of every kind, and the campaign takes the kinds in
    turn: each kind gets its share of the inputs, and what Hypothesis draws never
    depends on the server's state."""
    kinds = [("http", plan) for plan in campaign.http_plans()] + [
        ("ws", plan) for plan in campaign.ws_plans()
    ]
    every = st.tuples(*(plan for _, plan in kinds))
    turn = iter(range(10**9))

    def run(plans: tuple[Any, ...]) -> None:
        if campaign.stopped:
            return
        index = next(turn) % len(kinds)
        if kinds[index][0] == "ws":
            campaign.ws_input(plans[index])
        else:
            campaign.http_input(plans[index])

    return every, run
