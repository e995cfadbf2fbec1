"""MC-4: the round: assessment, order and train priority."""

from __future__ import annotations

from peloton.games import mindcycling as mc

from .helpers import FLAT, MIXED, course, legal, max_row, of_kind, play


def first_normal_move(state: mc.State) -> str:
    """A deterministic normal move (the first listed), to let a rider take its turn."""
    for m in state.legal_moves():
        text = str(m)
        if "-" in text and text[-1] not in "!wr":
            return text
    return str(state.legal_moves()[-1])


def test_mc_4_1_every_rider_on_the_road_moves_once() -> None:
    """MC-4.1: a round gives every rider still on the road exactly one turn; riders who
    have crossed take none."""
    s = mc.from_mcn(FLAT, "4 AC1:c12,AD1:e20+,BC1:b15,BD1:a9,BS1:d11 / AS1 / -")
    turns = []
    while s.round == 4:
        turns.append(s.current_rider)
        s.play(first_normal_move(s))
    assert sorted(turns) == ["AC1", "AD1", "BC1", "BD1", "BS1"]
    assert s.round == 5
    assert s.to_mcn().startswith("5 ")


def test_mc_4_2_shelter_fixed_although_leader_moved() -> None:
    """MC-4.2: a rider sheltered at the start of the round stays sheltered (full
    allowance) although the rider in front has moved away before its turn."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:d1,BD1:c11+,BS1:e1 / - / -")
    play(s, "BD1-a13")
    assert s.current_rider == "AC1"
    assert s.assessment("AC1").against_wind is False  # type: ignore[union-attr]
    assert max_row(s) == 15  # climber in the plain, sheltered: 5


def test_mc_4_2_wind_fixed_although_sheltered_later() -> None:
    """MC-4.2: a rider against the wind at the start of the round stays against it
    (allowance - 1, no link) although a rider moved onto its shelter square."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:d1,BD1:b10+,BS1:e1 / - / -")
    assert s.current_rider == "BD1"  # same row, further left
    play(s, "BD1-c11")
    assert s.current_rider == "AC1"
    assert max_row(s) == 14  # climber in the plain against the wind: 4
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_4_2_assessment_values() -> None:
    """MC-4.2: section, wind, link, bottle, fatigue and train place (MC-6.1) are fixed
    for every rider."""
    s = mc.from_mcn(MIXED, "2 AC1:c21,AD1:c22,AS1:b9,BC1:a1,BD1:b10+,BS1:b11 / - / -")
    a = s.assessment
    assert a("AD1") == mc.Assessment("mountain", 3, True, None, False, True, 1)
    assert a("AC1") == mc.Assessment("mountain", 7, False, "AD1", False, False, 2)
    assert a("BS1") == mc.Assessment("sprint", 6, True, None, False, False, 1)
    assert a("BD1") == mc.Assessment("sprint", 5, False, "BS1", True, False, 2)
    assert a("AS1") == mc.Assessment("plain", 5, False, "BD1", False, False, 3)
    assert a("BC1") == mc.Assessment("start", 4, True, None, False, False, None)


def test_mc_4_3_order_furthest_first_then_left_first() -> None:
    """MC-4.3: by row, furthest first; on a row, the lower lane letter first."""
    s = mc.from_mcn(FLAT, "1 AC1:a2,AD1:c12+,AS1:e10,BC1:e1,BD1:b11+,BS1:a10 / - / -")
    expected = ["AD1", "BD1", "BS1", "AS1", "AC1", "BC1"]
    assert s.turn_order() == expected
    turns = []
    while s.round == 1:
        turns.append(s.current_rider)
        s.play(first_normal_move(s))
        assert s.round > 1 or s.turn_order() == expected  # fixed for the round
    assert turns == expected


def test_mc_4_4_train_priority() -> None:
    """MC-4.4: when X has moved, the rider linked to it takes its turn at once, before
    a rider on its row further left."""
    s = mc.from_mcn(FLAT, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:e1+,BS1:a11 / - / -")
    assert s.turn_order()[:3] == ["AD1", "BS1", "AC1"]
    play(s, "AD1-c18")
    assert s.current_rider == "AC1"
    assert {"c17", "c19"} == of_kind(s, "w") | of_kind(s, "r")
    play(s, "AC1-c17w")
    assert s.current_rider == "BS1"  # MC-4.5: back to the order


def test_mc_4_4_priority_chains() -> None:
    """MC-4.4: priority chains along the train; a follower may also ride normally and
    its own follower still has priority; MC-4.5: then the first unmoved rider."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:c12+,AS1:c11,BC1:a10,BD1:a1+,BS1:a11 / - / -")
    assert s.turn_order() == ["AD1", "BS1", "AS1", "BC1", "AC1", "BD1"]
    turns = []
    for move in ("AD1-c18", "AS1-e15", "AC1-e14w", "BS1-a15", "BC1-a14w", "BD1-a7"):
        turns.append(s.current_rider)
        s.play(move)
    assert turns == ["AD1", "AS1", "AC1", "BS1", "BC1", "BD1"]
    assert s.round == 2


def test_mc_4_4_no_priority_for_sprinter_in_mountain() -> None:
    """MC-4.4 with MC-6.3(b): a sprinter in the mountain never follows, so it keeps its
    place in the order."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:a2+,AS1:c21,BC1:a21,BD1:c22+,BS1:e1 / - / -")
    play(s, "BD1-c25")
    assert s.current_rider == "BC1"
    play(s, "BC1-a25")
    assert s.current_rider == "AS1"
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_4_4_no_priority_for_exhausted_domestique() -> None:
    """MC-4.4 with MC-6.3(c): an exhausted domestique keeps its place in the order."""
    s = mc.from_mcn(FLAT, "1 AC1:a11,AD1:c11,AS1:a1,BC1:b1,BD1:c12+,BS1:e1 / - / -")
    play(s, "BD1-c18")
    assert s.current_rider == "AC1"


def test_mc_4_4_no_priority_behind_attack_or_finish() -> None:
    """MC-4.4 with MC-6.3(d): no priority behind a closed group (attack, finish)."""
    s = mc.from_mcn(FLAT, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:e1+,BS1:a11 / - / -")
    play(s, "AD1-c14!")
    assert s.current_rider == "BS1"
    s = mc.from_mcn(FLAT, "1 AC1:c36,AD1:c37+,AS1:a1,BC1:b1,BD1:e1+,BS1:a36 / - / -")
    play(s, "AD1-#")
    assert s.current_rider == "BS1"


def test_mc_4_4_priority_ignores_condition_e() -> None:
    """MC-4.4: priority needs conditions a-d only: the follower takes its turn even when
    no wheel or relay square is free, and then rides normally."""
    c = course([[3, "plain"]], 40, rocks=["d17"])
    s = mc.from_mcn(c, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:d14+,BS1:a11 / - / -")
    play(s, "BD1-d15", "AD1-d16")  # wheel square d15 taken, relay square d17 a rock
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()
    assert "AC1-c15" in legal(s)


def test_mc_4_4_priority_rider_may_attack() -> None:
    """MC-4.4 [decision], MC-7.2: a rider taking a priority turn may ride normally, and
    so may attack when it is entitled to."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:a2+,AS1:c11+,BC1:b1,BD1:c12+,BS1:a11 / - / -")
    play(s, "BD1-c15")
    assert s.current_rider == "AS1"  # priority over BS1 (a11)
    assert of_kind(s, "w") == {"c14"} and of_kind(s, "r") == {"c16"}
    assert max_row(s, "!") == 11 + 7 + 3
    play(s, "AS1-e21!")
    assert s.group("AS1") == (1, True)
    assert s.current_rider == "BS1"


def test_mc_4_5_next_turn_first_unmoved_in_order() -> None:
    """MC-4.5: outside priority, the turn goes to the first rider of the fixed order that
    has not moved, even if a rider ahead of it in the order already moved by priority."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:c12+,AS1:c11,BC1:a11,BD1:e12+,BS1:e1 / - / -")
    assert s.turn_order() == ["AD1", "BD1", "BC1", "AS1", "AC1", "BS1"]
    play(s, "AD1-c18")
    assert s.current_rider == "AS1"  # priority (MC-4.4), before BD1 and BC1
    play(s, "AS1-c17w")
    assert s.current_rider == "AC1"  # priority again
    play(s, "AC1-b15")
    assert s.current_rider == "BD1"  # first unmoved of the order
    play(s, "BD1-e18")
    assert s.current_rider == "BC1"
    play(s, "BC1-a15")
    assert s.current_rider == "BS1"
    play(s, "BS1-e5")
    assert s.round == 2
