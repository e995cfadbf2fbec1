"""Bounds a table cannot exceed (issue 11): the board's size, the milestones, and a
game's length in turns, with a clear end the rules allow ([decision], docs)."""

from __future__ import annotations

import numpy as np
import pytest

import peloton
from peloton.games import mindtwist as mt
from peloton.games.mindtwist.board import FINISHED
from peloton.games.mindtwist.solver.solution import stage_moves

from .helpers import at, play


def guessed_right(state: mt.State, turns: int) -> mt.State:
    """``turns`` turns of dial:1 each guessed right: nobody ever moves."""
    for _ in range(turns):
        play(state, "dial:1", "guess:1")
    return state


def test_the_turn_limit_ends_a_game_of_right_guesses() -> None:
    """Right guesses could go on for ever: after 10 turns per space (300 on the
    default board) the game ends; level tokens go to the player who did not start."""
    state = mt.new_game()
    assert state.board.turn_limit == 300
    guessed_right(state, 299)
    assert not state.is_over and state.end is None
    play(state, "dial:2", "guess:2")
    assert state.is_over and state.end == "limit" and state.result == "B"
    assert (
        (state.red, state.blue) == (0, 0)
        and state.current_player is None
        and state.legal_moves() == []
    )
    with pytest.raises(peloton.IllegalMoveError, match="the game is over"):
        state.play("dial:1")
    blue_first = guessed_right(mt.from_options({"first": "B"}), 300)
    assert blue_first.end == "limit" and blue_first.result == "R"


def test_at_the_limit_the_token_further_along_wins() -> None:
    """On a short board (length 4: 40 turns), counted from the start position; the
    token further along wins whoever started and whoever is active."""
    state = at("R1 B2 R", length=4, milestones=[])
    guessed_right(state, 39)  # each right guess hands the dial over: blue's turn
    play(state, "dial:1", "guess:3")  # a wrong guess on the 40th turn: blue moves to 3
    assert state.end == "limit" and (state.red, state.blue) == (1, 3) and state.result == "B"
    state = guessed_right(at("R1 B2 R", length=4, milestones=[]), 40)
    assert state.end == "limit" and state.result == "B"
    state = guessed_right(at("R3 B2 B", length=4, milestones=[]), 40)
    assert state.result == "R" and state.active_player == "B"


def test_a_finish_on_the_last_turn_is_a_finish() -> None:
    state = guessed_right(at("R0 B3 R", length=4, milestones=[]), 39)
    play(state, "dial:1", "pass")  # blue, active after 39 right guesses, finishes
    assert state.end == "finish" and state.result == "B" and state.blue == 4


def test_limit_in_records_snapshots_and_the_solver() -> None:
    state = guessed_right(mt.from_options({"length": 3}), 30)
    assert state.end == "limit"
    record = mt.Record.from_state(state)
    assert record.result == "B" and mt.Record.from_json(record.to_json()).replay() == state
    snap = mt.snapshot(state, "R")
    assert snap["end"] == "limit" and snap["turn_limit"] == 30 and snap["result"] == "B"
    assert mt.snapshot(mt.new_game(), None)["end"] is None
    solution = mt.solve(3, ())
    assert solution.win_chance(state, "B") == 1.0 and solution.win_chance(state, "R") == 0.0
    with pytest.raises(peloton.RecordError, match="move 60"):
        mt.load_record({**record.to_dict(), "moves": [*record.moves, "dial:1"], "result": None})


def unfinished_after(solution: mt.Solution, turns: int) -> float:
    """The chance that two optimal players have not finished after ``turns`` turns
    from the start: the distribution over (active, other) spaces, turn by turn."""
    n = solution.board.length
    moves = stage_moves(solution.board)
    p = np.zeros((n, n))
    p[0, 0] = 1.0
    for _ in range(turns):
        q = np.zeros((n, n))
        for a, o in zip(*np.nonzero(p), strict=True):
            x, y = solution.dials[a][o], solution.responses[a][o]
            for d in range(3):
                to, other = moves[a][o][d]
                q[o, a] += p[a, o] * x[d] * y[d]  # right guess: the other player is active
                if to != FINISHED:
                    q[to, other] += p[a, o] * x[d] * (1 - y[d] - y[3])  # wrong guess
                    q[other, to] += p[a, o] * x[d] * y[3]  # pass
        p = q
    return float(p.sum())


def test_optimal_players_never_meet_the_limit() -> None:
    """The solver solves the game without the limit; two optimal players reach it with
    a chance far below the solver's tolerance (on length 12: 120 turns)."""
    solution = mt.solve(12, (4, 8))
    assert 0.0 < unfinished_after(solution, 20) < 1.0
    assert unfinished_after(solution, solution.board.turn_limit) < 1e-20
    # Solution.unfinished (what the benchmark quotes) agrees with this reading.
    for turns in (0, 1, 5, 20, 120):
        assert solution.unfinished(turns) == pytest.approx(
            unfinished_after(solution, turns), rel=1e-9, abs=1e-300
        )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"length": 61}, "option 'length' must be 2 to 60, not 61"),
        ({"length": 10**9}, "option 'length' must be 2 to 60, not 1000000000"),
        ({"milestones": list(range(1, 14))}, "option 'milestones' lists 13 spaces; at most 12"),
        ({"length": 60, "milestones": list(range(1, 10**6))}, "lists 999999 spaces; at most 12"),
    ],
)
def test_board_size_is_capped(options: dict[str, object], message: str) -> None:
    with pytest.raises(peloton.ConfigError) as info:
        mt.from_options(options)
    assert message in str(info.value)


def test_the_largest_board_plays() -> None:
    state = mt.from_options({"length": 60, "milestones": list(range(5, 60, 5))})
    assert state.board.turn_limit == 600 and len(state.board.milestones) == 11
    assert mt.from_options({"milestones": list(range(2, 26, 2))}).board.milestones[-1] == 24
