"""A snapshot says where the last move put a rider (``last_squares``), so that the
page marks it without reading move notation (issue 33, point 7): Mind Cycling's
landing square of a placement or a ride (MC-5, MC-6; none across the finish line,
MC-9), Pistard's end of a ride (PI-3.3, PI-3.4)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import mindcycling as mc
from peloton.games import pistard as pi
from peloton.games.mindcycling.notation import FINISH
from peloton.games.mindcycling.snapshot import snapshot as mc_snapshot
from peloton.games.pistard.snapshot import snapshot as pi_snapshot


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_mind_cycling_marks_the_square_a_move_lands_on(seed: int) -> None:
    rng = random.Random(seed)
    state = mc.from_options({"players": 2, "riders": 3, "course": "short"})
    assert mc_snapshot(state)["last_squares"] == []
    for _ in range(60):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        state.play(move)
        landed = move.square not in (None, FINISH)
        assert mc_snapshot(state)["last_squares"] == ([move.square] if landed else [])


@pytest.mark.parametrize("seed", range(6))
def test_pistard_marks_the_end_of_a_ride(seed: int) -> None:
    rng, dice = random.Random(seed), Rng(seed)
    state = pi.from_options({"length": 20, "target": 3})
    seen_ride = False
    for _ in range(120):
        if state.is_over:
            break
        if state.is_chance:
            state.play(state.chance_move(dice))
            assert pi_snapshot(state)["last_squares"] == []
            continue
        move = rng.choice(state.legal_moves())
        state.play(move)
        expected = [move.end] if move.end is not None else []
        seen_ride = seen_ride or bool(expected)
        assert pi_snapshot(state)["last_squares"] == expected
    assert seen_ride
