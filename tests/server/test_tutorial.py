"""The tutorial's API on a real server: the lesson played step by step through the
engine on the server, and bad input (an unknown step, a malformed body, a move the
engine refuses, a legal move off the lesson) answered with a clear error."""

from __future__ import annotations

import httpx
import pytest

from peloton.games.mindcycling.tutorial import first_race


def test_the_whole_lesson_plays_through_the_api(http: httpx.Client) -> None:
    overview = http.get("/api/tutorial").json()
    assert overview["course"]["name"] == "tutorial"
    count = len(overview["steps"])
    assert count == len(first_race().steps)
    for number in range(1, count + 1):
        view = http.get(f"/api/tutorial/steps/{number}").json()
        assert view["number"] == number and view["count"] == count
        while not view["finished"]:
            expect = view["expect"]
            # The move asked for is a legal move of the position shown.
            assert expect in [m["text"] for m in view["snapshot"]["legal"]]
            answer = http.post(
                f"/api/tutorial/steps/{number}", json={"move": expect, "done": view["done"]}
            )
            assert answer.status_code == 200, answer.text
            view = answer.json()
            assert view["turns"][0]["move"] == expect and view["turns"][0]["by"] == "you"
            assert view["turns"][-1]["snapshot"] == view["snapshot"]
    assert view["snapshot"]["is_over"]
    assert view["snapshot"]["result"]["trophy"] == "A"


def test_the_first_step_and_its_opponent_replies(http: httpx.Client) -> None:
    """MC-5.4: the wind step asks for AD1's 6 rows; the relay step ends with team B's
    three moves played for it."""
    first = http.get("/api/tutorial/steps/1").json()
    assert first["expect"] == "AD1-b9" and first["done"] == 0 and first["turns"] == []
    assert "against the wind" in first["ask"]
    relay = http.get("/api/tutorial/steps/3").json()
    answer = http.post("/api/tutorial/steps/3", json={"move": relay["expect"], "done": 0}).json()
    assert [t["by"] for t in answer["turns"]] == ["you", "B", "B", "B"]
    assert answer["finished"] and answer["expect"] is None and answer["after"]


@pytest.mark.parametrize("step", ["0", "13", "99", "wind", "-1", "1.5"])
def test_an_unknown_step_is_not_found(http: httpx.Client, step: str) -> None:
    for answer in (
        http.get(f"/api/tutorial/steps/{step}"),
        http.post(f"/api/tutorial/steps/{step}", json={"move": "AD1-b9", "done": 0}),
    ):
        assert answer.status_code == 404
        error = answer.json()["error"]
        assert error["code"] == "not_found"
        assert f"no tutorial step '{step}'" in error["message"] and "1 to 12" in error["message"]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"{not json", "JSON"),
        (b"[1, 2]", 'send {"move"'),
        (b'"AD1-b9"', 'send {"move"'),
        (b'{"move": "AD1-b9", "done": 0, "extra": 1}', 'send {"move"'),
        (b'{"done": 0}', "'move' must be a move's text"),
        (b'{"move": 7, "done": 0}', "'move' must be a move's text"),
        (b'{"move": "  ", "done": 0}', "'move' must be a move's text"),
        (b'{"move": "' + b"A" * 41 + b'", "done": 0}', "at most 40 characters"),
        (b'{"move": "AD1-b9", "done": "0"}', "'done' must be a whole number"),
        (b'{"move": "AD1-b9", "done": true}', "'done' must be a whole number"),
        (b'{"move": "AD1-b9", "done": 1}', "no move of yours at position 1"),
        (b'{"move": "AD1-b9", "done": -1}', "no move of yours at position -1"),
    ],
)
def test_a_malformed_body_is_a_bad_request(http: httpx.Client, body: bytes, says: str) -> None:
    answer = http.post(
        "/api/tutorial/steps/1", content=body, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_request"
    assert says in error["message"]


def test_a_move_the_engine_refuses_says_why(http: httpx.Client) -> None:
    """MC-5.2, MC-5.4: AD1 in the wind cannot ride 7 rows; the engine says so."""
    answer = http.post("/api/tutorial/steps/1", json={"move": "AD1-b10", "done": 0})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "illegal_move"
    assert error["message"].startswith("AD1-b10 is illegal: AD1 cannot reach b10 from b3")
    out_of_turn = http.post("/api/tutorial/steps/1", json={"move": "AS1-b8", "done": 0}).json()
    assert out_of_turn["error"]["code"] == "illegal_move"
    assert "it is AD1's turn" in out_of_turn["error"]["message"]
    garbled = http.post("/api/tutorial/steps/1", json={"move": "AD1 to b9", "done": 0}).json()
    assert garbled["error"]["code"] == "notation"


def test_a_legal_move_off_the_lesson_names_the_move_asked_for(http: httpx.Client) -> None:
    answer = http.post("/api/tutorial/steps/1", json={"move": "AD1-b5", "done": 0})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "off_lesson" and error["expect"] == "AD1-b9"
    assert error["message"] == (
        "AD1-b5 is a legal move, but this step is about another one: "
        "AD1 (domestique) rides against the wind to b9 (6 rows) (AD1-b9)"
    )
    # Nothing was played: the step is as it was.
    assert http.get("/api/tutorial/steps/1").json()["snapshot"]["moves_played"] == 0


def test_the_tutorial_page_is_served(http: httpx.Client) -> None:
    answer = http.get("/tutorial")
    assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    assert "/static/js/tutorial.js" in answer.text
