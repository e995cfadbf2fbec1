"""The solver's lower bounds are sound: the relaxed reach never falls short of a real
line, and the row game (lanes relaxed away) allows every real round (MC-4 to MC-7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import solve
from peloton.games.mindcycling.solver.bounds import Bounds, round_reach
from peloton.games.mindcycling.solver.examples import C8, C12, C14
from peloton.games.mindcycling.solver.rows import RowGame, RowSearch, undominated
from peloton.games.mindcycling.solver.search import Solver

from .lines import line_starts

SOLO = mc.Course.load("solo")
#: The best solo lines shipped with the bundled courses (package data beside them).
SHIPPED_LINES = sorted((Path(mc.__file__).resolve().parent / "courses").glob("*.line.json"))
COURSES = [SOLO, C14, C12, mc.Course.load("standard")]


def play_line(
    course: mc.Course, seed: int, wind: str, relay_limit: int, randomness: float
) -> list[mc.State]:
    """A whole solo line of ``DDSSC`` (:func:`.lines.line_starts`): the state at the
    start of every round, then the final state."""
    starts, final = line_starts(course, "DDSSC", seed, wind, relay_limit, randomness)
    return [*starts, final]


lines = st.builds(
    play_line,
    st.sampled_from(COURSES),
    st.integers(0, 10**6),
    st.sampled_from(["front", "left", "right"]),
    st.sampled_from([0, 1, 2, 3]),
    st.sampled_from([0.0, 0.2, 1.0]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_relaxed_reach_is_never_short_of_a_real_line(line: list[mc.State]) -> None:
    """MC-5, MC-6, MC-7: from every round's start, each rider's row after 1, 2, ... rounds
    is within the bound, and the bound on rounds left never exceeds the line's."""
    assert_bounds_hold(line)


@pytest.mark.parametrize("path", SHIPPED_LINES, ids=lambda p: p.name)
def test_the_bounds_hold_on_the_shipped_lines(path: Path) -> None:
    """The best known lines shipped with the bundled courses run relay trains (MC-6.5)
    at full stretch and jump sprinters into the mountain: the bounds, and over their
    last five rounds the row game, never promise less than they take."""
    record = mc.Record.load(path)
    states = record.states()
    final = states[-1]
    assert final.solo_score is not None
    rounds = final.solo_score[0]
    starts = {
        s.round: s for s in reversed(states) if s.round >= 1 and s.at_round_start and not s.is_over
    }
    assert sorted(starts) == list(range(1, rounds + 1))
    assert_bounds_hold([starts[n] for n in sorted(starts)] + [final])
    types = "".join(rid[1] for rid in final.ids)
    row_search = RowSearch(RowGame(final.course), types)
    for n in range(max(1, rounds - 4), rounds + 1):
        assert row_search.feasible(RowGame.project(starts[n]), rounds - n + 1)


def assert_bounds_hold(line: list[mc.State]) -> None:
    """The bound checks of one line: the states at its rounds' starts, then the end."""
    *starts, final = line
    score = final.solo_score
    assert score is not None
    root = starts[0]
    bounds = Bounds(root.course, root.relay_limit, "".join(rid[1] for rid in root.ids))
    solver = Solver(root, None)
    finish = root.course.finish
    for n, state in enumerate(starts):
        assert solver.rounds_needed(state) <= score[0] - state.round + 1
        # Phase 2's bound: the line ends with every rider on finish - remaining or beyond.
        assert solver.rounds_needed(state, finish - score[1]) <= score[0] - state.round + 1
        ids = list(state.race.square_of)
        intervals = round_reach(state, state.relay_limit)
        # A dry team (no bottle, none to be had this round) stays dry in the bound
        # until a domestique may pass a feed row: its domestiques tire, nobody attacks.
        dry = solver.dry_after_round(state, intervals)
        for later in [*starts[n + 1 :], final]:
            for rid, (_, _, high) in zip(ids, intervals, strict=True):
                actual = later.race.square_of[rid] >> 5 if rid in later.race.square_of else finish
                assert actual <= high or high >= finish, (rid, actual, high, later.round, dry)
            if dry:
                assert not later.race.bottles or later is final, (
                    "a dry team got a bottle",
                    later.round,
                )
            intervals, dry = bounds.advance(intervals, dry)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_row_game_allows_every_real_round(line: list[mc.State]) -> None:
    """The row game is a relaxation: each real round, seen without its lanes, is one of
    the row game's rounds (links, trains, attacks, gifts and feed zones included)."""
    *starts, final = line
    game = RowGame(starts[0].course, starts[0].relay_limit)
    for before, after in zip(starts, [*starts[1:], final], strict=True):
        assert game.allows(RowGame.project(before), RowGame.project(after))


def test_the_row_game_allows_a_relay_behind_a_link_it_adds() -> None:
    """MC-6.1, MC-6.5: the row game links the front of a real train of four to a rider
    one row ahead in another lane, making it a chain of five; the real fourth rider
    still relays (its place is 4), so the row game must count the place from the rider
    that founded the group, not from the chain's top."""
    before = mc.from_mcn(SOLO, "2 AD1:a9+,AD2:c8+,AC1:c7,AS1:c6,AS2:c5")
    assert before.assessment("AD2").train_place == 1  # type: ignore[union-attr]
    assert before.assessment("AS2").train_place == 4  # type: ignore[union-attr]
    after = before.copy()
    for move in ("AD1-a15", "AD2-c14", "AC1-c15r", "AS1-c16r", "AS2-c17r"):
        after.play(move)
    assert after.at_round_start and after.round == 3
    game = RowGame(SOLO)
    assert game.allows(RowGame.project(before), RowGame.project(after))


def test_the_row_game_never_wheels_right_after_a_relay() -> None:
    """MC-6.4: behind a rider that relayed stands the old head, so the row game offers
    the next rider of a chain a relay or its own legs, never that wheel."""
    game = RowGame(SOLO)
    chain = ((8, "D", True), (7, "C", False), (6, "S", False))
    outcomes = game.chain_outcomes(chain, [0, 1, 2])
    # D rides 6 to 14 and C relays to 15: S may not wheel behind C (onto D's 14), nor
    # behind the group's rear (13, the old rule), and its own legs reach only 11.
    assert not any(o[0][0] == 14 and o[1][0] == 15 and o[2][0] in (13, 14) for o in outcomes)
    assert any(o[0][0] == 14 and o[1][0] == 15 and o[2][0] == 16 for o in outcomes)  # S relays
    assert any(o[0][0] == 14 and o[1][0] == 13 and o[2][0] == 12 for o in outcomes)  # two wheels


def test_allows_refuses_what_no_round_can_do() -> None:
    """A domestique rides 3 rows but never 20 in a round (MC-5.2); nobody goes back
    (MC-5.1)."""
    game = RowGame(SOLO)
    start = (((5, "C", False), (6, "D", True), (6, "D", True), (5, "S", False), (5, "S", False)), 0)
    start = (tuple(sorted(start[0])), 0)
    far = (
        tuple(
            sorted(
                [(26, "D", True), (6, "D", True), (5, "C", False), (5, "S", False), (5, "S", False)]
            )
        ),
        0,
    )
    back = (
        tuple(
            sorted(
                [(4, "C", False), (6, "D", True), (6, "D", True), (5, "S", False), (5, "S", False)]
            )
        ),
        0,
    )
    near = (
        tuple(
            sorted(
                [(9, "D", True), (6, "D", True), (5, "C", False), (5, "S", False), (5, "S", False)]
            )
        ),
        0,
    )
    assert game.allows(start, near)
    assert not game.allows(start, far)
    assert not game.allows(start, back)


def test_the_row_game_lower_bound_holds_on_small_courses() -> None:
    """The row game never needs more rounds than the real optimum (the relaxation only
    adds moves)."""
    for course, mcn in [
        (C14, "5 AD1:a10,AD2:b11+,AS1:c10,AS2:d11,AC1:e10"),
        (C12, "3 AD1:a8,AD2:b9+,AS1:c9,AS2:d9,AC1:e9"),
    ]:
        real = solve(course, start=mcn)
        assert real.proven and real.score is not None
        root = mc.from_mcn(course, mcn)
        search = RowSearch(RowGame(course), "DDSSC")
        rows_needed = next(r for r in range(1, 30) if search.feasible(RowGame.project(root), r))
        assert rows_needed <= real.score[0] - root.round + 1


def test_the_bundled_solo_course_needs_at_least_eleven_rounds() -> None:
    """MC-9.4 on the bundled course: the bound alone sees 10 rounds from every setup
    (the top rider rides against the wind, MC-5.4, so the front gains at most 9 rows a
    round), and the row game rules out 10 rounds: the optimum is at least (11, 0)."""
    root = mc.new_solo(SOLO)
    solver = Solver(root, None)
    setups = [solver.child(root, moves) for _, moves in solver.successors(root)]
    assert min(solver.rounds_needed(s) for s in setups) >= 10
    search = RowSearch(RowGame(SOLO), "DDSSC")
    start = (((2, "C", False), (2, "D", True), (2, "D", True), (2, "S", False), (2, "S", False)), 0)
    assert {RowGame.project(s) for s in setups} == {start}
    assert not search.feasible(start, 10)


def test_a_dry_team_is_slower() -> None:
    """MC-7.4, MC-7.2: with no bottle anywhere and no feed zone before the mountain, the
    domestiques stay tired and nobody attacks, so the bound needs more rounds."""
    bounds = Bounds(SOLO, 3, "DDSSC")  # feed zones on rows 29 and 33
    riders = [("D", 5, 5), ("D", 5, 5), ("S", 5, 5), ("S", 5, 5), ("C", 5, 5)]
    wet = bounds.step(riders)
    dry, still_dry = bounds.advance(riders, True)
    assert still_dry  # no domestique can reach a feed row yet
    assert all(d[2] <= w[2] for d, w in zip(dry, wet, strict=True))
    # The domestique on the top row: 7 - 1 (wind) + 3 (attack) wet, 7 - 1 - 1 (tired) dry.
    assert wet[0][2] == 14 and dry[0][2] == 10
    assert bounds.rounds_needed(riders, 0, dry=True) > bounds.rounds_needed(riders, 0)


def test_a_bottle_more_dominates() -> None:
    """MC-7.4: a position with a bottle more is kept; the one it dominates is dropped."""
    rich = (((10, "D", True), (11, "S", False)), 0)
    poor = (((10, "D", False), (11, "S", False)), 0)
    other = (((10, "D", False), (12, "S", False)), 0)
    assert sorted(undominated({rich, poor, other})) == sorted([rich, other])


@pytest.mark.parametrize("course", [C8])
def test_the_solver_reports_the_row_game_bound(course: mc.Course) -> None:
    """The setup of a small course is still solved exactly with the row game in front."""
    sol = solve(course)
    assert sol.proven and sol.score is not None and sol.lower_bound == sol.score
