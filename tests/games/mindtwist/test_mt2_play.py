"""MT-2: dialling, challenging and winning."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindtwist as mt

from .helpers import at, legal, play


def test_mt_2_1_red_dials_first() -> None:
    """MT-2.1: red is active first and turns the dial to 1, 2 or 3."""
    s = mt.new_game()
    assert s.current_player == "R" and s.active_player == "R" and s.phase == "dial"
    assert legal(s) == ["dial:1", "dial:2", "dial:3"]
    s.play("dial:2")
    assert s.dial == 2 and s.phase == "guess" and s.current_player == "B"


def test_mt_2_2_the_other_player_guesses_or_passes() -> None:
    """MT-2.2: after the dial, the other player guesses 1-3 or does not challenge."""
    s = play(mt.new_game(), "dial:1")
    assert legal(s) == ["guess:1", "guess:2", "guess:3", "pass"]


def test_mt_2_2_correct_guess_no_move_challenger_active() -> None:
    """MT-2.2: a correct guess: the active player does not move, the challenger
    becomes active."""
    s = play(at("R4 B6 R"), "dial:2", "guess:2")
    assert s.position == "R4 B6 B"
    assert s.current_player == "B" and s.phase == "dial"


def test_mt_2_2_wrong_guess_move_and_dial_again() -> None:
    """MT-2.2: a wrong guess: the dial is revealed, the active player moves that many
    spaces and stays active."""
    s = play(at("R4 B6 R"), "dial:3", "guess:1")
    assert s.position == "R7 B6 R"
    assert s.current_player == "R" and s.phase == "dial"
    assert mt.public_moves(s, "B") == ["dial:3", "guess:1"]


def test_mt_2_2_no_challenge_move_and_pass_the_turn() -> None:
    """MT-2.2: no challenge: the dial is revealed, the active player moves and the
    other player becomes active."""
    s = play(at("R4 B6 R"), "dial:1", "pass")
    assert s.position == "R5 B6 B"
    assert s.current_player == "B"
    assert mt.public_moves(s, None) == ["dial:1", "pass"]


def test_mt_2_2_blue_dials_after_a_correct_guess() -> None:
    """MT-2.2: roles swap both ways."""
    s = play(mt.new_game(), "dial:3", "guess:3", "dial:1", "guess:1")
    assert s.position == "R0 B0 R"


@pytest.mark.parametrize(
    ("start", "dial"), [("R27 B0 R", "dial:3"), ("R29 B0 R", "dial:3"), ("R28 B0 R", "dial:2")]
)
@pytest.mark.parametrize("response", ["pass", "guess:1"])
def test_mt_2_3_reaching_or_passing_the_finish_wins_at_once(
    start: str, dial: str, response: str
) -> None:
    """MT-2.3: no exact count: reaching or passing the finish wins at once, after a
    pass or a wrong guess alike."""
    s = play(at(start), dial, response)
    assert s.is_over and s.result == "R"
    assert s.current_player is None and s.legal_moves() == []
    assert s.red == 30
    with pytest.raises(peloton.IllegalMoveError, match="game is over"):
        s.play("dial:1")


def test_mt_2_3_blue_can_win_and_a_caught_dial_does_not() -> None:
    """MT-2.3: the winner's letter is the result; a correctly guessed finishing dial
    does not move."""
    s = play(at("R3 B28 B"), "dial:3", "guess:3")
    assert not s.is_over and s.position == "R3 B28 R"
    s = play(at("R3 B28 B"), "dial:2", "pass")
    assert s.result == "B"
