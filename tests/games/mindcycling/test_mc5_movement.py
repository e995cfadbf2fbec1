"""MC-5: movement and wind."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import FLAT, cone, course, legal, max_row, of_kind, play, row


def test_mc_5_1_steps_forward_or_diagonal_into_free_squares() -> None:
    """MC-5.1: 1 to N steps, each one row forward (straight or diagonal) into a free
    square; riders are gone round, never stepped on."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b12,BC1:b1,BD1:d12+,BS1:e1 / - / -")
    play(s, "AS1-b13", "BD1-d13")
    assert s.current_rider == "AC1"
    # Climber in the plain against the wind: 4 steps.
    assert of_kind(s) == {
        "b11", "c11", "d11",
        "a12", "b12", "c12", "d12", "e12",
        "a13", "c13", "e13",
        "a14", "b14", "c14", "d14", "e14",
    }  # fmt: skip
    assert of_kind(s) == cone("c10", 4, blocked=["b13", "d13"])


def test_mc_5_1_wall_of_riders_with_a_gap() -> None:
    """MC-5.1: a row blocked but for one square is passed only through that square."""
    c = course([[3, "plain"]], 40, rocks=["a13", "e13"])
    s = mc.from_mcn(c, "1 AC1:c10,AD1:a1+,AS1:b12,BC1:b1,BD1:d12+,BS1:e1 / - / -")
    play(s, "AS1-b13", "BD1-d13")
    # Row 13: a, e rocks; b, d riders: only c13 is open.
    dests = of_kind(s)
    assert {d for d in dests if row(d) == 13} == {"c13"}
    assert {d for d in dests if row(d) == 14} == {"b14", "c14", "d14"}
    assert dests == cone("c10", 4, blocked=["a13", "b13", "d13", "e13"])
    assert "a14" not in dests and "e14" not in dests


def test_mc_5_1_never_sideways_or_backwards() -> None:
    """MC-5.1: every destination is on a further row."""
    s = mc.from_mcn(FLAT, "3 AC1:c10,AD1:c20+,AS1:a12,BC1:e5,BD1:b11+,BS1:d9 / - / -")
    while s.round == 3:
        here = row(s.rider(s.current_rider).square)  # type: ignore[arg-type]
        dests = of_kind(s) | of_kind(s, "!") | of_kind(s, "w") | of_kind(s, "r")
        assert dests and all(d == "#" or row(d) > here for d in dests)
        s.play(s.legal_moves()[0])


def test_mc_5_2_allowance_wind_and_fatigue() -> None:
    """MC-5.2: allowance = type value - 1 against the wind - 1 if exhausted domestique."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c10,AS1:b1,BC1:c1,BD1:e10+,BS1:e1 / - / -")
    assert max_row(s) == 15  # exhausted, against the wind: 7 - 2
    play(s, "AD1-a15")
    assert max_row(s) == 16  # bottle, against the wind: 7 - 1
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c10,AS1:b1,BC1:c11,BD1:e1+,BS1:e2 / - / -")
    play(s, "BC1-a13")
    assert max_row(s) == 16  # exhausted, sheltered: 7 - 1


def boxed(extra_team: str = "") -> mc.State:
    """AS1 on a10 boxed in: rock on a11, AC1 wheels into b11 behind AD1 before AS1's
    turn (MC-4.4 priority)."""
    c = course([[3, "plain"]], 40, rocks=["a11"])
    if extra_team:
        text = "1 AC1:b10,AD1:b11+,AD2:a9,AS1:a10+,BC1:c1,BD1:a1+,BD2:d1+,BS1:b1 / - / -"
    else:
        text = "1 AC1:b10,AD1:b11+,AS1:a10,BC1:c1,BD1:a1+,BS1:b1 / - / -"
    s = mc.from_mcn(c, text)
    play(s, "AD1-b12")
    assert s.current_rider == "AC1"
    play(s, "AC1-b11w")
    assert s.current_rider == "AS1"
    return s


def test_mc_5_3_stay_only_when_nothing_is_possible() -> None:
    """MC-5.3: a rider that can reach no square and cannot wheel or relay stays (`ID=`);
    it has had its turn and belongs to no group (MC-6.2)."""
    s = boxed()
    assert legal(s) == {"AS1="}
    play(s, "AS1=")
    assert s.rider("AS1").square == "a10"
    assert s.has_moved("AS1")
    assert s.group("AS1") is None
    assert s.current_rider == "BD1"


def test_mc_5_3_stay_with_a_bottle_to_give() -> None:
    """MC-5.3, MC-7.1: a boxed rider may still give its bottle; then it stays."""
    s = boxed(extra_team="x")
    assert legal(s) == {"AS1>AD2", "AS1="}
    play(s, "AS1>AD2")
    assert legal(s) == {"AS1="}


def test_mc_5_3_must_advance_when_possible() -> None:
    """MC-5.3: staying is illegal when the rider can reach a square."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    assert "AD1=" not in legal(s)
    before = s.copy()
    with pytest.raises(peloton.IllegalMoveError, match="only when"):
        s.play("AD1=")
    assert s == before


def test_mc_5_4_rider_ahead_shelters() -> None:
    """MC-5.4: the square directly in front holding a rider (of any team) shelters."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:c11+,BS1:e1 / - / -")
    assert s.assessment("AC1").against_wind is False  # type: ignore[union-attr]
    play(s, "BD1-e14")
    assert max_row(s) == 15


def test_mc_5_4_no_shelter_diagonal() -> None:
    """MC-5.4: a rider diagonally ahead gives no shelter in the basic game."""
    s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:d11+,BS1:b11 / - / -")
    assert s.assessment("AC1").against_wind is True  # type: ignore[union-attr]
    play(s, "BS1-a14", "BD1-e14")
    assert max_row(s) == 14
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_5_4_no_shelter_from_rock() -> None:
    """MC-5.4: a rock directly ahead gives no shelter."""
    c = course([[3, "plain"]], 40, rocks=["c11"])
    s = mc.from_mcn(c, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    assert s.assessment("AC1").against_wind is True  # type: ignore[union-attr]
    assert max_row(s) == 14


@pytest.mark.parametrize(
    ("wind", "leader", "sheltered"),
    [
        ("front", "c11", True),
        ("front", "b11", False),
        ("left", "b11", True),
        ("left", "c11", False),
        ("left", "d11", False),
        ("right", "d11", True),
        ("right", "c11", False),
        ("right", "b11", False),
    ],
)
def test_mc_5_5_expert_wind_shelter_square(wind: str, leader: str, sheltered: bool) -> None:
    """MC-5.5: the shelter square is straight ahead (front), ahead-left (left) or
    ahead-right (right); lanes are lettered from the left (MC-1.1)."""
    s = mc.from_mcn(
        FLAT, f"1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:{leader}+,BS1:e1 / - / -", wind=wind
    )
    a = s.assessment("AC1")
    assert a is not None
    assert a.against_wind is not sheltered
    assert a.leader == ("BD1" if sheltered else None)
    play(s, "BD1-a14")
    assert max_row(s) == (15 if sheltered else 14)


@pytest.mark.parametrize(("wind", "square"), [("left", "a10"), ("right", "e10")])
def test_mc_5_5_off_road_shelter_square(wind: str, square: str) -> None:
    """MC-5.5: a shelter square off the road holds no rider: always against the wind."""
    s = mc.from_mcn(
        FLAT, f"1 AC1:{square},AD1:a11+,AS1:b11,BC1:c1,BD1:d11+,BS1:e11 / - / -", wind=wind
    )
    assert s.assessment("AC1").against_wind is True  # type: ignore[union-attr]


def test_mc_5_5_rock_on_shelter_square() -> None:
    """MC-5.5: a rock on the shelter square shelters nobody."""
    c = course([[3, "plain"]], 40, rocks=["b11"])
    s = mc.from_mcn(c, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:c11+,BS1:e1 / - / -", wind="left")
    assert s.assessment("AC1").against_wind is True  # type: ignore[union-attr]
    assert s.assessment("BD1").against_wind is True  # type: ignore[union-attr]


def test_mc_5_5_front_wind_is_the_basic_game() -> None:
    """MC-5.5: wind `front` is MC-5.4; the default wind is front."""
    text = "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:c11+,BS1:e1 / - / -"
    assert mc.from_mcn(FLAT, text) == mc.from_mcn(FLAT, text, wind="front")
    assert mc.from_mcn(FLAT, text).wind == "front"


def test_mc_5_6_crossing_the_line() -> None:
    """MC-5.6: a path reaching row `finish` or beyond crosses; where it would stop does
    not matter (one `#` move)."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c36+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    moves = legal(s)
    assert "AD1-#" in moves
    assert sum(1 for m in moves if m.startswith("AD1-#")) == 2  # normal and attack
    assert of_kind(s) == cone("c36", 3) | {"#"}
    play(s, "AD1-#")
    assert s.rider("AD1").square is None
    assert s.result.places == ("AD1",)


def test_mc_5_6_one_step_from_the_last_row() -> None:
    """MC-5.6: from the last road row any rider crosses with its first step."""
    s = mc.from_mcn(FLAT, "1 AC1:a39,AD1:a1+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    assert legal(s) == {"AC1-#"}
