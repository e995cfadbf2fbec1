"""The Gymnasium environment: one seat against Peloton's bots, and the Mind Cycling solo
challenge, through Gymnasium's own checker and whole episodes."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from peloton import rl
from peloton.core.errors import ConfigError

CASES = [
    ("mind-cycling", {"players": 1}, "random"),
    ("mind-cycling", {"course": "short"}, "greedy"),
    ("mind-twist", {}, "greedy"),
    ("pistard", {"players": 3}, {"B": "random", "C": "greedy"}),
    ("cyclo", {}, "greedy"),
]


@pytest.mark.parametrize(("game", "options", "bots"), CASES, ids=[c[0] for c in CASES])
def test_gymnasium_checker_passes(game: str, options: dict[str, object], bots: object) -> None:
    env = rl.gym_env(game, bots=bots, render_mode="ansi", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env)


def _episode(env: object, seed: int) -> tuple[list[int], float]:
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    policy = np.random.default_rng(seed)
    taken: list[int] = []
    while True:
        action = int(policy.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        obs, reward, terminated, truncated, info = env.step(action)  # type: ignore[attr-defined]
        if terminated or truncated:
            assert terminated and "result" in info
            return taken, float(reward)
        assert reward == 0.0


def test_the_solo_challenge_is_one_seat_rewarded_by_its_rounds() -> None:
    """MC-9: the solo team alone on the solo course; fewer rounds, more reward."""
    env = rl.gym_env("mind-cycling", solo=True)
    assert env.bot_names == {}
    _, reward = _episode(env, 3)
    rounds = env.game_state.result.solo_score[0]
    assert reward == pytest.approx(1.0 - 2.0 * min(1.0, max(0.0, (rounds - 10) / 30)))


def test_a_seed_fixes_the_bots_and_the_dice() -> None:
    env = rl.gym_env("pistard", bots="random", players=3)
    first = _episode(env, 11), [str(m) for m in env.game_state.history]
    second = _episode(env, 11), [str(m) for m in env.game_state.history]
    assert first == second
    third = _episode(env, 12), [str(m) for m in env.game_state.history]
    assert third[1] != first[1]


def test_the_agent_plays_any_seat_and_the_bots_the_others() -> None:
    env = rl.gym_env("mind-twist", seat="B", bots="greedy")
    obs, _ = env.reset(seed=0)
    # Red dials first (MT-2.1): the bot has played when blue first acts, so blue guesses.
    assert env.game_state.current_player == "B" and env.game_state.phase == "guess"
    assert obs["action_mask"].tolist() == [0, 0, 0, 1, 1, 1, 1]


def test_an_illegal_action_ends_the_episode_with_the_worst_reward() -> None:
    env = rl.gym_env("mind-twist", bots="random")
    env.reset(seed=0)
    before = env.game_state.copy()
    obs, reward, terminated, truncated, info = env.step(6)  # pass, while red must dial
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "no legal move" in info["illegal_action"]
    assert env.game_state == before and not obs["action_mask"].any()


def test_bad_seats_and_bots_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="seat 'Z' is not a seat"):
        rl.gym_env("mind-twist", seat="Z")
    with pytest.raises(ConfigError, match="bots must name a bot for each other seat: B, C"):
        rl.gym_env("pistard", players=3, bots={"B": "random"})
    with pytest.raises(ConfigError, match="unknown bot"):
        rl.gym_env("pistard", bots="nobody")
