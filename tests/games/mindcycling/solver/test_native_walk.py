"""The exact search's round walk in C (``peloton/native/walk.c``) finds exactly the
round ends of the Python walk (MC-4.4, MC-4.5: the turn order; MC-5 to MC-7: the moves),
prunes exactly what the Python walk's round bound prunes, and hands back lines that
replay to their positions."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton import native
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import native_walk
from peloton.games.mindcycling.solver.examples import C8, C12, C14
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
    """The C walk's round ends, each checked to replay to its key."""

    def later(riders: list[tuple[str, int, int]], crossed: int, dry: bool, now: bool) -> int:
        return solver.bounds.rounds_needed(riders, crossed, dry, last_row, now)

    found = native_walk.round_ends(
        state, rounds or 0, None if rounds is None else later, last_row=last_row
    )
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
    solver = Solver(root, None)
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
    solver = Solver(start, None)
    rounds = solver.rounds_needed(start)

    def order(s: mc.State) -> tuple[int, int]:
        return (solver.rounds_needed(s), -sum(sq >> 5 for sq in s.race.square_of.values()))

    got = solver.python_successors(start, lambda s: solver.rounds_needed(s) <= rounds, order)
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
    """Either walk reads the solver's clock every 64 positions: a deadline met mid-walk
    stops it with TimeUp (raised from the C walk's callback on the native engine)."""
    state = mc.new_solo(C14, "DDSSC")
    readings = iter(range(10**6))
    solver = Solver(state, 5.0, clock=lambda: float(next(readings)))
    with pytest.raises(TimeUp):
        solver.successors(state)
    assert next(readings) <= 8  # stopped at the deadline's reading, not after the walk
