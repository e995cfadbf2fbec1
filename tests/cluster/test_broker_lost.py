"""Issue 32, point 6: a node that loses the broker closes its relayed clients with
1012 at once, while the broker is still gone, so that they connect again (rather
than wait, a move unanswered, until Redis is back); nothing is lost.

Both ways of losing Redis: killed (its connections close) and stopped with SIGSTOP
(its connections stay open and nothing answers: the node's ping finds it). The close
must come while Redis is still down; how soon is measured, never asserted.
"""

from __future__ import annotations

import json
import random
import signal

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cluster_support import Node, RedisServer
from server.helpers import TIMEOUT, create, join, stored_moves

from .clients import Player
from .test_play import SHORT
from .test_recovery import play

#: Longer than the node may take to notice (a ping's timeout and its interval, and
#: a loaded machine's delays), far shorter than the outage.
NOTICE_SECONDS = 8.0


@pytest.mark.parametrize("how", ["killed", "stopped"])
def test_relayed_clients_are_closed_with_1012_while_the_broker_is_down(
    pair: tuple[Node, Node], own_redis: RedisServer, how: str
) -> None:
    owner, relay = pair  # the node a table is created on holds it
    with owner.http() as http:
        table = create(http, game="mind-twist", options=SHORT, seats=["human", "greedy"])
    with relay.http() as http:
        token = join(http, table, "R", "Rosa")
    rosa = Player([relay], table, token, "Rosa")
    rng = random.Random(3)
    play(rosa, token, table, rng, lambda s: len(s["moves"]) >= 2)
    with connect(f"{relay.ws_url}/ws/tables/{table}", open_timeout=TIMEOUT) as watcher:
        watcher.send(json.dumps({"type": "hello", "token": None}))
        while json.loads(watcher.recv(timeout=TIMEOUT))["type"] != "welcome":
            pass
        assert own_redis.proc is not None
        if how == "killed":
            own_redis.stop()
        else:
            own_redis.proc.send_signal(signal.SIGSTOP)
        try:
            code = None
            try:
                while True:
                    watcher.recv(timeout=NOTICE_SECONDS)
            except ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            except TimeoutError:
                pass
            # Still down: the close came from losing the broker, not from its return.
            assert not own_redis.ping()
            assert code == 1012, f"the relayed watcher was not closed with 1012 ({code})"
        finally:
            if how == "killed":
                own_redis.start()
            else:
                own_redis.proc.send_signal(signal.SIGCONT)
    # The game goes on: the player connects again, and every accepted move is kept.
    before = len(stored_moves(owner.db_url, table))
    after = play(rosa, token, table, rng, lambda s: len(s["moves"]) >= before + 4 or s["is_over"])
    full = stored_moves(owner.db_url, table)  # the bot may have moved since
    assert len(full) >= len(after["moves"]) > before
    for seen, kept in zip(after["moves"], full, strict=False):
        assert seen in (kept, "dial:?")
    assert 1012 in rosa.closes or rosa.welcomes >= 1
    rosa.close()
