"""A competition of a cluster (issue 19) is run by the node that created it, and read
on any node: its requests are forwarded there (docs/decisions.md)."""

from __future__ import annotations

from cluster_support import Node

from .clients import wait_until

#: A short stage race (CY-12.2): a prologue, ridden twice, at the Starter level.
LEGS = [{"mode": "itt", "course": "prologue"}, {"mode": "itt", "course": "prologue"}]


def test_cy_12_2_a_stage_race_of_bots_on_one_node_is_read_on_the_others(
    nodes: list[Node],
) -> None:
    creator, second, third = nodes
    with creator.http() as http:
        answer = http.post(
            "/api/competitions",
            json={
                "kind": "stage",
                "settings": {"legs": LEGS, "level": "starter"},
                "seats": ["greedy", "random", "easy"],
            },
        )
        assert answer.status_code == 201, answer.text
        comp = answer.json()["id"]
    with second.http() as http:

        def finished() -> dict[str, object] | None:
            detail = http.get(f"/api/competitions/{comp}")
            assert detail.status_code == 200, detail.text
            found: dict[str, object] = detail.json()
            return found if found["status"] == "finished" else None

        detail = wait_until("the stage race ends", finished, timeout=240)
    assert detail["played"] == 2
    with third.http() as http:
        assert http.get(f"/api/competitions/{comp}").json() == detail
        download = http.get(f"/api/competitions/{comp}/file")
        assert (
            download.status_code == 200 and "attachment" in download.headers["content-disposition"]
        )
        assert http.get(f"/competitions/{comp}").status_code == 200  # its page
        assert http.get("/api/competitions/kinds").status_code == 200  # any node's
        missing = http.get("/api/competitions/nosuchcp")
        assert missing.status_code == 404
