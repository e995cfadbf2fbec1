"""The bot registry and protocol: make_bot, bot_names, register_bot, play_out."""

from __future__ import annotations

import pytest

from peloton import ConfigError, StateError
from peloton.bots import Bot, bot_names, make_bot, play_out, register_bot
from peloton.bots.greedy import GreedyBot
from peloton.bots.random_bot import RandomBot
from peloton.games import mindcycling as mc


def test_bot_names_lists_random_and_greedy() -> None:
    names = bot_names()
    assert {"random", "greedy"} <= set(names)
    assert names == sorted(names)


@pytest.mark.parametrize(("name", "cls"), [("random", RandomBot), ("greedy", GreedyBot)])
def test_make_bot_builds_a_named_seeded_bot(name: str, cls: type) -> None:
    bot = make_bot(name, seed=42)
    assert isinstance(bot, cls)
    assert isinstance(bot, Bot)
    assert bot.name == name
    assert bot.seed == 42  # type: ignore[attr-defined]


def test_make_bot_without_seed_draws_one() -> None:
    a, b = make_bot("random"), make_bot("random")
    assert isinstance(a.seed, int)  # type: ignore[attr-defined]
    assert a.seed != b.seed  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["robot", "", "Greedy", "mcts2"])
def test_unknown_bot_is_a_config_error_listing_known_bots(name: str) -> None:
    with pytest.raises(ConfigError) as err:
        make_bot(name)
    text = str(err.value)
    assert repr(name) in text
    assert "random" in text and "greedy" in text
    assert isinstance(err.value, ValueError)


def test_register_bot_adds_a_name_by_factory_or_import_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from peloton.bots import base

    monkeypatch.setattr(base, "_FACTORIES", dict(base._FACTORIES))
    register_bot("first", lambda seed: RandomBot(seed))
    register_bot("lazy", "peloton.bots.random_bot:RandomBot")
    assert {"first", "lazy"} <= set(bot_names())
    assert isinstance(make_bot("first", 1), RandomBot)
    assert make_bot("lazy", 3).seed == 3  # type: ignore[attr-defined]
    with pytest.raises(ConfigError):
        register_bot("", RandomBot)


def test_bots_made_for_some_games_are_offered_for_those_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from peloton.bots import base

    monkeypatch.setattr(base, "_FACTORIES", dict(base._FACTORIES))
    monkeypatch.setattr(base, "_ONLY_FOR", dict(base._ONLY_FOR))
    assert {"optimal", "pass3"} <= set(bot_names("mind-twist"))
    assert not {"optimal", "pass3"} & set(bot_names("pistard"))
    assert {"random", "greedy", "expert"} <= set(bot_names("pistard")) & set(bot_names("mind-cycling"))
    register_bot("dicer", "peloton.bots.random_bot:RandomBot", games=["pistard"])
    assert "dicer" in bot_names("pistard") and "dicer" not in bot_names("mind-twist")
    assert "dicer" in bot_names()
    register_bot("dicer", "peloton.bots.random_bot:RandomBot")  # now for every game
    assert "dicer" in bot_names("mind-twist")


def test_play_out_needs_a_bot_for_every_seat() -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    with pytest.raises(ConfigError, match="no bot for player 'B'"):
        play_out(state, {"A": make_bot("random", 1)})


def test_play_out_stops_a_game_that_runs_too_long() -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    with pytest.raises(StateError, match="not over after 10 moves"):
        play_out(state, make_bot("random", 1), max_moves=10)


def test_play_out_with_one_bot_for_every_seat_finishes() -> None:
    state = play_out(mc.new_game("short", mc.default_teams(3, 3)), make_bot("greedy", 5))
    assert state.is_over
    assert state.result.trophy in ("A", "B", "C")


def test_choose_on_a_finished_game_is_a_state_error() -> None:
    state = play_out(mc.new_game("short", mc.default_teams(2, 3)), make_bot("random", 2))
    for name in ("random", "greedy"):
        with pytest.raises(StateError, match="over"):
            make_bot(name, 1).choose(state)
