"""Bots by name (bots/levels.py) and the protocol: make_bot, bot_names, register_bot, play_out."""

from __future__ import annotations

import pytest

from peloton import ConfigError, StateError
from peloton.bots import Bot, bot_names, levels, make_bot, play_out, register_bot
from peloton.bots.greedy import GreedyBot
from peloton.bots.random_bot import RandomBot
from peloton.core import registry
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


@pytest.fixture
def fresh_table(monkeypatch: pytest.MonkeyPatch) -> levels.BotTable:
    """A new table behind make_bot/bot_names/register_bot for one test, so that the
    bots it registers do not outlive it."""
    table = levels.BotTable()
    monkeypatch.setattr(levels, "BOTS", table)
    return table


def test_register_bot_adds_a_name_by_factory_or_import_path(fresh_table: levels.BotTable) -> None:
    register_bot("first", lambda seed: RandomBot(seed))
    register_bot("lazy", "peloton.bots.random_bot:RandomBot")
    assert {"first", "lazy"} <= set(bot_names())
    assert isinstance(make_bot("first", 1), RandomBot)
    assert make_bot("lazy", 3).seed == 3  # type: ignore[attr-defined]
    with pytest.raises(ConfigError):
        register_bot("", RandomBot)


def test_bots_made_for_some_games_are_offered_for_those_only(fresh_table: levels.BotTable) -> None:
    assert {"optimal", "pass3"} <= set(bot_names("mind-twist"))
    assert not {"optimal", "pass3"} & set(bot_names("pistard"))
    assert {"random", "greedy", "expert"} <= set(bot_names("pistard")) & set(
        bot_names("mind-cycling")
    )
    register_bot("dicer", "peloton.bots.random_bot:RandomBot", games=["pistard"])
    assert "dicer" in bot_names("pistard") and "dicer" not in bot_names("mind-twist")
    assert "dicer" in bot_names()
    with pytest.raises(ConfigError, match="'dicer' bot plays pistard only, not mind-twist"):
        make_bot("dicer", 1, game="mind-twist")
    register_bot("dicer", "peloton.bots.random_bot:RandomBot")  # now for every game
    assert "dicer" in bot_names("mind-twist")
    assert make_bot("dicer", 1, game="mind-twist").name == "random"


def test_a_games_own_bots_are_the_ones_its_registry_entry_declares(
    fresh_table: levels.BotTable,
) -> None:
    """No table in bots/ names a game's bots: bot_names and make_bot read GameInfo.bots."""
    for game in registry.names():
        own = registry.get(game).bots
        assert set(own) <= set(bot_names(game))
        assert set(bot_names(game)) - set(own) == set(levels.GENERIC)
        for name in own:
            assert isinstance(make_bot(name, 1, game=game), Bot)
            assert isinstance(make_bot(name, 1), Bot)  # found without naming the game
    assert registry.get("mind-twist").bots  # the check above is not empty


def test_a_bot_of_another_game_is_refused_by_name(fresh_table: levels.BotTable) -> None:
    with pytest.raises(ConfigError, match="'optimal' bot plays mind-twist only, not pistard"):
        make_bot("optimal", 1, game="pistard")
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        make_bot("optimal", 1, game="chess")
    with pytest.raises(ConfigError, match="unknown bot 'robot'") as err:
        make_bot("robot", 1, game="pistard")
    assert "optimal" not in str(err.value) and "greedy" in str(err.value)


def test_a_game_declaring_a_bot_is_found_and_a_bad_path_said(fresh_table: levels.BotTable) -> None:
    """A game registered at run time brings its own bots; two games declaring the same
    name need the game named; a path that does not load is a ConfigError."""
    infos = [
        registry.GameInfo(
            "test-one", "One", dict, bots={"solo": "peloton.bots.random_bot:RandomBot"}
        ),
        registry.GameInfo("test-two", "Two", dict, bots={"solo": "peloton.bots.greedy:GreedyBot"}),
        registry.GameInfo(
            "test-bad", "Bad", dict, bots={"broken": "peloton.bots.random_bot:NoSuchBot"}
        ),
    ]
    for info in infos:
        registry.register(info)
    try:
        assert "solo" in bot_names("test-one") and "solo" not in bot_names("mind-twist")
        assert isinstance(make_bot("solo", 1, game="test-one"), RandomBot)
        assert isinstance(make_bot("solo", 1, game="test-two"), GreedyBot)
        with pytest.raises(ConfigError, match="several games have a bot called 'solo'"):
            make_bot("solo", 1)
        with pytest.raises(ConfigError, match=r"'broken'.*test-bad.*cannot be loaded"):
            make_bot("broken", 1)
    finally:
        for info in infos:
            registry.unregister(info.name)


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
