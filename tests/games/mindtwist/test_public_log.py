"""MT-4.1, MT-4.2: the turns and moves a viewer may see, kept up to date as the game
goes on (``public_log.PublicLog``), always equal those read afresh from the whole
history, whenever they are asked for: after every move, after a few, on views, on
copies, and on a determinized view whose history was rewritten."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import mindtwist as mt
from peloton.games.mindtwist.heuristics import determinize
from peloton.games.mindtwist.notation import GUESS, HIDDEN_DIAL, PASS, PLAYERS
from peloton.games.mindtwist.position import INDEX

from .test_properties import VIEWERS, boards


def fresh_turns(state: mt.State, viewer: str | None) -> list[mt.Turn]:
    """The turns read from the whole history, as MT-4.2 says (the reference)."""
    out: list[mt.Turn] = []
    history, active = state.history, INDEX[state.first]
    for i in range(0, len(history), 2):
        dial = history[i]
        response = history[i + 1] if i + 1 < len(history) else None
        if response is None:
            correct = False
        elif dial.amount is None:
            correct = response.kind == GUESS
        else:
            correct = response.amount == dial.amount
        if (response is None or correct) and PLAYERS[active] != viewer:
            dial = HIDDEN_DIAL
        out.append(mt.Turn(PLAYERS[active], dial, response, correct))
        if correct or (response is not None and response.kind == PASS):
            active = 1 - active
    return out


def check(state: mt.State, viewer: str | None) -> None:
    turns = fresh_turns(state, viewer)
    moves = [m for t in turns for m in (t.dial, t.response) if m is not None]
    assert state.turns(viewer) == turns
    assert state.public_history(viewer) == moves
    assert state.public_texts(viewer) == [str(m) for m in moves]
    answered = [t for t in turns if t.response is not None]
    assert state.last_answered_turn(viewer) == (answered[-1] if answered else None)


@settings(max_examples=60, deadline=None)
@given(boards(), st.integers(0, 2**32), st.integers(1, 4))
def test_mt_4_2_the_log_read_as_it_goes_equals_the_log_read_afresh(
    options: dict[str, Any], seed: int, every: int
) -> None:
    rnd = random.Random(seed)
    state = mt.from_options(options)
    moves = 0
    while not state.is_over and moves < 400:
        if moves % every == 0:
            for viewer in VIEWERS:
                check(state, viewer)
        state.play(rnd.choice(state.legal_moves()))
        moves += 1
        if moves % 7 == 0:
            copy = state.copy()
            for viewer in VIEWERS:
                check(copy, viewer)
    for viewer in VIEWERS:
        check(state, viewer)
        view = state.view(viewer)
        check(view, viewer)
        if not view.is_over:
            check(determinize(view, Rng(seed)), viewer)


def test_mt_4_1_a_right_guess_keeps_the_dial_hidden_and_a_wrong_one_shows_it() -> None:
    state = mt.new_game()
    for move in ("dial:2", "guess:2", "dial:3", "guess:1"):
        state.play(move)
    # Red's dial 2 was guessed right: hidden from Blue and watchers; Blue's dial 3 was
    # guessed wrong: shown to everyone.
    assert state.public_texts("R") == ["dial:2", "guess:2", "dial:3", "guess:1"]
    assert state.public_texts("B") == ["dial:?", "guess:2", "dial:3", "guess:1"]
    assert state.public_texts(None) == ["dial:?", "guess:2", "dial:3", "guess:1"]
    state.play("dial:1")
    assert state.public_texts("B") == ["dial:?", "guess:2", "dial:3", "guess:1", "dial:1"]
    assert state.public_texts("R")[-1] == "dial:?"
