"""The lobby's HTTP API against a real server (docs/protocol.md, "HTTP API")."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from peloton import RecordError
from peloton.bots import bot_names
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.snapshot import snapshot

from .helpers import WS, Server, create, in_replay, join, replay_snapshots


def test_courses_lists_the_bundled_courses(http: httpx.Client) -> None:
    courses = http.get("/api/courses").json()["courses"]
    assert [c["name"] for c in courses] == mc.bundled_names()
    assert courses[0] == mc.Course.load(mc.bundled_names()[0]).to_dict()


def test_course_check_accepts_toml_json_and_objects(http: httpx.Client) -> None:
    short = mc.Course.load("short").to_dict()
    toml = 'name = "mine"\nlanes = 5\nfinish = 43\nsections = [[6, "plain"], [16, "sprint"]]\n'
    answer = http.post("/api/courses/check", json={"text": toml, "format": "toml"})
    assert answer.status_code == 200
    assert answer.json()["ok"] is True and answer.json()["course"]["name"] == "mine"
    answer = http.post("/api/courses/check", json={"text": json.dumps(short), "format": "json"})
    assert answer.json() == {"ok": True, "course": short}
    assert http.post("/api/courses/check", json={"course": short}).json()["ok"] is True


def test_course_check_lists_every_problem(http: httpx.Client) -> None:
    bad = {
        "name": "bad",
        "lanes": 5,
        "finish": 43,
        "sections": [[6, "plain"], [16, "sprint"], [22, "sprint"]],
        "feed": ["a1"],
        "rocks": ["a30", "b30", "c30", "d30", "e30"],
    }
    answer = http.post("/api/courses/check", json={"text": json.dumps(bad), "format": "json"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["ok"] is False
    assert len(body["problems"]) >= 2
    assert any("rock" in p for p in body["problems"])
    body = http.post("/api/courses/check", json={"text": "lanes = ", "format": "toml"}).json()
    assert body["ok"] is False and "TOML" in body["problems"][0]
    answer = http.post("/api/courses/check", json={"text": "x", "format": "yaml"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"


def test_create_list_and_detail(http: httpx.Client) -> None:
    answer = http.post(
        "/api/tables",
        json={
            "course": "short",
            "riders": 3,
            "wind": "right",
            "relay_limit": 2,
            "seats": ["human", "greedy", "random"],
        },
    )
    assert answer.status_code == 201
    table = answer.json()["id"]
    assert answer.json()["url"] == f"/table/{table}"
    detail = http.get(f"/api/tables/{table}").json()
    assert detail["id"] == table and detail["status"] == "open"
    assert (
        detail["course"] == "short" and detail["course_data"] == mc.Course.load("short").to_dict()
    )
    assert (detail["riders"], detail["wind"], detail["relay_limit"], detail["solo"]) == (
        3,
        "right",
        2,
        False,
    )
    assert detail["round"] == 0 and detail["moves"] == 0
    assert detail["seats"] == [
        {"seat": "A", "kind": "human", "name": None, "taken": False, "profile": None},
        {"seat": "B", "kind": "greedy", "name": "greedy", "taken": True, "profile": None},
        {"seat": "C", "kind": "random", "name": "random", "taken": True, "profile": None},
    ]
    assert "result" not in detail
    expected = mc.new_game("short", mc.default_teams(3, 3), wind="right", relay_limit=2)
    assert detail["snapshot"] == snapshot(expected)
    newer = create(http, course="short", riders=3, seats=["human", "human"])
    listed = http.get("/api/tables").json()["tables"]
    ids = [t["id"] for t in listed]
    assert (
        ids.index(newer) < ids.index(table)
        or listed[ids.index(newer)]["created"] == listed[ids.index(table)]["created"]
    )
    assert {
        t["id"] for t in http.get("/api/tables", params={"status": "open"}).json()["tables"]
    } >= {table, newer}
    assert table not in [
        t["id"] for t in http.get("/api/tables", params={"status": "running"}).json()["tables"]
    ]
    assert http.get("/api/tables", params={"status": "nope"}).status_code == 400


def test_create_with_a_course_object_and_a_solo_table(http: httpx.Client) -> None:
    course = mc.Course.load("short").to_dict() | {"name": "my road"}
    table = create(http, course=course, riders=3, seats=["human", "greedy"])
    detail = http.get(f"/api/tables/{table}").json()
    assert detail["course"] == "my road" and detail["course_data"] == course
    solo = create(http, solo=True, seats=["human"])
    detail = http.get(f"/api/tables/{solo}").json()
    assert detail["solo"] is True and detail["course"] == "solo" and detail["riders"] == 5
    assert detail["snapshot"]["teams"] == {"A": mc.SOLO_COMPOSITION}


@pytest.mark.parametrize(
    ("request_body", "status", "code"),
    [
        ({"course": "nowhere", "seats": ["human", "greedy"]}, 400, "bad_course"),
        ({"course": "/etc/passwd.toml", "seats": ["human", "greedy"]}, 400, "bad_course"),
        ({"course": {"name": "x", "lanes": 0}, "seats": ["human", "greedy"]}, 400, "bad_course"),
        ({"course": 5, "seats": ["human", "greedy"]}, 400, "bad_course"),
        ({"seats": ["human"]}, 400, "bad_options"),
        ({"seats": ["human"] * 8}, 400, "bad_options"),
        ({"seats": ["human", "grandmaster"]}, 400, "bad_options"),
        ({"seats": "human,greedy"}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "riders": 7}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "riders": 2}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "riders": "6"}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "wind": "north"}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "relay_limit": -1}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "solo": "yes"}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "solo": True}, 400, "bad_options"),
        ({"seats": ["human"], "solo": True, "riders": 6}, 400, "bad_options"),
        ({"seats": ["human", "greedy"], "colour": "red"}, 400, "bad_options"),
        ([1, 2], 400, "bad_request"),
    ],
)
def test_create_refuses_bad_options(
    http: httpx.Client, request_body: object, status: int, code: str
) -> None:
    before = len(http.get("/api/tables").json()["tables"])
    answer = http.post("/api/tables", json=request_body)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and error["message"]
    if code == "bad_course":
        assert error["problems"]
    assert len(http.get("/api/tables").json()["tables"]) == before


def test_create_refuses_a_body_that_is_not_json(http: httpx.Client) -> None:
    answer = http.post(
        "/api/tables", content=b"{oops", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"


def test_every_bot_the_games_list_offers_can_sit(http: httpx.Client) -> None:
    offered = {g["name"]: g["bots"] for g in http.get("/api/games").json()["games"]}
    assert set(offered["mind-cycling"]) >= {"random", "greedy", "easy", "medium", "hard", "expert"}
    assert set(offered["mind-cycling"]) <= set(bot_names())
    for name in offered["mind-cycling"]:
        table = create(http, course="short", riders=3, seats=["human", name])
        assert http.get(f"/api/tables/{table}").json()["seats"][1]["kind"] == name


def test_join_gives_a_token_once_per_seat(http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "greedy", "human"])
    answer = http.post(f"/api/tables/{table}/join", json={"seat": "A", "name": "  Ada   Lovelace "})
    assert answer.status_code == 200
    assert answer.json()["seat"] == "A" and len(answer.json()["token"]) >= 20
    seats = http.get(f"/api/tables/{table}").json()["seats"]
    assert seats[0] == {
        "seat": "A",
        "kind": "human",
        "name": "Ada Lovelace",
        "taken": True,
        "profile": None,
    }
    taken = http.post(f"/api/tables/{table}/join", json={"seat": "A", "name": "Eve"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
    bot = http.post(f"/api/tables/{table}/join", json={"seat": "B", "name": "Eve"})
    assert bot.status_code == 400 and bot.json()["error"]["code"] == "not_human"
    for body in (
        {"seat": "Z", "name": "Eve"},
        {"seat": "C", "name": ""},
        {"seat": "C", "name": "x" * 41},
        {"seat": "C"},
        {"seat": 3, "name": "Eve"},
        ["C"],
    ):
        bad = http.post(f"/api/tables/{table}/join", json=body)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request", body
    missing = http.post("/api/tables/nosuchtable/join", json={"seat": "A", "name": "Eve"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert http.get(f"/api/tables/{table}").json()["status"] == "open"
    join(http, table, "C")
    assert http.get(f"/api/tables/{table}").json()["status"] == "running"


def test_unknown_tables_are_404(http: httpx.Client) -> None:
    for path in ("/api/tables/nope", "/api/tables/nope/record", "/api/tables/nope/replay"):
        answer = http.get(path)
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    assert http.get("/table/nope").status_code == 404


def test_pages_are_served(http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    for path in ("/", f"/table/{table}"):
        answer = http.get(path)
        assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]


def _finished_table(server: Server, http: httpx.Client) -> tuple[str, list[str]]:
    """A bot game played to its end; its id and the moves broadcast."""
    table = create(http, course="short", riders=3, seats=["random", "greedy"])
    watcher = WS(server, table)
    snap = watcher.hello()["snapshot"]
    moves: list[str] = []
    while snap["phase"] != "over":
        update = watcher.expect("update")
        moves.append(update["move"])
        snap = update["snapshot"]
    watcher.close()
    return table, moves


def test_record_and_replay_of_a_table(server: Server, http: httpx.Client) -> None:
    table, moves = _finished_table(server, http)
    answer = http.get(f"/api/tables/{table}/record")
    assert answer.headers["content-type"].startswith("application/json")
    assert f'filename="peloton-{table}.json"' in answer.headers["content-disposition"]
    record = mc.Record.from_json(answer.text)
    assert record.course == mc.Course.load("short") and record.teams == mc.default_teams(2, 3)
    replay = http.get(f"/api/tables/{table}/replay").json()
    assert replay["moves"] == record.moves
    assert (
        record.moves[len(record.moves) - len(moves) :] == moves
    )  # the bots may start before we watch
    states = record.states()
    snaps = replay_snapshots(replay)
    assert len(snaps) == len(record.moves) + 1
    assert snaps == [in_replay(snapshot(s)) for s in states]
    assert replay["course_data"] == record.course.to_dict()


def test_uploaded_records_are_replayed(http: httpx.Client) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    rng = random.Random(5)
    for _ in range(20):
        state.play(rng.choice(state.legal_moves()))
    record = mc.Record.from_state(state, {"A": {"name": "Ada", "controller": "human"}})
    answer = http.post("/api/replay", content=record.to_json())
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["moves"] == record.moves
    assert replay_snapshots(body)[-1] == in_replay(snapshot(state))
    assert body["players"] == record.players


@pytest.mark.parametrize(
    ("mutate", "index"),
    [
        (lambda d: d["moves"].__setitem__(3, "AD1-a99"), 3),
        (lambda d: d["moves"].__setitem__(0, "not a move"), 0),
        (lambda d: d.__setitem__("format", "other/9"), None),
        (lambda d: d.__setitem__("game", "chess"), None),
        (lambda d: d.__setitem__("teams", {"A": "DSC"}), None),
        (lambda d: d.pop("moves"), None),
    ],
)
def test_bad_records_get_the_engines_message(
    http: httpx.Client, mutate: object, index: int | None
) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    rng = random.Random(6)
    for _ in range(10):
        state.play(rng.choice(state.legal_moves()))
    data = mc.Record.from_state(state).to_dict()
    mutate(data)  # type: ignore[operator]
    answer = http.post("/api/replay", json=data)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_record"
    assert error["index"] == index
    with pytest.raises(RecordError) as caught:
        mc.Record.from_json(json.dumps(data))
    assert error["message"] == str(caught.value)


def test_an_upload_that_is_not_json_is_a_bad_record(http: httpx.Client) -> None:
    for body in (b"{nope", b"\xff\xfe", b"[1]"):
        answer = http.post("/api/replay", content=body)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_record"
