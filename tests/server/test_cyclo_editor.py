"""The Cyclo course builder against a real server: ``GET /editor?game=cyclo`` serves
its page and ``POST /api/editor/check`` runs Cyclo's check (the loader's problems with
their rule ids, CY-1.4 to CY-1.7), bad input included: a malformed or oversized upload,
an unknown board, A1 not first, a tampered share link; each answered with what is
wrong, nothing opened or stored, and the server answering on."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton import CourseError
from peloton.games.cyclo import Course, bundled_boards
from peloton.server.limits import MAX_BODY
from peloton.server.work.drafts import check_draft

from .helpers import create

CHECK = "/api/editor/check"


def check(http: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    answer = http.post(CHECK, json={"game": "cyclo", **body})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_the_builder_page_is_served(http: httpx.Client) -> None:
    page = http.get("/editor?game=cyclo")
    assert page.status_code == 200
    assert "/static/js/cyclo_editor.js" in page.text
    assert http.get("/static/js/cyclo_editor_draw.js").status_code == 200
    assert http.get("/static/css/cyclo_editor.css").status_code == 200
    assert "/static/js/editor.js" in http.get("/editor").text  # Mind Cycling's still first


def test_the_bundled_courses_carry_every_board_the_tray_draws_cy_1_3(http: httpx.Client) -> None:
    """The page reads the boards from the bundled courses (written inline there)."""
    courses = http.get("/api/courses?game=cyclo").json()["courses"]
    found = {b["name"] for c in courses for b in c.get("boards", [])}
    assert found == set(bundled_boards())


def test_a_valid_draft_is_checked_with_its_file_and_link_cy_1_4(http: httpx.Client) -> None:
    draft = {"name": "my-classic", "boards": ["A1", "C2", "B1", "E1"]}
    body = check(http, {"course": draft})
    assert body["ok"] is True and body["problems"] == [] and body["advice"] == []
    assert body["draft"] == draft and tomllib.loads(body["toml"]) == draft
    assert Course.from_text(body["toml"], toml=True).length == 120
    opened = check(http, {"link": body["link"]})
    assert opened["draft"] == draft and opened["ok"] is True


def test_unknown_boards_and_a1_not_first_are_named_with_their_rule_cy_1_7(
    http: httpx.Client,
) -> None:
    body = check(http, {"course": {"name": "x", "boards": ["A1", "G7", "E1"]}})
    assert body["ok"] is False
    (problem,) = body["problems"]
    assert "unknown board 'G7'" in problem["message"]
    assert problem["message"].endswith("(CY-1.7; position 2)")
    assert (problem["row"], problem["key"]) == (2, "boards")
    assert body["draft"] == {"name": "x", "boards": ["A1", "G7", "E1"]}  # still opens
    body = check(http, {"course": {"name": "x", "boards": ["C1", "A1", "E1"]}})
    assert [p["message"] for p in body["problems"]] == [
        "course 'x': board 'A1' has start spaces but is not first (CY-1.7; position 2)"
    ]
    body = check(http, {"course": {"name": "x", "boards": ["C1", "E1"]}})
    assert body["ok"] is True and "not A1" in body["advice"][0]["message"]
    assert body["advice"][0]["row"] == 1


def test_a_malformed_toml_upload_is_its_one_problem(http: httpx.Client) -> None:
    body = check(http, {"text": 'name = "x"\nboards = ["A1", ', "format": "toml"})
    assert body["ok"] is False and body["draft"] is None and body["link"] is None
    assert "uploaded course" in body["problems"][0]["message"]


def test_a_json_upload_opens_cy_1_4(http: httpx.Client) -> None:
    text = json.dumps({"name": "tt", "boards": ["E1"], "start": 11, "extra": 1})
    body = check(http, {"text": text, "format": "json"})
    assert body["draft"] == {"name": "tt", "boards": ["E1"], "start": 11}
    assert body["notes"] == ["unknown key 'extra' left out"]
    assert "unknown key(s) 'extra'" in body["problems"][0]["message"]
    body = check(http, {"text": json.dumps(body["draft"]), "format": "json"})
    assert body["ok"] is True


def test_an_oversized_upload_is_a_413_and_the_server_answers_on(http: httpx.Client) -> None:
    huge = json.dumps({"game": "cyclo", "text": "x" * MAX_BODY, "format": "toml"})
    answer = http.post(CHECK, content=huge.encode())
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too_large"
    assert check(http, {"course": {"name": "x", "boards": ["A1", "E1"]}})["ok"] is True


def test_a_tampered_share_link_is_said_so_and_opens_nothing(http: httpx.Client) -> None:
    token = check(http, {"course": {"name": "x", "boards": ["A1", "D2", "E1"]}})["link"]
    flipped = token[:5] + ("A" if token[5] != "A" else "B") + token[6:]
    for bad in (flipped, token[: len(token) // 2]):
        body = check(http, {"link": bad})
        assert body["ok"] is False and body["draft"] is None and body["link"] is None
        (problem,) = body["problems"]
        assert "share link" in problem["message"]


def test_a_table_runs_on_an_inline_course_and_a_refused_one_stores_nothing(
    http: httpx.Client,
) -> None:
    draft = {"name": "my-classic", "boards": ["A1", "C2", "B1", "E1"]}
    before = len(http.get("/api/tables").json()["tables"])
    table = create(
        http, game="cyclo", options={"mode": "classic", "players": 2, "course": draft},
        seats=["greedy", "greedy"],
    )  # fmt: skip
    assert http.get(f"/api/tables/{table}").json()["course"] == "my-classic"
    refused = http.post(
        "/api/tables",
        json={
            "game": "cyclo",
            "options": {
                "mode": "classic",
                "players": 2,
                "course": {**draft, "boards": ["C1", "A1"]},
            },
            "seats": ["greedy", "greedy"],
        },
    )
    assert refused.status_code == 400, refused.text
    assert "has start spaces but is not first" in refused.text
    assert len(http.get("/api/tables").json()["tables"]) == before + 1


board_names = st.sampled_from(["A1", "A2", "B1", "C1", "D2", "E1", "E2", "F2", "Z9", "", "a1"])
near_courses = st.fixed_dictionaries(
    {"boards": st.lists(board_names, max_size=20)},
    optional={
        "name": st.one_of(st.text(max_size=12), st.integers()),
        "start": st.one_of(st.integers(-3, 70), st.text(max_size=3)),
        "lap": st.integers(0, 30),
        "extra": st.none(),
    },
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=6)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.sampled_from(["name", "boards", "start", "x"]), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.one_of(near_courses, json_values))
def test_any_json_gets_an_answer_that_holds_together_cy_1_7(data: Any) -> None:
    """The worker's check (run in-process): never raises; its problems are the
    loader's, each with a rule id; a draft it opens writes a file that reads back."""
    outcome, answer = check_draft({"game": "cyclo", "course": data})
    assert outcome == "ok"
    json.dumps(answer)
    try:
        Course.from_dict(data)
        valid = True
    except (CourseError, TypeError, ValueError, AttributeError):
        valid = False
    assert answer["ok"] is valid
    assert all(re.search(r"\(CY-1\.[47]", p["message"]) for p in answer["problems"])
    if answer["draft"] is not None:
        assert tomllib.loads(answer["toml"]) == answer["draft"]
        assert check_draft({"game": "cyclo", "link": answer["link"]})[1]["draft"] == answer["draft"]
