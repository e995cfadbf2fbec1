"""core.registry: games found by name, and the facts each game declares (GameInfo)."""

from __future__ import annotations

from typing import Any

import pytest

import peloton
from peloton.core import registry


def test_mind_cycling_is_registered() -> None:
    info = registry.get("mind-cycling")
    assert info.name == "mind-cycling"
    assert info.title == "Mind Cycling"
    assert callable(info.load_record)
    assert "mind-cycling" in registry.names()


@pytest.mark.parametrize("name", ["chess", "", "Mind-Cycling", "mind cycling", "mindcycling"])
def test_unknown_game_is_a_config_error(name: str) -> None:
    """An unknown name raises ConfigError naming it and the known games."""
    with pytest.raises(peloton.ConfigError) as info:
        registry.get(name)
    assert repr(name) in str(info.value)
    assert "mind-cycling" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_register_a_game() -> None:
    """A game registered at run time is found by name."""
    info = registry.GameInfo("test-dummy-game", "Dummy", lambda data: ("loaded", data["x"]))
    registry.register(info)
    try:
        assert registry.get("test-dummy-game") is info
        assert "test-dummy-game" in registry.names()
    finally:
        registry.unregister("test-dummy-game")
    with pytest.raises(peloton.ConfigError):
        registry.get("test-dummy-game")
    registry.unregister("test-dummy-game")  # forgetting twice is harmless


def test_a_bundled_game_cannot_be_unregistered() -> None:
    with pytest.raises(peloton.ConfigError, match="bundled"):
        registry.unregister("pistard")
    assert registry.get("pistard").name == "pistard"


def test_package_names_the_module_of_each_bundled_game() -> None:
    assert registry.package("mind-cycling") == "peloton.games.mindcycling"
    assert registry.package("mind-twist") == "peloton.games.mindtwist"
    assert registry.package("pistard") == "peloton.games.pistard"
    with pytest.raises(peloton.ConfigError, match="unknown game"):
        registry.package("chess")


#: What each bundled game declares (its rules: MC-2.2, MT-2, PI-1; the conformance
#: suite, tests/games/contract.py, checks the declarations against the games).
DECLARED = {
    "mind-cycling": {
        "title": "Mind Cycling",
        "seats": (1, 7),
        "has_chance": False,
        "hidden_information": False,
        "public_snapshot": True,
        "bots": set(),
    },
    "mind-twist": {
        "title": "Mind Twist",
        "seats": (2, 2),
        "has_chance": False,
        "hidden_information": True,
        "public_snapshot": False,
        "bots": {"optimal", "pass3"},
    },
    "pistard": {
        "title": "Pistard",
        "seats": (2, 4),
        "has_chance": True,
        "hidden_information": False,
        "public_snapshot": False,
        "bots": set(),
    },
}


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_each_bundled_game_declares_its_facts(name: str) -> None:
    info = registry.get(name)
    facts = DECLARED[name]
    assert info.title == facts["title"]
    assert (info.min_players, info.max_players) == facts["seats"]
    assert info.has_chance is facts["has_chance"]
    assert info.hidden_information is facts["hidden_information"]
    assert info.public_snapshot is facts["public_snapshot"]
    assert set(info.bots) == facts["bots"]
    assert "players" in info.options
    assert all(
        isinstance(option, registry.Option) and option.help for option in info.options.values()
    )


def test_the_declarations_checked_here_are_of_registered_games() -> None:
    """A game that joins adds its row to DECLARED; one that leaves takes it out."""
    assert set(DECLARED) <= set(registry.names())


def test_an_option_is_default_help_and_choices() -> None:
    option = registry.Option("front", "wind direction", ("front", "left", "right"))
    assert (option.default, option.help, option.choices) == (
        "front",
        "wind direction",
        ("front", "left", "right"),
    )
    assert registry.Option(3, "relay limit").choices == ()


def _info(**facts: object) -> registry.GameInfo:
    return registry.GameInfo("test-facts", "Facts", dict, **facts)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("facts", "problem"),
    [
        ({"min_players": 0}, "1 <= min_players <= max_players, not 0..2"),
        ({"min_players": 3, "max_players": 2}, "not 3..2"),
        ({"options": {"length": (30, "the finish")}}, "option 'length' must be an Option"),
        ({"options": {"length": registry.Option(30, "")}}, "option 'length' has no help"),
        (
            {"options": {"wind": registry.Option("north", "wind", ("front", "left"))}},
            "default 'north' is not one of",
        ),
        (
            {"options": {"players": registry.Option(5, "seats")}},
            "option 'players' defaults to 5, outside 2..2",
        ),
        (
            {"options": {"players": registry.Option("2", "seats")}},
            "option 'players' defaults to '2'",
        ),
        (
            {"bots": {"solver": "peloton.bots.random_bot"}},
            "bot 'solver' must be declared as 'module:attribute'",
        ),
        ({"bots": {"solver": ":RandomBot"}}, "bot 'solver' must be declared"),
    ],
)
def test_game_info_refuses_bad_facts_naming_the_problem(
    facts: dict[str, object], problem: str
) -> None:
    with pytest.raises(peloton.ConfigError) as info:
        _info(**facts)
    assert "game 'test-facts'" in str(info.value)
    assert problem in str(info.value)


def test_game_info_lists_every_problem_at_once() -> None:
    with pytest.raises(peloton.ConfigError) as info:
        _info(max_players=0, options={"x": registry.Option(1, "")}, bots={"b": "nowhere"})
    text = str(info.value)
    assert "min_players" in text and "option 'x' has no help" in text and "bot 'b'" in text


def test_game_info_accepts_sound_facts() -> None:
    info = _info(
        min_players=2,
        max_players=4,
        has_chance=True,
        options={
            "players": registry.Option(2, "seats"),
            "bonus": registry.Option("colour", "bonus", ("colour", "none")),
        },
        bots={"solver": "peloton.bots.random_bot:RandomBot"},
    )
    assert (info.min_players, info.max_players, info.has_chance) == (2, 4, True)
    assert info.hidden_information is False and info.public_snapshot is False


def test_an_offer_must_name_module_and_attribute() -> None:
    """GameInfo's tutorial, editor and competitions are "module:attribute" or None."""
    with pytest.raises(peloton.ConfigError, match="tutorial must be declared") as info:
        registry.GameInfo("test-offers", "Offers", dict, tutorial="nowhere", editor=":x")
    assert "editor must be declared" in str(info.value)
    declared = registry.GameInfo("test-offers", "Offers", dict, competitions="a.b:C")
    assert (declared.tutorial, declared.editor, declared.competitions) == (None, None, "a.b:C")


def test_extra_games_are_loaded_from_the_environment(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PELOTON_EXTRA_GAMES names packages that register games: each is found by name,
    with its package; a package that cannot be imported is a ConfigError naming it."""
    (tmp_path / "extra_game_of_test.py").write_text(
        "from peloton.core import registry\n"
        "registry.register(registry.GameInfo('test-extra', 'Extra', dict))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_extras_loaded", False)
    monkeypatch.setenv(registry.EXTRA_GAMES_ENV, " extra_game_of_test ,")
    try:
        assert "test-extra" in registry.names()
        assert registry.package("test-extra") == "extra_game_of_test"
    finally:
        registry.unregister("test-extra")
    monkeypatch.setattr(registry, "_extras_loaded", False)
    monkeypatch.setenv(registry.EXTRA_GAMES_ENV, "no_such_game_package_here")
    with pytest.raises(peloton.ConfigError, match=r"PELOTON_EXTRA_GAMES.*no_such_game_package"):
        registry.names()


def test_an_offer_is_imported_from_the_game_info() -> None:
    """What a game offers is the record its GameInfo names, imported on demand; a game
    that offers none gives None, and an unknown offer is a ConfigError."""
    from peloton.core.offers import Editor, Tutorial

    assert isinstance(registry.offer("pistard", "tutorial"), Tutorial)
    assert isinstance(registry.offer("pistard", "editor"), Editor)
    assert registry.offer("mind-twist", "editor") is None
    with pytest.raises(peloton.ConfigError, match="no offer 'lessons'"):
        registry.offer("pistard", "lessons")


#: Something that is no offer's record, for the test below to name.
NOT_A_TUTORIAL = "a tutorial in name only"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("no_such_module_anywhere:TUTORIAL", "cannot be loaded"),
        (f"{__name__}:MISSING", "cannot be loaded"),
        (f"{__name__}:NOT_A_TUTORIAL", "is not a peloton.core.offers.Tutorial"),
    ],
)
def test_an_offer_that_leads_nowhere_says_so(path: str, message: str) -> None:
    registry.register(registry.GameInfo("test-bad-offer", "Bad offer", dict, tutorial=path))
    try:
        with pytest.raises(peloton.ConfigError, match=f"Bad offer's tutorial .*{message}"):
            registry.offer("test-bad-offer", "tutorial")
    finally:
        registry.unregister("test-bad-offer")
