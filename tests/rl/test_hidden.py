"""Hidden information stays hidden (MT-4.1): a Mind Twist seat's observation is the same
whatever the other player's unrevealed dial, while the dialer's own shows it."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from peloton import rl
from peloton.games import mindtwist as mt

ENCODING = rl.encoding("mind-twist")


def _replay(moves: list[str]) -> mt.State | None:
    """The game after ``moves`` played while legal (None once one is not)."""
    state = mt.from_options()
    for text in moves:
        if state.is_over or text not in {str(m) for m in state.legal_moves()}:
            return None
        state.play(text)
    return state


@given(
    history=st.lists(
        st.sampled_from(["dial:1", "dial:2", "dial:3", "guess:1", "guess:2", "guess:3", "pass"]),
        max_size=30,
    )
)
def test_the_other_players_unrevealed_dial_never_reaches_an_observation(
    history: list[str],
) -> None:
    # Keep the history's legal prefix, ending in the dial phase.
    state = mt.from_options()
    for text in history:
        if state.is_over:
            break
        if text in {str(m) for m in state.legal_moves()}:
            state.play(text)
    if state.is_over or state.phase != "dial":
        return
    dialer = state.current_player
    guesser = "B" if dialer == "R" else "R"
    seen_by_guesser = []
    for amount in (1, 2, 3):
        after = state.copy()
        after.play(f"dial:{amount}")
        seen_by_guesser.append(ENCODING.observe(after, guesser))
        mine = ENCODING.layout.block(ENCODING.observe(after, dialer), "my_dial")
        assert list(mine) == [1.0 if n == amount else 0.0 for n in (1, 2, 3)]
    # The guesser sees the same thing, to the last bit, for every dial.
    assert all(np.array_equal(seen_by_guesser[0], seen) for seen in seen_by_guesser[1:])


def test_a_dial_revealed_by_a_wrong_guess_is_then_seen() -> None:
    state = _replay(["dial:3", "guess:1"])  # a wrong guess reveals the dial (MT-2.2)
    assert state is not None
    seen = ENCODING.layout.block(ENCODING.observe(state, "B"), "their_dials")
    assert list(seen) == [0.0, 0.0, 1.0]


def test_the_environment_gives_the_guesser_the_same_observation_for_every_dial() -> None:
    seen = []
    for action in (0, 1, 2):
        env = rl.env("mind-twist")
        env.reset(seed=0)
        env.step(action)
        assert env.agent_selection == "B"
        seen.append(env.observe("B"))
    for other in seen[1:]:
        assert np.array_equal(other["observation"], seen[0]["observation"])
        assert np.array_equal(other["action_mask"], seen[0]["action_mask"])
