"""MT-3: milestones and sideswiping."""

from __future__ import annotations

import pytest

from peloton.games import mindtwist as mt

from .helpers import at, play


def test_mt_3_1_landing_on_the_opponent_sideswipes() -> None:
    """MT-3.1: the moving token lands where the opponent stands: the opponent is
    sideswiped (here back to milestone 8)."""
    s = play(at("R10 B12 R"), "dial:2", "pass")
    assert s.position == "R12 B8 B"


def test_mt_3_1_wrong_guess_moves_sideswipe_too() -> None:
    """MT-3.1: a move after a wrong guess sideswipes like any move."""
    s = play(at("R20 B17 B"), "dial:3", "guess:1")
    assert s.position == "R16 B20 B"


def test_mt_3_1_no_sideswipe_on_a_milestone() -> None:
    """MT-3.1: an opponent on a milestone is safe; both tokens share the space."""
    s = play(at("R14 B16 R"), "dial:2", "pass")
    assert s.position == "R16 B16 B"


def test_mt_3_1_passing_over_is_no_sideswipe() -> None:
    """MT-3.1: only landing on the opponent's space counts."""
    s = play(at("R10 B11 R"), "dial:3", "pass")
    assert s.position == "R13 B11 B"


def test_mt_3_1_start_is_safe() -> None:
    """MT-3.1 [decision]: space 0 protects too (a move never lands there, so both
    tokens only ever share it at the start, as they do)."""
    board = mt.Board()
    assert board.is_protected(0)
    assert all(board.advance(0, 0, n) == (n, 0) for n in (1, 2, 3))
    assert mt.from_position("R0 B0 B").position == "R0 B0 B"


@pytest.mark.parametrize(
    ("before", "after"),
    [(7, 0), (1, 0), (9, 8), (15, 8), (17, 16), (23, 16), (25, 24), (29, 24)],
)
def test_mt_3_2_back_to_the_nearest_milestone_behind(before: int, after: int) -> None:
    """MT-3.2: a sideswiped token goes back to the nearest milestone behind it; before
    the first milestone, to the start."""
    s = play(at(f"R{before - 1} B{before} R"), "dial:1", "pass")
    assert (s.red, s.blue) == (before, after)


def test_mt_3_2_no_milestones_back_to_start() -> None:
    """MT-3.2 with no milestones at all: always back to the start."""
    s = play(at("R18 B16 B", milestones=[]), "dial:2", "pass")
    assert s.position == "R0 B18 R"
