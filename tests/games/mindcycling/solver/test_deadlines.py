"""The solver keeps its time limit whatever it is doing when the time runs out, and an
answer cut short still carries a real lower bound (MC-9.4).

No test reads the wall clock: the solver is handed a clock that jumps past the
deadline after a given number of readings, so each case stops the solve in another
phase (greedy lines, beam, polish, row game, round search)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.bots import make_bot, play_out
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import TimeUp, solve
from peloton.games.mindcycling.solver.beam import beam
from peloton.games.mindcycling.solver.driver import static_lower_bound
from peloton.games.mindcycling.solver.examples import C8, random_course
from peloton.games.mindcycling.solver.rows import RowGame, RowSearch
from peloton.games.mindcycling.solver.search import Solver, position_key

from .clocks import JumpingClock


@pytest.mark.parametrize("readings", [1, 10, 150, 2500])
@pytest.mark.parametrize("name", ["short", "standard"])
def test_the_solve_stops_when_its_time_is_up(name: str, readings: int) -> None:
    """Wherever the time runs out, the solve stops within a few readings of the clock
    (every long loop reads it), answers with a line that replays to its score and a
    proven lower bound of more than one round (no rider crosses these courses in one)."""
    clock = JumpingClock(readings)
    course = mc.Course.load(name)
    sol = solve(course, time_limit=60.0, from_scratch=True, clock=clock)
    assert clock.late <= 40, f"{clock.late} clock readings after the deadline"
    assert not sol.proven
    assert sol.score is not None and sol.final is not None
    assert mc.Record.from_state(sol.final).replay().solo_score == sol.score
    assert 1 < sol.lower_bound[0] <= sol.score[0]
    assert sol.seconds > 0


def test_the_row_game_reads_the_clock_inside_a_round() -> None:
    """Enumerating one round of a five-rider column of the row game takes long: the
    clock is read inside it, not only between rounds."""
    clock = JumpingClock(0)
    search = RowSearch(RowGame(mc.Course.load("short")), "DDSSC", deadline=1.0, clock=clock)
    column = (
        ((5, "D", True), (6, "D", True), (7, "S", False), (8, "S", False), (9, "C", False)),
        0,
    )
    with pytest.raises(TimeUp):
        search.feasible(column, 8)
    assert clock.late == 1


def test_the_beam_lines_replay_and_find_the_small_optimum() -> None:
    """Every line the beam offers replays to its score through the rules; on the
    8-row course it finds the proven optimum (2, 0)."""
    root = mc.new_solo(C8)
    solver = Solver(root, None)
    found: list[tuple[int, int]] = []

    def offer(state: mc.State, rounds: list[list[str]]) -> None:
        replay = root.copy()
        for moves in rounds:
            for move in moves:
                replay.play(move)
        assert replay.solo_score == state.solo_score
        assert state.solo_score is not None
        found.append(state.solo_score)

    beam(root, 4, solver.rounds_needed, position_key, lambda: None, offer)
    assert found and min(found) == (2, 0) == solve(C8).score


courses = st.builds(random_course, st.integers(0, 10**6))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    courses,
    st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]),
    st.sampled_from(["front", "left", "right"]),
    st.sampled_from([0, 1, 2, 3]),
    st.sampled_from(["random", "greedy"]),
    st.integers(0, 1000),
)
def test_the_lower_bound_at_setup_holds_on_every_line(
    course: mc.Course, team: str, wind: str, relay_limit: int, bot: str, seed: int
) -> None:
    """MC-9.2, MC-9.4: the bound the solver states before any search (riders on the
    start zone's last row, bottles with the domestiques) never exceeds the rounds of
    a line a bot plays, on random courses, winds and relay limits."""
    root = mc.new_solo(course, team, wind=wind, relay_limit=relay_limit)
    bound = static_lower_bound(Solver(root, None), root)
    final = play_out(root.copy(), make_bot(bot, seed))
    assert final.solo_score is not None
    assert bound <= final.solo_score[0]


def test_random_courses_are_valid_and_repeatable() -> None:
    """The benchmark's courses: the same seed, the same course; each passes MC-1.3."""
    for seed in range(30):
        course = random_course(seed)
        assert course.to_dict() == random_course(seed).to_dict()
        assert mc.Course.from_dict(course.to_dict()).finish == course.finish
    assert len({random_course(seed).finish for seed in range(30)}) > 3
