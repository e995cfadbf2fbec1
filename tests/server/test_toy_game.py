"""The server names no game (issue 33, point 1): a toy game it has never heard of
(:mod:`.toy_game`, loaded through ``PELOTON_EXTRA_GAMES``) offers a tutorial, a course
editor and a competition through its ``GameInfo``, and each is played through a real
server, beside the bundled games' own."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import httpx
import pytest

from peloton.core.registry import EXTRA_GAMES_ENV

from .helpers import TIMEOUT, Server

TOY = "toy-count"
ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "peloton" / "server"
#: Every name of a bundled game, as code or a page would spell it.
GAME_NAMES = ("mindcycling", "mind-cycling", "mind_cycling", "mindtwist", "mind-twist",
              "mind_twist", "pistard", "cyclo")  # fmt: skip


@pytest.fixture(scope="module")
def server(db_url: str) -> Iterator[Server]:
    """A running ``peloton serve`` that loads the toy game (its workers too)."""
    extra = {EXTRA_GAMES_ENV: "tests.server.toy_game",
             "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}  # fmt: skip
    with mock.patch.dict(os.environ, extra):
        srv = Server(db_url).start()
    yield srv
    srv.stop()


def test_the_games_list_says_what_each_game_offers(http: httpx.Client) -> None:
    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    offers = {name: (g["tutorial"], g["editor"], g["competitions"]) for name, g in games.items()}
    assert offers[TOY] == (True, True, True)
    # Issue 34: every game has a lesson; each game with courses or layouts a builder.
    assert offers["mind-cycling"] == (True, True, False)
    assert offers["cyclo"] == (True, True, True)
    assert offers["pistard"] == (True, True, False)  # its layout builder
    assert offers["mind-twist"] == (True, False, False)


def test_the_toy_tutorial_plays_through_the_api(http: httpx.Client) -> None:
    overview = http.get("/api/tutorial", params={"game": TOY}).json()
    assert overview["game"] == TOY and overview["target"] == 5
    assert [s["id"] for s in overview["steps"]] == ["add", "win"]
    # The bundled tutorial stays the default.
    assert http.get("/api/tutorial").json()["game"] == "mind-cycling"
    first = http.get("/api/tutorial/steps/1", params={"game": TOY}).json()
    assert (first["expect"], first["ask"], first["snapshot"]["total"]) == ("+2", "add 2", 0)
    off = http.post("/api/tutorial/steps/1", params={"game": TOY}, json={"move": "+1", "done": 0})
    assert off.status_code == 400 and off.json()["error"]["code"] == "off_lesson"
    bad = http.post("/api/tutorial/steps/1", params={"game": TOY}, json={"move": "+3", "done": 0})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "notation"
    answer = http.post(
        "/api/tutorial/steps/1", params={"game": TOY}, json={"move": "+2", "done": 0}
    )
    view = answer.json()
    assert [t["by"] for t in view["turns"]] == ["you", "B"] and view["finished"]
    assert view["snapshot"]["total"] == 3
    win = http.post("/api/tutorial/steps/2", params={"game": TOY}, json={"move": "+2", "done": 0})
    assert win.json()["snapshot"]["result"] == "A"
    assert http.get("/tutorial", params={"game": TOY}).status_code == 200
    assert http.get("/tutorial", params={"game": "chess"}).status_code == 404
    assert http.get("/tutorial", params={"game": TOY, "lesson": "pro"}).status_code == 404
    none = http.get("/api/tutorial", params={"game": TOY, "lesson": "pro"})
    assert none.status_code == 404
    assert (
        "Count to five has no lesson 'pro' (its lessons: first)" in none.json()["error"]["message"]
    )


def test_the_toy_editor_checks_its_course_in_a_worker(http: httpx.Client) -> None:
    good = http.post("/api/editor/check", json={"game": TOY, "course": {"name": "x", "target": 7}})
    assert good.status_code == 200, good.text
    assert good.json()["ok"] and good.json()["toml"] == 'name = "x"\ntarget = 7\n'
    bad = http.post(
        "/api/editor/check", json={"game": TOY, "text": "target = 99", "format": "toml"}
    ).json()
    assert not bad["ok"] and bad["problems"][0]["key"] == "target"
    assert "99" in bad["problems"][0]["message"]
    assert http.get("/editor", params={"game": TOY}).status_code == 200
    assert http.get("/editor", params={"game": "mind-twist"}).status_code == 404
    refused = http.post("/api/editor/check", json={"game": "mind-twist", "course": {}})
    assert refused.status_code == 400 and "course editor" in refused.json()["error"]["message"]


def test_a_toy_match_is_played_to_its_end_by_bots(http: httpx.Client) -> None:
    kinds = {k["kind"]: k for k in http.get("/api/competitions/kinds").json()["kinds"]}
    assert kinds["toy-match"]["of"] == TOY and kinds["stage"]["of"] == "cyclo"
    assert {"name": "games", "default": 3} in kinds["toy-match"]["settings"]
    answer = http.post(
        "/api/competitions", json={"kind": "toy-match", "seats": ["random", "random"]}
    )
    assert answer.status_code == 201, answer.text
    comp_id = answer.json()["id"]
    deadline = time.monotonic() + 4 * TIMEOUT
    detail = http.get(f"/api/competitions/{comp_id}").json()
    while detail["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
        detail = http.get(f"/api/competitions/{comp_id}").json()
    assert detail["status"] == "finished", detail
    assert detail["game"] == "round" and detail["winner"] in ("A", "B")
    assert detail["tables"][0]["name"] == "to 5"
    played = detail["standings"]["played"]
    assert 2 <= played <= 3 and max(detail["standings"]["wins"].values()) == 2
    table = http.get(f"/api/tables/{detail['tables'][0]['table']}").json()
    assert table["game"] == TOY
    wrong = http.post(
        "/api/competitions", json={"game": TOY, "kind": "stage", "seats": ["random", "random"]}
    )
    assert wrong.status_code == 400 and "toy-match" in wrong.json()["error"]["message"]


def test_no_server_module_names_a_game() -> None:
    """The server serves whatever games are installed: none of its files names one."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in sorted(SERVER.rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if any(name in line.lower() for name in GAME_NAMES)
    ]
    assert not found, "\n".join(found)
