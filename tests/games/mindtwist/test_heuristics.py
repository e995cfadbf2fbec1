"""The bot hooks: the greedy heuristic's judgement in plain positions, the race
evaluation and the outcome."""

from __future__ import annotations

from peloton.games import mindtwist as mt
from peloton.games.mindtwist.heuristics import evaluate, outcome, score_moves

from .helpers import at, play


def best(state: mt.State) -> set[str]:
    moves = state.legal_moves()
    scores = score_moves(state, moves)
    top = max(scores)
    return {str(m) for m, s in zip(moves, scores, strict=True) if s >= top - 1e-9}


def test_challenger_passes_a_plain_dial_and_guesses_a_winning_one() -> None:
    assert best(play(at("R4 B2 R"), "dial:3").view("B")) == {"pass"}
    # From 27 only a dial of 3 finishes: that is the one to guess.
    assert best(play(at("R27 B2 R"), "dial:1").view("B")) == {"guess:3"}
    # A dial of 2 would sideswipe blue on 12.
    assert best(play(at("R10 B12 R"), "dial:1").view("B")) == {"guess:2"}


def test_dialer_goes_far_but_not_into_a_guess_it_sees_coming() -> None:
    assert best(at("R4 B2 R")) == {"dial:3"}
    # From 27 dial 3 would win but would be guessed: dial 2 moves and gets another turn.
    assert best(at("R27 B2 R")) == {"dial:2"}
    # All dials win from 28 or more... and are all suspected alike: any.
    assert best(at("R28 B2 R")) == {"dial:2", "dial:3"}


def test_evaluate_and_outcome() -> None:
    ahead = evaluate(at("R20 B5 R"))
    assert ahead["R"] > 0.9 and abs(ahead["R"] + ahead["B"] - 1) < 1e-12
    even = evaluate(at("R5 B5 B", milestones=[5]))
    assert even["B"] > 0.5  # the active player is a turn ahead
    done = play(at("R29 B5 R"), "dial:1", "pass")
    assert outcome(done) == {"R": 1.0, "B": 0.0} == evaluate(done)
    assert outcome(mt.new_game()) == {"R": 0.5, "B": 0.5}
