"""Real solo lines for the solver's soundness tests: what every bound must allow."""

from __future__ import annotations

import random

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
