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


def test_mt_2_1_who_dials_first_is_a_table_choice() -> None:
    """MT-2.1: the printed rules let the youngest player start: option ``first``
    (``R`` by default, or ``B``) says who is active first."""
    s = mt.from_options({"first": "B"})
    assert s.current_player == "B" and s.active_player == "B" and s.first == "B"
    assert s.position == "R0 B0 B" and legal(s) == ["dial:1", "dial:2", "dial:3"]
    play(s, "dial:2", "pass")
    assert (s.red, s.blue) == (0, 2) and s.current_player == "R"
    assert mt.new_game(first="B") == mt.from_options({"first": "B"})
    assert mt.from_options({"first": "R"}) == mt.new_game() and mt.new_game().first == "R"
    assert mt.OPTIONS["first"] == ("R", mt.OPTIONS["first"].help, ("R", "B"))


def test_mt_2_1_first_in_records_views_and_snapshots() -> None:
    """The record keeps ``first``; the public record and the views' turn lists start
    with blue's dial; a record written before the option existed is red's."""
    s = play(mt.from_options({"first": "B", "length": 12}), "dial:3", "guess:3", "dial:1", "pass")
    assert s.position == "R1 B0 B"
    record = mt.Record.from_state(s)
    data = record.to_dict()
    assert data["options"]["first"] == "B" and data["start"] is None
    assert mt.load_record(data).replay() == s
    assert [t.dialer for t in s.turns("R")] == ["B", "R"]
    assert mt.Record.from_json(record.to_json("R")).replay().view("R") == s.view("R")
    assert mt.snapshot(s, "R")["first"] == "B" and mt.snapshot(s, "R")["moves"] == [
        "dial:?",
        "guess:3",
        "dial:1",
        "pass",
    ]
    old = {
        **data,
        "options": {"length": 12, "milestones": data["options"]["milestones"]},
        "moves": [],
    }
    assert mt.load_record(old).replay() == mt.from_options({"length": 12})
    with pytest.raises(peloton.RecordError, match="gives the dial to R"):
        mt.load_record({**data, "start": "R3 B0 R"})


@pytest.mark.parametrize("first", ["r", "red", "", 1, None, ["B"]])
def test_mt_2_1_bad_first_is_a_config_error(first: object) -> None:
    with pytest.raises(
        peloton.ConfigError, match=r"option 'first' must be R \(red\) or B \(blue\), not "
    ):
        mt.from_options({"first": first})
    with pytest.raises(peloton.ConfigError, match="'first'"):
        mt.from_position("R3 B0 R", first="B")


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
