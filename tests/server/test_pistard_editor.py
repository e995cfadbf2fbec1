"""Pistard's layout builder against a real server (issue 34, point 3): ``GET
/editor?game=pistard`` and ``POST /api/editor/check`` with ``"game": "pistard"``; bad
input each answered with a message naming what is wrong, nothing opened, and the
server answering on; and a table raced on a layout drawn in the builder (PI-1.1)."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import httpx
import pytest

from peloton.games.pistard.layout_design import DESIGN_RULES
from peloton.games.pistard.track import COLOUR_OF_LETTER, Layout
from peloton.server.limits import MAX_BODY

from .helpers import create

CHECK = "/api/editor/check"
DEFAULT: dict[str, Any] = Layout.load("default").to_dict()


def check(http: httpx.Client, **body: Any) -> dict[str, Any]:
    answer = http.post(CHECK, json={"game": "pistard", **body})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def messages(answer: dict[str, Any]) -> list[str]:
    return [p["message"] for p in answer["problems"]]


def test_the_layout_builder_page_is_served(http: httpx.Client) -> None:
    page = http.get("/editor", params={"game": "pistard"})
    assert page.status_code == 200
    assert "/static/js/pistard_editor.js" in page.text
    for path in ("/static/js/pistard_editor.js", "/static/css/pistard_editor.css"):
        assert http.get(path).status_code == 200, path
    # Mind Cycling keeps the course editor without a game named.
    assert "/static/js/editor.js" in http.get("/editor").text


def test_a_valid_draft_is_answered_with_its_file_and_no_advice_pi_1_1(
    http: httpx.Client,
) -> None:
    mine = {**DEFAULT, "name": "mine"}
    body = check(http, course=mine)
    assert body["ok"] is True and body["problems"] == [] and body["advice"] == []
    assert body["draft"] == mine
    assert Layout.from_text(body["toml"], toml=True) == Layout.from_dict(mine)
    # A bundled layout opens by its name (the builder's "Start from").
    named = check(http, course="default")
    assert named["ok"] is True and named["draft"] == DEFAULT


def test_a_layout_breaking_a_design_rule_gets_advice_placed_on_its_square(
    http: httpx.Client,
) -> None:
    rows = list(DEFAULT["rows"])
    rows[5] = "rygb"  # lane a: red on rows 4, 5 and 6
    body = check(http, course={**DEFAULT, "rows": rows})
    assert body["ok"] is True  # a design rule broken is advice: the layout races
    triples = [a for a in body["advice"] if a["key"] == "no-triples"]
    assert triples[0] == {
        "message": "no lane repeats a colour three rows running: lane a is red on rows 4, 5 and 6",
        "row": 4,
        "square": "a4",
        "key": "no-triples",
        "rule": None,
    }
    assert {a["key"] for a in body["advice"]} <= {key for key, _ in DESIGN_RULES}


@pytest.mark.parametrize(
    ("change", "says", "place"),
    [
        (
            {"rows": ["ygbx", *DEFAULT["rows"][1:]]},
            "row 1 is 'ygbx': it must be 4 colour letters for lanes a-d",
            {"row": 1, "key": "rows", "rule": "PI-1.1"},
        ),
        (
            {"rows": [*DEFAULT["rows"][:9], "ygbrg", *DEFAULT["rows"][10:]]},
            "row 10 is 'ygbrg': it must be 4 colour letters",
            {"row": 10, "key": "rows", "rule": "PI-1.1"},
        ),
        (
            {"length": 12, "rows": DEFAULT["rows"][:12]},
            "the track must have 20 to 120 rows, not 12",
            {"row": None, "key": "length", "rule": "PI-1.1"},
        ),
    ],
)
def test_an_unknown_colour_or_a_wrong_row_is_a_placed_problem_pi_1_1(
    http: httpx.Client, change: dict[str, Any], says: str, place: dict[str, Any]
) -> None:
    body = check(http, course={**DEFAULT, **change})
    assert body["ok"] is False and body["advice"] == []
    found = [p for p in body["problems"] if says in p["message"]]
    assert found, body["problems"]
    assert {k: found[0][k] for k in place} == place
    assert body["draft"] is not None  # still drawn, so the designer can fix it


def test_malformed_toml_is_its_one_problem_and_opens_nothing(http: httpx.Client) -> None:
    body = check(http, text='name = "x"\nrows = ["ygbr",\n', format="toml")
    assert body["ok"] is False and body["draft"] is None and body["link"] is None
    assert len(body["problems"]) == 1 and "not valid TOML" in body["problems"][0]["message"]
    assert body["problems"][0]["key"] == "file"
    text = json.dumps({**DEFAULT, "name": "from json"})
    assert check(http, text=text, format="json")["draft"]["name"] == "from json"
    unknown = check(http, course="banked")
    assert messages(unknown) == ["no bundled layout called 'banked' (bundled: default)"]
    assert unknown["draft"] is None


def test_an_oversized_upload_is_a_413_and_the_server_answers_on(http: httpx.Client) -> None:
    huge = json.dumps({"game": "pistard", "text": "rows = []\n" + "#" * MAX_BODY})
    answer = http.post(CHECK, content=huge.encode())
    assert answer.status_code == 413, answer.text
    assert answer.json()["error"]["code"] == "too_large"
    many = check(http, course={"name": "long", "rows": ["ygbr"] * 5000})
    assert many["draft"] is None and "5000 rows" in many["notes"][0]
    assert check(http, course="default")["ok"] is True  # the server answers on


def test_a_share_link_opens_the_same_layout(http: httpx.Client) -> None:
    mine = {**DEFAULT, "name": "linked", "rows": ["rgyy", *DEFAULT["rows"][1:]]}
    token = check(http, course=mine)["link"]
    opened = check(http, link=token)
    assert opened["draft"] == mine and opened["ok"] is True
    assert [a["key"] for a in opened["advice"]][:1] == ["row-colours"]


@pytest.mark.parametrize("damage", ["flip", "cut"])
def test_a_tampered_share_link_is_named_as_such_and_opens_nothing(
    http: httpx.Client, damage: str
) -> None:
    token = check(http, course={**DEFAULT, "name": "linked"})["link"]
    body, _, checksum = token.rpartition(".")
    middle = len(body) // 2
    flipped = body[:middle] + ("A" if body[middle] != "A" else "B") + body[middle + 1 :]
    bad = f"{flipped}.{checksum}" if damage == "flip" else token[: len(token) // 2]
    answer = check(http, link=bad)
    assert answer["draft"] is None and answer["ok"] is False and answer["link"] is None
    assert len(answer["problems"]) == 1
    assert "the share link was" in answer["problems"][0]["message"]


def test_a_table_on_a_drawn_layout_races_on_its_colours_pi_1_1(http: httpx.Client) -> None:
    rows = ["ygbr", "gbry", "bryg", "rygb"] * 6  # 24 rows, every row four colours
    drawn = check(http, course={"name": "drawn", "length": 24, "rows": rows})
    assert drawn["ok"] is True
    layout = tomllib.loads(drawn["toml"])
    table = create(
        http, game="pistard", options={"layout": layout, "players": 3}, seats=["human"] * 3
    )
    track = http.get(f"/api/tables/{table}").json()["snapshot"]["track"]
    assert track["name"] == "drawn" and track["length"] == 24
    assert track["rows"] == [[COLOUR_OF_LETTER[c] for c in row] for row in rows]
