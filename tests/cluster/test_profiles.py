"""Profiles across the nodes of a cluster (issue 19): a challenge one node gives is
answered on another, good once; a session made on one node seats its player on
another, whose table her page lists on every node, and ends everywhere when its
player signs out."""

from __future__ import annotations

from cluster_support import Node
from server.helpers import create
from server.profile_support import Signer, challenge

from .clients import detail


def test_a_challenge_of_one_node_is_answered_on_another_and_used_once(
    nodes: list[Node],
) -> None:
    first, second, third = nodes
    signer = Signer()
    with first.http() as one, second.http() as two, third.http() as three:
        asked = challenge(one, "Ada")
        body = {
            "name": "Ada",
            "key": signer.jwk(),
            "challenge": asked["challenge"],
            "signature": signer.sign(asked["text"]),
        }
        registered = two.post("/api/profiles", json=body)
        assert registered.status_code == 201, registered.text
        # Good once: the same answer on a third node is refused.
        again = three.post("/api/profiles/session", json=body)
        assert again.status_code == 403 and again.json()["error"]["code"] == "bad_challenge"
        # A bad signature on another node leaves the challenge for a good answer.
        asked = challenge(three, "ada")
        signed = {"name": "Ada", "challenge": asked["challenge"]}
        bad = one.post("/api/profiles/session", json=signed | {"signature": "AAAA"})
        assert bad.status_code == 400, bad.text
        good = one.post(
            "/api/profiles/session", json=signed | {"signature": signer.sign(asked["text"])}
        )
        assert good.status_code == 200, good.text
        session = good.json()["session"]
        # The session (made on the first node) seats Ada at a table of the third.
        table = create(three, game="mind-twist", seats=["human", "human"])
        joined = two.post(f"/api/tables/{table}/join", json={"seat": "R", "profile": session})
        assert joined.status_code == 200, joined.text
        seats = detail(third, table)["seats"]
        assert seats[0]["profile"] == "Ada" and seats[0]["name"] == "Ada"
        # Her page on every node lists the table the third node runs.
        for client in (one, two, three):
            page = client.get("/api/players/Ada")
            assert page.status_code == 200, page.text
            assert [t["id"] for t in page.json()["tables"]] == [table]
        # Signed out on the second node, the session is over on the others too.
        assert two.post("/api/profiles/sign-out", json={"session": session}).status_code == 200
        late = three.post(f"/api/tables/{table}/join", json={"seat": "B", "profile": session})
        assert late.status_code == 403 and late.json()["error"]["code"] == "not_signed_in"
