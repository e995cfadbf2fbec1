"""Load on the table chat: many people at one table, all writing at once.

Starts ``peloton serve`` as a subprocess (SQLite in a temporary directory unless
``--db`` is given), opens one table and connects ``--people`` spectators to it. Each
writes its whole allowance at once (5 messages: the rate limit of a writer), so the
server keeps ``people × 5`` messages and sends each to everyone at the table. Prints
the messages kept per second, the latency of a message (from sending it to its
writer receiving it back: it was committed and sent to everyone by then), the time
until every connection had every message, and the server's CPU time per message
(read from ``/proc``).

    python benchmarks/chat_load.py [--people 50] [--db URL]

Prints figures only; nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect

from peloton.server.live.chat import CHAT_RATE
from server_load import percentile, process_cpu, start_server


async def person(
    ws_url: str, index: int, total: int, start: asyncio.Event, latencies: list[float]
) -> float:
    """One spectator: says hello, waits for the start, writes its allowance, and reads
    until it has every message; the moment it had them all."""
    async with connect(ws_url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        await _until(ws, "welcome")
        await start.wait()
        sent: dict[str, float] = {}
        for n in range(CHAT_RATE):
            text = f"person {index} says {n}"
            sent[text] = time.perf_counter()
            await ws.send(json.dumps({"type": "chat", "text": text, "name": f"P{index}"}))
        seen = 0
        while seen < total:
            message = json.loads(await ws.recv())
            if message["type"] == "error":
                raise RuntimeError(f"person {index}: {message}")
            if message["type"] != "chat":
                continue
            seen += 1
            at = sent.pop(message["message"]["text"], None)
            if at is not None:
                latencies.append(time.perf_counter() - at)
        return time.perf_counter()


async def _until(ws: ClientConnection, kind: str) -> None:
    while json.loads(await ws.recv())["type"] != kind:
        pass


async def run(url: str, people: int, pid: int | None) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        answer = await http.post("/api/tables", json={"game": "mind-twist", "seats": ["human"] * 2})
        table = answer.json()["id"]
    ws_url = url.replace("http://", "ws://", 1) + f"/ws/tables/{table}"
    start = asyncio.Event()
    latencies: list[float] = []
    total = people * CHAT_RATE
    tasks = [asyncio.create_task(person(ws_url, i, total, start, latencies)) for i in range(people)]
    await asyncio.sleep(1.0 + people * 0.02)  # every spectator welcomed
    cpu_before = process_cpu(pid) if pid is not None else None
    began = time.perf_counter()
    start.set()
    ends = await asyncio.gather(*tasks)
    seconds = max(ends) - began
    cpu_after = process_cpu(pid) if pid is not None else None
    used = cpu_after - cpu_before if cpu_after is not None and cpu_before is not None else None
    print(f"{people} people at one table, {total} messages, {total * people} deliveries")
    print(
        f"  everyone had every message after {seconds:.2f} s ({total / seconds:.0f} messages/s kept)"
    )
    print(
        f"  latency to the writer: median {percentile(latencies, 0.5) * 1000:.0f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )
    if used is not None:
        print(f"  server CPU: {used:.2f} s, {used / total * 1000:.2f} ms a message")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--people", type=int, default=50, help="spectators at the table (default 50)"
    )
    parser.add_argument("--db", help="database URL (default: SQLite in a temporary directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'chat.db'}"
        proc, url = start_server(db)
        try:
            asyncio.run(run(url, args.people, proc.pid))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
