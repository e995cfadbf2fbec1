"""MCTS with whole native playouts searches exactly as with Python playouts: the
same draws from the bot's Rng, the same rewards, so the same tree and the same move.

Without the native engine the playout hook declines and both runs are Python (the
test then checks that the hook declines, see tests/native/test_lockstep.py)."""

from __future__ import annotations

import random

import pytest

from peloton.bots.mcts import MCTSBot
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import heuristics
from peloton.games.mindcycling import native as bridge


def position(course: str, teams: int, moves: int, seed: int, wind: str) -> mc.State:
    """A position reached by ``moves`` random moves (setup included)."""
    rnd = random.Random(seed)
    if teams == 1:
        state = mc.new_solo(course, wind=wind)
    else:
        state = mc.new_game(course, mc.default_teams(teams, 6 if teams < 4 else 4), wind=wind)
    for _ in range(moves):
        legal = state.legal_moves()
        state.play(legal[int(rnd.random() * len(legal))])
    return state


def search(
    state: mc.State, rollout: str, *, python: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[object, object, int]:
    """The move, the bot's generator state after, and the playouts run."""
    with monkeypatch.context() as m:
        if python:
            m.setattr(bridge, "available", lambda: False)
        bot = MCTSBot(seed=11, iterations=12, rollout=rollout, settle=False)
        move = bot.choose(state)
    return move, bot.rng.getstate(), bot.last_iterations


@pytest.mark.parametrize(
    ("course", "teams", "moves", "wind", "rollout"),
    [
        ("standard", 2, 40, "front", "rollout_move"),
        ("standard", 3, 60, "left", "rollout_move"),
        ("short", 2, 10, "right", "rollout_move"),
        ("solo", 1, 8, "front", "rollout_move"),
        ("standard", 2, 30, "right", "uniform"),
        ("short", 4, 30, "front", "uniform"),
    ],
)
def test_native_playouts_search_the_same(
    course: str, teams: int, moves: int, wind: str, rollout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The greedy policy (``rollout_move``) and uniformly random playouts (a policy
    the game does not have): native and Python searches agree."""
    state = position(course, teams, moves, 5, wind)
    assert not state.is_over
    fast = search(state, rollout, python=False, monkeypatch=monkeypatch)
    slow = search(state, rollout, python=True, monkeypatch=monkeypatch)
    assert fast == slow
    assert fast[2] == 12


def test_hook_declines_other_policies() -> None:
    """The cheap policy has no native port: MCTS plays it move by move."""
    state = position("short", 2, 12, 1, "front")
    assert heuristics.native_playout(state, MCTSBot(seed=1).rng, "fast_rollout_move") is None


def test_hook_leaves_the_state_alone() -> None:
    state = position("standard", 2, 30, 2, "left")
    before = state.copy()
    rewards = heuristics.native_playout(state, MCTSBot(seed=1).rng, "rollout_move")
    assert state == before
    if bridge.available():
        assert rewards is not None and set(rewards) == {"A", "B"}
        assert all(0.0 <= v <= 1.0 for v in rewards.values())
    else:
        assert rewards is None
