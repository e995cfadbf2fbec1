"""The dives (solver/dive.py): the moves they try, lines that replay through the rules,
the time limit kept, and known short lines found (MC-9.4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import solve, solve_state
from peloton.games.mindcycling.solver.dive import KEEP, Dive, choices, dive_lines
from peloton.games.mindcycling.solver.driver import static_lower_bound
from peloton.games.mindcycling.solver.examples import C8, SMALL_PROBLEMS, random_course
from peloton.games.mindcycling.solver.rows import TimeUp
from peloton.games.mindcycling.solver.search import Solver

from .clocks import JumpingClock

#: random course 2: plain from row 2, the mountain from row 9, the line at row 15.
R2 = random_course(2)


def texts(state: mc.State) -> set[str]:
    return {str(m) for m in choices(state)}


def test_a_sprinter_may_wait_at_the_foot_of_the_mountain() -> None:
    """MC-2.1, MC-6.3 b: a sprinter rides 3 in the mountain and on no train there, so
    besides its furthest moves (into the mountain) the dive tries stopping on the last
    row before it, where a relay may still lift it over."""
    state = mc.from_mcn(R2, "2 AS1:c5,AD1:a3+,AD2:b3+,AS2:d3,AC1:e3")
    assert state.current_rider == "AS1"
    tried = texts(state)
    assert {"AS1-b9", "AS1-c9", "AS1-d9"} <= tried  # the furthest (windy: 5 - 1 rows)
    assert {"AS1-b8", "AS1-c8", "AS1-d8"} <= tried  # waiting before the mountain
    assert "AS1-c6" not in tried  # a short move with no purpose


def test_links_behind_and_in_front_of_a_rider_that_has_ridden() -> None:
    """MC-6.1: a move ending on the square behind a rider that has ridden links the
    mover to it for the next round (ready to wheel or relay); one ending in front of it
    links that rider to the mover."""
    state = mc.from_mcn(R2, "2 AS1:c5,AD1:a3+,AD2:b3+,AS2:d3,AC1:e3")
    state.play("AS1-c8")
    tried = texts(state)
    mover = state.current_rider
    assert mover is not None
    assert f"{mover}-c7" in tried  # behind AS1, on the square it shelters
    assert f"{mover}-c9" in tried or f"{mover}-c9!" in tried  # in front of AS1


def test_every_wheel_relay_and_crossing_is_tried() -> None:
    """MC-6.4, MC-6.5, MC-5.6: the train's moves are always tried; a rider that can
    cross crosses, or stops on the last row (it may found the group the others relay
    across behind, MC-6.6), never shorter."""
    state = mc.from_mcn(R2, "3 AD1:c10+,AD2:c9+,AS1:b4,AS2:d4,AC1:e4")
    state.play("AD1-c13")
    tried = texts(state)
    assert "AD2-c12w" in tried and "AD2-c14r" in tried
    near = mc.from_mcn(R2, "4 AD1:c12+,AD2:a9+,AS1:b9,AS2:d9,AC1:e9")
    tried = texts(near)
    assert "AD1-#" in tried
    assert all(m == "AD1-#" or m.endswith("14") for m in tried), tried


def run_dives(
    root: mc.State, readings: int | None = None
) -> tuple[Solver, list[tuple[int, int]], JumpingClock | None]:
    """Dives from ``root``; every line offered is replayed through the rules (and must
    replay to the score it was offered with). ``readings``: a clock that jumps past the
    deadline after that many readings."""
    clock = JumpingClock(readings) if readings is not None else None
    solver = Solver(root, None)
    found: list[tuple[int, int]] = []
    offer = solver._offer

    def replayed(state: mc.State, rounds: list[list[str]]) -> None:
        replay = root.copy()
        for moves in rounds:
            for move in moves:
                replay.play(move)
        assert replay.is_over and replay.solo_score == state.solo_score
        assert state.solo_score is not None
        found.append(state.solo_score)
        offer(state, rounds)

    solver._offer = replayed  # type: ignore[method-assign]

    def check() -> None:
        if clock is not None and clock() > 1.0:
            raise TimeUp

    lower = (max(1, static_lower_bound(solver, root)), 0)
    dive_lines(solver, root, lower, check, (0, 1, 2))
    return solver, found, clock


def test_the_dives_find_the_proven_optimum_of_the_small_course() -> None:
    """On the 8-row course the exact search proves (2, 0); the dives find it."""
    _, found, _ = run_dives(mc.new_solo(C8))
    assert found and min(found) == (2, 0) == solve(C8).score


def test_the_dives_find_a_relay_line_of_random_course_2() -> None:
    """MC-6.1, MC-6.5, MC-9.4: on random course 2, after a first round that lines four
    riders up in column c, the best line takes 2 more rounds and leaves the fifth rider
    3 rows short, (3, 3) (the exact search proves it, in about a minute): the column's
    rear riders relay ahead of its head in round 2. The dives find that score."""
    root = mc.from_mcn(R2, "2 AC1:c3,AD1:c4+,AD2:a10+,AS1:c5,AS2:c2")
    _, found, _ = run_dives(root)
    assert min(found) == (3, 3)


@pytest.mark.parametrize(("course", "mcn"), SMALL_PROBLEMS[1:])
def test_the_dives_find_what_the_exact_search_proves(course: mc.Course, mcn: str) -> None:
    """From the small problems' positions, the dives' best line scores the optimum
    the exact search proves (without the dives' help)."""
    root = mc.from_mcn(course, mcn)
    exact = solve_state(root, dive=False, polish=False)
    assert exact.proven
    _, found, _ = run_dives(root)
    assert min(found) == exact.score


@settings(max_examples=8)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]),
    st.sampled_from(["front", "left", "right"]),
    st.sampled_from([0, 1, 2, 3]),
    st.sampled_from([50, 400, 3000]),
)
def test_dives_keep_their_time_and_their_lines_replay(
    seed: int, team: str, wind: str, relay_limit: int, readings: int
) -> None:
    """On random courses, winds and relay limits, wherever the time runs out the dives
    stop within one more reading of the clock, and every line they offered replays
    through the rules to its score (MC-10.3)."""
    course = random_course(seed, (14, 20))
    root = mc.new_solo(course, team, wind=wind, relay_limit=relay_limit)
    _, found, clock = run_dives(root, readings)
    assert clock is not None and clock.late <= 1
    assert all(score[0] >= 1 for score in found)


def test_the_round_cache_tells_two_domestiques_apart() -> None:
    """Two positions equal but for two domestiques swapped are one position for the
    search (the riders of a type are interchangeable), but their moves differ: each
    gets its own round ends, and each round replays from its own position."""
    first = mc.from_mcn(R2, "2 AD1:a5+,AD2:c5+,AS1:b3,AS2:d3,AC1:e3")
    twin = mc.from_mcn(R2, "2 AD1:c5+,AD2:a5+,AS1:b3,AS2:d3,AC1:e3")
    solver = Solver(first, None)
    dive = Dive(solver, first, lambda: None)
    for root in (first, twin):
        ends = dive.round_ends(root, 3, None)
        assert ends
        for _, moves in ends:
            state = root.copy()
            for move in moves:
                state.play(move)  # raises IllegalMoveError if the moves are the twin's


def test_the_round_ends_kept_all_pass_the_round_bound() -> None:
    """MC-9.3: the dives keep at most KEEP positions at the end of a round, only those
    from which the round bound lets the game end within the rounds left, ranked by
    that bound first; each replays from its round's start."""
    root = mc.from_mcn(R2, "2 AD1:a5+,AD2:c5+,AS1:b3,AS2:d3,AC1:e3")
    solver = Solver(root, None)
    dive = Dive(solver, root, lambda: None)
    for budget in (3, 4, 6):
        ends = dive.round_ends(root, budget, None)
        assert 0 < len(ends) <= KEEP
        needs = []
        for rank, moves in ends:
            state = solver.child(root, moves)
            if state.is_over:
                continue
            need = solver.rounds_needed(state)
            assert need <= budget - 1
            assert rank[1] == need
            needs.append(need)
        assert needs == sorted(needs)
