"""MT-1: the board, its length and its milestones (game options)."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindtwist as mt

from .helpers import at, play


def test_mt_1_1_two_tokens_on_paths_numbered_alike() -> None:
    """MT-1.1: red and blue start on space 0; the finish is space 30 by default; a
    token on space k of its path and one on space k of the other share a space."""
    s = mt.new_game()
    assert s.players == ("R", "B")
    assert (s.red, s.blue) == (0, 0)
    assert s.board.length == 30
    assert s.position == "R0 B0 R"
    # Same number on both paths is the same space: blue landing on red's 5 sideswipes it.
    s = at("R5 B2 B")
    play(s, "dial:3", "pass")
    assert (s.red, s.blue) == (0, 5)


def test_mt_1_2_default_milestones_and_options() -> None:
    """MT-1.2: milestones 8, 16, 24 by default; length and milestones are options."""
    assert mt.new_game().board.milestones == (8, 16, 24)
    s = mt.from_options({"length": 12, "milestones": [3, 7]})
    assert (s.board.length, s.board.milestones) == (12, (3, 7))
    assert mt.from_options({"milestones": []}).board.milestones == ()
    assert mt.from_options({}) == mt.new_game()
    assert mt.from_options(None) == mt.new_game()
    assert mt.from_options({"players": 2}) == mt.new_game()
    assert set(mt.OPTIONS) == {"players", "length", "milestones", "first"}
    assert mt.OPTIONS["length"][0] == 30 and mt.OPTIONS["milestones"][0] == [8, 16, 24]


def test_mt_1_2_milestones_follow_a_length_given_alone() -> None:
    """MT-1.2 [decision]: a length without milestones keeps the default proportions."""
    assert mt.from_options({"length": 30}).board.milestones == (8, 16, 24)
    assert mt.from_options({"length": 20}).board.milestones == (5, 11, 16)
    assert mt.from_options({"length": 3}).board.milestones == (1, 2)
    assert mt.from_options({"length": 2}).board.milestones == (1,)
    assert mt.from_options({"length": 20, "milestones": []}).board.milestones == ()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"length": 1}, "'length' must be 2 to"),
        ({"length": "30"}, "'length' must be a whole number"),
        ({"length": True}, "'length' must be a whole number"),
        ({"length": 10**6}, "'length' must be 2 to"),
        ({"milestones": [8, 8]}, "strictly increasing"),
        ({"milestones": [16, 8]}, "strictly increasing"),
        ({"milestones": [0, 8]}, "space 0 is off the path"),
        ({"milestones": [8, 30]}, "space 30 is off the path"),
        ({"length": 10, "milestones": [8, 16]}, "space 16 is off the path"),
        ({"milestones": "8,16"}, "must be a list"),
        ({"milestones": 8}, "must be a list"),
        ({"milestones": [8.0]}, "whole numbers"),
        ({"players": 3}, "'players'"),
        ({"riders": 3}, "unknown Mind Twist option(s) 'riders'"),
    ],
)
def test_mt_1_2_bad_options_are_config_errors(options: dict[str, object], message: str) -> None:
    """MT-1.2: milestones strictly increasing in 1..length-1; bad options name themselves."""
    with pytest.raises(peloton.ConfigError) as info:
        mt.from_options(options)
    assert message in str(info.value)
