"""The exact search's round walk in C (``peloton/native/walk.c``) finds exactly the
round ends of the Python walk (MC-4.4, MC-4.5: the turn order; MC-5 to MC-7: the moves),
prunes exactly what the Python walk's round bound prunes, and hands back lines that
replay to their positions."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton import native
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import native_walk
from peloton.games.mindcycling.solver.bounds import Bounds, may_end_this_round, round_reach
from peloton.games.mindcycling.solver.examples import C8, C12, C14, random_course
from peloton.games.mindcycling.solver.rows import TimeUp
from peloton.games.mindcycling.solver.search import Key, Solver, position_key

from .lines import line_starts

NATIVE = native.engine() == "native"
if not NATIVE:
    warnings.warn(
        f"native engine not active ({native.reason()}): the native round walk is not "
        "compared, only the Python walk checked",
        stacklevel=1,
    )

COURSES = [C8, C12, C14]


def python_solver(root: mc.State) -> Solver:
    """A solver whose round bound is Python's own (:class:`Bounds`), whatever the engine:
    the reference the C walk and the C bound are compared with."""
    solver = Solver(root, None)
    types = "".join(rid[1] for rid in root.ids)
    solver.bounds = solver.relaxed.bounds = Bounds(root.course, root.relay_limit, types)
    return solver


def end_key(state: mc.State) -> Key:
    """What the walks tell round ends apart by."""
    return ("over", position_key(state)) if state.is_over else position_key(state)


def python_ends(
    solver: Solver, state: mc.State, rounds: int | None, last_row: int | None = None
) -> dict[Key, int]:
    """The Python walk's round ends (with ``rounds``: pruned by the search's own keep,
    and only those the search would go on with), each with ``rounds_needed``; with
    ``last_row``, the bound toward that goal row for the rider left on the road."""
    keep = None if rounds is None else (lambda s: solver.rounds_needed(s, last_row) <= rounds)
    out = {}
    for _, line in solver.python_successors(state, keep):
        child = solver.child(state, line)
        need = solver.rounds_needed(child, last_row)
        if rounds is None or child.is_over or need <= rounds - 1:
            out[end_key(child)] = need
    return out


def native_ends(
    solver: Solver, state: mc.State, rounds: int | None, last_row: int | None = None
) -> dict[Key, int]:
    """The C walk's round ends, each checked to replay to its key: pruned by the later
    rounds' bound in C (``bound.c``, as the search prunes), which must keep exactly
    the ends that Python's bound, asked through the callback, keeps."""

    def later(riders: list[tuple[str, int, int]], crossed: int, dry: bool, now: bool) -> int:
        return solver.bounds.rounds_needed(riders, crossed, dry, last_row, now)

    found = native_walk.round_ends(
        state,
        rounds or 0,
        None if rounds is None else later,
        last_row=last_row,
        bound=None if rounds is None else native_walk.tables(solver.bounds),
    )
    if rounds is not None:
        called = native_walk.round_ends(state, rounds, later, last_row=last_row)
        assert [(e.line, e.needed) for e in called.ends] == [(e.line, e.needed) for e in found.ends]
        assert called.nodes == found.nodes
    out = {}
    for end in found.ends:
        key = ("over", end.road) if end.over else end.road
        child = solver.child(state, end.line)
        assert end_key(child) == key, end.line
        out[key] = end.needed if rounds is not None else solver.rounds_needed(child)
    assert len(out) == len(found.ends)  # each end once
    return out


def round_starts(
    course: mc.Course, seed: int, wind: str, relay_limit: int, randomness: float
) -> tuple[mc.State, list[mc.State], mc.State]:
    """The root, the last round start and the end of a real solo line (a whole round
    walked in Python early in a line takes minutes)."""
    starts, final = line_starts(course, "DDSSC", seed, wind, relay_limit, randomness)
    root = mc.new_solo(course, "DDSSC", wind=wind, relay_limit=relay_limit)
    return root, starts[-1:], final


lines = st.builds(
    round_starts,
    st.sampled_from(COURSES),
    st.integers(0, 10**6),
    st.sampled_from(["front", "left", "right"]),
    st.sampled_from([0, 1, 2, 3]),
    st.sampled_from([0.0, 0.3, 1.0]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_native_walk_finds_the_python_walks_round_ends(
    line: tuple[mc.State, list[mc.State], mc.State],
) -> None:
    """From setup (MC-9.2) with no pruning, and from the last round start of real lines
    pruned by the round bound, both with the line's own rounds left and with the
    bound's, and toward the line's own row for the rider left on the road (MC-9.4):
    the same round-end positions, the same bounds on them, lines that replay; and the
    line's own next position among them."""
    root, starts, final = line
    solver = python_solver(root)
    setup = python_ends(solver, root, None)
    assert len(setup) > 0
    if NATIVE:
        assert native_ends(solver, root, None) == setup
    score = final.solo_score
    assert score is not None
    for i, start in enumerate(starts):
        start = start.copy()
        start.history = []
        left = score[0] - start.round + 1  # the rounds this line still took
        nxt = starts[i + 1] if i + 1 < len(starts) else final
        goal = root.course.finish - score[1]  # the row the line's fifth rider ends on
        budgets = {(left, None), (solver.rounds_needed(start), None), (left, goal)}
        for rounds, last_row in sorted(budgets, key=str):
            want = python_ends(solver, start, rounds, last_row)
            if rounds == left:  # sound: the real line's next position is kept
                assert end_key(nxt) in want
            if NATIVE:
                assert native_ends(solver, start, rounds, last_row) == want


def test_successors_agree_on_both_engines() -> None:
    """``Solver.successors`` (native when active) gives the same positions, in the same
    order of the search's bound, as the Python walk, on a line's second round."""
    starts, _ = line_starts(C8, "DDSSC", 7, "front", 2, 0.0)
    start = starts[1].copy()
    start.history = []
    solver = Solver(start, None)  # the C bound when the native engine is active
    python = python_solver(start)
    rounds = python.rounds_needed(start)

    def order(s: mc.State) -> tuple[int, int]:
        return (python.rounds_needed(s), -sum(sq >> 5 for sq in s.race.square_of.values()))

    got = python.python_successors(start, lambda s: python.rounds_needed(s) <= rounds, order)
    want = {}
    for rank, line in got:
        child = solver.child(start, line)
        if child.is_over or rank[0] <= rounds - 1:
            want[end_key(child)] = rank
    succ = solver.successors(
        start,
        lambda s: solver.rounds_needed(s) <= rounds,
        order,
        (rounds, None),
        lambda end: (end.needed, -sum(sq >> 5 for _, sq, _ in end.road)),
    )
    mine = {}
    for rank, line in succ:
        child = solver.child(start, line)
        if child.is_over or rank[0] <= rounds - 1:
            mine[end_key(child)] = rank
    assert mine == want
    ranks = [rank for rank, _ in succ]
    assert ranks == sorted(ranks)


def test_the_clock_stops_the_native_walk() -> None:
    """Either walk reads the solver's clock often (every 64 positions in Python, 256 in
    C): a deadline met mid-walk stops it with TimeUp (raised from the C walk's callback
    on the native engine)."""
    state = mc.new_solo(C14, "DDSSC")
    readings = iter(range(10**6))
    solver = Solver(state, 5.0, clock=lambda: float(next(readings)))
    with pytest.raises(TimeUp):
        solver.successors(state)
    assert next(readings) <= 8  # stopped at the deadline's reading, not after the walk


def drawn_riders(draw: st.DrawFn, finish: int, types: str) -> list[tuple[str, int, int]]:
    """Riders of ``types`` as ``(type, low, high)`` intervals around the course: some on
    one row, some wide, some across the line."""
    riders = []
    for t in types:
        low = draw(st.integers(0, finish + 1))
        high = low + draw(st.sampled_from([0, 0, 1, 2, 3, 5, 9]))
        riders.append((t, low, high))
    return riders


@st.composite
def bound_cases(draw: st.DrawFn) -> tuple[mc.Course, int, str, tuple[Any, ...]]:
    course = draw(st.sampled_from([C8, C12, C14, *RANDOM]))
    relay_limit = draw(st.integers(0, 3))
    team = draw(st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]))
    crossed = draw(st.integers(0, 3))
    riders = drawn_riders(draw, course.finish, team[: 5 - crossed])
    last_row = draw(st.none() | st.integers(1, course.finish))
    args = (riders, crossed, draw(st.booleans()), last_row, draw(st.booleans()))
    return course, relay_limit, team, args


RANDOM = [random_course(seed) for seed in range(10)]
BOUNDS: dict[tuple[str, int, str], Bounds] = {}
NATIVE_BOUNDS: dict[tuple[str, int, str], Bounds] = {}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bound_cases())
def test_the_native_bound_equals_the_python_bound(
    case: tuple[mc.Course, int, str, tuple[Any, ...]],
) -> None:
    """``bound.c`` is ``Bounds.rounds_needed`` line for line (MC-2.1, MC-5.4, MC-6.1,
    MC-6.3 to 6.5, MC-7.2 to 7.5, MC-9.3, MC-9.4): on drawn intervals over bundled and
    random courses, relay limits 0 to 3, the three teams, dry or not, with and without
    a goal row, the same number of rounds."""
    course, relay_limit, team, args = case
    bounds = BOUNDS.get((course.name, relay_limit, team))
    if bounds is None:  # tabulating costs more than a bound: once per course
        bounds = BOUNDS[course.name, relay_limit, team] = Bounds(course, relay_limit, team)
    want = bounds.rounds_needed(*args)
    assert want >= 0
    if NATIVE:
        assert native_walk.rounds_needed(native_walk.tables(bounds), *args) == want
        fast = NATIVE_BOUNDS.get((course.name, relay_limit, team))
        if fast is None:
            fast = NATIVE_BOUNDS[course.name, relay_limit, team] = native_walk.NativeBounds(
                course, relay_limit, team
            )
        assert fast.rounds_needed(*args) == want


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_native_bound_equals_the_python_bound_on_real_lines(
    line: tuple[mc.State, list[mc.State], mc.State],
) -> None:
    """On the riders of real lines (bots' moves, the three winds, relay limits 0 to 3)
    as the search asks: the round in play's reach, then the later rounds in C and in
    Python, toward no goal and toward the line's own goal row (MC-9.4)."""
    root, starts, final = line
    solver = python_solver(root)
    table = native_walk.tables(solver.bounds) if NATIVE else None
    score = final.solo_score
    assert score is not None
    for start in starts:
        after = round_reach(start, root.relay_limit)
        dry = solver.dry_after_round(start, after)
        crossed = len(start.race.finished)
        for last_row in (None, root.course.finish - score[1]):
            now = may_end_this_round(start, last_row)
            args = (after, crossed, dry, last_row, now)
            want = solver.bounds.rounds_needed(*args)
            assert want >= 0  # the later rounds: 0 when this one may end the game
            if NATIVE:
                assert native_walk.rounds_needed(table, *args) == want
