"""MC-9: the solo version."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import FLAT, course, legal, play, row


def test_mc_9_1_solo_team_of_five() -> None:
    """MC-9.1: one team of five, default DDSSC, at most two of a type."""
    s = mc.new_solo(FLAT)
    assert s.players == ("A",)
    assert [r.id for r in s.riders()] == ["AC1", "AD1", "AD2", "AS1", "AS2"]
    assert mc.new_solo(FLAT, team="DSSCC").riders()[0].id == "AC1"
    for bad in ("DDSC", "DDSSCC", "DDDSC", "DSSSC"):
        with pytest.raises(peloton.ConfigError):
            mc.new_solo(FLAT, team=bad)


def test_mc_9_1_needs_five_lanes() -> None:
    """MC-9.1, MC-9.2: the five riders start side by side, so the road needs 5 lanes."""
    with pytest.raises(peloton.ConfigError, match="lanes"):
        mc.new_solo(course([[3, "plain"]], 30, lanes=4))


def test_mc_9_1_bundled_solo_course() -> None:
    """MC-9.1: the recommended solo course has all three section types, two feed zones
    and six rocks in the mountain section."""
    c = mc.Course.load("solo")
    assert {kind for _, kind in c.sections} == {"plain", "sprint", "mountain"}
    assert len(c.feed) == 2 and len(c.rocks) == 6
    assert all(c.section_of(row(sq)) == "mountain" for sq in c.rocks)


def test_mc_9_2_solo_setup_on_last_start_row() -> None:
    """MC-9.2: five placements, in any order, each on a free square of the start zone's
    last row."""
    s = mc.new_solo(FLAT)
    row2 = {f"{lane}2" for lane in "abcde"}
    assert legal(s) == {f"{rid}@{sq}" for rid in ("AD1", "AD2", "AS1", "AS2", "AC1") for sq in row2}
    with pytest.raises(peloton.IllegalMoveError, match="last row"):
        s.play("AD1@c1")
    play(s, "AS2@c2", "AC1@a2")
    assert legal(s) == {f"{rid}@{sq}" for rid in ("AD1", "AD2", "AS1") for sq in ("b2", "d2", "e2")}
    play(s, "AD1@d2", "AD2@b2")  # side by side: no teammate restriction applies
    assert s.current_player == "A" and s.round == 0
    play(s, "AS1@e2")
    assert s.round == 1
    assert s.to_mcn() == "1 AC1:a2,AD1:d2+,AD2:b2+,AS1:e2,AS2:c2 / - / -"


def test_mc_9_3_ends_at_end_of_round_of_fourth_rider() -> None:
    """MC-9.3: the solo game ends at the end of the round in which the fourth rider
    crosses (the other riders of that round still ride)."""
    s = mc.from_mcn(FLAT, "5 AC1:a30,AD1:c39+ / AS1,AS2,AD2 / -")
    play(s, "AD1-#")
    assert len(s.result.places) == 4
    assert not s.is_over and s.current_rider == "AC1"
    assert s.result.solo_score is None
    play(s, "AC1-a34")
    assert s.is_over
    assert s.result.solo_score == (5, 40 - 34)
    assert s.result.trophy is None  # [decision] no trophy in the solo version


def test_mc_9_3_no_early_end_in_solo() -> None:
    """MC-9.3: three riders across is not the end, whatever the round."""
    s = mc.from_mcn(FLAT, "5 AC1:a30,AD1:c35+ / AS1,AS2,AD2 / -")
    play(s, "AD1-c38", "AC1-a34")
    assert not s.is_over and s.round == 6


def test_mc_9_4_score_when_all_five_cross() -> None:
    """MC-9.4: remaining is 0 when the fifth rider crossed too."""
    s = mc.from_mcn(FLAT, "7 AC1:a38,AD1:c39+ / AS1,AS2,AD2 / -")
    play(s, "AD1-#", "AC1-#")
    assert s.is_over
    assert s.result.solo_score == (7, 0)


def test_mc_9_4_score_is_lower_is_better() -> None:
    """MC-9.4: (rounds, remaining), lower better, compared in that order; only in a
    finished solo game."""
    a = mc.from_mcn(FLAT, "5 AC1:a30,AD1:c39+ / AS1,AS2,AD2 / -")
    play(a, "AD1-#", "AC1-a31")
    b = mc.from_mcn(FLAT, "6 AC1:a37,AD1:c39+ / AS1,AS2,AD2 / -")
    play(b, "AD1-#", "AC1-a38")
    assert a.result.solo_score == (5, 9) and b.result.solo_score == (6, 2)
    assert a.result.solo_score < b.result.solo_score  # type: ignore[operator]
    multi = mc.from_mcn(FLAT, "9 - / AS1,BS1,AC1,BC1,AD1,BD1 / -")
    assert multi.is_over and multi.result.solo_score is None


def test_mc_9_3_whole_solo_game_terminates() -> None:
    """MC-9.3: a whole solo game (furthest move each turn) ends with a score."""
    s = mc.new_solo("solo")
    for sq, rid in zip("abcde", ("AD1", "AD2", "AS1", "AS2", "AC1"), strict=True):
        s.play(f"{rid}@{sq}2")
    for _ in range(2000):
        if s.is_over:
            break
        moves = s.legal_moves()
        s.play(
            max(
                moves,
                key=lambda m: 10_000 if m.square == "#" else (row(m.square) if m.square else 0),
            )
        )
    assert s.is_over
    rounds, remaining = s.result.solo_score  # type: ignore[misc]
    assert rounds == s.round >= 1 and len(s.result.places) >= 4
    on_road = [r.square for r in s.riders() if r.square is not None]
    assert len(on_road) <= 1
    assert remaining == (61 - row(on_road[0]) if on_road else 0)


def test_mc_9_3_position_with_four_across_ended_the_round_before() -> None:
    """MC-9.3/9.4: an MCN at the start of round n with four riders across describes a
    game that ended with round n - 1, and is scored so."""
    s = mc.from_mcn(FLAT, "6 AC1:a37 / AS1,AS2,AD2,AD1 / -")
    assert s.is_over
    assert s.result.solo_score == (5, FLAT.finish - 37)
