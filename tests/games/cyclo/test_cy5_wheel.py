"""CY-5: taking the wheel (Pro)."""

from __future__ import annotations

from .helpers import at, legal, play, square

#: BC1 on 55 and AH1 behind it on 54 (C1, flat), both Pro with tokens.
BEHIND = "8 AH1:a54*4,BC1:a55*4 / A*4,B*4"


def test_cy_5_1_who_may_follow() -> None:
    """X rode its own turn without attacking and moved; Y on s-1, off the start line,
    turn not over, no skip flag, not on climb, cobbles or slope."""
    ride = play(at(BEHIND), "BC1~-", "roll:4,5", "BC1-64")
    assert ride.phase == "wheel" and legal(ride) == {"AH1>BC1", "AH1>-"}
    accelerate = play(at(BEHIND), "BC1~-", "roll:4,5", "BC1-70/r")
    assert accelerate.phase == "wheel"
    attack = play(at(BEHIND), "BC1~-", "roll:4,5", "BC1-76/rt")
    assert attack.phase == "roll" and attack.due == "AH1"
    skip = play(at("8 AH1:a54*4s,BC1:a55*4 / A*4,B*4"), "roll:4,5", "BC1-64")
    assert skip.phase == "roll" and skip.round == 9  # AH1 loses its turn and may not follow
    two_behind = play(at("8 AH1:a53*4,BC1:a55*4 / A*4,B*4"), "roll:4,5", "BC1-64")
    assert two_behind.phase == "roll" and two_behind.due == "AH1"
    start_line = play(at("2 AH1:a0*4,BC1:a1*4 / A*4,B*4"), "roll:4,5", "BC1-10")
    assert start_line.phase == "roll" and start_line.due == "AH1"
    cobbles = play(at("8 AH1:a76*4,BC1:a77*4 / A*4,B*4"), "roll:4,5", "BC1-86")
    assert cobbles.phase == "roll"  # AH1 stands on cobbles
    over = play(
        at("8 AH1:a54*4,BC1:a55*4,BS1:a60*4 / A*4,B*4"),
        "roll:1,1",
        "BS1-62",
        "BC1~-",
        "roll:4,5",
        "BC1-64",
    )
    assert over.phase == "wheel"
    over.play("AH1>BC1")
    assert over.round == 9  # AH1's turn was its follow


def test_cy_5_1_the_leader_must_have_moved() -> None:
    one_lane = {"name": "one", "boards": [{"name": "N", "runs": [["flat", 60, 1]], "finish": True}]}
    blocked = at("8 AH1:a54*4,BC1:a55*4,CC1:a57s,CS1:a56s / A*4,B*4", course=one_lane)
    play(blocked, "BC1~-", "roll:1,1", "BC1-57")  # 56 and 57 are taken: BC1 stays on 55
    assert blocked.rider("BC1").square == "a55" and blocked.phase == "roll" and blocked.due == "AH1"


def test_cy_5_2_asked_in_lane_order() -> None:
    state = play(at("8 AH1:a54*4,BC1:a55*4,BS1:b54*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-64")
    assert state.due == "AH1" and state.current_player == "A"
    state.play("AH1>-")
    assert state.due == "BS1" and legal(state) == {"BS1>BC1", "BS1>-"}
    state.play("BS1>BC1")
    assert square(state, "BS1") == "a63" and state.due == "AH1" and state.phase == "roll"
    first = play(
        at("8 AH1:a54*4,BC1:a55*4,BS1:b54*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-64", "AH1>BC1"
    )
    assert first.phase == "roll" and first.due == "BS1"  # after a follow nobody is asked


def test_cy_5_3_the_follower() -> None:
    """CY-5.3: it aims at e - 1 and lands by room, its turn is over, nobody follows it;
    flags wait for its next ride."""
    state = play(
        at("8 AH1:a54*4,BC1:a55*4,BS1:a53*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-64", "AH1>BC1"
    )
    assert (
        square(state, "AH1") == "a63" and state.due == "BS1" and state.phase == "roll"
    )  # BS1 on 53 rolls
    full = play(
        at("8 AH1:a54*4,BC1:a55*4,CC1:b63s,CS1:a63s / A*4,B*4"),
        "BC1~-",
        "roll:4,5",
        "BC1-64",
        "AH1>BC1",
    )
    assert square(full, "AH1") == "a62"
    flags = play(at("8 AH1:a54*4x,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-64", "AH1>BC1")
    assert flags.rider("AH1").technical and flags.round == 9
    finish = play(
        at("8 AH1:a113*4,BC1:a114*4 / A*4,B*4"), "BC1~-", "roll:6,6", "BC1-#7/r", "AH1>BC1"
    )
    assert [r for r, _, _ in finish.position.finishers] == ["BC1", "AH1"] and finish.is_over
    assert [past for _, _, past in finish.position.finishers] == [7, 6]
