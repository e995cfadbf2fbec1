"""The last-round rule (MC-9.3, MC-6.2, MC-6.6): in the round the game ends, at most
one rider stays on the road, so at most one rider crosses by relay and three at least
are across before it or cross on their own legs. The bound built on it never exceeds
what a real line takes, on random courses, winds and relay limits."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver.bounds import Bounds, may_end_this_round, round_reach
from peloton.games.mindcycling.solver.driver import static_lower_bound
from peloton.games.mindcycling.solver.examples import random_course
from peloton.games.mindcycling.solver.rows import RowGame, RowSearch
from peloton.games.mindcycling.solver.search import Solver

from .lines import line_starts

lines = st.builds(
    line_starts,
    st.integers(0, 10**6).map(random_course),
    st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]),
    st.integers(0, 10**6),
    st.sampled_from(["front", "left", "right"]),
    st.sampled_from([0, 1, 2, 3]),
    st.sampled_from([0.0, 0.3, 1.0]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_last_round_rule_holds_on_real_lines(line: tuple[list[mc.State], mc.State]) -> None:
    """At the start of the round a real line ends in, three riders at least are across
    or reach the line on their own legs, by the round's assessment and by the relaxed
    own reach; and the round bound from every round's start (setup included) never
    exceeds the rounds the line still takes."""
    starts, final = line
    score = final.solo_score
    assert score is not None
    last = starts[-1]
    assert last.round == score[0]
    assert may_end_this_round(last)
    team = "".join(rid[1] for rid in last.ids)
    bounds = Bounds(last.course, last.relay_limit, team)
    riders = [(rid[1], sq >> 5, sq >> 5) for rid, sq in last.race.square_of.items()]
    assert bounds.may_end(riders, len(last.race.finished), not last.race.bottles)
    solver = Solver(mc.new_solo(last.course, team, relay_limit=last.relay_limit), None)
    assert static_lower_bound(solver, solver.root) <= score[0]
    for state in starts:
        solver = Solver(state, None)
        assert solver.rounds_needed(state) <= score[0] - state.round + 1
        assert (
            solver.rounds_needed(state, last.course.finish - score[1]) <= score[0] - state.round + 1
        )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_a_relay_across_in_the_last_round_lands_from_the_last_row(
    line: tuple[list[mc.State], mc.State],
) -> None:
    """MC-9.3, MC-6.2, MC-6.5, MC-6.6 on real lines: in the round a line ends, a rider
    that crosses by relay does so ahead of the rider left on the road, which ends on
    the road's last row; the rule for the round in play holds after every move of that
    round, and the later rounds' rule holds at its start, with the line's own goal row
    for the rider left on the road (MC-9.4)."""
    starts, final = line
    score = final.solo_score
    assert score is not None
    last = starts[-1]
    finish = last.course.finish
    moves = final.history[len(last.history) :]
    state = last.copy()
    for move in moves:
        assert may_end_this_round(state)
        assert may_end_this_round(state, finish - score[1])
        state.play(move)
    if any(move.kind == "r" and move.crosses for move in moves):
        assert [sq >> 5 for sq in final.race.square_of.values()] == [finish - 1]
    team = "".join(rid[1] for rid in last.ids)
    bounds = Bounds(last.course, last.relay_limit, team)
    riders = [(rid[1], sq >> 5, sq >> 5) for rid, sq in last.race.square_of.items()]
    dry = not last.race.bottles
    after = bounds.step(riders, dry)
    crossed = len(last.race.finished)
    assert bounds.may_end(riders, crossed, dry, None, after)
    assert bounds.may_end(riders, crossed, dry, finish - score[1], after)


@st.composite
def endgames(draw: st.DrawFn) -> mc.State:
    """A position near the line of a random course: two or three riders of a solo team
    still on the road within eight rows of the line (any lanes, bottles, wind and
    relay limit), the others across, so that one round may end the game."""
    course = random_course(draw(st.integers(0, 10**6)))
    team = draw(st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]))
    ids = [f"A{t}{team[:i].count(t) + 1}" for i, t in enumerate(team)]
    on_road = draw(st.sampled_from([2, 3]))
    order = draw(st.permutations(ids))
    finish = course.finish
    free = [
        f"{lane}{row}"
        for row in range(max(course.start_rows + 1, finish - 8), finish)
        for lane in "abcde"
        if f"{lane}{row}" not in course.rocks and f"{lane}{row}" not in course.feed
    ]
    squares = draw(st.lists(st.sampled_from(free), min_size=on_road, max_size=on_road, unique=True))
    wind = draw(st.sampled_from(["front", "left", "right"]))
    # Often a second rider linked to the first (on the square its shelter square is,
    # MC-5.5, MC-6.1): a train, so that relays across are played.
    lane = "abcde".index(squares[0][0]) + {"front": 0, "left": 1, "right": -1}[wind]
    behind = f"{'abcde'[lane]}{int(squares[0][1:]) - 1}" if 0 <= lane < 5 else None
    if draw(st.booleans()) and behind in free and behind not in squares:
        squares[1] = behind
    bottles = draw(st.lists(st.booleans(), min_size=on_road, max_size=on_road))
    riders = ",".join(
        f"{rid}:{sq}{'+' if b else ''}"
        for rid, sq, b in sorted(zip(order[:on_road], squares, bottles, strict=True))
    )
    mcn = f"5 {riders} / {','.join(order[on_road:])} / -"
    return mc.from_mcn(course, mcn, wind=wind, relay_limit=draw(st.sampled_from([0, 1, 2, 3])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endgames())
def test_the_round_in_play_ends_the_game_only_where_the_rule_allows(state: mc.State) -> None:
    """MC-9.3, MC-6.2, MC-6.5, MC-6.6: the round walked whole from positions near the line
    (crossing relays included, which bot lines rarely play): along every line that ends
    the game this round, the rule for the round in play holds before every move, and
    the later rounds' rule holds at the round's start."""
    solver = Solver(state, None)
    team = "".join(rid[1] for rid in state.ids)
    bounds = Bounds(state.course, state.relay_limit, team)
    riders = [(rid[1], sq >> 5, sq >> 5) for rid, sq in state.race.square_of.items()]
    dry = not state.race.bottles
    ended = False
    for _, line in solver.python_successors(state):
        final = solver.child(state, line)
        if not final.is_over:
            continue
        ended = True
        replay = state.copy()
        for move in line:
            assert may_end_this_round(replay), (state.to_mcn(), line, move)
            replay.play(move)
    if ended:
        assert bounds.may_end(riders, len(state.race.finished), dry, None, bounds.step(riders, dry))


PLAIN20 = mc.Course.from_dict(
    {"name": "plain20", "lanes": 5, "finish": 20, "sections": [[2, "plain"]]}
)


def test_a_train_takes_only_one_rider_across() -> None:
    """MC-6.6, MC-6.2: a column of five in the plain, the domestiques in front. They
    reach the line on their own legs (an attack, MC-7.2); the sprinters and the
    climber only on a train, and a relay across closes the group: the game cannot end
    this round, although each rider alone could be taken across by the train."""
    state = mc.from_mcn(PLAIN20, "3 AD1:c14+,AD2:c13+,AS1:c12,AS2:c11,AC1:c10")
    assert not may_end_this_round(state)
    solver = Solver(state, None)
    assert solver.rounds_needed(state) == 2
    # Without the rule, the reach of this round takes four riders across (the climber,
    # fifth in the train, only wheels, MC-6.5).
    after = round_reach(state, state.relay_limit)
    assert sum(high >= PLAIN20.finish for _, _, high in after) == 4
    # One rider more with its own legs across (the sprinter on a16, against the wind: 4
    # rows) and still no end: the fourth crosses only by a relay, behind a founder that
    # stays on the road and whose normal move ends on the last row (MC-6.5, MC-6.6),
    # and the sprinter on c11 rides to 15 at best.
    closer = mc.from_mcn(PLAIN20, "3 AD1:c14+,AD2:c13+,AS1:a16,AS2:c11,AC1:c10")
    assert not may_end_this_round(closer)
    # With that founder on b15 (4 rows against the wind: to b19) the round may be the
    # last, and is: the rule is no stronger than the game.
    last = mc.from_mcn(PLAIN20, "3 AD1:c14+,AD2:c13+,AS1:a16,AS2:b15,AC1:b14")
    assert may_end_this_round(last)
    for move in ("AS1-#", "AS2-b19", "AC1-#r", "AD1-#", "AD2-#"):
        last.play(move)
    assert last.solo_score == (3, 1)


def test_a_relay_across_needs_its_founder_on_the_last_row() -> None:
    """MC-9.3, MC-6.2, MC-6.5, MC-6.6: three riders across, the fourth crosses only by a
    relay behind the rider left on the road, which lands one row ahead of that rider's
    normal move: it must end on the road's last row. From c13 a sprinter against the
    wind rides to 17, so the relay behind it lands on 18; from c15 it rides to 19 and
    the relay crosses. Every round end of both positions (the round walked whole)
    agrees with the rule, and the bound of later rounds reads it the same way."""
    bounds = Bounds(PLAIN20, 3, "DDSSC")
    for mcn, ends in (
        ("3 AS1:c15,AS2:c14 / AC1,AD1,AD2", True),
        ("3 AS1:c13,AS2:c12 / AC1,AD1,AD2", False),
    ):
        state = mc.from_mcn(PLAIN20, mcn)
        assert may_end_this_round(state) is ends
        solver = Solver(state, None)
        finals = [solver.child(state, line) for _, line in solver.python_successors(state)]
        assert any(final.is_over for final in finals) is ends
        assert solver.rounds_needed(state) == (1 if ends else 2)
        riders = [(rid[1], sq >> 5, sq >> 5) for rid, sq in state.race.square_of.items()]
        # The front rider is on the top row, against the wind there too (MC-5.4).
        assert bounds.may_end(riders, 3, False, None, bounds.step(riders)) is ends
    # The later rounds' rule on intervals: three riders across on their own legs, the
    # fourth only by relay and nobody able to found it on the last row.
    riders = [("D", 15, 15), ("D", 15, 15), ("C", 16, 16), ("S", 13, 13), ("S", 12, 12)]
    assert not bounds.may_end(riders, 0, False, None, bounds.step(riders))
    # One row further each: the front sprinter's normal move may end on row 19 (MC-5.4:
    # sheltered by a domestique that may stand on row 15), the other right behind it.
    riders[3:] = [("S", 14, 14), ("S", 13, 13)]
    assert bounds.may_end(riders, 0, False, None, bounds.step(riders))


def test_the_rule_raises_the_bound_on_a_short_course() -> None:
    """On a 15-row course starting at row 1, the bound alone once allowed 2 rounds:
    after round 1 (nobody sheltered, MC-5.4), only the domestiques reach the line on
    their own legs, so round 2 cannot be the last."""
    course = random_course(2)
    root = mc.new_solo(course)
    assert static_lower_bound(Solver(root, None), root) == 3


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_row_game_allows_the_remaining_of_real_lines(
    line: tuple[list[mc.State], mc.State],
) -> None:
    """MC-9.4: phase 2 asks the row game for lines ending with every rider left on the
    road on a given row or beyond; from the last round's start of a real line, the row
    game finds one for the line's own remaining (it allows every real round)."""
    starts, final = line
    score = final.solo_score
    assert score is not None
    last = starts[-1]
    team = "".join(rid[1] for rid in last.ids)
    search = RowSearch(RowGame(last.course, last.relay_limit), team)
    assert search.feasible(RowGame.project(last), 1, last.course.finish - score[1])
