"""PI-3: race order, rolls, paths and the colour and shelter bonuses."""

from __future__ import annotations

import pytest

from peloton.core import CHANCE, IllegalMoveError

from .helpers import RED, STRIPES, at, legal, play, with_value


def test_pi_3_1_race_order() -> None:
    """PI-3.1: furthest first; level riders, the inner lane first."""
    state = at("A1:1.c10,A2:2.b1,B1:1.a10,B2:1.d12,B3:1.b3")
    assert state.order == ["A2", "B2", "B1", "A1", "B3"]
    assert state.due == "A2"


def test_pi_3_1_order_fixed_for_the_round() -> None:
    """PI-3.1 [decision]: the order is set at the start of a round; a rider overtaken
    during the round still moves in its place."""
    state = at("A1:1.a10,B1:1.a8", bonus="none")
    play(state, "roll:1", "A1=1:a11", "roll:6", "B1=6:b14")
    assert state.round == 3 and state.order == ["B1", "A1"]


def test_pi_3_2_roll_when_first_rider_due_and_dice_used_once() -> None:
    """PI-3.2: a player rolls all its dice when its first rider in race order is due;
    each rider then uses one unused die, which is discarded."""
    state = at("A1:1.a20,A2:1.a10,B1:1.a15,B2:1.a5", bonus="none")
    assert state.is_chance and state.current_player == CHANCE and state.roller == "A"
    play(state, "roll:2,5")
    assert state.current_player == "A" and state.due == "A1"
    assert {m.value for m in state.legal_moves()} == {2, 5}
    play(state, "A1=5:a25")
    assert state.is_chance and state.roller == "B"  # B's first rider is due next
    play(state, "roll:3,3", "B1=3:a18")
    assert state.due == "A2" and {m.value for m in state.legal_moves()} == {2}
    play(state, "A2=2:a12")
    assert state.due == "B2" and legal(state) >= {"B2=3:a8"}
    with pytest.raises(IllegalMoveError):
        state.play("B2=5:a10")


def test_pi_3_3_paths_straight_or_diagonal() -> None:
    """PI-3.3: a path of exactly the die's value, each step one row forward, straight
    or diagonal, into free squares only."""
    state = at("A1:1.b10,A2:1.a3,B1:1.a2", bonus="none")
    play(state, "roll:1,2")
    assert with_value(state, 1) == {"a11", "b11", "c11"}
    assert with_value(state, 2) == {"a12", "b12", "c12", "d12"}


# Riders a lap behind (lap 1) stand on the squares just ahead of A1 (lap 2) but move
# after it in race order (PI-3.1): the natural way a rider finds its road taken.


def test_pi_3_3_occupied_squares_block_paths() -> None:
    """PI-3.3: riders in the way are stepped around, never through."""
    state = at("A1:2.a10,B1:1.a11,B2:1.b12,B3:1.a12", bonus="none")
    play(state, "roll:3")
    # a11 is taken: through b11, then c12 (a12, b12 taken), then b13/c13/d13.
    assert with_value(state, 3) == {"b13", "c13", "d13"}


def test_pi_3_3_longest_path_when_exact_is_impossible() -> None:
    """PI-3.3 [decision]: with no path of the full value, the rider moves along the
    longest path it has (any end square at that distance)."""
    state = at("A1:2.a10,A2:2.a3,B1:1.a12,B2:1.b12,B3:1.c12", bonus="none")
    play(state, "roll:1,4")
    assert with_value(state, 4) == {"a11", "b11"}
    assert with_value(state, 1) == {"a11", "b11"}


def test_pi_3_3_cannot_move() -> None:
    """PI-5.2 ``A3=5:-``: with no free square ahead the rider stays and uses a die."""
    state = at("A1:2.b10,A2:2.a3,B1:1.a11,B2:1.b11,B3:1.c11", bonus="none")
    play(state, "roll:2,6")
    assert legal(state) == {"A1=2:-", "A1=6:-"}
    play(state, "A1=6:-")
    assert state.dist["A1"] == 50 and state.dice["A"] == [2]


def test_pi_3_4_colour_bonus() -> None:
    """PI-3.4: ending on its base colour, a rider may go one square straight ahead if
    free, and one more if that square has its colour too (two at most); optional."""
    state = at("A1:1.b10,B1:1.a2")  # A1 is yellow; lane a is yellow on the stripes
    play(state, "roll:2")
    assert with_value(state, 2) == {"a12", "a12+a13", "a12+a13+a14", "b12", "c12", "d12"}
    play(state, "A1=2:a12+a13+a14")
    assert state.dist["A1"] == 14


def test_pi_3_4_colour_bonus_needs_free_squares_and_the_colour() -> None:
    """PI-3.4: the bonus square must be free; no bonus off the rider's colour (the
    colour bonus alone, ``bonus="colour"``: a12 would give shelter in the standard game)."""
    state = at("A1:2.b10,A2:2.c10,B1:1.a13", bonus="colour")
    play(state, "roll:2,2")
    assert "a12+a13" not in with_value(state, 2) and "a12" in with_value(state, 2)
    play(state, "A1=2:c12")
    # A2 is green (lane b): a bonus from b12 only.
    assert with_value(state, 2) == {"a12", "b12", "b12+b13", "b12+b13+b14", "d12"}


def test_pi_3_4_second_square_needs_the_colour_too() -> None:
    """PI-3.4: the second bonus square only when the first has the rider's colour."""
    rows = ["ygbr"] * 40
    rows[12] = "rgby"  # row 13: lane a red
    state = at("A1:1.a10,B1:1.c2", layout={"name": "t", "rows": rows})
    play(state, "roll:2")
    assert {p for p in with_value(state, 2) if p.startswith("a12")} == {"a12", "a12+a13"}


def test_pi_3_5_shelter_bonus() -> None:
    """PI-3.5: ending directly behind a rider, one square diagonally forward if free;
    no colour bonus of PI-3.4 in this variant."""
    state = at("A2:2.b10,B1:1.b13", bonus="shelter")  # A2 green: lane b
    play(state, "roll:2")
    assert with_value(state, 2) == {"a12", "b12", "b12+a13", "b12+c13", "c12", "d12"}


def test_pi_3_5_no_second_shelter_bonus() -> None:
    """PI-3.5: if the shelter square is again behind a rider there is no second one."""
    state = at("A2:2.b10,B1:1.b13,B2:1.c14", bonus="shelter")
    play(state, "roll:2")
    assert {p for p in with_value(state, 2) if p.startswith("b12")} == {"b12", "b12+a13", "b12+c13"}


def test_pi_3_5_shelter_then_colour_diagonally() -> None:
    """PI-3.5: on a shelter square of its base colour the rider may continue one, then
    a second, square diagonally the same way while the colour matches and squares are
    free."""
    state = at("A4:2.a10,B1:1.a13", bonus="shelter", layout=RED)  # all red; A4 red
    play(state, "roll:2")
    assert {p for p in with_value(state, 2) if p.startswith("a12")} == {
        "a12",
        "a12+b13",
        "a12+b13+c14",
        "a12+b13+c14+d15",
    }
    play(state, "A4=2:a12+b13+c14+d15")
    assert state.dist["A4"] == 55 and state.square_of("A4") == "d15"


def test_pi_3_5_continuation_stops_at_a_taken_square_or_the_edge() -> None:
    """PI-3.5: the diagonal run stops at an occupied square or the track's edge."""
    state = at("A4:2.c10,B1:1.c13,B2:1.a15", bonus="shelter", layout=RED)
    play(state, "roll:2")
    ends = {p for p in with_value(state, 2) if p.startswith("c12")}
    assert ends == {"c12", "c12+d13", "c12+b13", "c12+b13+a14"}


def test_pi_3_6_both_bonuses_in_the_standard_game() -> None:
    """PI-3.6: the standard game gives both bonuses; the square straight ahead decides
    which: free, the colour bonus (PI-3.4); taken, the shelter bonus (PI-3.5)."""
    state = at("A1:2.b10,B1:1.b13")  # A1 yellow: lane a yellow on the stripes
    assert state.bonus == "both"
    play(state, "roll:2")
    assert with_value(state, 2) == {
        "a12",
        "a12+a13",
        "a12+a13+a14",  # colour: a13 free, yellow
        "b12",
        "b12+a13",
        "b12+c13",  # shelter: b13 taken (B1)
        "c12",
        "d12",
    }


def test_pi_3_6_never_both_on_one_square() -> None:
    """PI-3.6: on its own colour but behind a rider, a rider gets the shelter bonus
    only (no straight colour square: it is taken); the colour squares PI-3.5 allows
    after a shelter square run diagonally."""
    state = at("A4:2.a10,B1:1.a13", layout=RED)  # all red; A4 red
    play(state, "roll:2")
    assert {p for p in with_value(state, 2) if p.startswith("a12")} == {
        "a12",
        "a12+b13",
        "a12+b13+c14",
        "a12+b13+c14+d15",
    }
    assert {p for p in with_value(state, 2) if p.startswith("b12")} == {
        "b12",
        "b12+b13",
        "b12+b13+b14",
    }


@pytest.mark.parametrize(
    ("bonus", "colour", "shelter"),
    [
        ("both", True, True),
        ("colour", True, False),
        ("shelter", False, True),
        ("none", False, False),
    ],
)
def test_pi_3_6_house_rules(bonus: str, colour: bool, shelter: bool) -> None:
    """PI-3.6: ``colour``, ``shelter`` and ``none`` keep one bonus or neither."""
    state = at("A1:2.b10,B1:1.b13", bonus=bonus)
    play(state, "roll:2")
    paths = with_value(state, 2)
    assert ("a12+a13" in paths) == colour
    assert ("b12+c13" in paths) == shelter


def test_pi_3_4_bonus_none() -> None:
    """bonus="none": no bonus squares at all."""
    state = at("A1:1.b10,B1:1.a2", bonus="none", layout=STRIPES)
    play(state, "roll:2")
    assert all("+" not in p for p in with_value(state, 2))
