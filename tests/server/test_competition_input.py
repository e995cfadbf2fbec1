"""Bad competition requests get a clear error and create nothing: an unknown kind, bad
legs or level, bad seats, a creator who cannot sit there, a malformed request. On
SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import Server

LEGS = [{"mode": "itt", "course": "prologue"}]

BAD: list[tuple[Any, int, str, str]] = [
    # (request, status, code, words the message must hold)
    ([1, 2], 400, "bad_request", "a competition request is an object"),
    ({"kind": "stage", "seats": ["human"] * 2, "colour": "pink"}, 400, "bad_request",
     "unknown key(s) 'colour'"),
    ({"kind": "giro", "seats": ["greedy"] * 2}, 400, "bad_options",
     "unknown competition kind 'giro' (kinds: stage"),
    ({"kind": None, "seats": ["greedy"] * 2}, 400, "bad_options", "unknown competition kind None"),
    ({"kind": {"stage": 1}, "seats": ["greedy"] * 2}, 400, "bad_options",
     "unknown competition kind {'stage': 1}"),  # once a 500: an object is no dict key
    ({"kind": "stage", "settings": {"legs": "giro"}, "seats": ["greedy"] * 2}, 400, "bad_options",
     "unknown legs 'giro'"),
    ({"kind": "stage", "settings": {"legs": []}, "seats": ["greedy"] * 2}, 400, "bad_options",
     'a stage race\'s legs are "tour" or a list'),
    ({"kind": "stage", "settings": {"legs": [{"mode": "sprint"}]}, "seats": ["greedy"] * 2}, 400,
     "bad_options", "leg 1: mode 'sprint' is not a stage race leg"),
    ({"kind": "stage", "settings": {"legs": [{"mode": "leg", "course": "nowhere"}]},
      "seats": ["greedy"] * 2}, 400, "bad_options", "leg 1 (leg on nowhere)"),
    ({"kind": "stage", "settings": {"legs": [{"mode": "itt"}] * 13}, "seats": ["greedy"] * 2},
     400, "bad_options", "a stage race has at most 12 legs here, not 13"),
    ({"kind": "stage", "settings": {"level": "legend"}, "seats": ["greedy"] * 2}, 400,
     "bad_options", "unknown level 'legend'"),
    ({"kind": "stage", "settings": "tour", "seats": ["greedy"] * 2}, 400, "bad_options",
     "'settings' must be an object"),
    ({"kind": "stage", "settings": {"legs": LEGS, "wind": 3}, "seats": ["greedy"] * 2}, 400,
     "bad_options", "unknown stage race setting(s) 'wind'"),
    ({"kind": "stage", "settings": {"legs": LEGS}}, 400, "bad_options",
     "'seats' must list one seat kind per team"),
    ({"kind": "stage", "settings": {"legs": LEGS}, "seats": []}, 400, "bad_options",
     "'seats' must list one seat kind per team"),
    ({"kind": "stage", "settings": {"legs": LEGS}, "seats": ["human", "wizard"]}, 400,
     "bad_options", "no seat kind 'wizard'"),
    ({"kind": "stage", "settings": {"legs": LEGS}, "seats": ["greedy"] * 9}, 400, "bad_options",
     "9"),
    ({"kind": "stage", "settings": {"legs": LEGS, "players": 3}, "seats": ["greedy"] * 2}, 400,
     "bad_options", "setting 'players' is 3 but 'seats' lists 2 seats"),
    ({"kind": "stage", "settings": {"legs": LEGS}, "seats": ["human", "greedy"],
      "creator": {"seat": "B", "name": "Ada"}}, 400, "not_human",
     "seat B is played by the greedy bot"),
    ({"kind": "stage", "settings": {"legs": LEGS}, "seats": ["human", "greedy"],
      "creator": {"seat": "Q", "name": "Ada"}}, 400, "bad_request", "'creator' seat 'Q'"),
    ({"kind": "stage", "settings": {"legs": LEGS}, "seats": ["human", "greedy"],
      "creator": {"seat": "A", "name": ""}}, 400, "bad_request", "'creator' name"),
]  # fmt: skip


@pytest.mark.parametrize(("request_", "status", "code", "words"), BAD)
def test_a_bad_competition_request_is_refused_and_creates_nothing(
    server: Server, http: httpx.Client, request_: Any, status: int, code: str, words: str
) -> None:
    before = (http.get("/api/competitions").json(), http.get("/api/tables").json())
    answer = http.post("/api/competitions", json=request_)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    assert words in error["message"], error["message"]
    assert (http.get("/api/competitions").json(), http.get("/api/tables").json()) == before


def test_a_body_that_is_not_json_is_refused(http: httpx.Client) -> None:
    answer = http.post(
        "/api/competitions", content=b"{kind: stage", headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"
    assert http.get("/api/competitions").json() == {"competitions": []}
