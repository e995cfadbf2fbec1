"""Hypothesis properties over random boards and random games.

Every random game ends; a public record replays to the same position (to the very
game when nothing hidden mattered); no view, snapshot or public record holds a dial
its viewer has not seen; position text round-trips; greedy games end.

The contract every game keeps (records replay, copies are independent, notation
round-trips, views hide their secret, errors) is checked in tests/games/contract.py.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.games import mindtwist as mt

MAX_MOVES = 100_000
VIEWERS = ("R", "B", None)


@st.composite
def boards(draw: Any) -> dict[str, Any]:
    """Options of a valid board: length 2-40, any increasing milestones inside."""
    length = draw(st.integers(2, 40))
    marks = (
        draw(st.sets(st.integers(1, length - 1), max_size=min(5, length - 1)))
        if length > 1
        else set()
    )
    return {"length": length, "milestones": sorted(marks)}


def random_game(options: dict[str, Any], seed: int, stop: int | None = None) -> mt.State:
    """A game of uniformly random legal moves, to its end or ``stop`` moves."""
    rnd = random.Random(seed)
    state = mt.from_options(options)
    moves = 0
    while not state.is_over and (stop is None or moves < stop) and moves < MAX_MOVES:
        legal = state.legal_moves()
        state.play(legal[rnd.randrange(len(legal))])
        moves += 1
    return state


def with_other_pending_dial(state: mt.State, amount: int) -> mt.State:
    """The same game but with ``amount`` as the dial awaiting a guess."""
    record = mt.Record.from_state(state)
    record.moves[-1] = f"dial:{amount}"
    return record.replay()


@settings(max_examples=60, deadline=None)
@given(boards(), st.integers(0, 2**32))
def test_random_games_end(options: dict[str, Any], seed: int) -> None:
    state = random_game(options, seed)
    assert state.is_over and state.result in ("R", "B")
    assert state.space(state.result) == state.board.length
    assert state.legal_moves() == [] and state.current_player is None
    other = "B" if state.result == "R" else "R"
    assert 0 <= state.space(other) < state.board.length


@settings(max_examples=80, deadline=None)
@given(boards(), st.integers(0, 2**32), st.integers(0, 80))
def test_public_records_replay_to_the_same_position(
    options: dict[str, Any], seed: int, stop: int
) -> None:
    """A viewer's public record replays to the same position, and to the very game
    when nothing hidden mattered (the record round trip itself is the contract's,
    tests/games/contract.py)."""
    state = random_game(options, seed, stop)
    record = mt.Record.from_state(state)
    for viewer in VIEWERS:
        replayed = mt.Record.from_json(record.to_json(viewer)).replay()
        assert replayed.position == state.position
        if not state.dial_hidden and not (state.phase == "guess" and state.active_player != viewer):
            assert replayed == state  # nothing hidden that mattered: the very game


@settings(max_examples=80, deadline=None)
@given(boards(), st.integers(0, 2**32), st.integers(0, 80))
def test_views_never_hold_an_unseen_dial(options: dict[str, Any], seed: int, stop: int) -> None:
    state = random_game(options, seed, stop)
    turns = state.turns()  # as a spectator sees them
    for viewer in VIEWERS:
        view = state.view(viewer)
        # Each dial is visible exactly when revealed or the viewer's own.
        for i, move in enumerate(view.history):
            if move.is_dial:
                turn = turns[i // 2]
                revealed = turn.response is not None and not turn.correct
                assert move.is_hidden == (not revealed and turn.dialer != viewer)
        if state.phase == "guess" and state.active_player != viewer:
            assert view.dial is None and view.dial_hidden
            # Nothing seen depends on the hidden dial: object, snapshot text, record.
            others = [with_other_pending_dial(state, n) for n in (1, 2, 3)]
            assert {repr(o.view(viewer).history) for o in others} == {repr(view.history)}
            assert all(o.view(viewer) == view for o in others)
            texts = {json.dumps(mt.snapshot(o, viewer), sort_keys=True) for o in others}
            assert len(texts) == 1
            records = {mt.Record.from_state(o).to_json(viewer) for o in others}
            assert len(records) == 1
        snap = mt.snapshot(state, viewer)
        assert snap["dial"] == (
            state.dial if viewer == state.active_player and state.phase == "guess" else None
        )
        assert snap["moves"] == mt.public_moves(state, viewer)


@settings(max_examples=60, deadline=None)
@given(boards(), st.integers(0, 2**32), st.integers(0, 60))
def test_positions_round_trip(options: dict[str, Any], seed: int, stop: int) -> None:
    state = random_game(options, seed, stop)
    if not state.is_over:
        again = mt.from_position(state.position, **options)
        assert again.position == state.position
        assert (again.red, again.blue, again.active_player) == (
            state.red,
            state.blue,
            state.active_player,
        )
        assert mt.parse_position(state.position) == (state.red, state.blue, state.active_player)


@settings(max_examples=40, deadline=None)
@given(boards(), st.integers(0, 2**16))
def test_greedy_games_end(options: dict[str, Any], seed: int) -> None:
    """Two greedy bots (deterministic but for ties) never lock into endless correct
    guesses: the dialer avoids the guess it can see coming."""
    from peloton.bots import make_bot

    bots = {"R": make_bot("greedy", seed), "B": make_bot("greedy", seed + 1)}
    state = mt.from_options(options)
    while not state.is_over:
        assert len(state.history) < 10_000
        player = state.current_player
        assert player is not None
        state.play(bots[player].choose(state.view(player)))
