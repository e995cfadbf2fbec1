"""core.registry: games found by name."""

from __future__ import annotations

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
        registry._GAMES.pop("test-dummy-game", None)
    with pytest.raises(peloton.ConfigError):
        registry.get("test-dummy-game")


def test_package_names_the_module_of_each_bundled_game() -> None:
    assert registry.package("mind-cycling") == "peloton.games.mindcycling"
    assert registry.package("mind-twist") == "peloton.games.mindtwist"
    assert registry.package("pistard") == "peloton.games.pistard"
    with pytest.raises(peloton.ConfigError, match="unknown game"):
        registry.package("chess")
