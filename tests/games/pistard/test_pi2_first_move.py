"""PI-2: the first move (rolls, assignments, entry highest values first)."""

from __future__ import annotations

import pytest

from peloton.core import CHANCE, IllegalMoveError
from peloton.core.rng import Rng
from peloton.games import pistard as pi

from .helpers import legal, play


def assign_all(state: pi.State, *moves: str) -> pi.State:
    """Play assignment moves (``A1=6`` ...)."""
    return play(state, *moves)


def test_pi_2_1_every_player_rolls_four_dice() -> None:
    """PI-2.1: riders start behind the line; every player rolls 4 dice, a chance step
    each, in seat order, before anyone assigns."""
    state = pi.new_game(3)
    assert all(state.lane[r] == -1 and state.dist[r] == 0 for r in state.riders)
    for team in "ABC":
        assert state.is_chance and state.current_player == CHANCE and state.roller == team
        assert len(state.legal_moves()) == 126  # multisets of 4 dice
        state.play(state.chance_move(Rng(7)))
        assert len(state.first_rolls[team]) == 4
    assert not state.is_chance and state.current_player == "A"


def test_pi_2_1_higher_sum_wins_ties() -> None:
    """PI-2.1/2.2: among equal values, the player with the higher sum moves first (and
    takes the inner lane)."""
    state = play(pi.new_game(2), "roll:1,2,3,6", "roll:4,4,5,6")
    assign_all(state, "A1=6", "A2=3", "A3=2", "A4=1", "B1=6", "B2=5", "B3=4", "B4=4")
    assert state.square_of("B1") == "a6" and state.square_of("A1") == "b6"


def test_pi_2_1_equal_sums_seat_order() -> None:
    """PI-2.1 [decision]: equal sums: the earlier seat first."""
    state = play(pi.new_game(2), "roll:3,4,5,6", "roll:3,4,5,6")
    assign_all(state, "A4=6", "A3=5", "A2=4", "A1=3", "B1=6", "B2=5", "B3=4", "B4=3")
    assert [state.square_of(r) for r in ("A4", "B1", "A3", "B2")] == ["a6", "b6", "a5", "b5"]


def test_pi_2_2_assignment_moves() -> None:
    """PI-2.2: each player gives one die to each of its riders: ``A3=5`` for any rider
    without a die and any unused value; the last rider takes the last die."""
    state = play(pi.new_game(2), "roll:2,5,5,6", "roll:1,1,1,1")
    assert legal(state) == {f"A{n}={v}" for n in range(1, 5) for v in (2, 5, 6)}
    play(state, "A3=5")
    assert legal(state) == {f"A{n}={v}" for n in (1, 2, 4) for v in (2, 5, 6)}
    play(state, "A1=5", "A2=6")
    assert legal(state) == {"A4=2"}
    play(state, "A4=2")
    assert state.current_player == "B" and legal(state) == {f"B{n}=1" for n in range(1, 5)}
    with pytest.raises(IllegalMoveError):
        state.play("B1=6")


def test_pi_2_2_highest_values_first_and_own_order() -> None:
    """PI-2.2: riders move highest values first; among a player's own equal values, in
    the order it assigned them [decision: the player's own choice of order]."""
    state = play(pi.new_game(2), "roll:2,5,5,6", "roll:1,2,3,4")
    assign_all(state, "A3=5", "A1=5", "A2=6", "A4=2", "B1=4", "B2=3", "B3=2", "B4=1")
    assert state.first_move_order() == ["A2", "A3", "A1", "B1", "B2", "A4", "B3", "B4"]
    assert [state.square_of(r) for r in state.first_move_order()] == [
        "a6",
        "a5",
        "b5",
        "a4",
        "a3",
        "a2",
        "b2",
        "a1",
    ]
    assert state.round == 2


def test_pi_2_2_most_it_can_when_the_row_is_full() -> None:
    """PI-2.2: a rider advances exactly its value if a square is free there, else the
    most it can (never two riders on a square)."""
    state = play(pi.new_game(2), "roll:6,6,6,6", "roll:1,1,1,6")
    assign_all(state, "A1=6", "A2=6", "A3=6", "A4=6", "B1=6", "B2=1", "B3=1", "B4=1")
    assert {state.square_of(r) for r in ("A1", "A2", "A3", "A4")} == {"a6", "b6", "c6", "d6"}
    assert state.square_of("B1") == "a5"  # row 6 is full: it advances the most it can
    assert [state.square_of(r) for r in ("B2", "B3", "B4")] == ["a1", "b1", "c1"]


def test_pi_2_2_no_colours_in_the_first_move() -> None:
    """PI-2.2: colours (and shelter) do not count in the first move: every rider ends
    exactly on its die's row, even on its own colour."""
    for bonus in pi.BONUSES:
        state = play(pi.new_game(2, bonus=bonus), "roll:1,2,3,4", "roll:1,2,3,4")
        assign_all(state, "A1=1", "A2=2", "A3=3", "A4=4", "B1=1", "B2=2", "B3=3", "B4=4")
        assert all(state.dist[r] == int(r[1]) for r in state.riders)


def test_pi_2_2_no_room_stays_behind_the_line() -> None:
    """PI-2.2: with four players, a fifth rider on a full first row stays behind the
    line and enters in a later round."""
    state = play(pi.new_game(4), *["roll:1,1,1,1"] * 4)
    for team in "ABCD":
        assign_all(state, *(f"{team}{n}=1" for n in range(1, 5)))
    assert sum(1 for r in state.riders if state.dist[r] == 1) == 4
    behind = [r for r in state.riders if state.lane[r] == -1]
    assert len(behind) == 12
    assert state.race_order()[:4] == ["A1", "A2", "A3", "A4"]


def test_pi_2_2_a_rider_left_behind_enters_later() -> None:
    """PI-2.2 [decision]: a rider still behind the line moves last in race order and
    enters on any lane (the area behind the line is open)."""
    from .helpers import at, with_value

    state = at("A1:start,A2:1.c3,B1:1.a1,B2:1.b1,B3:1.c1,B4:1.d1", bonus="none")
    assert state.order[-1] == "A1"
    play(state, "roll:2,4", "A2=4:c7", "roll:1,1,1,1", "B1=1:a2", "B2=1:b2", "B3=1:c2", "B4=1:d2")
    assert state.due == "A1" and with_value(state, 2) == {"a1", "b1", "c1", "d1"}  # row 2 is full
    play(state, "A1=2:b1")
    assert state.dist["A1"] == 1 and state.square_of("A1") == "b1"
