"""Real solo lines for the solver's soundness tests: what every bound must allow."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from peloton.bots import make_bot
from peloton.games import mindcycling as mc


def line_starts(
    course: mc.Course, team: str, seed: int, wind: str, relay_limit: int, randomness: float
) -> tuple[list[mc.State], mc.State]:
    """A whole solo line (greedy moves mixed with random ones of a random kind, so that
    wheels and relays are played often): the state at every round's start, and the end."""
    rng = random.Random(seed)
    greedy = make_bot("greedy", seed)
    state = mc.new_solo(course, team, wind=wind, relay_limit=relay_limit)
    starts: list[mc.State] = []
    while not state.is_over:
        if state.at_round_start:
            starts.append(state.copy())
        if rng.random() < randomness:
            moves = state.legal_moves()
            kind = rng.choice(sorted({m.kind for m in moves}))
            state.play(rng.choice([m for m in moves if m.kind == kind]))
        else:
            state.play(greedy.choose(state))
    return starts, state


def solo_lines(
    courses: st.SearchStrategy[mc.Course],
) -> st.SearchStrategy[tuple[list[mc.State], mc.State]]:
    """Hypothesis: real lines (:func:`line_starts`) on ``courses``, for the three teams
    (MC-9.1), the three winds (MC-5.5), relay limits 0 to 3 (MC-6.5) and more or fewer
    random moves."""
    return st.builds(
        line_starts,
        courses,
        st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]),
        st.integers(0, 10**6),
        st.sampled_from(["front", "left", "right"]),
        st.sampled_from([0, 1, 2, 3]),
        st.sampled_from([0.0, 0.3, 1.0]),
    )
