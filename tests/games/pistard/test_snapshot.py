"""Snapshots for clients and the public move list."""

from __future__ import annotations

import json
import random

from peloton.core import CHANCE
from peloton.core.rng import Rng
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


def test_the_legal_moves_come_in_parts_too() -> None:
    """PI-5.2: each legal move of ``legal`` comes again in ``legal_moves``, in the same
    order, in the parts a client offers it by, so that the page never parses notation:
    a die for a rider in the first move (PI-2.2), a ride along its path with bonus
    squares (PI-3.4), and a die used by a rider with no free square ahead (PI-3.3)."""
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:3,3,3,3")
    snap = pi.snapshot(state, "A")
    assert [m["text"] for m in snap["legal_moves"]] == snap["legal"] and snap["legal"]
    assert {
        "text": "A3=4",
        "kind": "assign",
        "rider": "A3",
        "die": 4,
        "path": [],
        "end": None,
    } in snap["legal_moves"]
    assert pi.snapshot(state, "B")["legal_moves"] == pi.snapshot(state)["legal_moves"] == []

    state = play(at("A1:1.b10,B1:1.a2"), "roll:2")  # A1 yellow on the stripes: a bonus
    bonus = next(m for m in pi.snapshot(state, "A")["legal_moves"] if m["text"] == "A1=2:a12+a13")
    assert bonus == {
        "text": "A1=2:a12+a13",
        "kind": "ride",
        "rider": "A1",
        "die": 2,
        "path": ["a12", "a13"],
        "end": "a13",
    }

    state = at("A1:2.b10,A2:2.a3,B1:1.a11,B2:1.b11,B3:1.c11", bonus="none")
    play(state, "roll:2,6")
    assert pi.snapshot(state, "A")["legal_moves"] == [
        {"text": t, "kind": "stay", "rider": "A1", "die": d, "path": [], "end": None}
        for t, d in (("A1=2:-", 2), ("A1=6:-", 6))
    ]


def test_the_parts_of_every_legal_move_are_its_notations() -> None:
    """PI-5.2: along a game of random moves, every legal move's parts say what its
    notation says (the parsed move's rider, die and path)."""
    state = pi.from_options({"players": 3, "length": 20})
    rnd = random.Random(7)
    kinds: set[str] = set()
    while not state.is_over:
        if state.is_chance:
            state.play(state.chance_move(Rng(rnd.randrange(2**32))))
            continue
        snap = pi.snapshot(state, state.current_player)
        for parts in snap["legal_moves"]:
            move = pi.parse_move(parts["text"])
            assert (parts["rider"], parts["die"], tuple(parts["path"]), parts["end"]) == (
                move.rider,
                move.value,
                move.path,
                move.end,
            )
            kinds.add(parts["kind"])
        state.play(rnd.choice(snap["legal"]))
    assert {"assign", "ride"} <= kinds


def test_public_moves_show_everything() -> None:
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:3,3,3,3")
    assert pi.public_moves(state, "B") == pi.public_moves(state) == ["roll:1,2,3,4", "roll:3,3,3,3"]
    view = state.view("B")
    assert view == state and view is not state
