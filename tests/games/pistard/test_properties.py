"""Hypothesis properties over random games: every game ends; never two riders on a
square; distances never decrease; a record keeps the dice seed and the result;
positions round-trip; legal moves agree with a reference model.

The contract every game keeps (records replay, copies are independent, notation
round-trips, chance outcomes, errors) is checked in tests/games/contract.py."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import pistard as pi

from .model import expected_moves

MAX_MOVES = 6_000

options = st.fixed_dictionaries(
    {
        "players": st.integers(2, 4),
        "length": st.sampled_from([20, 24, 40]),
        "bonus": st.sampled_from(pi.BONUSES),
        "target": st.integers(1, 8),
    }
)


def random_game(opts: dict[str, object], seed: int, check: bool = True) -> pi.State:
    """Play a game of random legal moves (dice from ``Rng(seed)``), checking the
    invariants after every move."""
    state = pi.from_options(opts)
    rng, rnd = Rng(seed), random.Random(seed)
    for _ in range(MAX_MOVES):
        if state.is_over:
            return state
        before = dict(state.dist)
        if state.is_chance:
            move = state.chance_move(rng)
        else:
            moves = state.legal_moves()
            move = moves[rnd.randrange(len(moves))]
        assert pi.parse_move(str(move)) == move
        state.play(move)
        if check:
            assert all(state.dist[r] >= d for r, d in before.items()), "a rider went back"
            squares = [state.square_of(r) for r in state.racing if state.lane[r] >= 0]
            assert len(squares) == len(set(squares)), "two riders on a square"
            assert len(state.at) == len(squares)
            assert all(state.rider_at(sq) for sq in squares if sq)
    raise AssertionError(f"game not over after {MAX_MOVES} moves")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options, st.integers(0, 2**32))
def test_random_games_end_with_invariants(opts: dict[str, object], seed: int) -> None:
    state = random_game(opts, seed)
    assert state.is_over and state.result.winner in state.players
    assert state.result.points[state.result.winner] >= max(state.points.values())


@settings(max_examples=15, deadline=None)
@given(options, st.integers(0, 2**32))
def test_records_replay_exactly(opts: dict[str, object], seed: int) -> None:
    """Over random options, a record replays the very game and keeps the dice seed and
    the result (PI-5)."""
    state = random_game(opts, seed, check=False)
    state.seed = seed
    record = pi.Record.from_json(pi.Record.from_state(state).to_json())
    replayed = record.replay()
    assert replayed == state and replayed.history == state.history
    assert record.seed == seed and record.result == state.result.to_dict()


@settings(max_examples=15, deadline=None)
@given(options, st.integers(0, 2**32))
def test_positions_round_trip_at_round_starts(opts: dict[str, object], seed: int) -> None:
    state = pi.from_options(opts)
    rng, rnd = Rng(seed), random.Random(seed)
    seen = 0
    while not state.is_over and seen < 8:
        if state.at_round_start:
            text = pi.to_position(state)
            again = pi.from_position(
                text, layout=state.layout, bonus=state.bonus, target=state.target
            )
            assert pi.to_position(again) == text
            assert again.order == state.order
            assert {m for m in again.legal_moves()} == set(state.legal_moves())
            seen += 1
        moves = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else moves[rnd.randrange(len(moves))])


@settings(max_examples=30, deadline=None)
@given(options, st.integers(0, 2**32))
def test_moves_agree_with_the_reference_model(opts: dict[str, object], seed: int) -> None:
    """Every legal ride move set equals a brute-force reading of PI-3.2-3.5."""
    state = pi.from_options(opts)
    rng, rnd = Rng(seed), random.Random(seed)
    checked = 0
    while not state.is_over and checked < 150:
        moves = state.legal_moves()
        if state.due is not None and not state.is_chance:
            assert {str(m) for m in moves} == expected_moves(state)
            assert len(moves) == len(set(moves))
            checked += 1
        state.play(state.chance_move(rng) if state.is_chance else moves[rnd.randrange(len(moves))])
