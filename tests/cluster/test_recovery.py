"""A cluster's nodes recover when Redis (the broker) stops and starts again mid-game
(issue 19): clients are closed with code 1012 or keep going, connect again, and no
accepted move is lost. Bad messages between nodes get clear errors and lose nothing."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest
import redis
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cluster_support import Node, RedisServer
from peloton.server.storage.database import normalise_url
from server.helpers import TIMEOUT, create, join, stored_moves

from .clients import Player, detail, wait_until
from .test_play import SHORT, updates


def owner_of(db_url: str, table_id: str) -> str:
    """The node id holding a table's lease (as the database says)."""
    engine = create_engine(normalise_url(db_url))
    try:
        with engine.connect() as conn:
            found = conn.execute(
                text("SELECT owner FROM leases WHERE key = :k"), {"k": f"table:{table_id}"}
            ).scalar_one()
            return str(found)
    finally:
        engine.dispose()


def play(player: Player, token: str, table: str, rng: random.Random, done: Any) -> dict[str, Any]:
    """Play seat R's moves (asking the player's node for the state each time) until
    ``done(snapshot)``; the last snapshot."""
    while True:
        snap = wait_until(
            "the table's state", lambda: detail(player.node, table, token)["snapshot"]
        )
        if done(snap):
            return dict(snap)
        played = len(snap["moves"])
        if snap["current_player"] == "R":
            player.send({"type": "move", "move": rng.choice(snap["legal"]), "index": played})
        player.wait_for(
            lambda m, n=played: (
                (m["type"] == "update" and m["index"] >= n) or m["type"] in ("welcome", "error")
            )
        )


def test_a_broker_restart_mid_game_loses_no_accepted_move(
    pair: tuple[Node, Node], own_redis: RedisServer
) -> None:
    owner, relay = pair
    with owner.http() as http:
        table = create(http, game="mind-twist", options=SHORT, seats=["human", "greedy"])
    with relay.http() as http:
        token = join(http, table, "R", "Rosa")
    rosa = Player([relay], table, token, "Rosa")
    watcher = Player([owner], table, None, "watcher")
    rng = random.Random(5)
    before = play(rosa, token, table, rng, lambda s: len(s["moves"]) >= 4)
    own_redis.stop()
    time.sleep(1.0)  # the nodes notice the broker is gone (no wall-clock assertion)
    own_redis.start()
    after = play(rosa, token, table, rng, lambda s: s["is_over"])
    full = stored_moves(owner.db_url, table)
    assert len(full) == len(after["moves"]) > len(before["moves"])
    watcher.wait_for(
        lambda m: (
            (m["type"] == "update" and m["index"] == len(full) - 1)
            or (m["type"] == "welcome" and m["snapshot"]["is_over"])
        )
    )
    for client in (rosa, watcher):
        for index, move in updates(client).items():
            assert move in (full[index], "dial:?"), (client.name, index, move)
        client.close()


def test_bad_messages_between_nodes_get_clear_errors_and_lose_nothing(
    pair: tuple[Node, Node], own_redis: RedisServer
) -> None:
    owner, relay = pair
    with owner.http() as http:
        table = create(http, game="mind-twist", options=SHORT, seats=["human", "human"])
    node = owner_of(owner.db_url, table)
    hub = redis.Redis(port=own_redis.port)
    replies = hub.pubsub()
    replies.subscribe("peloton:reply:test", "peloton:ws:test")
    assert replies.get_message(timeout=TIMEOUT)["type"] == "subscribe"
    assert replies.get_message(timeout=TIMEOUT)["type"] == "subscribe"

    def next_message() -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            message = replies.get_message(timeout=1.0)
            if message is not None and message["type"] == "message":
                return dict(message)
        raise AssertionError("no answer from the node")

    # A forwarded request that is not JSON: the requester is told what is wrong.
    envelope = json.dumps({"id": "r1", "reply": "peloton:reply:test"}).encode()
    assert hub.publish(f"peloton:http:{node}", envelope + b"\nnot json") == 1
    header = json.loads(next_message()["data"].partition(b"\n")[0])
    assert header["id"] == "r1" and "forwarded request" in header["error"]
    # A forwarded request for a path that is no table's is refused too.
    request = {"method": "GET", "path": "/api/games", "query": "", "headers": [], "body": ""}
    envelope = json.dumps({"id": "r2", "reply": "peloton:reply:test"}).encode()
    hub.publish(f"peloton:http:{node}", envelope + b"\n" + json.dumps(request).encode())
    header = json.loads(next_message()["data"].partition(b"\n")[0])
    assert header["id"] == "r2" and "only a table's or a competition's requests" in header["error"]
    # A frame for a connection the node does not know: the relay is told to close it.
    frame = {"op": "frame", "conn": "nobody", "relay": "test", "text": '{"type": "ping"}'}
    hub.publish(f"peloton:ws:{node}", json.dumps(frame))
    assert json.loads(next_message()["data"]) == {"op": "out", "items": [["nobody", None]]}
    # Garbage on a node's channel is dropped.
    hub.publish(f"peloton:ws:{node}", b"\xff not json")
    # A client of an unknown table, on a node that does not hold it: a clear error.
    with connect(f"{relay.ws_url}/ws/tables/nosuchtb", open_timeout=TIMEOUT) as ws:
        answer = json.loads(ws.recv(timeout=TIMEOUT))
        assert answer["type"] == "error" and answer["code"] == "not_found"
    with httpx.Client(base_url=relay.url, timeout=TIMEOUT) as http:
        missing = http.get("/api/tables/nosuchtb")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        bad = http.post(f"/api/tables/{table}/join", content=b"{not json")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
        # Nothing was lost: the table still plays, from both nodes.
        tokens = {"R": join(http, table, "R", "Rosa")}
    with owner.http() as http:
        tokens["B"] = join(http, table, "B", "Bert")
    rosa = Player([relay], table, tokens["R"], "Rosa")
    rosa.send({"type": "move", "move": "dial:2", "index": 0})
    assert rosa.wait_for(lambda m: m["type"] == "update", TIMEOUT)["move"] == "dial:2"
    assert stored_moves(owner.db_url, table) == ["dial:2"]
    rosa.close()
    replies.close()
    hub.close()


def set_lease(db_url: str, table_id: str, sql: str) -> None:
    """Change a table's lease row by hand (as a stalled node's lease looks)."""
    engine = create_engine(normalise_url(db_url))
    try:
        with engine.begin() as conn:
            conn.execute(
                text(f"UPDATE leases SET {sql} WHERE key = :k"), {"k": f"table:{table_id}"}
            )
    finally:
        engine.dispose()


def test_a_node_that_loses_a_table_commits_nothing_more_to_it(pair: tuple[Node, Node]) -> None:
    owner, relay = pair
    with owner.http() as http:
        table = create(http, game="mind-twist", options=SHORT, seats=["human", "human"])
        tokens = {seat: join(http, table, seat) for seat in ("R", "B")}
    rosa = Player([owner], table, tokens["R"], "Rosa")
    rosa.send({"type": "move", "move": "dial:1", "index": 0})
    rosa.wait_for(lambda m: m["type"] == "update")
    # Another node (one that does not answer) takes the lease, as after a stall.
    set_lease(
        owner.db_url,
        table,
        "owner = 'thief', epoch = epoch + 1, expires = now() + interval '1 hour'",
    )
    # The owner finds out at its next renewal, and closes its clients (1012).
    assert rosa.conn is not None
    with pytest.raises(ConnectionClosed) as closed:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                rosa.conn.recv(timeout=0.5)
            except TimeoutError:
                continue
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    # Nobody may play it now: the thief does not answer, the old owner refuses.
    for node in (owner, relay):
        answer = httpx.get(f"{node.url}/api/tables/{table}", timeout=TIMEOUT)
        assert answer.status_code == 503 and answer.json()["error"]["code"] == "busy"
    assert stored_moves(owner.db_url, table) == ["dial:1"]
    # The thief's lease ends: a node takes the table again, and the game goes on.
    set_lease(owner.db_url, table, "expires = now()")
    bert = Player([relay], table, tokens["B"], "Bert")
    bert.send({"type": "move", "move": "guess:1", "index": 1})
    assert bert.wait_for(lambda m: m["type"] == "update", TIMEOUT)["move"] == "guess:1"
    assert stored_moves(owner.db_url, table) == ["dial:1", "guess:1"]
    bert.close()
