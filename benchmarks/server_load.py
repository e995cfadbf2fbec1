"""Load on the web table: many concurrent all-human tables played over WebSockets.

Starts ``peloton serve`` as a subprocess (SQLite in a temporary directory unless
``--db`` is given), then, from this second process, keeps ``--tables`` tables busy on
loopback: each seat is a WebSocket client that follows the game in a local
:class:`State` and picks its moves with a local random bot. When a game ends, its slot
starts a new table. Prints accepted moves per second, the latency of a move (from
sending it to receiving its ``update``, measured by the sender), the bytes and
messages the clients received per move, and the server's own CPU time per accepted
move over the measured window (read from ``/proc``, its worker processes and a
private Redis included: the figure to compare when other work shares the machine, which moves the
wall-clock ones).

Cluster mode (``--workers N`` or ``--nodes N``; PostgreSQL by ``--db`` and a private
``redis-server`` started here unless ``--broker`` is given): ``--workers N`` is one
``peloton serve --workers N`` on one port, the kernel spreading the connections
over its processes; ``--nodes N`` starts N node processes on their own ports, each
socket going to a node drawn at random (a load balancer without affinity) or, with
``--affinity``, every socket of a table to the node that opened it (a load balancer
routing by table id).

    python benchmarks/server_load.py [--tables 100] [--seconds 20] [--think 0] [--db URL]
                                     [--clock rapid] [--workers N | --nodes N [--affinity]]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field

import httpx
import uvloop
from websockets.asyncio.client import ClientConnection, connect

from _servers import machine_cpu, redis_server, servers, tree_cpu, tree_rss
from peloton.bots import make_bot
from peloton.games import mindcycling as mc

#: The time control of every table (``--clock``: a preset's name; ``None``: no clock).
CLOCK: str | None = None
SHORT = mc.Course.load("short")
UPDATE_HEAD = re.compile(r'\{"type":"update","index":(\d+),"move":"([^"]+)"')


@dataclass
class Stats:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    measuring: bool = False
    #: The server's CPU seconds over the measured window (``None``: not known).
    server_cpu: float | None = None
    #: This process's (the clients') CPU seconds over the measured window.
    client_cpu: float = 0.0
    #: The whole machine's busy CPU seconds over the measured window (every core).
    machine_cpu: float = 0.0
    #: Messages and bytes the clients received in the measured window, and a sample
    #: of the sizes of ``update`` messages.
    frames: int = 0
    received: int = 0
    update_sizes: list[int] = field(default_factory=list)


def count(stats: Stats, raw: str | bytes, update: bool) -> None:
    """Count a received message while measuring."""
    if stats.measuring:
        stats.frames += 1
        stats.received += len(raw)
        if update and len(stats.update_sizes) < 100_000:
            stats.update_sizes.append(len(raw))


async def seat_client(
    ws: ClientConnection, seat: str, state: mc.State, rng_seed: int, stats: Stats, think: float
) -> None:
    """Play one seat until the game is over. The seats of a table share ``state``: each
    move is played on it once, by the first of them to hear of it (the clients' CPU
    shares the machine with the servers)."""
    bot = make_bot("random", rng_seed)
    # Players do not all think for the same time: without the spread, tables opened
    # together would move in bursts, every table at the same instant.
    pace = random.Random(rng_seed)
    sent_at: float | None = None
    sent_index = -1

    async def move_if_mine() -> None:
        nonlocal sent_at, sent_index
        if state.is_over or state.current_player != seat or sent_index == len(state.history):
            return
        if think:
            await asyncio.sleep(think * pace.uniform(0.5, 1.5))
        move = bot.choose(state)
        sent_index = len(state.history)
        sent_at = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "move": str(move), "index": sent_index}))

    await move_if_mine()
    async for raw in ws:
        # The client's CPU is not what is measured: read an update's index and move
        # from its head (the server writes them first) rather than decode the changes.
        head = UPDATE_HEAD.match(raw if isinstance(raw, str) else raw.decode())
        message = (
            {"type": "update", "index": int(head[1]), "move": head[2]} if head else json.loads(raw)
        )
        kind = message["type"]
        count(stats, raw, kind == "update")
        if kind == "update":
            index = message["index"]
            if index == len(state.history):
                state.play(message["move"])
            elif index > len(state.history):  # this seat's socket missed a move
                stats.errors.append(f"out of order update {index} at {len(state.history)}")
                return
            if index == sent_index and sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if state.is_over:
                return
            await move_if_mine()
        elif kind == "error":
            stats.errors.append(f"{message['code']}: {message['message']}")
            return


@dataclass
class Nodes:
    """The addresses the clients use: one HTTP client and WebSocket address per node;
    ``affinity``: every socket of a table goes to the node that opened it."""

    https: list[httpx.AsyncClient]
    ws_urls: list[str]
    affinity: bool

    def pick(self, rng: random.Random) -> int:
        return rng.randrange(len(self.https))


async def open_table(nodes: Nodes, rng: random.Random) -> Table:
    """Create an all-human table, join every seat and say hello on each socket
    (retried: a pooled keep-alive connection may have been closed by the server)."""
    for attempt in range(5):
        try:
            return await try_open_table(nodes, rng)
        except httpx.TransportError:
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


async def try_open_table(nodes: Nodes, rng: random.Random) -> Table:
    teams = rng.randint(2, 4)
    home = nodes.pick(rng)
    http = nodes.https[home]
    answer = await http.post(
        "/api/tables",
        json={"course": "short", "riders": 3, "seats": ["human"] * teams}
        | ({"clock": CLOCK} if CLOCK else {}),
    )
    table_id = answer.json()["id"]
    letters = "ABCD"[:teams]
    sockets = []
    for seat in letters:
        joined = await http.post(
            f"/api/tables/{table_id}/join", json={"seat": seat, "name": f"p{seat}"}
        )
        ws_url = nodes.ws_urls[home if nodes.affinity else nodes.pick(rng)]
        ws = await connect(f"{ws_url}/ws/tables/{table_id}", max_size=None, compression=None)
        await ws.send(json.dumps({"type": "hello", "token": joined.json()["token"]}))
        welcome = json.loads(await ws.recv())
        assert welcome["type"] == "welcome", welcome
        sockets.append(ws)
    return Table(letters, sockets, mc.new_game(SHORT, mc.default_teams(teams, 3)))


@dataclass
class Table:
    """A table's seats, their sockets, and the game they follow."""

    letters: str
    sockets: list[ClientConnection]
    start: mc.State


async def table_slot(
    nodes: Nodes,
    slot: int,
    first: Table,
    stats: Stats,
    stop_at: float,
    think: float,
) -> None:
    """Keep one table busy: play it to the end, open a new one, until ``stop_at``."""
    rng = random.Random(slot)
    table, game = first, 0
    while True:
        state = table.start.copy()  # the table's seats follow the game on one state
        try:
            await asyncio.gather(
                *(
                    seat_client(ws, seat, state, slot * 1000 + game * 10 + i, stats, think)
                    for i, (seat, ws) in enumerate(zip(table.letters, table.sockets, strict=True))
                )
            )
            stats.games += 1
        finally:
            for ws in table.sockets:
                await ws.close()
        game += 1
        if time.perf_counter() >= stop_at:
            return
        table = await open_table(nodes, rng)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(
    urls: list[str],
    tables: int,
    seconds: float,
    warmup: float,
    think: float,
    pids: list[int],
    affinity: bool = False,
) -> tuple[Stats, float, int]:
    """Drive the load; the figures, the measured seconds and the servers' resident
    bytes once every table was open."""
    stats = Stats()
    limits = httpx.Limits(max_connections=20)
    https = [httpx.AsyncClient(base_url=url, timeout=60, limits=limits) for url in urls]
    nodes = Nodes(https, [url.replace("http://", "ws://", 1) for url in urls], affinity)
    try:
        # Every table is open and every seat connected before the clock starts.
        first = await asyncio.gather(*(open_table(nodes, random.Random(-i)) for i in range(tables)))
        rss = tree_rss(pids)
        # The clients' own collector pauses would count as the server's latency.
        gc.collect()
        gc.freeze()
        stop_at = time.perf_counter() + warmup + seconds
        tasks = [
            asyncio.create_task(table_slot(nodes, i, first[i], stats, stop_at, think))
            for i in range(tables)
        ]
        stats, elapsed = await measure(stats, tasks, seconds, warmup, pids)
        return stats, elapsed, rss
    finally:
        for http in https:
            await http.aclose()


async def measure(
    stats: Stats, tasks: list[asyncio.Task[None]], seconds: float, warmup: float, pids: list[int]
) -> tuple[Stats, float]:
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu_start = tree_cpu(pids) if pids else None
    own_start = time.process_time()
    machine_start = machine_cpu()
    measure_start = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - measure_start
    stats.client_cpu = time.process_time() - own_start
    stats.machine_cpu = machine_cpu() - machine_start
    if cpu_start is not None:
        stats.server_cpu = tree_cpu(pids) - cpu_start
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="concurrent tables (default 100)")
    parser.add_argument("--seconds", type=float, default=20, help="measured time (default 20)")
    parser.add_argument("--warmup", type=float, default=3, help="unmeasured start (default 3)")
    parser.add_argument(
        "--think",
        type=float,
        default=0,
        help="mean seconds a client waits before moving (each wait drawn from 0.5x to 1.5x)",
    )
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary directory)")
    parser.add_argument("--url", help="load a server already running at this address instead")
    parser.add_argument("--clock", help="every table's time control (a preset: rapid, daily...)")
    parser.add_argument(
        "--workers", type=int, default=1, help="peloton serve --workers N (cluster mode)"
    )
    parser.add_argument(
        "--nodes", type=int, default=1, help="N node processes on their own ports (cluster mode)"
    )
    parser.add_argument(
        "--affinity", action="store_true", help="a table's sockets all go to its node (--nodes)"
    )
    parser.add_argument(
        "--broker", help="Redis URL for cluster mode (default: a private redis-server)"
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = args.clock
    cluster = args.workers > 1 or args.nodes > 1 or args.broker is not None
    if cluster and not (args.db or "").startswith("postgresql"):
        parser.error("cluster mode (--workers, --nodes, --broker) needs --db postgresql://...")
    lateness: list[str] = []
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        db_url = args.db or f"sqlite:///{tmp}/load.db"
        if args.url:
            db_url, urls, pids = "external server", [args.url], []
        else:
            broker, redis_pids = args.broker, []
            if cluster and broker is None:
                redis = stack.enter_context(redis_server())
                broker, redis_pids = redis.url, [redis.pid]
            running = stack.enter_context(
                servers(db_url, workers=args.workers, nodes=args.nodes, broker=broker)
            )
            urls, pids = running.urls, running.pids + redis_pids
            lateness = running.lateness  # filled in once the servers stopped
        # uvloop (uvicorn's own loop, installed with it) keeps the clients' CPU per
        # move low: on a 2-core machine they share the cores with the servers.
        stats, elapsed, rss = uvloop.run(
            run(urls, args.tables, args.seconds, args.warmup, args.think, pids, args.affinity)
        )
    report(args, db_url, stats, elapsed, rss, lateness)


def report(
    args: argparse.Namespace,
    db_url: str,
    stats: Stats,
    elapsed: float,
    rss: int,
    lateness: list[str],
) -> None:
    """Print the figures."""
    lat = stats.latencies
    shape = (
        f"{args.workers} workers"
        if args.workers > 1
        else f"{args.nodes} nodes{' (affinity)' if args.affinity else ''}"
        if args.nodes > 1
        else "1 process"
    )
    print(
        f"server_load: {args.tables} concurrent tables on 'short', 3 riders, 2-4 teams, "
        f"think {args.think * 1000:.0f} ms, {db_url.split(':')[0]}, clock {args.clock or 'none'}, "
        f"{shape}"
    )
    print(f"  measured             {elapsed:.1f} s (after {args.warmup:.0f} s warm-up)")
    print(f"  accepted moves       {len(lat)}  ({len(lat) / elapsed:,.0f} moves/s)")
    print(f"  games finished       {stats.games}")
    if lat:
        print(f"  move latency p50     {percentile(lat, 0.50) * 1000:.1f} ms")
        print(f"  move latency p90     {percentile(lat, 0.90) * 1000:.1f} ms")
        print(f"  move latency p99     {percentile(lat, 0.99) * 1000:.1f} ms")
        print(f"  move latency max     {max(lat) * 1000:.1f} ms")
        moves = len(lat)
        print(
            f"  received per move    {stats.received / moves:,.0f} bytes in "
            f"{stats.frames / moves:.2f} messages"
        )
        if stats.update_sizes:
            print(f"  update median        {statistics.median(stats.update_sizes):,.0f} bytes")
        if stats.server_cpu is not None:
            busy = stats.server_cpu / elapsed * 100
            print(
                f"  server CPU per move  {stats.server_cpu / moves * 1000:.3f} ms "
                f"(server busy {busy:.0f}% of a core; Redis included)"
            )
        print(f"  client CPU per move  {stats.client_cpu / moves * 1000:.3f} ms (this process)")
        print(
            f"  machine CPU busy     {stats.machine_cpu / elapsed:.2f} of "
            f"{os.cpu_count()} cores (everything running, the database included)"
        )
    if rss:
        print(
            f"  server memory        {rss / 2**20:,.0f} MiB with {args.tables} tables open "
            f"(its bot workers included)"
        )
    for line in lateness:  # over the whole run, start-up included
        print(f"  server {line}")
    print(
        f"  errors               {len(stats.errors)}"
        + (f" (first: {stats.errors[0]})" if stats.errors else "")
    )


if __name__ == "__main__":
    main()
