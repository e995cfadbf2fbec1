"""Two browsers on two nodes of a cluster (issue 19) play one table by clicking: one
page is served by the node running the table, the other by a node that relays it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from cluster_support import Node

from .conftest import Server, artifact, open_page
from .helpers import join, play_to_the_end, root


class NodeServer(Server):
    """A node of a cluster, as the web helpers ask a server (its ``url`` and API)."""

    def __init__(self, node: Node) -> None:  # started already by the cluster fixture
        self.url = node.url
        self.proc = None


def test_two_pages_on_two_nodes_play_one_table(
    start_node: Callable[..., Node], new_context: Any
) -> None:
    owner, other = NodeServer(start_node()), NodeServer(start_node())
    table_id = owner.create(course="short", riders=3, seats=["human", "human"])
    ada = open_page(new_context(), f"{owner.url}/table/{table_id}")
    bob = open_page(new_context(), f"{other.url}/table/{table_id}")  # relayed
    join(ada, "A", "Ada")
    join(bob, "B", "Bob")
    pages = {"A": ada, "B": bob}
    play_to_the_end(other, table_id, pages, until=lambda snap: snap["moves_played"] >= 6)
    played = other.table(table_id)["snapshot"]["moves_played"]
    assert played >= 6
    for page in pages.values():
        expect(root(page)).to_have_attribute("data-moves", str(played))
        assert page.errors == []  # type: ignore[attr-defined]
    bob.screenshot(path=artifact("cluster-relayed-page-1280.png"), full_page=True)
