"""The course editor's endpoints against a real server: ``GET /editor`` and
``POST /api/editor/check`` (docs/protocol.md, "HTTP API"), bad input included:
every refusal is a 4xx naming what is wrong, and the server answers on after it."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import httpx
import pytest

from peloton import CourseError
from peloton.games.mindcycling import Course
from peloton.games.mindcycling.course import MAX_FINISH, MAX_LANES, MAX_SECTIONS
from peloton.server.limits import MAX_BODY, MAX_INT_DIGITS, MAX_JSON_DEPTH

from .helpers import create

CHECK = "/api/editor/check"


def check(http: httpx.Client, body: Any) -> dict[str, Any]:
    answer = http.post(CHECK, json=body)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def refused(answer: httpx.Response, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    message: str = error["message"]
    return message


def test_the_editor_page_is_served(http: httpx.Client) -> None:
    page = http.get("/editor")
    assert page.status_code == 200
    assert "/static/js/editor.js" in page.text
    assert 'href="/editor?game=mind-cycling"' in http.get("/").text  # the lobby's link


def test_a_draft_gets_the_problems_of_course_check_each_placed_mc_1_3(
    http: httpx.Client,
) -> None:
    draft = {
        "name": "walls",
        "lanes": 5,
        "finish": 30,
        "sections": [[6, "plain"], [12, "sprint"]],
        "feed": ["a3"],
        "rocks": [],
    }
    body = check(http, {"course": draft})
    with pytest.raises(CourseError) as caught:
        Course.from_dict(draft)
    assert [p["message"] for p in body["problems"]] == caught.value.problems
    assert body["problems"] == [
        {
            "message": "feed square 'a3' is in the start zone (rows 1-5)",
            "row": 3,
            "square": "a3",
            "key": "feed",
        }
    ]
    assert body["ok"] is False and body["draft"] == draft
    assert tomllib.loads(body["toml"]) == draft
    fixed = check(http, {"course": {**draft, "feed": ["a13"]}})
    assert fixed["ok"] is True and fixed["problems"] == []
    assert Course.from_text(fixed["toml"], toml=True).feed == ("a13",)


def test_an_uploaded_file_opens_as_a_draft(http: httpx.Client) -> None:
    text = (Course.load("short").to_dict() | {"rock": []}).__repr__()  # not TOML
    body = check(http, {"text": text, "format": "toml"})
    assert body["ok"] is False and body["draft"] is None
    assert (
        body["problems"][0]["key"] == "file" and "not valid TOML" in body["problems"][0]["message"]
    )
    data = Course.load("short").to_dict() | {"rock": ["c20"]}
    body = check(http, {"text": json.dumps(data), "format": "json"})
    assert body["draft"] == Course.load("short").to_dict()
    assert body["notes"] == ["unknown key 'rock' left out"]
    assert body["problems"][0]["message"].startswith("unknown key(s) 'rock'")


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ([1, 2], "send"),
        ("a course", "send"),
        ({"text": 42}, "send"),
        ({"text": "name = 'x'", "format": "yaml"}, "'format' must be 'toml' or 'json'"),
    ],
)
def test_a_body_that_is_not_a_check_is_a_400(http: httpx.Client, body: Any, says: str) -> None:
    assert says in refused(http.post(CHECK, json=body), 400, "bad_request")


def test_text_that_is_not_json_is_a_400(http: httpx.Client) -> None:
    message = refused(http.post(CHECK, content=b"{course: nope"), 400, "bad_request")
    assert "not valid JSON" in message
    message = refused(http.post(CHECK, content=b"\xff\xfe"), 400, "bad_request")
    assert "UTF-8" in message


def test_input_over_the_servers_limits_is_refused(http: httpx.Client) -> None:
    """server/limits.py: the body's size, the JSON's depth and its integers' digits."""
    huge = json.dumps({"course": {"name": "x" * MAX_BODY, "finish": 20, "sections": []}})
    message = refused(http.post(CHECK, content=huge.encode()), 413, "too_large")
    assert str(MAX_BODY) in message
    deep = "[" * (MAX_JSON_DEPTH + 5) + "]" * (MAX_JSON_DEPTH + 5)
    message = refused(
        http.post(CHECK, content=f'{{"course": {deep}}}'.encode()), 400, "bad_request"
    )
    assert f"deeper than {MAX_JSON_DEPTH}" in message
    long = "9" * (MAX_INT_DIGITS + 1)
    message = refused(
        http.post(CHECK, content=f'{{"course": {{"finish": {long}}}}}'.encode()), 400, "bad_request"
    )
    assert f"{MAX_INT_DIGITS + 1} digits" in message
    # A file's text is read with the same care: an integer past what Python reads is
    # the file's problem, not the server's.
    body = check(http, {"text": f"finish = {'9' * 5000}\nsections = []\n"})
    assert body["draft"] is None and "not accepted" in body["problems"][0]["message"]
    assert body["problems"][0]["key"] == "file"
    assert http.get("/api/courses").status_code == 200  # and the server answers on


@pytest.mark.parametrize(
    ("course", "says"),
    [
        ({"finish": 1_000_000, "sections": [[5, "plain"]]}, f"at most {MAX_FINISH} rows"),
        ({"finish": 40, "lanes": 1000, "sections": [[5, "plain"]]}, f"between 1 and {MAX_LANES}"),
        (
            {"finish": 40, "sections": [[r, "plain"] for r in range(2, 10_000)]},
            f"at most {MAX_SECTIONS}",
        ),
        (
            {"finish": 40, "sections": [[5, "plain"]], "rocks": ["a9"] * 5000},
            "5000 squares; at most 6",
        ),
    ],
)
def test_a_course_beyond_the_caps_is_answered_with_its_problem_and_no_draft(
    http: httpx.Client, course: dict[str, Any], says: str
) -> None:
    body = check(http, {"course": course})
    assert body["ok"] is False and body["draft"] is None and body["toml"] is None
    assert any(says in p["message"] for p in body["problems"]), body["problems"]
    assert body["notes"], "the answer says why the draft cannot be opened"


def test_a_malformed_course_is_answered_with_its_problems(http: httpx.Client) -> None:
    for course in ([1, 2, 3], {"finish": "far", "sections": "plain"}, {"sections": [[None, 3]]}):
        body = check(http, {"course": course})
        assert body["ok"] is False and body["problems"] and body["draft"] is None, course


def test_a_table_opens_on_a_checked_draft(http: httpx.Client) -> None:
    draft = check(http, {"course": Course.load("short").to_dict() | {"name": "mine"}})
    assert draft["ok"] is True
    course = tomllib.loads(draft["toml"])
    table = create(http, course=course, seats=["human", "greedy"], riders=3)
    assert http.get(f"/api/tables/{table}").json()["course"] == "mine"
