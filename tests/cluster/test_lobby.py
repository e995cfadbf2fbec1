"""The lobby of a cluster lists every node's tables, on every node, page by page, each
line as the table's own node tells it (issue 19)."""

from __future__ import annotations

from typing import Any

from cluster_support import Node
from peloton.server.limits import LOBBY_PAGE
from server.helpers import create, join

from .clients import Player, detail, wait_until


def lobby(node: Node, **params: str) -> list[dict[str, Any]]:
    """Every line of the lobby of ``node``, page after page."""
    lines: list[dict[str, Any]] = []
    cursor = None
    with node.http() as http:
        while True:
            answer = http.get(
                "/api/tables", params={**params, **({"cursor": cursor} if cursor else {})}
            )
            assert answer.status_code == 200, answer.text
            lines += answer.json()["tables"]
            cursor = answer.json()["next"]
            if cursor is None:
                return lines


def test_every_node_lists_every_table_of_the_cluster(nodes: list[Node]) -> None:
    made: list[str] = []
    for i in range(LOBBY_PAGE + 3):  # more than a page, spread over the nodes
        with nodes[i % 3].http() as http:
            made.append(create(http, game="mind-twist", seats=["human", "human"]))
    # A table played on its node, and an all-bot table that finishes by itself.
    played = made[1]
    with nodes[0].http() as http:
        tokens = {seat: join(http, played, seat) for seat in ("R", "B")}
        bots = create(http, game="mind-twist", options={"length": 10, "milestones": [5]},
                      seats=["greedy", "random"])  # fmt: skip
    rosa = Player([nodes[2]], played, tokens["R"], "Rosa")
    rosa.send({"type": "move", "move": "dial:1", "index": 0})
    rosa.wait_for(lambda m: m["type"] == "update")
    wait_until("the bots' game ends", lambda: detail(nodes[1], bots)["status"] == "finished")
    for node in nodes:
        lines = lobby(node)
        ids = [line["id"] for line in lines]
        assert sorted(ids) == sorted([*made, bots]) and len(set(ids)) == len(ids)
        keys = [(line["created"], line["id"]) for line in lines]
        assert keys == sorted(keys, reverse=True)  # newest first, then by id
        by_id = {line["id"]: line for line in lines}
        assert by_id[played]["moves"] == 1 and by_id[played]["status"] == "running"
        assert by_id[bots]["status"] == "finished" and "result" in by_id[bots]
        assert by_id[made[0]]["status"] == "open"
        # One status at a time, from every node's tables.
        assert [line["id"] for line in lobby(node, status="finished")] == [bots]
    rosa.close()
