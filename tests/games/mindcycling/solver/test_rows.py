"""The row game's shortcuts are sound: the last round's summary answers exactly what the
round's enumeration answers, and the row game never refutes a round count or a
``remaining`` that a real line reaches (MC-9.3, MC-9.4), on random courses, the three
winds, relay limits 0 to 3 and lines played by bots."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.rules import SOLO_TARGET
from peloton.games.mindcycling.solver import native_walk
from peloton.games.mindcycling.solver.examples import random_course
from peloton.games.mindcycling.solver.rows import RowGame, RowSearch, RowState
from peloton.games.mindcycling.solver.search import Solver

from .lines import solo_lines

#: Short random courses (14 to 20 rows): whole lines of a few rounds.
short_courses = st.integers(0, 10**6).map(lambda seed: random_course(seed, (14, 20)))

lines = solo_lines(short_courses)


def every_end(game: RowGame, position: RowState) -> Iterator[RowState]:
    """Every position one round of the row game leads to, by brute force: every way of
    linking, every combination of the chains' outcomes, every gift."""
    riders, crossed = position
    for chains in game.chains(riders):
        order = [i for chain in chains for i in chain]
        for combo in product(*(game.chain_outcomes(riders, chain) for chain in chains)):
            moved = [o for outcome in combo for o in outcome]
            yield from game.settle(riders, crossed, order, moved)


def ends_game(position: RowState, last_row: int | None) -> bool:
    road, crossed = position
    return crossed >= SOLO_TARGET and (last_row is None or all(r >= last_row for r, _, _ in road))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines, st.integers(0, 6))
def test_the_last_round_summary_is_the_round_itself(
    line: tuple[list[mc.State], mc.State], margin: int
) -> None:
    """MC-9.3, MC-9.4: from the start of the round a real line ends in, whether the row
    game can end the game within the round (with every rider left on the road
    ``margin`` rows from the line or closer, or anywhere) is what the enumeration of
    the round's end positions says."""
    starts, _ = line
    game = RowGame(starts[0].course, starts[0].relay_limit)
    finish = game.finish
    for state in starts[-1:]:
        position = RowGame.project(state)
        ends = list(every_end(game, position))
        for last_row in (None, finish - margin):
            assert game.can_end(position, last_row) == any(ends_game(e, last_row) for e in ends)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_row_game_never_refutes_a_real_line(line: tuple[list[mc.State], mc.State]) -> None:
    """MC-9.4: from each of the last two rounds' starts of a real line, the row game
    finds a line of as many rounds as the real one still takes, ending with every rider
    left on the road as close to the line as the real fifth rider."""
    starts, final = line
    score = final.solo_score
    assert score is not None
    rounds, remaining = score
    course = starts[0].course
    team = "".join(rid[1] for rid in starts[0].ids)
    search = RowSearch(RowGame(course, starts[0].relay_limit), team)
    for state in starts[-2:]:
        position = RowGame.project(state)
        budget = rounds - state.round + 1
        assert search.feasible(position, budget)
        assert search.feasible(position, budget, course.finish - remaining)


PLAIN20 = mc.Course.from_dict(
    {"name": "plain20", "lanes": 5, "finish": 20, "sections": [[2, "plain"]]}
)


def test_a_train_takes_one_rider_across_in_the_row_game_too() -> None:
    """MC-6.6, MC-6.2, MC-9.3: a column of five in the plain, the domestiques in front.
    Each sprinter alone could be relayed across, but a relay that crosses closes its
    group, so the round cannot take four riders across; with both sprinters on their own
    legs within reach of the line (MC-5.2, MC-5.4: against the wind, 4 rows) it can,
    though not with the climber left within 3 rows of the line (MC-9.4)."""
    game = RowGame(PLAIN20)
    column = RowGame.project(mc.from_mcn(PLAIN20, "3 AD1:c14+,AD2:c13+,AS1:c12,AS2:c11,AC1:c10"))
    assert not game.can_end(column)
    spread = RowGame.project(mc.from_mcn(PLAIN20, "3 AD1:c14+,AD2:c13+,AS1:a16,AS2:b16,AC1:c10"))
    assert game.can_end(spread)
    assert not game.can_end(spread, PLAIN20.finish - 3)
    search = RowSearch(game, "DDSSC")
    assert not search.feasible(column, 1)
    assert search.feasible(column, 2)


def test_random_course_1_has_no_line_of_three_rounds_with_every_rider_across() -> None:
    """MC-9.4 on random course 1 (18 rows; sprint, mountain, plain): the row game has a
    line of 3 rounds from the start (MC-9.2: the riders side by side on row 1), but none
    that takes the fifth rider across too. With a real line of 3 rounds and remaining 1,
    that score is optimal: the row game settles the fifth rider's remaining."""
    course = random_course(1)
    row = course.start_rows
    start: RowState = (tuple(sorted((row, t, t == "D") for t in "DDSSC")), 0)
    search = RowSearch(RowGame(course), "DDSSC")
    assert not search.feasible(start, 2)
    assert search.feasible(start, 3)
    assert not search.feasible(start, 3, course.finish)
    assert search.feasible(start, 3, course.finish - 1)


def test_the_row_game_prunes_with_the_fastest_engines_bound() -> None:
    """Most of the row game's time goes to the round bound, so it asks the fastest one
    available (the C one when the native engine is active, the Python one otherwise):
    the same bound the real search uses, and inside a solve the very same object (one
    memo for both)."""
    course = mc.Course.load("short")
    search = RowSearch(RowGame(course), "DDSSC")
    fastest = native_walk.bounds_for(course, 3, "DDSSC")
    assert type(search.bounds) is type(fastest)
    solver = Solver(mc.new_solo(course, "DDSSC"), None)
    assert solver.relaxed.bounds is solver.bounds
