"""A rider stays on its row only when it cannot move (MC-5.3): the riders the solver
counts as surely moving always leave their row, on real lines and in every way a
round can end."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.bots import make_bot
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver.examples import random_course
from peloton.games.mindcycling.solver.search import Solver
from peloton.games.mindcycling.solver.stay import surely_moving


def round_ends(state: mc.State, round_: int | None = None) -> list[mc.State]:
    """Every way the round in play can end from ``state`` (a few riders left to move)."""
    if round_ is None:
        round_ = state.round
    if state.is_over or state.round != round_:
        return [state]
    out = []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        out.extend(round_ends(child, round_))
    return out


def crowded_line(
    course: mc.Course, team: str, seed: int, wind: str, relay_limit: int
) -> Iterator[mc.State]:
    """A solo line whose riders often step a single row, so that riders block each
    other (greedy moves mixed with the shortest moves): every position of it."""
    rng = random.Random(seed)
    greedy = make_bot("greedy", seed)
    state = mc.new_solo(course, team, wind=wind, relay_limit=relay_limit)
    while not state.is_over:
        yield state.copy()
        moves = state.legal_moves()
        ahead = [m for m in moves if m.square not in (None, "#")]
        if state.round > 0 and ahead and rng.random() < 0.6:
            row = min(int(m.square[1:]) for m in ahead)
            state.play(rng.choice([m for m in ahead if int(m.square[1:]) == row]))
        else:
            state.play(greedy.choose(state))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6).map(random_course),
    st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]),
    st.integers(0, 10**6),
    st.sampled_from(["front", "left", "right"]),
    st.sampled_from([0, 1, 2, 3]),
)
def test_a_rider_that_surely_moves_leaves_its_row(
    course: mc.Course, team: str, seed: int, wind: str, relay_limit: int
) -> None:
    """MC-5.3, MC-4.3, MC-4.4: at every position of a crowded real line, each rider
    counted as surely moving ends the round off its row, in every way the round can
    end once two riders at most are left to move, and on the line itself."""
    pending: list[tuple[int, str, int]] = []  # (round, rider, row) to check on the line
    for state in crowded_line(course, team, seed, wind, relay_limit):
        for round_, rid, row in pending:
            sq = state.race.square_of.get(rid)
            assert state.round == round_ or sq is None or sq >> 5 > row, (rid, row)
        pending = [p for p in pending if p[0] == state.round]
        if state.round == 0:
            continue
        moving = surely_moving(state)
        pending += [(state.round, rid, state.race.square_of[rid] >> 5) for rid in moving]
        rows = {rid: state.race.square_of[rid] >> 5 for rid in moving}
        left = sum(1 for rid in state.race.square_of if rid not in state.race.done)
        ends = round_ends(state) if left <= 2 else []
        for end in ends:
            for rid, row in rows.items():
                sq = end.race.square_of.get(rid)
                assert sq is None or sq >> 5 > row, (rid, row, end.history[-left:])


def test_a_sprinter_walled_in_on_the_start_zone_may_stay_once() -> None:
    """MC-5.3, MC-4.3: on random course 3 (start zone row 1, mountain from row 2) the
    sprinter on e1 moves last in round 1, and the riders from c1 and d1 may take d2
    and e2 first, so it may stay; once the rider from c1 went elsewhere it surely
    moves. In round 2 those riders move on before it (further rows first), and nobody
    is left to wall it in again: it surely moves, so it is in the mountain from round
    3 on (MC-6.3 b) and the bound proves that the line needs six rounds."""
    course = random_course(3)
    root = mc.new_solo(course, "DDSSC")
    solver = Solver(root, None)
    start = Solver.child(root, ["AD1@b1", "AD2@d1", "AS1@a1", "AS2@e1", "AC1@c1"])
    assert "AS2" not in surely_moving(start)
    assert {"AS1", "AD1", "AD2", "AC1"} <= surely_moving(start)
    elsewhere = Solver.child(start, ["AS1-a2", "AD1-b2", "AC1-c3"])
    assert "AS2" in surely_moving(elsewhere)
    walled = Solver.child(start, ["AS1-a2", "AD1-b2", "AC1-d2", "AD2-e2", "AS2="])
    assert walled.race.square_of["AS2"] >> 5 == 1
    assert surely_moving(walled) == set(walled.race.square_of)
    assert 1 + solver.rounds_needed(walled) == 6
