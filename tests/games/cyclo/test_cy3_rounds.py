"""CY-3: rounds, their order, skipped turns, the end of a round and the guard."""

from __future__ import annotations

from .helpers import at, play, square


def test_cy_3_1_round_one_goes_team_by_team() -> None:
    """Round 1: seat order, each team in position order, at one position the lower lane."""
    state = at("1 AC1:a20,AH1:b20,AS1:a10,BS1:a30", level="starter")
    assert state.position.order == ["AC1", "AH1", "AS1", "BS1"]


def test_cy_3_2_later_rounds_go_in_position_order() -> None:
    state = at("2 AC1:a12,AS1:b10,BH1:c10,BS1:a10", level="starter")
    assert state.position.order == ["AC1", "BS1", "AS1", "BH1"]


def test_cy_3_3_the_order_is_fixed_at_the_start_of_the_round() -> None:
    """A rider overtaken during the round still goes in its slot; the next round
    re-orders; players never choose which rider moves."""
    state = play(
        at("2 AS1:a20,BS1:a10", level="starter"), "roll:1,1", "AS1-22", "roll:6,6", "BS1-22"
    )
    assert (
        square(state, "BS1") == "b22"
        and state.round == 3
        and state.position.order == ["AS1", "BS1"]
    )
    state = play(at("2 AS1:a20,BS1:a12", level="starter"), "roll:1,1", "AS1-22")
    assert state.due == "BS1"
    state.play("roll:6,6")
    state.play("BS1-24")
    assert state.position.order == ["BS1", "AS1"]


def test_cy_3_4_skip_flag_loses_the_next_turn() -> None:
    state = at("2 AS1:a20s,BS1:a10", level="starter")
    assert state.due == "BS1" and not state.rider("AS1").skip  # its slot is passed
    assert state.to_cyn() == "2 AS1:a20s,BS1:a10 / - / - / - / -"  # CY-19.17
    play(state, "roll:1,1", "BS1-12")
    assert state.round == 3 and state.due == "AS1" and square(state, "AS1") == "a20"


def test_cy_3_5_end_of_round() -> None:
    """Crossings are ranked by square first, then finishers leave the run-out; the
    race ends at the end of the round in which the last rider finishes."""
    state = at("5 AS1:a118,BS1:a119,CS1:a100", level="starter")
    play(state, "roll:1,1,2", "BS1-#3", "roll:2,2,4", "AS1-#6")
    assert (
        state.rider("BS1").square == "a#3" and state.rider("AS1").square == "a#6"
    )  # on the run-out
    play(state, "roll:1,2", "CS1-103")
    assert state.round == 6 and state.rider("AS1").square is None and state.rider("AS1").finished
    assert [r for r, _, _ in state.position.finishers] == ["AS1", "BS1"]
    assert state.position.order == ["CS1"] and not state.is_over
    play(state, "roll:6,6,6", "CS1-#1")
    assert state.is_over and state.result.places == ("AS1", "BS1", "CS1")


def test_cy_3_6_guard_after_round_300() -> None:
    """CY-3.6: a game still running after round 300 ends (riders still racing rank
    by position, CY-8.5); round 300 itself is played to its end."""
    state = at("300 AS1:a10,BS1:a5", level="starter")
    play(state, "roll:1,1", "AS1-12", "roll:1,1")
    assert not state.is_over
    state.play("BS1-7")
    assert state.is_over and state.phase == "over" and state.current_player is None
    result = state.result
    assert result.over and result.places == ("AS1", "BS1") and result.winner == "AS1"
    assert result.winner_team == "A"
