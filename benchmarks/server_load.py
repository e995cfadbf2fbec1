"""Load on the web table: many concurrent all-human tables played over WebSockets.

Starts ``peloton serve`` as a subprocess (SQLite in a temporary directory unless
``--db`` is given), then, from this second process, keeps ``--tables`` tables busy on
loopback: each seat is a WebSocket client that follows the game in a local
:class:`State` and picks its moves with a local random bot. When a game ends, its slot
starts a new table. Prints accepted moves per second, the latency of a move (from
sending it to receiving its ``update``, measured by the sender) and the server's own
CPU time per accepted move over the measured window (read from ``/proc``: the figure
to compare when other work shares the machine, which moves the wall-clock ones).

    python benchmarks/server_load.py [--tables 100] [--seconds 20] [--think 0] [--db URL]
                                     [--clock rapid]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from peloton.bots import make_bot
from peloton.games import mindcycling as mc

PELOTON = str(Path(sys.executable).parent / "peloton")
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
    #: What the clients received over the measured window: bytes, messages, and the
    #: size of each ``update``.
    received: int = 0
    messages: int = 0
    update_sizes: list[int] = field(default_factory=list)


def process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``), or ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(db_url: str, errors: Any) -> tuple[subprocess.Popen[str], str]:
    """``peloton serve --port 0 --limits relaxed`` (every client here is 127.0.0.1),
    its stderr to ``errors`` (a file: its event loop's lateness is printed there when
    it stops); the process and its address."""
    proc = subprocess.Popen(
        [
            PELOTON,
            "serve",
            "--port",
            "0",
            "--db",
            db_url,
            "--bot-delay",
            "0",
            "--limits",
            "relaxed",
        ],
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PELOTON_LOOP_LATENESS": "1"},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "serving on " in line:
            return proc, line.split("serving on ", 1)[1].strip()
    raise SystemExit("the server did not start")


async def seat_client(
    ws: ClientConnection, seat: str, state: mc.State, rng_seed: int, stats: Stats, think: float
) -> None:
    """Play one seat until the game is over."""
    bot = make_bot("random", rng_seed)
    sent_at: float | None = None
    sent_index = -1

    async def move_if_mine() -> None:
        nonlocal sent_at, sent_index
        if state.is_over or state.current_player != seat:
            return
        if think:
            await asyncio.sleep(think)
        move = bot.choose(state)
        sent_index = len(state.history)
        sent_at = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "move": str(move), "index": sent_index}))

    await move_if_mine()
    async for raw in ws:
        # The client's CPU is not what is measured: read an update's index and move
        # from its head (the server writes them first) rather than decode the changes.
        text = raw if isinstance(raw, str) else raw.decode()
        head = UPDATE_HEAD.match(text)
        if stats.measuring:
            stats.received += len(text.encode())
            stats.messages += 1
            if head:
                stats.update_sizes.append(len(text.encode()))
        message = (
            {"type": "update", "index": int(head[1]), "move": head[2]} if head else json.loads(raw)
        )
        kind = message["type"]
        if kind == "update":
            if message["index"] != len(state.history):
                stats.errors.append(
                    f"out of order update {message['index']} at {len(state.history)}"
                )
                return
            state.play(message["move"])
            if message["index"] == sent_index and sent_at is not None:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if state.is_over:
                return
            await move_if_mine()
        elif kind == "error":
            stats.errors.append(f"{message['code']}: {message['message']}")
            return


async def open_table(http: httpx.AsyncClient, ws_url: str, rng: random.Random) -> Table:
    """Create an all-human table, join every seat and say hello on each socket
    (retried: a pooled keep-alive connection may have been closed by the server)."""
    for attempt in range(5):
        try:
            return await try_open_table(http, ws_url, rng)
        except httpx.TransportError:
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


async def try_open_table(http: httpx.AsyncClient, ws_url: str, rng: random.Random) -> Table:
    teams = rng.randint(2, 4)
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
    http: httpx.AsyncClient,
    ws_url: str,
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
        try:
            await asyncio.gather(
                *(
                    seat_client(
                        ws, seat, table.start.copy(), slot * 1000 + game * 10 + i, stats, think
                    )
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
        table = await open_table(http, ws_url, rng)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(
    url: str, tables: int, seconds: float, warmup: float, think: float, pid: int | None
) -> tuple[Stats, float]:
    stats = Stats()
    ws_url = url.replace("http://", "ws://", 1)
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        # Every table is open and every seat connected before the clock starts.
        first = await asyncio.gather(
            *(open_table(http, ws_url, random.Random(-i)) for i in range(tables))
        )
        # The clients' own collector pauses would count as the server's latency.
        gc.collect()
        gc.freeze()
        stop_at = time.perf_counter() + warmup + seconds
        tasks = [
            asyncio.create_task(table_slot(http, ws_url, i, first[i], stats, stop_at, think))
            for i in range(tables)
        ]
        return await measure(stats, tasks, seconds, warmup, pid)


async def measure(
    stats: Stats, tasks: list[asyncio.Task[None]], seconds: float, warmup: float, pid: int | None
) -> tuple[Stats, float]:
    await asyncio.sleep(warmup)
    stats.measuring = True
    cpu_start = None if pid is None else process_cpu(pid)
    measure_start = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - measure_start
    cpu_end = None if pid is None else process_cpu(pid)
    if cpu_start is not None and cpu_end is not None:
        stats.server_cpu = cpu_end - cpu_start
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
        "--think", type=float, default=0, help="seconds a client waits before moving"
    )
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary directory)")
    parser.add_argument("--url", help="load a server already running at this address instead")
    parser.add_argument("--clock", help="every table's time control (a preset: rapid, daily...)")
    args = parser.parse_args()
    global CLOCK
    CLOCK = args.clock
    lateness = ""
    with tempfile.TemporaryDirectory() as tmp, Path(tmp, "server-stderr.txt").open("w+") as errors:
        db_url = args.db or f"sqlite:///{tmp}/load.db"
        if args.url:
            db_url, url, proc = "external server", args.url, None
        else:
            proc, url = start_server(db_url, errors)
        try:
            pid = None if proc is None else proc.pid
            stats, elapsed = asyncio.run(
                run(url, args.tables, args.seconds, args.warmup, args.think, pid)
            )
        finally:
            if proc is not None:
                proc.send_signal(signal.SIGINT)  # a clean stop: the lateness is printed
                proc.wait(timeout=30)
            errors.seek(0)
            lateness = next((ln for ln in errors if ln.startswith("event-loop lateness")), "")
    lat = stats.latencies
    print(
        f"server_load: {args.tables} concurrent tables on 'short', 3 riders, 2-4 teams, "
        f"think {args.think * 1000:.0f} ms, {db_url.split(':')[0]}, clock {args.clock or 'none'}"
    )
    print(f"  measured             {elapsed:.1f} s (after {args.warmup:.0f} s warm-up)")
    print(f"  accepted moves       {len(lat)}  ({len(lat) / elapsed:,.0f} moves/s)")
    print(f"  games finished       {stats.games}")
    if lat:
        print(f"  move latency p50     {percentile(lat, 0.50) * 1000:.1f} ms")
        print(f"  move latency p90     {percentile(lat, 0.90) * 1000:.1f} ms")
        print(f"  move latency p99     {percentile(lat, 0.99) * 1000:.1f} ms")
        print(f"  move latency max     {max(lat) * 1000:.1f} ms")
        if stats.server_cpu is not None:
            busy = stats.server_cpu / elapsed * 100
            print(
                f"  server CPU per move  {stats.server_cpu / len(lat) * 1000:.3f} ms (server busy {busy:.0f}% of a core)"
            )
    if stats.update_sizes and lat:
        sizes = sorted(stats.update_sizes)
        print(f"  median update        {sizes[len(sizes) // 2]} bytes")
        print(
            f"  sent per move        {stats.received / len(lat):,.0f} bytes in "
            f"{stats.messages / len(lat):.2f} messages"
        )
    if lateness:  # over the whole run, start-up included
        print(f"  server {lateness.strip()}")
    print(
        f"  errors               {len(stats.errors)}"
        + (f" (first: {stats.errors[0]})" if stats.errors else "")
    )


if __name__ == "__main__":
    main()
