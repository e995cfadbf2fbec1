"""The train's front (:func:`.team.train_front`, MC-5.4, MC-6.1, MC-6.3 to MC-6.5): no
rider ends a round beyond the furthest normal move plus one row per relay of the chain
that may stand behind its founder. It holds on real lines over random and bundled
courses, the three winds and relay limits 0 to 3, and the round bound built on it never
exceeds what a line takes."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver.bounds import Bounds
from peloton.games.mindcycling.solver.examples import C14, random_course
from peloton.games.mindcycling.solver.search import Solver
from peloton.games.mindcycling.solver.team import train_front

from .lines import solo_lines
from .test_bounds import assert_bounds_hold

SOLO = mc.Course.load("solo")

courses = st.one_of(
    st.integers(0, 10**6).map(random_course),
    st.sampled_from([SOLO, C14, mc.Course.load("short")]),
)
lines = solo_lines(courses)


def front_of(state: mc.State) -> int:
    """The train's front for the round starting at ``state`` (riders known exactly)."""
    team = "".join(rid[1] for rid in state.ids)
    bounds = Bounds(state.course, state.relay_limit, team)
    dry = not state.race.bottles  # no bottle: every domestique rides tired (MC-7.4)
    road = [(rid[1], sq >> 5, sq >> 5) for rid, sq in state.race.square_of.items()]
    return train_front(
        road, bounds.lead[dry], bounds.trainable[dry], state.relay_limit, bounds.top_allowance
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_no_rider_ends_a_round_beyond_the_train_front(
    line: tuple[list[mc.State], mc.State],
) -> None:
    """MC-6.5: in every round of a real line, every rider that did not attack ends on
    the train's front or behind it (and crosses only when the front is across); the
    bounds built on it hold on the whole line."""
    starts, final = line
    finish = final.course.finish
    for n, start in enumerate(starts):
        front = front_of(start)
        end = starts[n + 1] if n + 1 < len(starts) else final
        moves = final.history[len(start.history) : len(end.history)]
        attackers = {m.rider for m in moves if m.kind == "!"}
        for rid in start.race.square_of:
            if rid in attackers:
                continue
            sq = end.race.square_of.get(rid)
            row = finish if sq is None else sq >> 5
            assert row <= max(front, start.race.square_of[rid] >> 5) or (
                row >= finish and front >= finish
            ), (rid, row, front, [str(m) for m in moves])
    assert_bounds_hold([*starts, final])


def test_a_train_of_four_reaches_its_front() -> None:
    """MC-5.4, MC-6.5: a column of four in the plain, its front against the wind: the
    founder rides 6 and each of three relays lands one row further, the bound exactly."""
    state = mc.from_mcn(SOLO, "2 AD1:c9+,AS1:c8,AC1:c7,AD2:c6+,AS2:a3")
    assert front_of(state) == 9 + 6 + 3
    for move in ("AD1-c15", "AS1-c16r", "AC1-c17r", "AD2-c18r"):
        state.play(move)
    assert state.rider("AD2").square == "c18"


def test_riders_side_by_side_have_no_train() -> None:
    """MC-6.1, MC-9.2: five riders side by side on one row are linked to nobody, so
    nobody relays or wheels in round 1: the furthest a rider ends without attacking is
    a domestique's 7 against the wind, 6 (the per-rider bound allowed 3 relays more)."""
    solo = mc.new_solo(SOLO, "DDSSC")
    for move, square in zip(("AD1", "AD2", "AS1", "AS2", "AC1"), "abcde", strict=True):
        solo.play(f"{move}@{square}2")
    assert solo.round == 1
    assert front_of(solo) == 2 + 6
    assert not any(m.kind in "wr" for m in solo.legal_moves())


def test_a_sprinter_in_the_mountain_breaks_the_chain() -> None:
    """MC-6.3 b: a sprinter standing in the mountain may neither wheel nor relay, so the
    rider behind it is not part of the climber's train: the climber rides 6 against the
    wind, the domestique behind the sprinter only joins the sprinter's own group."""
    state = mc.from_mcn(SOLO, "8 AC1:c40,AS1:c39,AD1:c38+,AD2:a30+,AS2:a20")
    front = front_of(state)
    assert front == 40 + 6
    state.play("AC1-c46")
    assert state.current_rider == "AS1"
    assert not any(m.kind in "wr" for m in state.legal_moves())


def test_the_round_bound_at_setup_rises_on_long_courses() -> None:
    """The train's front keeps the per-rider bound from promising every rider a train
    behind the leaders after the start (MC-9.2): on ``solo`` no line of ``DDSSC`` takes
    fewer than 11 rounds (10 before), and the shipped line still fits."""
    root = mc.new_solo(SOLO, "DDSSC")
    solver = Solver(root, None)
    row = SOLO.start_rows
    assert solver.bounds.rounds_needed([(t, row, row) for t in "DDSSC"], 0) == 11


def test_a_sheltered_founder_leads_one_relay_fewer() -> None:
    """MC-6.1, MC-6.5: a founder on its leader's wheel rides its whole allowance, but its
    place is 2, so only two riders behind it may relay: the rider three rows behind it
    (place 5) only wheels or rides on its own legs. Either way no rider passes the
    founder's end plus two rows, and the bound says so."""
    state = mc.from_mcn(SOLO, "2 AS1:c10,AD1:c9+,AC1:c8,AD2:c7+,AS2:c6")
    assert state.assessment("AS2").train_place == 5  # type: ignore[union-attr]
    assert front_of(state) == 9 + 7 + 2  # AD1 sheltered, two relays
    state.play("AS1-a14")  # the front rider leaves; AD1 keeps its shelter (MC-4.2)
    state.play("AD1-c16")  # 7 rows: sheltered at the assessment
    for move in ("AC1-c17r", "AD2-c18r"):
        state.play(move)
    assert state.current_rider == "AS2"
    assert not any(m.kind == "r" for m in state.legal_moves())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines)
def test_the_rider_left_on_the_road_holds_mid_round(line: tuple[list[mc.State], mc.State]) -> None:
    """MC-9.3, MC-9.4, MC-6.2: after every move of a real line, the rounds needed to end
    with the fifth rider as close as the line leaves it (and one row closer, where the
    line itself is the only witness it fails) never exceed the rounds the line takes."""
    starts, final = line
    score = final.solo_score
    assert score is not None
    state = starts[0].copy()
    solver = Solver(state, None)
    finish = state.course.finish
    for move in final.history[len(starts[0].history) :]:
        if state.is_over:
            break
        left = score[0] - state.round + 1
        assert solver.rounds_needed(state, finish - score[1]) <= left
        state.play(move)


def test_the_rider_left_on_the_road_rides_its_own_legs() -> None:
    """MC-6.2, MC-9.3: in the last round only one rider stays on the road, and it can
    neither wheel nor relay (the rider it would follow has ridden and stays too), so
    a game ending with every rider on ``last_row`` or beyond needs every rider but one
    within its own legs of that row, and that one must cross by relay."""
    plain = mc.Course.from_dict(
        {"name": "plain40", "lanes": 5, "finish": 40, "sections": [[2, "plain"]]}
    )
    bounds = Bounds(plain, 3, "DDSSC")
    f = plain.finish
    # Three riders within their own legs of the line (MC-2.1: 7 and 5 in the plain;
    # the climber on the top row rides against the wind, MC-5.4).
    near = [("D", f - 7, f - 7), ("D", f - 7, f - 7), ("C", f - 5, f - 4)]
    # The sprinter on f - 6 stays on the road: sheltered by the climber on f - 5, it
    # ends on f - 1, and the sprinter right behind it relays across (MC-6.5).
    far = [("S", f - 7, f - 7), ("S", f - 6, f - 6)]
    riders = near + far
    after = bounds.step(riders)
    assert after[3][2] >= f
    assert bounds.may_end(riders, 0)
    assert bounds.may_end(riders, 0, last_row=f - 1, after=after)
    # Both sprinters short of the line on their own legs: one would have to stay behind.
    assert not bounds.may_end(riders, 0, last_row=f, after=after)
    # One sprinter across already: the other one crosses by relay, or stays on its legs.
    assert bounds.may_end([*near, far[0]], 1, last_row=f - 2, after=after[:4])
    # Twenty rows back, no train takes it across: it must then end on its own legs.
    behind = [*near, ("S", f - 20, f - 20)]
    later = bounds.step(behind)
    assert later[3][2] < f
    assert bounds.may_end(behind, 1, last_row=f - 15, after=later)
    assert not bounds.may_end(behind, 1, last_row=f - 14, after=later)


def test_a_relay_crosses_only_behind_the_rider_left_on_the_road() -> None:
    """MC-6.2, MC-6.5, MC-9.3: the first rider of a group to cross closes it, and every
    rider of the group that moved before it stays on the road, which in the last round
    only one rider may do. So a relay across the line is the first move behind that
    rider, by the rider linked to it, and it ends on the last row before the line."""
    plain = mc.Course.from_dict(
        {"name": "plain40", "lanes": 5, "finish": 40, "sections": [[2, "plain"]]}
    )
    f = plain.finish
    near = [("D", f - 7, f - 7), ("D", f - 7, f - 7), ("C", f - 5, f - 4)]
    sprinters = [("S", f - 7, f - 7), ("S", f - 6, f - 6)]
    assert Bounds(plain, 3, "DDSSC").may_end(near + sprinters, 0)
    # Two rows behind it, the relay would come second in the group: the rider between
    # them would stay on the road too.
    apart = [("S", f - 8, f - 8), ("S", f - 6, f - 6)]
    assert not Bounds(plain, 3, "DDSSC").may_end(near + apart, 0)
    # Sheltered, the rider left on the road has place 2, so its follower has place 3:
    # with a relay limit of 1 only place 2 may relay (MC-6.5).
    assert not Bounds(plain, 1, "DDSSC").may_end(near + sprinters, 0)
    # Sprinters in the mountain ride no train (MC-6.3 b): neither carries the other.
    hill = mc.Course.from_dict(
        {"name": "hill40", "lanes": 5, "finish": 40, "sections": [[2, "plain"], [30, "mountain"]]}
    )
    climbers = [("D", f - 5, f - 5), ("D", f - 5, f - 5), ("C", f - 6, f - 6)]
    level = [("S", f - 4, f - 4), ("S", f - 3, f - 3)]
    assert Bounds(plain, 3, "DDSSC").may_end(climbers + level, 0)
    assert not Bounds(hill, 3, "DDSSC").may_end(climbers + level, 0)


def test_the_founder_of_a_train_is_a_teammate_of_its_own_type() -> None:
    """MC-2.1, MC-6.1, MC-6.5: a relay lands one row ahead of its group's head, and the
    founder is a teammate standing in the rider's column with a chain between them,
    riding its own type's allowance. In the sprint rows only a sprinter rides 7: a
    sprinter whose fellow sprinter is no further on rides a domestique's train."""
    course = mc.Course.from_dict(
        {"name": "s30", "lanes": 5, "finish": 30, "sections": [[2, "mountain"], [13, "sprint"]]}
    )
    bounds = Bounds(course, 3, "DDSSC")
    column = [("D", 18, 18), ("D", 17, 17), ("C", 16, 16)]
    # The domestique on 18 founds (5 in the sprint, 4 against the wind) and the sprinter
    # on 15 relays third: 18 + 4 + 3. On its own legs it gets 15 + 7 + 3 = 25 as well.
    after = bounds.step([*column, ("S", 15, 15), ("S", 15, 15)])
    assert after[3][2] == after[4][2] == 25
    # With the other sprinter on 19, sheltering the domestique, that sprinter founds
    # the train and the column behind it relays: the domestique on 18 lands on 19 + 6 + 1.
    after = bounds.step([*column, ("S", 15, 15), ("S", 19, 19)])
    assert after[0][2] == 26
    assert after[3][2] == 25  # four rows behind that founder: a wheel at best (MC-6.5)
