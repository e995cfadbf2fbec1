"""MC-3: setup."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import course, legal, place_all, play

#: Start zone rows 1-2 of 5 lanes.
C5 = course([[3, "plain"], [10, "sprint"]], 30, name="c5")
#: Start zone rows 1-2 of 3 lanes: exactly room for two teams of three.
C3 = course([[3, "plain"]], 30, lanes=3, name="c3")


def start_squares(c: mc.Course) -> set[str]:
    return {f"{'abcdefg'[lane]}{r}" for r in range(1, c.start_rows + 1) for lane in range(c.lanes)}


def test_mc_3_1_placement_order_round_the_table() -> None:
    """MC-3.1: team A places first, then B, C, ... round the table, one rider at a time."""
    s = mc.new_game(C5, teams={"A": "DSC", "B": "DSC", "C": "DSC"})
    assert s.round == 0 and s.current_rider is None
    seen = []
    squares = iter(["a1", "c1", "e1", "b2", "d2", "a2", "c2", "b1", "d1"])
    while s.round == 0:
        team = s.current_player
        assert team is not None
        seen.append(team)
        riders = {str(m).split("@")[0] for m in s.legal_moves()}
        assert riders == set(s.unplaced(team))  # any unplaced rider of that team
        assert all(str(m)[0] == team for m in s.legal_moves())
        s.play(f"{s.unplaced(team)[-1]}@{next(squares)}")
    assert "".join(seen) == "ABCABCABC"


def test_mc_3_1_placement_on_free_start_squares() -> None:
    """MC-3.1: a placement puts an unplaced rider on a free square of the start zone."""
    s = mc.new_game(C5, teams={"A": "DSC", "B": "DSC"})
    first = legal(s)
    assert first == {f"{rid}@{sq}" for rid in ("AD1", "AS1", "AC1") for sq in start_squares(C5)}
    play(s, "AS1@b2")
    # B may use every free square (B has no teammate on the road yet).
    assert legal(s) == {
        f"{rid}@{sq}" for rid in ("BD1", "BS1", "BC1") for sq in start_squares(C5) - {"b2"}
    }
    with pytest.raises(peloton.IllegalMoveError, match="taken"):
        s.play("BD1@b2")
    with pytest.raises(peloton.IllegalMoveError, match="start zone"):
        s.play("BD1@b3")
    with pytest.raises(peloton.IllegalMoveError, match="turn"):
        s.play("AD1@a1")
    play(s, "BD1@c1")
    with pytest.raises(peloton.IllegalMoveError, match="already placed"):
        s.play("AS1@a1")


def test_mc_3_2_not_in_front_of_or_behind_a_teammate() -> None:
    """MC-3.2: no placement directly in front of or behind a teammate (same lane,
    adjacent row); opponents may go there."""
    s = mc.new_game(C5, teams={"A": "DSC", "B": "DSC"})
    play(s, "AD1@c1", "BD1@b2")
    assert legal(s) == {
        f"{rid}@{sq}" for rid in ("AS1", "AC1") for sq in start_squares(C5) - {"c1", "b2", "c2"}
    }
    play(s, "AS1@d2")
    # B may sit in front of A's rider (c2) and behind its own? Not behind its own (b1).
    b_squares = {m.split("@")[1] for m in legal(s)}
    assert "c2" in b_squares and "d1" in b_squares
    assert "b1" not in b_squares
    with pytest.raises(peloton.IllegalMoveError, match="teammate"):
        s.play("BS1@b1")


def test_mc_3_2_restriction_lifted_when_impossible() -> None:
    """MC-3.2 [decision]: with no square respecting the restriction, it is lifted for
    that placement (and only for it)."""
    narrow = course([[4, "plain"]], 30, lanes=2)  # start zone a1-b3
    s = mc.new_game(narrow, teams={"A": "DSC", "B": "DSC"})
    play(s, "AD1@a1", "BD1@b1")
    assert {m.split("@")[1] for m in legal(s)} == {"b2", "a3", "b3"}  # not a2
    play(s, "AS1@b2", "BS1@a3")
    # Free: a2 (in front of AD1) and b3 (in front of AS1): both forbidden, so both allowed.
    assert legal(s) == {"AC1@a2", "AC1@b3"}
    play(s, "AC1@b3")
    assert legal(s) == {"BC1@a2"}
    play(s, "BC1@a2")
    assert s.round == 1


def test_mc_3_2_restriction_lifted_three_teams() -> None:
    """MC-3.2 [decision]: the last placement of team C is lifted onto c2."""
    c = course([[4, "plain"]], 30, lanes=3)
    s = mc.new_game(c, teams={"A": "DSC", "B": "DSC", "C": "DSC"})
    play(s, "AD1@a1", "BD1@b1", "CD1@c1", "AS1@b2", "BS1@a2", "CS1@a3", "AC1@c3", "BC1@b3")
    assert legal(s) == {"CC1@c2"}


def test_mc_3_2_restriction_applies_while_possible() -> None:
    """MC-3.2: as long as some square respects it, the restriction holds."""
    s = mc.new_game(C3, teams={"A": "DSC", "B": "DSC"})
    play(s, "AD1@a1", "BD1@b1")
    assert legal(s) == {f"{r}@{sq}" for r in ("AS1", "AC1") for sq in ("b2", "c1", "c2")}
    play(s, "AS1@c2", "BS1@a2")
    # A: b2 free (B's BD1 behind it does not matter), c1 is behind AS1.
    assert legal(s) == {"AC1@b2"}


def test_mc_3_3_round_one_begins_when_all_placed() -> None:
    """MC-3.3: when every rider is placed, round 1 begins with the furthest rider."""
    s = mc.new_game(C5, teams={"A": "DSC", "B": "DSC"})
    place_all(s, {"AD1": "a1", "AS1": "b1", "AC1": "c2", "BD1": "d1", "BS1": "e2", "BC1": "a2"})
    assert s.round == 1
    assert s.current_rider == "BC1"  # row 2, lane a: furthest, then leftmost
    assert s.turn_order() == ["BC1", "AC1", "BS1", "AD1", "AS1", "BD1"]
    assert s.to_mcn() == "1 AC1:c2,AD1:a1+,AS1:b1,BC1:a2,BD1:d1+,BS1:e2 / - / -"
    assert not any("@" in m for m in legal(s))
