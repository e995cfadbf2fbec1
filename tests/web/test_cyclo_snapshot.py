"""What the Cyclo view reads from the snapshot beyond the engine's state: where each
ride or wheel lands (``ride``) and each track type's facts (``course.terrain``),
checked against the rules' own scenarios (CY-18)."""

from __future__ import annotations

import json

from peloton.games import cyclo as cy


def play(state: cy.State, moves: tuple[str, ...]) -> None:
    """Play ``moves``, riding on (``X~-``) from every swap window met before one."""
    for move in moves:
        if state.phase == "swap" and "~" not in move:
            state.play(f"{state.due}~-")
        state.play(move)


def test_a_rides_landings_count_room_and_dark_squares() -> None:
    """CY-18.2: AH1-77 ends on a74 and AH1-83/r on a80 (dark squares, one penalty)."""
    state = cy.from_cyn("3 AH1:a75*4 / A*4", course="flemish-4")
    state.play("roll:1,1")
    ride = cy.snapshot(state)["ride"]
    assert ride == {
        "from": 75,
        "total": 2,
        "panel": 2,
        "hold_back": False,
        "landing": {"77": "a74", "83": "a80", "89": "a89"},
    }


def test_a_held_back_ride_lists_every_target_and_the_room_there() -> None:
    """CY-18.1 (room) in Pro: a space full of riders puts the rider one back."""
    state = cy.from_cyn(
        "2 AH1:a40*1,AS1:a44*1,BS1:b44*1,CS1:c44*1 / A*1,B*1,C*1", course="flemish-4"
    )
    play(state, ("roll:3,4", "AS1-51", "roll:3,4", "BS1-51", "roll:3,4", "CS1-51", "roll:5,6"))
    snap = cy.snapshot(state)
    assert (snap["phase"], snap["due"]) == ("ride", "AH1")
    landing = snap["ride"]["landing"]
    assert landing["51"] == "a50" and landing["50"] == "a50" and landing["41"] == "a41"
    assert snap["ride"]["hold_back"] and snap["ride"]["total"] == 11
    assert set(landing) == {str(m).split("-")[1].split("/")[0] for m in state.legal_moves()}


def test_a_wheel_says_where_the_follower_lands() -> None:
    """CY-18.3: AH1>BC1 lands on a69."""
    state = cy.from_cyn("7 AH1:a43*4,BC1:a50*4 / A*4,B*4", course="flemish-4")
    play(state, ("roll:2,3", "BC1-55", "roll:6,6", "AH1-54", "BC1~-", "roll:4,5", "BC1-70/t"))
    snap = cy.snapshot(state)
    assert (snap["phase"], snap["due"], snap["leader"]) == ("wheel", "AH1", "BC1")
    assert snap["ride"] == {"from": 54, "wheel": "69", "landing": {"69": "a69"}}
    state.play("AH1>BC1")
    assert state.rider("AH1").square == "a69"


def test_the_course_carries_each_track_types_facts() -> None:
    snap = cy.snapshot(cy.new_game("classic", players=2))
    terrain = snap["course"]["terrain"]
    assert terrain["climb"] == {
        "dice": 1, "sprinter_dice": 1, "climber_bonus": 1, "dark_back": 0, "panels": [0, 2, 1],
        "wheel": False, "swap": False, "hold_back": True,
    }  # fmt: skip
    assert terrain["lastkm"]["sprinter_dice"] == 3 and terrain["cobbles"]["dark_back"] == 3
    assert snap["ride"] is None  # a roll is due
    json.dumps(snap)
