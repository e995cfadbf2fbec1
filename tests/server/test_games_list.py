"""Every game through one path: the facts GET /api/games publishes (read from each
game's declarations), one create request for every game (options at the top level or
in ``options``, ``solo``), and the summary fields every table now has."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from peloton.core import registry
from peloton.games import mindcycling as mc
from peloton.games import pistard as pi

from .helpers import create


def games(http: httpx.Client) -> dict[str, dict[str, Any]]:
    return {g["name"]: g for g in http.get("/api/games").json()["games"]}


def test_the_games_list_reads_each_games_declared_facts(http: httpx.Client) -> None:
    listed = games(http)
    assert next(iter(listed)) == "mind-cycling"  # the protocol's first game first
    for name, game in listed.items():
        info = registry.get(name)
        assert game["title"] == info.title
        assert (game["seats"]["min"], game["seats"]["max"]) == (info.min_players, info.max_players)
        assert len(game["seats"]["letters"]) == info.max_players
        assert (game["hidden_information"], game["has_chance"]) == (
            info.hidden_information,
            info.has_chance,
        )
        assert [o["name"] for o in game["options"]] == list(info.options)
        for option in game["options"]:
            assert option.get("choices", []) == list(info.options[option["name"]].choices)
        assert game["solo"] == (info.min_players == 1)
    cycling = listed["mind-cycling"]
    assert cycling["seats"]["letters"] == list("ABCDEFG")
    assert cycling["courses"] and cycling["solver"]
    assert cycling["solo_options"] == {
        "players": 1,
        "course": "solo",
        "riders": 5,
        "wind": "front",
        "relay_limit": 3,
    }
    assert not listed["pistard"]["courses"] and listed["pistard"]["solo_options"] is None


def test_courses_are_a_games_own(http: httpx.Client) -> None:
    assert (
        http.get("/api/courses", params={"game": "mind-cycling"}).json()
        == http.get("/api/courses").json()
    )
    for game in ("pistard", "chess"):
        answer = http.get("/api/courses", params={"game": game})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"
    answer = http.post("/api/courses/check", json={"game": "pistard", "text": "x"})
    assert answer.status_code == 400


def test_options_may_be_given_at_the_top_level_for_every_game(http: httpx.Client) -> None:
    table = create(
        http, game="pistard", length=24, options={"target": 5}, seats=["human", "greedy"]
    )
    detail = http.get(f"/api/tables/{table}").json()
    assert (detail["options"]["length"], detail["options"]["target"]) == (24, 5)
    assert (detail["length"], detail["target"], detail["solo"]) == (24, 5, False)
    assert detail["round"] == 1 and "layout_data" not in detail


@pytest.mark.parametrize(
    "body",
    [
        {"game": "pistard", "length": 24, "options": {"length": 30}, "seats": ["human", "human"]},
        {"game": "mind-twist", "seats": ["human"], "solo": True},
        {"game": "pistard", "options": {"layout": ["default"]}, "seats": ["human", "human"]},
        {"seats": ["human", "human"], "wind": []},
        {"seats": ["human"], "options": {"players": 2}},
    ],
)
def test_bad_requests_of_the_one_path_are_refused(http: httpx.Client, body: dict[str, Any]) -> None:
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_options"


def test_a_solo_table_may_be_asked_for_by_its_players_option(http: httpx.Client) -> None:
    table = create(http, game="mind-cycling", options={"players": 1}, seats=["human"])
    detail = http.get(f"/api/tables/{table}").json()
    assert (detail["solo"], detail["course"], detail["riders"]) == (True, "solo", 5)
    assert detail["options"] == {
        "players": 1,
        "course": "solo",
        "riders": 5,
        "wind": "front",
        "relay_limit": 3,
    }


def test_object_options_are_named_in_summaries_and_whole_in_the_detail(http: httpx.Client) -> None:
    layout = pi.Layout.load("default").to_dict() | {"name": "my track"}
    table = create(
        http,
        game="pistard",
        options={"layout": layout, "length": layout["length"]},
        seats=["human", "greedy"],
    )
    listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}[table]
    assert listed["options"]["layout"] == listed["layout"] == "my track"
    assert "layout_data" not in listed
    detail = http.get(f"/api/tables/{table}").json()
    assert detail["layout_data"] == layout
    replay = http.get(f"/api/tables/{table}/replay").json()
    assert replay["layout_data"] == layout and replay["options"]["layout"] == "my track"
    course = mc.Course.load("short").to_dict()
    cycling = create(http, course="short", riders=3, seats=["human", "greedy"])
    assert http.get(f"/api/tables/{cycling}/replay").json()["course_data"] == course


def test_choice_facts_are_what_the_game_declares(http: httpx.Client) -> None:
    """``choice_facts`` is a game's ``CHOICE_FACTS`` as declared (Cyclo's modes: what the
    lobby shows of a mode before any table has it), and empty for a game without any."""
    from peloton.games.cyclo.modes import CHOICE_FACTS

    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    assert games["cyclo"]["choice_facts"] == CHOICE_FACTS
    assert set(games["cyclo"]["choice_facts"]["mode"]) >= {"classic", "keirin", "itt"}
    assert games["mind-cycling"]["choice_facts"] == {}
