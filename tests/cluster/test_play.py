"""Tables across the nodes of a cluster (issue 19), with real Redis, real PostgreSQL
and three real ``peloton serve`` processes: players and spectators on different
nodes see one game (every move checked once, committed, then broadcast), and a table
whose node is killed goes on on another node with nothing lost.

Mind Twist is played (MT-2.2: the active player dials, the other guesses or passes;
a right guess or a pass hands the dial over)."""

from __future__ import annotations

import random
from typing import Any

import httpx

from cluster_support import Node
from server.helpers import TIMEOUT, create, join, stored_moves

from .clients import Player, detail, wait_until

SHORT = {"length": 14, "milestones": [5, 10]}


def choose(snap: dict[str, Any], rng: random.Random) -> str:
    """A move for the player to act (MT-2.2): a dial, or a guess or a pass."""
    return str(rng.choice(snap["legal"]))


def updates(player: Player) -> dict[int, str]:
    """The moves ``player`` was told of, by index (each index once: asserted)."""
    seen: dict[int, str] = {}
    for message in player.messages:
        if message["type"] == "update":
            assert message["index"] not in seen, (player.name, message)
            seen[message["index"]] = message["move"]
    return seen


def test_two_players_on_two_nodes_play_to_the_end_watched_from_a_third(
    nodes: list[Node],
) -> None:
    owner, second, third = nodes
    with owner.http() as http:
        table = create(http, game="mind-twist", options=SHORT, seats=["human", "human"])
        rosa = join(http, table, "R", "Rosa")
    with second.http() as http:  # a join on a node that does not hold the table
        bert = join(http, table, "B", "Bert")
    tokens = {"R": rosa, "B": bert}
    players = {
        "R": Player([owner], table, rosa, "Rosa"),
        "B": Player([second], table, bert, "Bert"),
    }
    watcher = Player([third], table, None, "watcher")
    rng = random.Random(19)
    played: list[str] = []
    while True:
        # The state as Bert's node tells it (a forwarded request).
        snap = detail(second, table, tokens["B"])["snapshot"]
        assert len(snap["moves"]) == len(played)
        if snap["is_over"]:
            break
        seat = snap["current_player"]
        mine = detail(players[seat].node, table, tokens[seat])["snapshot"]
        move = choose(mine, rng)
        players[seat].send({"type": "move", "move": move, "index": len(played)})
        played.append(move)
        index = len(played) - 1
        for client in (*players.values(), watcher):
            update = client.wait_for(
                lambda m, i=index: m["type"] == "update" and m["index"] == i, TIMEOUT
            )
            if client is players[seat]:
                assert update["move"] == move
    # Every move was accepted once, in order, and everyone saw every one of them.
    assert stored_moves(owner.db_url, table) == played
    for client in (*players.values(), watcher):
        assert sorted(updates(client)) == list(range(len(played)))
        assert client.closes == [] and client.welcomes == 1
        client.close()
    # The record, asked on the third node, is complete and the table finished.
    with third.http() as http:
        record = http.get(
            f"/api/tables/{table}/record", headers={"Authorization": f"Bearer {rosa}"}
        )
        assert record.status_code == 200, record.text
        assert len(record.json()["moves"]) == len(played)
        assert http.get(f"/api/tables/{table}").json()["status"] == "finished"


def test_a_killed_owner_is_replaced_and_nothing_accepted_is_lost(nodes: list[Node]) -> None:
    owner, second, third = nodes
    with owner.http() as http:
        table = create(http, game="mind-twist", options=SHORT, seats=["human", "greedy"])
    with second.http() as http:
        token = join(http, table, "R", "Rosa")
    rosa = Player([second, third], table, token, "Rosa")
    watcher = Player([third, second], table, None, "watcher")
    rng = random.Random(7)

    def play_until(done: Any) -> dict[str, Any]:
        """Rosa plays whenever it is her turn (asking her node for the state) until
        ``done(snapshot)``; the last snapshot."""
        while True:
            snap = wait_until(
                "the table's state", lambda: detail(rosa.node, table, token)["snapshot"]
            )
            played = len(snap["moves"])
            if done(snap):
                return dict(snap)
            if snap["current_player"] == "R":
                rosa.send({"type": "move", "move": choose(snap, rng), "index": played})
            # Her move's update, the bot's, an error, or a welcome after she connected
            # again (her move may have been lost with the socket: she asks again).
            rosa.wait_for(
                lambda m, n=played: (
                    (m["type"] == "update" and m["index"] >= n) or m["type"] in ("welcome", "error")
                )
            )

    before = play_until(lambda s: len(s["moves"]) >= 6 or s["is_over"])
    assert not before["is_over"]
    owner.kill()
    after = play_until(lambda s: s["is_over"])
    full = stored_moves(second.db_url, table)
    assert len(full) == len(after["moves"]) > len(before["moves"])
    # The clients were moved (1012) and came back through another node.
    assert 1012 in rosa.closes and rosa.welcomes >= 2
    # Every move a client was told of is in the record, where it was told.
    for client in (rosa, watcher):
        if client is watcher:  # the last move: its update, or a welcome after it
            watcher.wait_for(
                lambda m: (
                    (m["type"] == "update" and m["index"] == len(full) - 1)
                    or (m["type"] == "welcome" and m["snapshot"]["is_over"])
                )
            )
        for index, move in updates(client).items():
            assert move in (full[index], "dial:?"), (client.name, index, move, full)
    # The bot played on the new owner: the moves after the kill are both seats'.
    snap = detail(third, table, None)
    assert snap["status"] == "finished"
    with httpx.Client(base_url=third.url, timeout=TIMEOUT) as http:
        record = http.get(f"/api/tables/{table}/record")
        assert record.status_code == 200 and len(record.json()["moves"]) == len(full)
    rosa.close()
    watcher.close()
