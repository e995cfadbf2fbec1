"""The games a table can host, seen through the contract of docs/games.md.

The server never names a game's rules: it creates a game with ``from_options``,
checks and plays moves through the core protocol, draws chance moves with
``chance_move``, and shows positions with ``snapshot(state, viewer)`` and
``public_moves(state, viewer)``. :class:`GameSpec` gathers those names for one game;
:func:`spec` finds it by the registry's name. A game package that is not installed
yet is simply not offered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from ..bots import bot_names
from ..core import registry
from ..core.errors import ConfigError, IllegalMoveError, PelotonError
from ..core.registry import Option

log = logging.getLogger("peloton.server")

MIND_CYCLING = "mind-cycling"
HUMAN = "human"
#: The most seats a table may have (Mind Cycling's seven teams, A to G).
MAX_SEATS = 7

#: Mind Cycling's options as the create form shows them, used until (or unless) the
#: package lists its own ``OPTIONS``.
MC_OPTIONS: dict[str, Option] = {
    "course": Option("standard", "a bundled course name, or a course object (MC-1.5 keys)"),
    "riders": Option(6, "riders per team, 3 to 6 (5 in solo)"),
    "wind": Option("front", "front (basic game), left or right (expert)"),
    "relay_limit": Option(3, "the largest group a relay may lead"),
    "solo": Option(False, "the solo challenge: one team of five, fewest rounds wins"),
}


@dataclass(frozen=True)
class GameSpec:
    """What the server uses of one game package."""

    name: str
    title: str
    module: Any
    #: ``view(player)`` hides something: every message is built per viewer.
    hidden: bool
    #: ``{name: Option}``: the game's options.
    options: dict[str, Option]
    #: The fewest and most seats a table of this game may have.
    min_seats: int
    max_seats: int
    snapshot_fn: Callable[..., dict[str, Any]]
    #: Options whose text values must be one of a list (a create form's select). A
    #: text outside the list is refused: Pistard's ``layout`` would otherwise read any
    #: file the server can see.
    choices: dict[str, list[Any]] = field(default_factory=dict)
    #: The seats' letters, in order, for the most seats.
    letters: tuple[str, ...] = ()

    @property
    def viewer_free(self) -> bool:
        """Mind Cycling's snapshot is the same for everyone: one message for all."""
        return self.name == MIND_CYCLING

    def new_state(self, options: dict[str, Any]) -> Any:
        """A fresh game (``from_options``); :class:`ConfigError` for bad options."""
        state = self.module.from_options(dict(options))
        return state

    def snapshot(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """The position as ``viewer`` may see it (``None``: a spectator)."""
        snap: dict[str, Any] = self.snapshot_fn(state, viewer)
        return snap

    def public_moves(self, state: Any, viewer: str | None) -> list[str]:
        """The moves played so far, as ``viewer`` may see them."""
        fn = getattr(self.module, "public_moves", None)
        if fn is None:
            return [str(m) for m in state.history]
        return [str(m) for m in fn(state, viewer)]

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {name: option.default for name, option in self.options.items()}

    def describe(self) -> dict[str, Any]:
        """The game in ``GET /api/games``."""
        return {
            "name": self.name,
            "title": self.title,
            "hidden_information": self.hidden,
            "options": [
                {"name": name, "default": default, "help": help_text}
                | ({"choices": self.choices[name]} if name in self.choices else {})
                for name, (default, help_text, _choices) in self.options.items()
            ],
            "seats": {"min": self.min_seats, "max": self.max_seats, "letters": list(self.letters)},
            "bots": bots_for(self.name),
        }


#: Bots that play every game through the core protocol and the game's heuristics,
#: weakest first.
GENERIC_BOTS = ("random", "greedy", "easy", "medium", "hard", "expert", "mcts")


def bots_for(game: str) -> list[str]:
    """The bot names a seat of a ``game`` table may have: the generic bots, weakest
    first, then the bots made for that game."""
    names = bot_names(game)
    return [n for n in GENERIC_BOTS if n in names] + [n for n in names if n not in GENERIC_BOTS]


def check_move(state: Any, text: Any) -> Any:
    """The legal move meant by ``text``, without playing it. Raises the engine's
    :class:`NotationError` or :class:`IllegalMoveError` (saying why)."""
    check = getattr(state, "check", None)
    if check is not None:
        return check(text)
    move = state.parse_move(text) if isinstance(text, str) else text
    if move in state.legal_moves():
        return move
    probe = state.copy()
    probe.play(move)  # the engine says why it is illegal
    raise IllegalMoveError(f"{text!r} is not legal now")  # defensive: play accepted it


def _mc_snapshot(state: Any, viewer: str | None = None) -> dict[str, Any]:
    from ..games.mindcycling.snapshot import snapshot

    return snapshot(state, viewer)


def _seat_range(module: Any, options: dict[str, Option]) -> tuple[int, int]:
    """Which seat counts ``from_options`` accepts (its ``players`` option), found by
    asking it: the games know their own limits."""
    if "players" not in options:
        return (len(module.from_options({}).players),) * 2
    ok = []
    for n in range(1, MAX_SEATS + 1):
        try:
            module.from_options({"players": n})
        except PelotonError:
            continue
        ok.append(n)
    if not ok:
        raise ConfigError("from_options accepts no number of players")
    return min(ok), max(ok)


def _choices(module: Any) -> dict[str, list[Any]]:
    """The listed values of a game's options, where the package names them."""
    out: dict[str, list[Any]] = {}
    if "layout" in module.OPTIONS and hasattr(module, "bundled_names"):
        out["layout"] = list(module.bundled_names())
    if "bonus" in module.OPTIONS and hasattr(module, "BONUSES"):
        out["bonus"] = list(module.BONUSES)
    return out


def check_choices(spec: GameSpec, options: dict[str, Any]) -> None:
    """:class:`ConfigError` for a text option outside its listed values (an object,
    such as an inline layout, is left to the game to check)."""
    for name, allowed in spec.choices.items():
        value = options.get(name)
        if isinstance(value, str) and value not in allowed:
            raise ConfigError(f"option {name!r} must be one of {', '.join(map(str, allowed))}, not {value!r}")


_SPECS: dict[str, GameSpec] = {}


def spec(name: str) -> GameSpec:
    """The game called ``name``; :class:`ConfigError` if it is unknown or not installed."""
    found = _SPECS.get(name)
    if found is not None:
        return found
    if name not in registry.names():
        raise ConfigError(f"unknown game {name!r} (games: {', '.join(n for n, _ in available())})")
    try:
        info = registry.get(name)
        module = import_module(registry.package(name))
    except Exception as exc:  # not written yet, half-written, or no package: not offered
        raise ConfigError(f"the game {name!r} is not installed on this server ({exc})") from None
    if name == MIND_CYCLING:
        options = dict(getattr(module, "OPTIONS", None) or MC_OPTIONS)
        from ..games.mindcycling.state import WINDS

        choices = {"course": list(module.bundled_names()), "wind": list(WINDS)}
        found = GameSpec(
            name, info.title, module, info.hidden_information, options, 1, MAX_SEATS, _mc_snapshot, choices,
            tuple("ABCDEFG"),
        )
    else:
        missing = [n for n in ("from_options", "OPTIONS", "snapshot", "Record") if not hasattr(module, n)]
        if missing:
            raise ConfigError(f"the game {name!r} is not ready for tables yet (it lacks {', '.join(missing)})")
        options = dict(module.OPTIONS)
        low, high = _seat_range(module, options)
        most = module.from_options({"players": high} if "players" in options else {})
        found = GameSpec(
            name, info.title, module, info.hidden_information, options, low, high, module.snapshot,
            _choices(module), tuple(most.players),
        )
    _SPECS[name] = found
    return found


def available() -> list[tuple[str, GameSpec]]:
    """Every game this server can host, Mind Cycling first."""
    out = []
    for name in sorted(registry.names(), key=lambda n: (n != MIND_CYCLING, n)):
        try:
            out.append((name, spec(name)))
        except ConfigError as exc:
            log.debug("game %s not offered: %s", name, exc)
    return out
