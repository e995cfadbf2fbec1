"""MC-6: trains, groups, wheel and relay."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import FLAT, MIXED, course, legal, max_row, of_kind, play, row

#: A chain of five riders on the c lane (X = AD1 at the head), BC1 parked.
CHAIN = "1 AC1:c11,AD1:c15+,AS1:c13,BC1:a1,BD1:c14+,BS1:c12 / - / -"


def test_mc_6_1_link_straight_ahead() -> None:
    """MC-6.1: in the basic game Y is linked to the rider directly ahead of it."""
    s = mc.from_mcn(FLAT, CHAIN)
    leaders = {rid: s.assessment(rid).leader for rid in ("AD1", "BD1", "AS1", "BS1", "AC1", "BC1")}  # type: ignore[union-attr]
    assert leaders == {
        "AD1": None,
        "BD1": "AD1",
        "AS1": "BD1",
        "BS1": "AS1",
        "AC1": "BS1",
        "BC1": None,
    }


def test_mc_6_1_echelon_in_expert_wind() -> None:
    """MC-6.1, MC-5.5: with wind `left` a train is an echelon running down and to the
    right; wheel targets follow it (MC-6.4) and relays go ahead-left (MC-6.5)."""
    s = mc.from_mcn(FLAT, "1 AC1:e10,AD1:c12+,AS1:d11,BC1:a1,BD1:b1+,BS1:c1 / - / -", wind="left")
    assert s.assessment("AS1").leader == "AD1"  # type: ignore[union-attr]
    assert s.assessment("AC1").leader == "AS1"  # type: ignore[union-attr]
    play(s, "AD1-c18")
    assert s.current_rider == "AS1"
    assert of_kind(s, "w") == {"d17"}
    assert of_kind(s, "r") == {"b19"}
    play(s, "AS1-d17w")
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == {"e16"}
    assert of_kind(s, "r") == {"b19"}


def test_mc_6_2_groups() -> None:
    """MC-6.2: a normal move starts an open group of one; wheel and relay join it."""
    s = mc.from_mcn(FLAT, CHAIN)
    play(s, "AD1-c21")
    assert s.group("AD1") == (1, False)
    play(s, "BD1-c20w")
    assert s.group("AD1") == (2, False) == s.group("BD1")
    play(s, "AS1-c22r")
    assert s.group("AS1") == (3, False)
    play(s, "BS1-b16")  # a normal move: a new group of its own
    assert s.group("BS1") == (1, False)
    assert s.group("AD1") == (3, False)


def test_mc_6_2_attack_and_finish_close_the_group() -> None:
    """MC-6.2: an attack starts a closed group; crossing the line closes the group."""
    s = mc.from_mcn(FLAT, CHAIN)
    play(s, "AD1-c16!")
    assert s.group("AD1") == (1, True)
    s = mc.from_mcn(FLAT, "1 AC1:c35,AD1:c37+,AS1:c36,BC1:a1,BD1:b1+,BS1:e1 / - / -")
    play(s, "AD1-#")
    assert s.group("AD1") == (1, True)
    # AS1, linked to AD1, has no priority and no wheel or relay.
    assert s.current_rider == "AS1"  # next in order anyway (row 36)
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_6_3_a_not_linked() -> None:
    """MC-6.3(a): a rider not linked to X (against the wind) cannot wheel or relay,
    even right behind X's group."""
    s = mc.from_mcn(FLAT, "1 AC1:d10,AD1:c10+,AS1:a1,BC1:b1,BD1:e1+,BS1:c1 / - / -")
    play(s, "AD1-d11")  # now directly in front of AC1, but AC1 was not linked
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_6_3_b_sprinter_in_mountain_cannot_follow() -> None:
    """MC-6.3(b): a sprinter in the mountain cannot wheel or relay; a climber there can."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:b1+,AS1:c21,BC1:d21,BD1:c22+,BS1:d22 / - / -")
    play(s, "BD1-c24")
    assert s.current_rider == "BS1"  # AS1 has no priority
    play(s, "BS1-d24")
    assert s.current_rider == "BC1"  # BC1 is linked to BS1 and may follow
    assert of_kind(s, "w") == {"d23"} and of_kind(s, "r") == {"d25"}
    play(s, "BC1-d23w")
    assert s.current_rider == "AS1"
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_6_3_c_exhausted_domestique_cannot_follow() -> None:
    """MC-6.3(c), MC-7.4: an exhausted domestique cannot wheel or relay."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c11,AS1:b1,BC1:c1,BD1:c12+,BS1:e1 / - / -")
    play(s, "BD1-c18")
    assert s.current_rider == "AD1"
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()
    assert max_row(s) == 17  # sheltered at the assessment, exhausted: 7 - 1


def test_mc_6_3_d_leader_stayed() -> None:
    """MC-6.3(d): X must have moved at least one square: no wheel behind a rider that
    stayed."""
    c = course([[3, "plain"]], 40, rocks=["a11"])
    s = mc.from_mcn(c, "1 AC1:b10,AD1:b11+,AS1:a10,BC1:a9,BD1:a1+,BS1:b1 / - / -")
    play(s, "AD1-b12", "AC1-b11w", "AS1=")
    assert s.current_rider == "BC1"
    assert s.assessment("BC1").leader == "AS1"  # type: ignore[union-attr]
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()
    assert of_kind(s)  # it rides normally


def test_mc_6_3_d_leader_attacked() -> None:
    """MC-6.3(d), MC-7.3: no wheel or relay behind an attacker, even a short attack."""
    s = mc.from_mcn(FLAT, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:e1+,BS1:a11 / - / -")
    play(s, "AD1-c13!", "BS1-a15")
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


def test_mc_6_3_e_wheel_square_taken() -> None:
    """MC-6.3(e): the wheel square must be free; the relay remains."""
    s = mc.from_mcn(FLAT, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:d14+,BS1:e1 / - / -")
    play(s, "BD1-d15", "AD1-d16")
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == set()
    assert of_kind(s, "r") == {"d17"}


def test_mc_6_3_e_relay_square_rock() -> None:
    """MC-6.3(e): the relay square must not be a rock; the wheel remains."""
    c = course([[3, "plain"]], 40, rocks=["c19"])
    s = mc.from_mcn(c, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:e1+,BS1:e2 / - / -")
    play(s, "AD1-c18")
    assert of_kind(s, "w") == {"c17"}
    assert of_kind(s, "r") == set()


@pytest.mark.parametrize(("wind", "head"), [("left", "a17"), ("right", "e17")])
def test_mc_6_3_e_relay_square_off_road(wind: str, head: str) -> None:
    """MC-6.3(e), MC-6.5: in expert wind the relay square may lie off the road."""
    y = {"left": "b10", "right": "d10"}[wind]
    x = {"left": "a11", "right": "e11"}[wind]
    s = mc.from_mcn(FLAT, f"1 AC1:{y},AD1:{x}+,AS1:a1,BC1:b1,BD1:c1+,BS1:e1 / - / -", wind=wind)
    assert s.assessment("AC1").leader == "AD1"  # type: ignore[union-attr]
    play(s, f"AD1-{head}")
    assert of_kind(s, "r") == set()
    assert of_kind(s, "w") == {("b16" if wind == "left" else "d16")}


def test_mc_6_4_wheel_behind_each_wheeler_in_turn() -> None:
    """MC-6.4: each rider wheels directly behind the rider it is linked to, where that
    rider stands now; down a train of wheels the wheel square moves back one row each."""
    s = mc.from_mcn(FLAT, CHAIN)
    play(s, "AD1-c21")
    assert of_kind(s, "w") == {"c20"}
    play(s, "BD1-c20w")
    assert of_kind(s, "w") == {"c19"}
    play(s, "AS1-c19w")
    assert of_kind(s, "w") == {"c18"}
    play(s, "BS1-c18w")
    assert of_kind(s, "w") == {"c17"}
    play(s, "AC1-c17w")
    assert s.group("AD1") == (5, False)


def test_mc_6_4_wheel_behind_the_leader_not_the_group() -> None:
    """MC-6.4 (corrected): the wheel square is behind the rider Y is linked to, not
    behind the group's rear. Right after that rider relayed, the square behind it holds
    the group's old head, so Y cannot wheel; it may still relay or ride normally."""
    s = mc.from_mcn(FLAT, CHAIN)
    play(s, "AD1-c21", "BD1-c22r")  # BD1 relays in front of AD1
    assert s.current_rider == "AS1"  # linked to BD1: train priority (MC-4.4)
    assert of_kind(s, "w") == set()  # c21, behind BD1, holds AD1 (the old rule gave c20)
    assert of_kind(s, "r") == {"c23"}
    assert of_kind(s)  # it may ride normally
    with pytest.raises(peloton.IllegalMoveError, match="no wheel right after a relay"):
        s.play("AS1-c20w")
    play(s, "AS1-c23r")
    assert of_kind(s, "w") == set() and of_kind(s, "r") == {"c24"}
    play(s, "BS1-b17")  # BS1 rides normally: a new group of one
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == {"b16"}  # behind BS1 where it stands now


@pytest.mark.parametrize(
    ("wind", "x", "y", "move", "wheel"),
    [("left", "c12", "d11", "c18", "d17"), ("right", "c12", "b11", "c18", "b17")],
)
def test_mc_6_4_wheel_behind_the_leader_in_expert_wind(
    wind: str, x: str, y: str, move: str, wheel: str
) -> None:
    """MC-6.4 in expert wind: the wheel square is one row back from the leader along the
    shelter direction."""
    s = mc.from_mcn(FLAT, f"1 AC1:{y},AD1:{x}+,AS1:a1,BC1:b1,BD1:c1+,BS1:e1 / - / -", wind=wind)
    play(s, f"AD1-{move}")
    assert s.current_rider == "AC1"
    assert of_kind(s, "w") == {wheel}


def test_mc_6_4_wheel_behind_diagonal_move() -> None:
    """MC-6.4: X may end anywhere; the wheel square is behind where it ends."""
    s = mc.from_mcn(FLAT, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:e1+,BS1:e2 / - / -")
    play(s, "AD1-a16")
    assert of_kind(s, "w") == {"a15"} and of_kind(s, "r") == {"a17"}


@pytest.mark.parametrize(
    ("limit", "relay_places"),
    [(3, [2, 3, 4]), (1, [2]), (0, []), (5, [2, 3, 4, 5])],
)
def test_mc_6_5_relay_limit(limit: int, relay_places: list[int]) -> None:
    """MC-6.5: relay only from train places 2 to `relay_limit + 1` (default 3: places
    2 to 4); the wheel is always open."""
    kwargs = {} if limit == 3 else {"relay_limit": limit}
    s = mc.from_mcn(FLAT, CHAIN, **kwargs)  # type: ignore[arg-type]
    play(s, "AD1-c21")
    for size, rid in enumerate(("BD1", "AS1", "BS1", "AC1"), start=1):
        assert s.current_rider == rid
        assert s.assessment(rid).train_place == size + 1  # type: ignore[union-attr]
        assert s.group("AD1") == (size, False)
        assert of_kind(s, "w") == {f"c{21 - size}"}
        assert of_kind(s, "r") == ({"c22"} if size + 1 in relay_places else set()), size
        s.play(f"{rid}-c{21 - size}w")


def test_mc_6_5_relay_limit_counts_train_places() -> None:
    """MC-6.5 (corrected): the limit counts places in the train as it stood at the
    round's start, whatever the size of the group now: the fifth rider may not relay
    although the rider in front of it rode off alone in a group of one."""
    s = mc.from_mcn(FLAT, CHAIN)
    play(s, "AD1-c21", "BD1-c20w", "AS1-c19w")
    assert s.current_rider == "BS1"  # place 4: may still relay
    assert of_kind(s, "r") == {"c22"}
    play(s, "BS1-b17")  # a normal move: BS1 founds a new group of one
    assert s.group("BS1") == (1, False)
    assert s.current_rider == "AC1"
    assert s.assessment("AC1").train_place == 5  # type: ignore[union-attr]
    assert of_kind(s, "r") == set()  # the old rule (group size 1 <= 3) gave b18
    assert of_kind(s, "w") == {"b16"}
    with pytest.raises(
        peloton.IllegalMoveError, match=r"rider 5 of its train.*only riders 2 to 4 may relay"
    ):
        s.play("AC1-b18r")


def test_mc_6_5_relay_limit_counts_from_the_front_rider() -> None:
    """MC-6.5: places count from the train's front rider, even when it is not the rider
    Y is linked to; a rider at place 2 relays in front of its own leader's group."""
    s = mc.from_mcn(FLAT, CHAIN, relay_limit=1)
    play(s, "AD1-c21")
    assert of_kind(s, "r") == {"c22"}  # BD1, place 2
    play(s, "BD1-b18")  # BD1 rides off: AS1 (place 3) follows it
    assert s.current_rider == "AS1"
    assert of_kind(s, "r") == set() and of_kind(s, "w") == {"b17"}


def test_mc_6_5_relay_becomes_new_head() -> None:
    """MC-6.5: a relay lands directly in front of the head and becomes the head."""
    s = mc.from_mcn(FLAT, CHAIN)
    play(s, "AD1-c21", "BD1-c22r")
    assert of_kind(s, "r") == {"c23"}
    play(s, "AS1-c23r")
    assert of_kind(s, "r") == {"c24"}


def test_mc_6_6_ignore_allowance_and_path() -> None:
    """MC-6.6: wheel and relay ignore the allowance and need no free path (on a single
    lane the relay passes through the group)."""
    one = course([[7, "plain"]], 40, lanes=1)
    s = mc.from_mcn(one, "1 AC1:a19,AD1:a20+,AS1:a1,BC1:a2,BD1:a3+,BS1:a4 / - / -")
    play(s, "AD1-a26")
    assert s.current_rider == "AC1"
    assert of_kind(s) == {f"a{r}" for r in range(20, 25)}  # climber sheltered: 5
    assert of_kind(s, "w") == {"a25"}
    assert of_kind(s, "r") == {"a27"}
    play(s, "AC1-a27r")
    assert s.rider("AC1").square == "a27"


def test_mc_6_6_relay_across_the_line() -> None:
    """MC-6.6: a relay target at row `finish` or beyond crosses the line and closes the
    group (MC-6.2)."""
    s = mc.from_mcn(FLAT, "1 AC1:c33,AD1:c35+,AS1:c34,BC1:a1,BD1:b1+,BS1:e1 / - / -")
    play(s, "AD1-c39")
    assert of_kind(s, "r") == {"#"} and of_kind(s, "w") == {"c38"}
    play(s, "AS1-#r")
    assert s.result.places == ("AS1",)
    assert s.group("AD1") == (2, True)
    assert s.current_rider == "AC1"  # AC1 (linked to AS1) keeps its place: next anyway
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()


@pytest.mark.parametrize(("head", "relay"), [("d39", {"#"}), ("e39", set())])
def test_mc_6_6_relay_across_the_line_lane_must_exist(head: str, relay: set[str]) -> None:
    """MC-6.6: with wind `right` the relay across the line still needs its lane."""
    s = mc.from_mcn(FLAT, "1 AC1:c34,AD1:d35+,AS1:a1,BC1:b1,BD1:c1+,BS1:e1 / - / -", wind="right")
    assert s.assessment("AC1").leader == "AD1"  # type: ignore[union-attr]
    play(s, f"AD1-{head}")
    assert of_kind(s, "r") == relay


@pytest.mark.parametrize(("case", "gain"), [("alone", 4), ("windy", 6), ("sheltered", 7)])
def test_mc_6_7_worked_example(case: str, gain: int) -> None:
    """MC-6.7: in the plain a climber alone against the wind moves 4; on the wheel of a
    domestique riding against the wind it gains the domestique's 6; if that domestique
    was itself sheltered, 7."""
    if case == "alone":
        s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
        assert max(row(sq) for sq in of_kind(s)) - 10 == gain
        return
    if case == "windy":
        s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:b1,BC1:c1,BD1:c11+,BS1:e1 / - / -")
        play(s, "BD1-c17")
    else:
        s = mc.from_mcn(FLAT, "1 AC1:c10,AD1:a1+,AS1:c12,BC1:c1,BD1:c11+,BS1:e1 / - / -")
        play(s, "AS1-a14")
        assert s.current_rider == "BD1"
        assert max_row(s) == 18  # sheltered domestique: 7
        play(s, "BD1-c18")
    assert s.current_rider == "AC1"
    assert max(row(sq) for sq in of_kind(s)) == 15  # its own allowance: 5 sheltered
    (wheel,) = of_kind(s, "w")
    assert row(wheel) - 10 == gain
    play(s, f"AC1-{wheel}w")
    assert s.rider("AC1").square == f"c{10 + gain}"
    assert f"AC1-c{10 + gain}w" in {str(m) for m in s.history}
    assert "AC1" not in legal(s)
