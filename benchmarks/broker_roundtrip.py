"""The broker between cluster nodes (issue 19): what a message and a request cost.

Starts a private ``redis-server`` on a free loopback port (no persistence), then, for
the in-process :class:`LocalBroker` and for :class:`RedisBroker`, measures in this one
process (two broker objects, as two nodes would be):

* publish/subscribe: ``--messages`` messages of ``--size`` bytes from one broker to
  another's subscription, one publish awaited after the other, then 100 at once (a
  multiple of 100 messages); messages a second, from the first send to the last
  delivery;
* request/reply: ``--requests`` requests one at a time (the latency of a round trip:
  median and 99th percentile), then the same number with ``--in-flight`` at once
  (requests a second).

    python benchmarks/broker_roundtrip.py [--messages 20000] [--size 200]
                                          [--requests 2000] [--in-flight 50]

Prints figures only; nothing here is asserted by tests. Both brokers share this
process's one core with the event loop: a real cluster has the two nodes in two
processes (and Redis in a third).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import socket
import statistics
import subprocess
import tempfile
import time

from peloton.server.cluster import broker as b


def start_redis() -> tuple[subprocess.Popen[bytes], str]:
    program = shutil.which("redis-server")
    if program is None:
        raise SystemExit("redis-server is missing: apt-get install redis-server")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    directory = tempfile.mkdtemp(prefix="peloton-bench-redis-")
    proc = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=directory,
        stdout=subprocess.DEVNULL,
    )
    for _ in range(500):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.02)
    proc.kill()
    raise SystemExit("redis-server did not start")


async def measure(url: str | None, args: argparse.Namespace) -> None:
    hub = b.LocalHub()
    one: b.Broker = b.LocalBroker(hub=hub) if url is None else b.connect(url)
    two: b.Broker = b.LocalBroker(hub=hub) if url is None else b.connect(url)
    await one.start()
    await two.start()
    name = "local" if url is None else "redis"

    received = 0
    done = asyncio.Event()

    async def count(_data: bytes) -> None:
        nonlocal received
        received += 1
        if received == args.messages:
            done.set()

    await two.subscribe("bench", count)
    payload = b"x" * args.size
    start = time.perf_counter()
    for _ in range(args.messages):
        await one.publish("bench", payload)
    await asyncio.wait_for(done.wait(), 120)
    seconds = time.perf_counter() - start
    print(f"{name:>5}  publish/subscribe  {args.messages / seconds:10,.0f} messages/s")
    # The same, 100 publishes at a time (as many tables broadcasting at once).
    received = 0
    done.clear()
    start = time.perf_counter()
    for _ in range(0, args.messages, 100):
        await asyncio.gather(*(one.publish("bench", payload) for _ in range(100)))
    await asyncio.wait_for(done.wait(), 120)
    seconds = time.perf_counter() - start
    print(f"{name:>5}  100 publishes at once  {args.messages / seconds:10,.0f} messages/s")

    async def echo(data: bytes) -> bytes:
        return data

    await two.serve("bench:rpc", echo)
    latencies = []
    for _ in range(args.requests):
        t = time.perf_counter()
        await one.request("bench:rpc", payload, timeout=10)
        latencies.append(time.perf_counter() - t)
    latencies.sort()
    p99 = latencies[int(len(latencies) * 0.99) - 1]
    print(
        f"{name:>5}  request one at a time  median {statistics.median(latencies) * 1e3:.3f} ms, "
        f"99th percentile {p99 * 1e3:.3f} ms"
    )
    gate = asyncio.Semaphore(args.in_flight)

    async def one_request() -> None:
        async with gate:
            await one.request("bench:rpc", payload, timeout=30)

    start = time.perf_counter()
    await asyncio.gather(*(one_request() for _ in range(args.requests)))
    seconds = time.perf_counter() - start
    print(
        f"{name:>5}  requests, {args.in_flight} in flight  {args.requests / seconds:10,.0f} requests/s"
    )
    await one.close()
    await two.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--size", type=int, default=200)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--in-flight", type=int, default=50)
    args = parser.parse_args()
    proc, url = start_redis()
    try:
        asyncio.run(measure(None, args))
        asyncio.run(measure(url, args))
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
