"""Setting a game up from the command line, for any game: ``--option NAME=VALUE``
pairs turned into the JSON options of the game's ``from_options``, the number of
players taken from the seats, and a default line-up.

Values are read as JSON when they parse (``length=20``, ``milestones=[5,10]``,
``colour_bonus=true``), as a list when they hold commas (``milestones=5,10,15``), and
as text otherwise (``layout=classic``). An option whose default is a list takes a
single value as a one-item list (``milestones=12``) and nothing as the empty list
(``milestones=``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from ..core import registry
from ..core.errors import ConfigError
from ..core.rng import Rng
from .games import game_package
from .seats import HUMAN


def option_value(text: str) -> Any:
    """The JSON value written ``text`` (see the module docstring)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    if "," in text:
        return [option_value(part.strip()) for part in text.split(",") if part.strip()]
    return text


def parse_option_args(items: Sequence[str] | None) -> dict[str, Any]:
    """``["length=20", "milestones=5,10"]`` as a dict; :class:`ConfigError` for an item
    without ``=`` or a name given twice."""
    options: dict[str, Any] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ConfigError(f"--option {item!r} must be NAME=VALUE, e.g. --option length=20")
        if name in options:
            raise ConfigError(f"--option {name!r} is given twice")
        options[name] = option_value(value.strip())
    return options


def options_help(game: str) -> str:
    """The options ``game`` declares (``GameInfo.options``), one ``name (default):
    help`` per line, with the values an option is limited to."""
    lines = []
    for name, option in registry.get(game).options.items():
        choices = f"; choices: {', '.join(map(str, option.choices))}" if option.choices else ""
        lines.append(f"  {name} (default {json.dumps(option.default)}{choices}): {option.help}")
    return "\n".join(lines)


def game_options(game: str, given: Mapping[str, Any], seats: int | None) -> dict[str, Any]:
    """The options to create ``game`` with: ``given`` checked against the options the
    game declares, and ``players`` set from the number of seats (when the game has
    that option). :class:`ConfigError` names an unknown option and lists the known
    ones."""
    info = registry.get(game)
    known = info.options
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ConfigError(
            f"unknown {info.title} option(s) {', '.join(map(repr, unknown))}; its options are: {', '.join(known)}"
        )
    options = dict(given)
    for name, value in given.items():
        # A list option given one value (milestones=4) or none (milestones=) is a list.
        if isinstance(known[name].default, list) and not isinstance(value, list):
            options[name] = [] if value == "" else [value]
    if seats is not None and "players" in known:
        if "players" in options and options["players"] != seats:
            raise ConfigError(
                f"option 'players' is {options['players']!r} but {seats} seats are given"
            )
        options["players"] = seats
    return options


def new_state(game: str, options: Mapping[str, Any]) -> Any:
    """A fresh game from its options, a seat-count problem said in terms of seats."""
    try:
        return game_package(game).from_options(dict(options))
    except ConfigError as exc:
        if "'players'" in str(exc) and "players" in options:
            raise ConfigError(f"{options['players']} seats: {exc}") from None
        raise


def default_bot(game: str) -> str:
    """The bot a seat gets by default: greedy where the game can score moves."""
    return "greedy" if "score_moves" in registry.get(game).heuristics else "random"


def default_seats(game: str) -> str:
    """A human against one bot."""
    return f"{HUMAN},{default_bot(game)}"


#: The salt of a game's dice stream, apart from the seats' ``spawn(0..n-1)``.
CHANCE_SALT = 1_000_003


def chance_stream(game_rng: Rng) -> Rng:
    """The seeded stream a game's chance steps (dice) are drawn from."""
    return game_rng.spawn(CHANCE_SALT)


def make_record(
    package: ModuleType, state: Any, players: dict[str, dict[str, str]], seed: int | None
) -> Any:
    """The game's record of ``state``; a game with chance (``GameInfo.has_chance``)
    keeps the dice seed in it (its ``Record.from_state`` takes ``seed``)."""
    if seed is not None and registry.get(state.game).has_chance:
        return package.Record.from_state(state, players, seed=seed)
    return package.Record.from_state(state, players)
