"""PI-4: elimination, lap points and the end of the game."""

from __future__ import annotations

import pytest

from peloton.core import CHANCE, IllegalMoveError, NotationError
from peloton.games.pistard import rules

from .helpers import at, play


def test_pi_4_1_lapped_rider_is_eliminated() -> None:
    """PI-4.1: when the leader's distance reaches 40 more than a rider's, that rider is
    removed and its player loses a die; a removed rider is skipped in the order."""
    state = at("A1:2.a9,B1:1.c10,B2:1.d20", bonus="none")
    assert state.order == ["A1", "B2", "B1"]
    play(state, "roll:1", "A1=1:b10")
    assert state.dist["A1"] - state.dist["B1"] == 40
    assert state.out[-1] == "B1" and state.rider_at("c10") is None
    assert state.roller == "B" and state.dice_to_roll() == 1  # one die fewer
    play(state, "roll:2", "B2=2:d22")
    assert state.round == 3 and state.order == ["A1", "B2"]


def test_pi_4_1_own_riders_too_and_by_length() -> None:
    """PI-4.1: lapping counts any rider, the leader's teammates included, and a lap is
    the track's ``length`` rows."""
    state = at("A1:2.a3,A2:1.b8,B1:1.c20", bonus="none", length=24, layout="default")
    assert state.dist["A1"] - state.dist["A2"] == 19
    play(state, "roll:5,6")
    move = next(m for m in state.legal_moves() if m.value == 6)
    play(state, str(move))
    assert state.out[-1] == "A2" and state.dist["A1"] == 33


def test_pi_4_1_position_already_lapped_is_rejected() -> None:
    """PI-4.1: a position with a rider a lap behind the leader is impossible."""
    with pytest.raises(NotationError, match="lap behind"):
        at("A1:2.a9,B1:1.c9")


def test_pi_4_2_lap_points() -> None:
    """PI-4.2: the first three riders across the line into a lap score 3, 2, 1; the
    line is crossed from row 40 to row 1."""
    state = at("A1:1.b39,A2:1.d37,B1:1.c38,B2:1.a36", bonus="none")
    assert state.order == ["A1", "B1", "A2", "B2"]
    play(state, "roll:2,4", "A1=2:b1")
    assert state.points == {"A": 3, "B": 0}
    play(state, "roll:3,4", "B1=3:c1")
    assert state.points == {"A": 3, "B": 2}
    play(state, "A2=4:d1")
    assert state.points == {"A": 4, "B": 2}
    play(state, "B2=4:a40")  # row 40: not across yet
    assert state.points == {"A": 4, "B": 2} and state.laps == {2: 3}
    play(state, "roll:1,1", "A1=1:b2", "roll:1,1", "B1=1:c2", "A2=1:d2", "B2=1:a1")
    assert state.points == {"A": 4, "B": 2}  # a fourth rider into lap 2 scores nothing


def test_pi_4_2_the_start_scores_nothing() -> None:
    """PI-4.2 [decision]: entering lap 1 in the first move is no crossing into a new
    lap: no points."""
    from peloton.games import pistard as pi

    state = play(pi.new_game(2), "roll:6,6,6,6", "roll:6,6,6,6")
    play(state, *(f"{t}{n}=6" for t in "AB" for n in range(1, 5)))
    assert state.points == {"A": 0, "B": 0} and state.laps == {}


def test_pi_4_3_first_to_target_wins_mid_round() -> None:
    """PI-4.3: the move that brings a player to the target ends the game at once, in
    the middle of the round. B1 leads the round and reaches 12 first; A1, due next,
    would reach 12 too, but B has won and the game is over before A moves."""
    state = at("A1:1.b38,B1:1.c39", bonus="none", rest=" / A=10,B=9 / - / A")
    assert state.order == ["B1", "A1"]
    play(state, "roll:3", "B1=3:c2")
    assert state.points == {"A": 10, "B": 12}
    assert state.is_over and state.result.winner == "B" and state.result.reason == "target"
    assert state.current_player is None and state.legal_moves() == [] and not state.is_chance
    assert state.square_of("A1") == "b38"  # A never moved
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play("roll:2")


def test_pi_4_3_the_target_reached_by_any_rider_of_the_round() -> None:
    """PI-4.3: the game ends on the scoring move even when riders of the same player
    are still to move in the round (the round is not finished)."""
    state = at("A1:1.b39,A2:1.a30,B1:1.c20", bonus="none", rest=" / A=11,B=0 / - / A")
    play(state, "roll:2,6", "A1=2:b1")
    assert state.is_over and state.result.winner == "A" and state.points["A"] == 14
    assert state.moved == {"A1"}


def test_pi_4_3_old_records_check_the_target_at_the_end_of_the_round() -> None:
    """Records written before PI-4.3 was corrected replay under the rule they were
    played with (docs/pistard.md): the target checked at the end of the round, the
    higher total winning."""
    state = at(
        "A1:1.b39,B1:1.c38", bonus="none", rest=" / A=11,B=10 / - / B,A", target_at_round_end=True
    )
    play(state, "roll:2", "A1=2:b1")
    assert state.points["A"] == 14 and not state.is_over and state.current_player == CHANCE
    play(state, "roll:3", "B1=3:c1")
    assert state.points["B"] == 12 and state.is_over
    assert state.result.winner == "A" and state.result.reason == "target"
    assert state.current_player is None and state.legal_moves() == []


def test_pi_4_3_old_records_tie_goes_to_the_last_scorer() -> None:
    """[decision] Under the old end rule, equal totals at the target went to the
    player whose rider scored last. (The corrected rule has no ties: one move scores
    at a time.)"""
    state = at(
        "A1:1.b39,B1:1.c38", bonus="none", rest=" / A=10,B=11 / 2=1 / B,A", target_at_round_end=True
    )
    play(state, "roll:2", "A1=2:b1", "roll:3", "B1=3:c1")
    assert state.points == {"A": 12, "B": 12} and state.is_over
    assert state.result.winner == "B" and state.result.places == ("B", "A")


def test_pi_4_3_every_game_ends_guard() -> None:
    """[decision] A round in which no rider advances ends the game, the standings as
    PI-4.3 ranks them. A guard only: with at least 20 rows and at most 16 riders some
    rider can always move (docs/pistard.md), so the rules never reach it."""
    state = at("A1:1.b10,B1:1.c5", bonus="none", rest=" / A=1,B=0 / 2=1 / A")
    play(state, "roll:1", "A1=1:b11", "roll:1")
    state.progressed = False  # as if nobody had advanced this round
    state.idx = len(state.order) - 1
    rules.next_rider(state)
    assert state.is_over and state.result.reason == "stalled" and state.result.winner == "A"


def test_pi_4_3_the_largest_game_allowed_ends() -> None:
    """[decision] (issue 11) The options are capped so that every game ends in a few
    thousand moves: at the largest (4 players, 120 rows, target 36) a random game
    ends, and one step beyond is refused."""
    import random

    from peloton.core import ConfigError
    from peloton.core.rng import Rng
    from peloton.games import pistard as pi

    state = pi.from_options({"players": 4, "length": 120, "target": 36})
    rng, rnd = Rng(1), random.Random(1)
    while not state.is_over:
        assert len(state.history) < 20_000
        moves = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else rnd.choice(moves))
    assert state.result.reason == "target" and max(state.points.values()) >= 36
    for options in ({"length": 121}, {"target": 37}):
        with pytest.raises(ConfigError):
            pi.from_options({"players": 4, **options})
