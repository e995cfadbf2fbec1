"""How late the web table's event loop answers while hard MCTS bots think.

Bots at a web table think in the server's worker processes (``server/work/workers.py``), so
a bot's search should never hold up the event loop that serves every table. This
starts a real ``peloton serve`` (SQLite in a temporary directory, bots without delay),
seats ``hard`` MCTS bots at ``--tables`` tables (every seat a bot, so they start at
once and keep thinking), and from this second process sends a WebSocket ``ping`` on an
idle table every 10 ms, timing each ``pong``: the time a tiny request waits for the
loop (plus loopback and this client's own scheduling). Each server also runs its own
monitor of its loop (``PELOTON_LOOP_LATENESS=1``, :mod:`peloton.server.lateness`: a
wake-up asked for every 10 ms, and how late it came), free of the client's share.

A second server with no bots at all is pinged the same way at the same time, as a
yardstick: on a machine shared with other work, its figures are what the machine
alone costs a ping. The bots' server is pinged first with its bots idle (before the
tables are made), then while they think.

    python benchmarks/loop_lateness.py [--tables 2] [--seconds 20] [--bot hard]

Prints p50, p99 and max of each; the target is p99 under 10 ms while the bots think.
Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

PELOTON = str(Path(sys.executable).parent / "peloton")
PING = '{"type":"ping"}'
#: Bots move as soon as they have chosen; every client here is 127.0.0.1.
SERVE_ARGS = ("--bot-delay", "0", "--limits", "relaxed")
#: Seconds between two pings of one server.
EVERY = 0.010


def start_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    """``peloton serve`` on a free port, bots without delay; the process and its URL."""
    proc = subprocess.Popen(
        [PELOTON, "serve", "--port", "0", "--db", f"sqlite:///{db}", *SERVE_ARGS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # The server's own monitor of its loop (server/lateness.py), printed as it stops.
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PELOTON_LOOP_LATENESS": "1"},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "serving on " in line:
            return proc, line.split("serving on ", 1)[1].strip()
    raise SystemExit("the server did not start")


async def idle_table(http: httpx.AsyncClient, url: str) -> ClientConnection:
    """A WebSocket watching an all-human table nobody plays, greeted."""
    answer = await http.post(f"{url}/api/tables", json={"seats": ["human", "human"]})
    answer.raise_for_status()
    ws = await connect(f"{url.replace('http', 'ws', 1)}/ws/tables/{answer.json()['id']}")
    await ws.send('{"type":"hello","token":null}')
    while '"welcome"' not in str(await ws.recv()):
        pass
    return ws


async def ping_for(ws: ClientConnection, seconds: float) -> list[float]:
    """Ping every :data:`EVERY` seconds for ``seconds``; each round trip, in seconds."""
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        sent = time.perf_counter()
        await ws.send(PING)
        while '"pong"' not in str(await ws.recv()):
            pass  # a welcome or an update of the watched table: not ours
        times.append(time.perf_counter() - sent)
        await asyncio.sleep(max(0.0, sent + EVERY - time.perf_counter()))
    return times


def figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return (
        f"{len(ms):>6} pings   p50 {statistics.median(ms):6.2f} ms   p99 {p99:6.2f} ms   "
        f"max {ms[-1]:7.2f} ms"
    )


async def moves_played(http: httpx.AsyncClient, url: str, ids: list[str]) -> int:
    total = 0
    for table_id in ids:
        total += int((await http.get(f"{url}/api/tables/{table_id}")).json()["moves"])
    return total


async def measure(args: argparse.Namespace, bots_url: str, yard_url: str) -> None:
    async with httpx.AsyncClient(timeout=60) as http:
        bots_ws, yard_ws = await idle_table(http, bots_url), await idle_table(http, yard_url)
        quiet, quiet_yard = await asyncio.gather(
            ping_for(bots_ws, args.quiet), ping_for(yard_ws, args.quiet)
        )
        ids = []
        for _ in range(args.tables):
            made = await http.post(
                f"{bots_url}/api/tables",
                json={"course": args.course, "riders": args.riders, "seats": [args.bot] * 2},
            )
            made.raise_for_status()
            ids.append(made.json()["id"])
        # Measure once every table's bots have started thinking.
        while await moves_played(http, bots_url, ids) < len(ids):
            await asyncio.sleep(0.05)
        before = await moves_played(http, bots_url, ids)
        began = time.perf_counter()
        busy, busy_yard = await asyncio.gather(
            ping_for(bots_ws, args.seconds), ping_for(yard_ws, args.seconds)
        )
        took = time.perf_counter() - began
        played = await moves_played(http, bots_url, ids) - before
        await bots_ws.close()
        await yard_ws.close()
    print(f"event-loop lateness of `peloton serve` (WebSocket ping every {EVERY * 1000:.0f} ms)")
    print(f"  bots idle            {figures(quiet)}")
    print(f"  yardstick (no bots)  {figures(quiet_yard)}")
    print(
        f"  {args.tables} tables of 2 {args.bot} bots thinking ({played} bot moves in {took:.0f} s, "
        f"{args.course}, {args.riders} riders a team):"
    )
    print(f"  bots thinking        {figures(busy)}")
    print(f"  yardstick (no bots)  {figures(busy_yard)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2, help="tables of bots (default 2)")
    parser.add_argument("--bot", default="hard", help="the bot at every seat (default hard)")
    parser.add_argument("--course", default="standard")
    parser.add_argument("--riders", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=20.0, help="measured while bots think")
    parser.add_argument("--quiet", type=float, default=5.0, help="measured before the bots")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bots, bots_url = start_server(Path(tmp) / "bots.db")
        yard, yard_url = start_server(Path(tmp) / "yard.db")
        try:
            asyncio.run(measure(args, bots_url, yard_url))
        finally:
            said = []
            for proc in (bots, yard):
                proc.send_signal(signal.SIGINT)
                said.append(proc.communicate(timeout=30)[1].strip())
        print("the servers' own monitors, over their whole run (idle, then bots thinking):")
        print(f"  bots' server         {said[0]}")
        print(f"  yardstick (no bots)  {said[1]}")


if __name__ == "__main__":
    main()
