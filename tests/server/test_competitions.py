"""Competitions at the table server (CY-12): a stage race created over HTTP plays its
legs as tables that follow one another with the same seats, the standings after every
leg, the competition file that ``cy.load_competition`` reads, and the ``next`` message
that takes the players to the next table. On SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest

from peloton.games import cyclo as cy

from .helpers import WS, Server

#: A short stage race (CY-12.2): a prologue, ridden twice, at the Starter level.
LEGS = [{"mode": "itt", "course": "prologue"}, {"mode": "itt", "course": "prologue"}]


def create(http: httpx.Client, **request: Any) -> dict[str, Any]:
    answer = http.post("/api/competitions", json=request)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def until_finished(http: httpx.Client, comp_id: str, seconds: float = 240) -> dict[str, Any]:
    """The competition's detail once it is over (a poll with a generous bound, not a
    timing assertion: bots play in worker processes on a loaded machine)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        detail: dict[str, Any] = http.get(f"/api/competitions/{comp_id}").json()
        if detail["status"] != "running":
            return detail
        time.sleep(0.1)
    raise AssertionError(f"competition {comp_id} did not finish: {detail}")


def test_cy_12_2_a_stage_race_of_bots_rides_every_leg_and_its_file_loads(
    server: Server, http: httpx.Client
) -> None:
    created = create(
        http,
        kind="stage",
        settings={"legs": LEGS, "level": "starter"},
        seats=["greedy", "random", "easy"],
    )
    assert created["url"] == f"/competitions/{created['id']}"
    assert "token" not in created  # nobody seated: only bots ride
    first = http.get(f"/api/tables/{created['table']}").json()
    assert first["competition"] == created["id"]
    assert first["options"]["mode"] == "itt" and first["options"]["players"] == 3

    detail = until_finished(http, created["id"])
    assert detail["status"] == "finished" and detail["current"] is None
    assert [t["number"] for t in detail["tables"]] == [1, 2]
    assert detail["tables"][0]["table"] == created["table"]
    assert {t["name"] for t in detail["tables"]} == {"itt on prologue"}
    assert detail["played"] == 2 and detail["games"] == 2
    # Same seats at every table: the bots carried over.
    for game in detail["tables"]:
        table = http.get(f"/api/tables/{game['table']}").json()
        assert table["status"] == "finished" and table["competition"] == created["id"]
        assert [(s["seat"], s["kind"]) for s in table["seats"]] == [
            ("A", "greedy"),
            ("B", "random"),
            ("C", "easy"),
        ]
    # The standings after each leg, the last being the competition's.
    assert [h["ridden"] for h in detail["history"]] == [1, 2]
    assert detail["history"][-1] == detail["standings"]
    assert detail["leader"] == detail["standings"]["jerseys"]["yellow"] == detail["winner"]

    # The file is the competition's to_dict(): it loads, replaying every leg.
    answer = http.get(f"/api/competitions/{created['id']}/file")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert (data["format"], data["kind"], len(data["games"])) == (cy.COMPETITION_FORMAT, "stage", 2)
    loaded = cy.load_competition(data)
    assert loaded.to_dict() == data
    assert loaded.standings == detail["standings"] and loaded.is_over
    assert [g["players"]["A"]["kind"] for g in data["games"]] == ["greedy", "greedy"]

    listed = http.get("/api/competitions").json()["competitions"]
    mine = next(c for c in listed if c["id"] == created["id"])
    assert (mine["status"], mine["title"], mine["game"]) == ("finished", "stage race", "leg")


def test_a_player_rides_on_to_the_next_leg_with_the_same_seat_token(
    server: Server, http: httpx.Client
) -> None:
    created = create(
        http,
        kind="stage",
        settings={"legs": LEGS, "level": "starter"},
        seats=["human", "greedy"],
        creator={"seat": "A", "name": "Ada"},
    )
    token, first = created["token"], created["table"]
    assert (created["seat"], created["plays"]) == ("A", True)
    rng = random.Random(3)
    ws = WS(server, first)
    try:
        snap = ws.hello(token)["snapshot"]
        message: dict[str, Any] = {}
        while True:
            if snap["current_player"] == "A" and not snap["is_over"] and not snap["is_chance"]:
                ws.send({"type": "move", "move": rng.choice(snap["legal"])})
            message = ws.recv()
            if message["type"] == "next":
                break
            assert message["type"] == "update", message
            snap = message["snapshot"]
        assert snap["is_over"]
        # The table knows where the competition goes on: its next leg, for everyone there.
        following = message["id"]
        assert message == {
            "type": "next",
            "competition": created["id"],
            "id": following,
            "url": f"/table/{following}",
            "standings": f"/competitions/{created['id']}",
            "game": "leg",
            "number": 2,
            "over": False,
            "seats": ["A", "B"],
        }
    finally:
        ws.close()
    # The same token seats Ada at the next table, where the bot waits for her.
    table = http.get(f"/api/tables/{following}").json()
    assert table["status"] == "running"
    assert [(s["seat"], s["kind"], s["name"], s["taken"]) for s in table["seats"]] == [
        ("A", "human", "Ada", True),
        ("B", "greedy", "greedy", True),
    ]
    mine = http.get(f"/api/tables/{following}", headers={"Authorization": f"Bearer {token}"})
    assert mine.json()["seat"] == "A"
    detail = http.get(f"/api/competitions/{created['id']}").json()
    assert detail["current"] == following and detail["played"] == 1
    assert detail["history"][0]["ridden"] == 1
    # The leg's times carried over into the classification (CY-12.2).
    assert {r for r, _ in detail["standings"]["yellow"]} == {
        "AS1", "AC1", "AH1", "AH2", "BS1", "BC1", "BH1", "BH2",
    }  # fmt: skip


def test_an_unknown_competition_is_a_404_and_its_page_the_site_404(http: httpx.Client) -> None:
    for path in ("/api/competitions/nosuch", "/api/competitions/nosuch/file"):
        answer = http.get(path)
        assert answer.status_code == 404
        assert answer.json()["error"] == {"code": "not_found", "message": "no competition 'nosuch'"}
    page = http.get("/competitions/nosuch")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "There is no competition “nosuch” on this server." in page.text
    assert 'href="/"' in page.text  # the way back to the lobby


def test_the_kinds_offered_are_the_engines(http: httpx.Client) -> None:
    found = http.get("/api/competitions/kinds").json()["kinds"]
    assert [k["kind"] for k in found] == list(cy.KINDS)
    stage = next(k for k in found if k["kind"] == "stage")
    assert stage["title"] == "stage race" and stage["game"] == "leg"
    assert {s["name"]: s["default"] for s in stage["settings"]} == {
        "legs": "tour",
        "level": "pro",
        "events": False,
        "bonus_seconds": False,
    }


@pytest.mark.parametrize("kind", [k for k in cy.KINDS if k != "stage"])
def test_cy_12_every_track_competition_rides_to_the_end_and_its_file_loads(
    http: httpx.Client, kind: str
) -> None:
    """CY-12.3-12.5: the omnium, the sprint tournament and the pursuit series too, by
    the same protocol: each game a table, the next opened when it ends."""
    created = create(
        http, kind=kind, settings={"level": "starter"}, seats=["greedy", "random", "greedy"]
    )
    detail = until_finished(http, created["id"])
    assert detail["status"] == "finished" and detail["kind"] == kind
    data = http.get(f"/api/competitions/{created['id']}/file").json()
    assert len(data["games"]) == len(detail["tables"]) == detail["played"]
    loaded = cy.load_competition(data)
    assert loaded.is_over and loaded.to_dict() == data
    assert loaded.standings == detail["standings"] == detail["history"][-1]
    assert detail["winner"] == loaded.winner is not None
    modes = {
        http.get(f"/api/tables/{t['table']}").json()["options"]["mode"] for t in detail["tables"]
    }
    if kind == "omnium":  # CY-12.3: its four events in order, each a table
        assert [t["name"].split(" on ")[0] for t in detail["tables"]] == [
            "scratch", "elimination", "tempo", "points",
        ]  # fmt: skip
        assert detail["games"] == 4 and detail["game"] == "event"
        assert detail["leader"] == detail["standings"]["leader"]
    else:
        assert modes <= {"sprint", "team-sprint", "pursuit", "team-pursuit"}


def test_a_player_who_joins_a_free_seat_keeps_it_at_the_next_leg(
    server: Server, http: httpx.Client
) -> None:
    created = create(
        http,
        kind="stage",
        settings={"legs": LEGS, "level": "starter"},
        seats=["human", "human"],
        creator={"seat": "A", "name": "Ada"},
    )
    first = created["table"]
    assert http.get(f"/api/tables/{first}").json()["status"] == "open"  # B's seat is free
    joined = http.post(f"/api/tables/{first}/join", json={"seat": "B", "name": "Bea"}).json()
    tokens = {"A": created["token"], "B": joined["token"]}
    rng = random.Random(5)
    sockets = {seat: WS(server, first) for seat in tokens}
    try:
        snaps = {seat: ws.hello(tokens[seat])["snapshot"] for seat, ws in sockets.items()}
        snap = snaps["A"]
        following = None
        while following is None:
            if not snap["is_over"] and not snap["is_chance"]:
                mover = snap["current_player"]  # its own snapshot lists its legal moves
                sockets[mover].send({"type": "move", "move": rng.choice(snaps[mover]["legal"])})
            for seat, ws in sockets.items():  # both hear every update, then the next message
                message = ws.recv()
                if message["type"] == "next":
                    following = message["id"]
                else:
                    assert message["type"] == "update", message
                    snap = snaps[seat] = message["snapshot"]
    finally:
        for ws in sockets.values():
            ws.close()
    table = http.get(f"/api/tables/{following}").json()
    assert table["status"] == "running"  # both seats taken already: nobody joins again
    assert [(s["seat"], s["name"]) for s in table["seats"]] == [("A", "Ada"), ("B", "Bea")]
    for seat, token in tokens.items():
        mine = http.get(f"/api/tables/{following}", headers={"Authorization": f"Bearer {token}"})
        assert mine.json()["seat"] == seat
    seats = http.get(f"/api/competitions/{created['id']}").json()["seats"]
    assert [(s["seat"], s["kind"], s["name"]) for s in seats] == [
        ("A", "human", "Ada"),
        ("B", "human", "Bea"),
    ]
