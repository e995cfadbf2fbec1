"""The PettingZoo environments: PettingZoo's own API and seed tests on every game and a
spread of options, then what those tests cannot see (every legal move numbered once,
observations inside their space, rewards from the result, bad actions refused)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from peloton import IllegalMoveError, rl
from peloton.core.errors import ConfigError

#: (game, options): each game's defaults and the options that change its spaces.
CASES = [
    ("mind-cycling", {}),
    ("mind-cycling", {"players": 1}),
    ("mind-cycling", {"solo": True, "wind": "left"}),
    ("mind-cycling", {"players": 4, "riders": 3, "course": "short", "wind": "right"}),
    ("mind-twist", {}),
    ("mind-twist", {"length": 12, "first": "B"}),
    ("pistard", {}),
    ("pistard", {"players": 4, "bonus": "none", "target": 6}),
    ("cyclo", {}),
    ("cyclo", {"players": 4, "level": "starter"}),
    ("cyclo", {"mode": "ttt", "players": 1}),
    ("cyclo", {"mode": "keirin", "players": 4}),
]
IDS = [f"{game}-{options}" for game, options in CASES]


def _quiet_api_test(env: rl.PelotonEnv, cycles: int) -> None:
    # PettingZoo warns about choices this package makes on purpose (a Dict observation
    # with the action mask, seats named after the game's own letters).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env, num_cycles=cycles, verbose_progress=False)


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(game: str, options: dict[str, object]) -> None:
    _quiet_api_test(rl.env(game, **options), cycles=300)
    seed_test(lambda: rl.env(game, **options), num_cycles=300)


def _play(env: rl.PelotonEnv, seed: int, policy: np.random.Generator) -> list[int]:
    """A whole episode of masked random actions; the actions taken."""
    env.reset(seed=seed)
    taken = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        assert env.observation_space(agent).contains(obs), f"{agent}'s observation left its space"
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        # The mask is exactly the legal moves, each under its own number.
        assert len(legal) == len(env.game_state.legal_moves())
        action = int(policy.choice(legal))
        taken.append(action)
        env.step(action)
    return taken


@pytest.mark.parametrize(("game", "options"), CASES, ids=IDS)
def test_whole_episodes_number_every_legal_move_once_and_end_with_the_result(
    game: str, options: dict[str, object]
) -> None:
    env = rl.env(game, **options)
    for seed in range(3):
        taken = _play(env, seed, np.random.default_rng(seed))
        assert taken and env.game_state.is_over and not env.agents
        rewards = env.encoding.rewards(env.game_state)
        assert set(rewards) == set(env.possible_agents)
        assert all(-1.0 <= r <= 1.0 for r in rewards.values())
        if len(rewards) > 1:
            assert max(rewards.values()) == 1.0  # somebody placed first


def test_a_seed_replays_the_dice_and_another_seed_changes_them() -> None:
    """Pistard's rolls are the environment's chance steps (PI-2.1): the same seed and
    actions give the same game, record for record."""

    def record(seed: int) -> list[str]:
        env = rl.env("pistard")
        _play(env, seed, np.random.default_rng(0))
        return [str(m) for m in env.game_state.history]

    assert record(5) == record(5)
    assert record(5) != record(6)


def test_an_illegal_action_is_refused_saying_what_is_legal_and_changes_nothing() -> None:
    env = rl.env("mind-twist")
    env.reset(seed=0)
    before = env.game_state.copy()
    with pytest.raises(
        IllegalMoveError, match=r"action 6 is no legal move of R now \(legal: 0 \(dial:1\)"
    ):
        env.step(6)  # pass: a guess-phase move, while red must dial (MT-2.1)
    with pytest.raises(IllegalMoveError, match="outside the action space"):
        env.step(7)
    with pytest.raises(IllegalMoveError, match="whole number"):
        env.step("dial:1")
    assert env.game_state == before
    env.step(0)
    assert str(env.game_state.history[-1]) == "dial:1"


def test_bad_options_and_games_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="unknown game 'tour'"):
        rl.env("tour")
    with pytest.raises(ConfigError, match="wind"):
        rl.env("mind-cycling", wind="north")
    with pytest.raises(ConfigError, match="render_mode"):
        rl.env("pistard", render_mode="rgb_array")


@pytest.mark.parametrize(
    ("game", "heading"),
    [
        ("mind-cycling", "FINISH"),
        ("mind-twist", "Mind Twist"),
        ("pistard", "Pistard"),
        ("cyclo", "Cyclo"),
    ],
)
def test_render_draws_the_position_as_text(game: str, heading: str) -> None:
    render_test(
        lambda render_mode=None: rl.env(game, render_mode=render_mode),
        custom_tests={"ansi": lambda text: heading in text and len(text.splitlines()) >= 3},
    )
    assert rl.env(game).render() is None  # no render mode: nothing drawn


def test_the_layout_cuts_the_observation_into_its_named_blocks() -> None:
    """Mind Cycling's planes: after the first placing, the placed rider is on the
    placer's domestique plane and on the other team's 'other domestiques' plane."""
    env = rl.env("mind-cycling", course="short")
    env.reset(seed=0)
    layout = env.encoding.layout
    assert layout.size == sum(s.size for s in layout.segments)
    assert layout.segments[0].name == "planes"
    env.step(env.encoding.action_of(env.game_state, env.game_state.parse_move("AD1@c3")))
    mine = layout.block(env.observe("A")["observation"], "planes")
    theirs = layout.block(env.observe("B")["observation"], "planes")
    row, lane = env.game_state.course.row_lane("c3")
    assert mine[0, row - 1, lane] == 1.0 and mine[3].sum() == 0
    assert theirs[3, row - 1, lane] == 1.0 and theirs[0].sum() == 0


def test_an_episode_longer_than_max_moves_is_truncated_without_rewards() -> None:
    env = rl.env("pistard", max_moves=12)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not any(env.truncations.values()):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.moves >= 12 and not env.game_state.is_over
    assert all(env.truncations.values()) and not any(env.terminations.values())
    for _ in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        assert (reward, terminated, truncated) == (0.0, False, True)
        env.step(None)
    assert env.agents == []
