"""The flow of a game at a table, on SQLite and PostgreSQL: the creator seated by the
create request, each move said in words (``update.sentence``, the replay's
``sentences``), the rematch of a finished table (idempotent, every player invited,
kept across a restart), and 404s: a page for browsers, JSON for the API."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from .helpers import WS, Server, join

#: A Mind Twist race over 3 spaces without milestones: a few moves (MT-1.2, MT-2.3).
SHORT_TWIST = {"game": "mind-twist", "options": {"length": 3, "milestones": []}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_seated(http: httpx.Client, request: dict[str, Any]) -> dict[str, Any]:
    answer = http.post("/api/tables", json=request)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def finish(ws: WS, others: list[WS], snap: dict[str, Any], seat: str, seed: int) -> dict[str, Any]:
    """Play ``seat``'s moves (random legal ones) until the game is over; the last
    snapshot. The other seat is a bot."""
    rng = random.Random(seed)
    while not snap["is_over"]:
        if snap["current_player"] == seat and snap["legal"]:
            ws.send({"type": "move", "move": rng.choice(snap["legal"])})
        update = ws.expect("update")
        for other in others:
            other.expect("update")
        assert update["sentence"] and update["sentence"] != "None"
        snap = update["snapshot"]
    return snap


def test_the_creator_is_seated_by_the_create_request(http: httpx.Client) -> None:
    made = create_seated(
        http,
        {**SHORT_TWIST, "seats": ["human", "human"], "creator": {"seat": "B", "name": " Ada  L "}},
    )
    assert made["seat"] == "B" and made["token"]
    detail = http.get(f"/api/tables/{made['id']}", headers=bearer(made["token"])).json()
    assert detail["seat"] == "B"
    assert [(s["seat"], s["taken"], s["name"]) for s in detail["seats"]] == [
        ("R", False, None),
        ("B", True, "Ada L"),
    ]
    assert detail["status"] == "open"
    taken = http.post(f"/api/tables/{made['id']}/join", json={"seat": "B", "name": "Bob"})
    assert taken.status_code == 409


def test_a_bad_creator_is_refused_and_creates_nothing(http: httpx.Client) -> None:
    before = len(http.get("/api/tables").json()["tables"])
    cases = [
        ({"seat": "Z", "name": "Ada"}, 400, "no seat|not a seat"),
        ({"seat": "B", "name": "Ada"}, 400, "bot"),
        ({"seat": "R", "name": ""}, 400, "name"),
        ({"seat": "R"}, 400, "name"),
        ("R", 400, "creator"),
    ]
    for creator, status, words in cases:
        answer = http.post(
            "/api/tables", json={**SHORT_TWIST, "seats": ["human", "random"], "creator": creator}
        )
        assert answer.status_code == status, answer.text
        assert any(w in answer.json()["error"]["message"] for w in words.split("|")), answer.text
    assert len(http.get("/api/tables").json()["tables"]) == before


def test_each_move_is_said_in_words(server: Server, http: httpx.Client) -> None:
    made = create_seated(
        http,
        {"game": "pistard", "seats": ["human", "random"], "creator": {"seat": "A", "name": "Ada"}},
    )
    detail: dict[str, Any] = {}
    for _ in range(1000):  # polling for both rolls (PI-2.1); not a timing assertion
        detail = http.get(f"/api/tables/{made['id']}", headers=bearer(made["token"])).json()
        if detail["snapshot"]["current_player"] == "A":
            break
        time.sleep(0.02)
    legal = detail["snapshot"]["legal"]
    move = legal[0] if isinstance(legal[0], str) else legal[0]["text"]
    ws = WS(server, made["id"])
    try:
        ws.hello(made["token"])
        ws.send({"type": "move", "move": move})
        update = ws.expect("update")
    finally:
        ws.close()
    rider, value = move.split("=")
    assert update["move"] == move
    assert update["sentence"] == f"Team A gives the {value} to {rider} for the first move"
    replay = http.get(f"/api/tables/{made['id']}/replay").json()
    assert len(replay["sentences"]) == len(replay["moves"]) >= 3
    rolls = [m.removeprefix("roll:").split(",") for m in replay["moves"][:2]]
    assert replay["sentences"][:3] == [
        f"A rolls {', '.join(rolls[0][:-1])} and {rolls[0][-1]}",
        f"B rolls {', '.join(rolls[1][:-1])} and {rolls[1][-1]}",
        update["sentence"],
    ]


def test_a_hidden_dial_is_said_without_its_amount(server: Server, http: httpx.Client) -> None:
    """MT-4.1: the dial is the dialler's secret, in words as in notation."""
    made = create_seated(
        http, {**SHORT_TWIST, "seats": ["human", "human"], "creator": {"seat": "R", "name": "Ada"}}
    )
    blue = join(http, made["id"], "B")
    a, b = WS(server, made["id"]), WS(server, made["id"])
    try:
        a.hello(made["token"])
        b.hello(blue)
        a.send({"type": "move", "move": "dial:2"})
        assert a.expect("update")["sentence"] == "Red dials 2 in secret"
        seen = b.expect("update")
        assert seen["move"] == "dial:?" and seen["sentence"] == "Red turns the dial in secret"
    finally:
        a.close()
        b.close()
    replay = http.get(f"/api/tables/{made['id']}/replay", headers=bearer(blue)).json()
    assert replay["sentences"] == ["Red turns the dial in secret"]


def test_a_rematch_seats_its_players_and_invites_them(server: Server, http: httpx.Client) -> None:
    made = create_seated(
        http, {**SHORT_TWIST, "seats": ["human", "random"], "creator": {"seat": "R", "name": "Ada"}}
    )
    old = made["id"]
    early = http.post(f"/api/tables/{old}/rematch", headers=bearer(made["token"]))
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    player, watcher = WS(server, old), WS(server, old)
    try:
        snap = player.hello(made["token"])["snapshot"]
        watcher.hello()
        finish(player, [watcher], snap, "R", seed=3)
        spectator = http.post(f"/api/tables/{old}/rematch")
        assert spectator.status_code == 403
        first = http.post(f"/api/tables/{old}/rematch", headers=bearer(made["token"]))
        assert first.status_code == 200, first.text
        rematch = first.json()
        assert rematch["seat"] == "R" and rematch["token"] and rematch["id"] != old
        for ws in (player, watcher):  # everyone still at the table is invited
            invite = ws.expect("rematch")
            assert (invite["id"], invite["url"], invite["by"]) == (
                rematch["id"],
                f"/table/{rematch['id']}",
                "R",
            )
            assert invite["table"]["rematch"] == rematch["id"]
    finally:
        player.close()
        watcher.close()
    again = http.post(f"/api/tables/{old}/rematch", headers=bearer(made["token"])).json()
    assert (again["id"], again["seat"], again["token"]) == (rematch["id"], None, None)
    new = http.get(f"/api/tables/{rematch['id']}", headers=bearer(rematch["token"])).json()
    before = http.get(f"/api/tables/{old}").json()
    assert new["seat"] == "R" and new["options"] == before["options"]
    assert [(s["seat"], s["kind"], s["name"]) for s in new["seats"]] == [
        ("R", "human", "Ada"),
        ("B", "random", "random"),
    ]
    assert before["rematch"] == rematch["id"]


def test_the_rematch_link_survives_a_restart(db_url: str) -> None:
    first = Server(db_url).start()
    try:
        with first.http() as http:
            made = create_seated(
                http,
                {
                    **SHORT_TWIST,
                    "seats": ["random", "human"],
                    "creator": {"seat": "B", "name": "Bo"},
                },
            )
            ws = WS(first, made["id"])
            try:
                finish(ws, [], ws.hello(made["token"])["snapshot"], "B", seed=5)
            finally:
                ws.close()
            rematch = http.post(
                f"/api/tables/{made['id']}/rematch", headers=bearer(made["token"])
            ).json()
    finally:
        first.stop()
    second = Server(db_url).start()
    try:
        with second.http() as http:
            assert http.get(f"/api/tables/{made['id']}").json()["rematch"] == rematch["id"]
            again = http.post(f"/api/tables/{made['id']}/rematch", headers=bearer(made["token"]))
            assert again.json()["id"] == rematch["id"]
    finally:
        second.stop()


def test_unknown_addresses_are_a_page_for_browsers_and_json_for_the_api(
    http: httpx.Client,
) -> None:
    for path in ("/table/nosuchtable", "/no/such/page", "/static/js/nothing.js"):
        page = http.get(path)
        assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
        assert 'href="/"' in page.text and "/static/css/style.css" in page.text
    assert "nosuchtable" in http.get("/table/nosuchtable").text
    assert "&lt;b&gt;" in http.get("/table/<b>").text  # the message is escaped
    for path in ("/api/nothing", "/api/tables/nosuchtable"):
        answer = http.get(path)
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"
