"""Every legal move has its own number, inside the fixed action space, and the number
leads back to the move, in any position random play reaches (Hypothesis draws the
games)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton import rl
from peloton.core.rng import Rng

ENCODINGS = {
    "mind-cycling": rl.encoding("mind-cycling", players=3, riders=4, course="short"),
    "mind-twist": rl.encoding("mind-twist"),
    "pistard": rl.encoding("pistard", players=4),
    "cyclo": rl.encoding("cyclo", players=3),
}


@pytest.mark.parametrize("game", sorted(ENCODINGS))
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1))
def test_each_legal_move_has_one_number_that_leads_back_to_it(game: str, seed: int) -> None:
    encoding = ENCODINGS[game]
    state = encoding.new_state()
    rng = Rng(seed)
    while not state.is_over:
        if state.is_chance:
            state.play(state.chance_move(rng))
            continue
        moves = state.legal_moves()
        numbers = [encoding.action_of(state, move) for move in moves]
        assert len(set(numbers)) == len(moves)
        assert all(0 <= n < encoding.size for n in numbers)
        legal = encoding.legal_actions(state)
        assert all(
            encoding.move_of(state, n, legal) == m for n, m in zip(numbers, moves, strict=True)
        )
        state.play(rng.choice(moves))
