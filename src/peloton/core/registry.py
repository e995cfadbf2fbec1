"""The registry of games: how the CLI, bots and records find a game by its name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .errors import ConfigError


@dataclass(frozen=True)
class GameInfo:
    """What the rest of Peloton needs to know about one game."""

    name: str
    title: str
    #: Load a record (already decoded JSON) of this game into a replayable object.
    load_record: Callable[[dict[str, Any]], Any]
    #: Game-specific helpers that bots may use (rollout policy, move scoring, ...).
    heuristics: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: True when ``view(player)`` hides something (Mind Twist's dial): bots, clients and
    #: spectators must then be given views, never the full state.
    hidden_information: bool = False


_GAMES: dict[str, GameInfo] = {}

# Games register themselves when their package is imported; this maps a name to that
# package so that ``get("mind-cycling")`` works without importing every game up front.
_MODULES = {
    "mind-cycling": "peloton.games.mindcycling",
    "mind-twist": "peloton.games.mindtwist",
    "pistard": "peloton.games.pistard",
}


def register(info: GameInfo) -> None:
    """Make a game known by its name (called by each game package on import)."""
    _GAMES[info.name] = info


def get(name: str) -> GameInfo:
    """The registered game called ``name``; :class:`ConfigError` if there is none."""
    if name not in _GAMES and name in _MODULES:
        import_module(_MODULES[name])
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(set(_GAMES) | set(_MODULES)))
        raise ConfigError(f"unknown game {name!r} (known games: {known})") from None


def package(name: str) -> str:
    """The import path of the package that implements game ``name`` (for the pieces
    outside the registry entry: ``from_options``, ``snapshot``, ``Record``...);
    :class:`ConfigError` for an unknown game."""
    get(name)  # the error message lists the known games
    try:
        return _MODULES[name]
    except KeyError:
        raise ConfigError(f"game {name!r} is registered without a package") from None


def names() -> list[str]:
    """The names of every game Peloton knows."""
    return sorted(set(_GAMES) | set(_MODULES))
