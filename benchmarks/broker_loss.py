"""How soon a cluster node closes its relayed clients when it loses Redis: two real
nodes on a private Redis, a spectator of one node's table connected through the
other, then Redis killed (or stopped with SIGSTOP); prints the seconds from the loss
to the spectator's close (code 1012), median of ``--runs``.

    python benchmarks/broker_loss.py [--runs 3]

Needs PostgreSQL (``PELOTON_TEST_PG_URL``, as the tests) and ``redis-server``.
"""

from __future__ import annotations

import argparse
import json
import signal
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

sys.path[:0] = [str(Path(__file__).resolve().parent.parent / "tests")]

from cluster_support import Node, RedisServer, fresh_pg_database  # noqa: E402
from server.helpers import create  # noqa: E402


def one(owner: Node, relay: Node, redis: RedisServer, how: str) -> float:
    with owner.http() as http:
        table = create(http, game="mind-twist", options={"length": 12}, seats=["human", "greedy"])
    with connect(f"{relay.ws_url}/ws/tables/{table}", open_timeout=15) as watcher:
        watcher.send(json.dumps({"type": "hello", "token": None}))
        while json.loads(watcher.recv(timeout=15))["type"] != "welcome":
            pass
        assert redis.proc is not None
        start = time.monotonic()
        if how == "killed":
            redis.stop()
        else:
            redis.proc.send_signal(signal.SIGSTOP)
        try:
            while True:
                watcher.recv(timeout=30)
        except ConnectionClosed:
            took = time.monotonic() - start
        finally:
            if how == "killed":
                redis.start()
            else:
                redis.proc.send_signal(signal.SIGCONT)
    time.sleep(3)  # the nodes reconnect
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    redis = RedisServer().start()
    with contextmanager(fresh_pg_database)() as db:
        nodes = [Node(db, redis.url, bot_delay=0.05).start() for _ in range(2)]
        try:
            for how in ("killed", "stopped"):
                times = [one(nodes[0], nodes[1], redis, how) for _ in range(args.runs)]
                print(
                    f"Redis {how}: relayed client closed after {statistics.median(times):.2f} s "
                    f"(median of {args.runs}; max {max(times):.2f} s)"
                )
        finally:
            for node in nodes:
                node.stop()
            redis.close()


if __name__ == "__main__":
    main()
