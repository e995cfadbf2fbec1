"""Snapshots for clients and the public move list."""

from __future__ import annotations

import json

from peloton.core import CHANCE
from peloton.games import pistard as pi

from .helpers import at, play


def test_snapshot_first_move() -> None:
    state = pi.new_game(2)
    snap = pi.snapshot(state, "A")
    assert (
        snap["game"] == "pistard" and snap["phase"] == "first" and snap["current_player"] == CHANCE
    )
    assert snap["is_chance"] and snap["dice_to_roll"] == 4 and snap["legal"] == []
    assert len(snap["track"]["rows"]) == 40 and snap["track"]["rows"][0][0] in pi.COLOURS
    assert all(r["behind_line"] and r["row"] is None for r in snap["riders"])
    play(state, "roll:1,2,3,4", "roll:3,3,3,3", "A1=4")
    snap = pi.snapshot(state, "A")
    assert snap["rolls"] == {"A": [1, 2, 3, 4], "B": [3, 3, 3, 3]}
    assert snap["dice"]["A"] == [1, 2, 3]
    assert set(snap["legal"]) == {str(m) for m in state.legal_moves()}
    assert pi.snapshot(state, "B")["legal"] == [] and pi.snapshot(state)["legal"] == []
    json.dumps(snap)


def test_snapshot_race() -> None:
    state = at("A1:2.c5,A2:1.b30,B1:1.a20", rest=" / A=3,B=0 / 2=1 / A")
    play(state, "roll:2,5")
    snap = pi.snapshot(state, "A")
    a1 = next(r for r in snap["riders"] if r["id"] == "A1")
    assert a1 == {
        "id": "A1",
        "team": "A",
        "colour": "yellow",
        "distance": 45,
        "lap": 2,
        "row": 5,
        "lane": "c",
        "square": "c5",
        "eliminated": False,
        "behind_line": False,
        "moved": False,
        "due": True,
        "assigned": None,
    }
    assert next(r for r in snap["riders"] if r["id"] == "A3")["eliminated"]
    assert (
        snap["due"] == "A1" and snap["dice"] == {"A": [2, 5]} and snap["points"] == {"A": 3, "B": 0}
    )
    assert snap["laps"] == {"2": 1} and snap["last_moves"] == ["roll:2,5"]
    assert snap["result"]["winner"] is None and not snap["is_over"]
    json.dumps(snap)


def test_public_moves_show_everything() -> None:
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:3,3,3,3")
    assert pi.public_moves(state, "B") == pi.public_moves(state) == ["roll:1,2,3,4", "roll:3,3,3,3"]
    view = state.view("B")
    assert view == state and view is not state
