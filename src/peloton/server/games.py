"""The games a table can host, each seen through one :class:`GameSpec`.

A spec is built from what a game declares, never from its name: the registry's
:class:`~peloton.core.registry.GameInfo` (seats, chance, hidden information, a
snapshot the same for every viewer, options with their choices, the game's own bots)
and the names of its package's contract (docs/games.md):

=================  ==========================================================
``from_options``   a fresh game from JSON options (required)
``Record``         its records: the download, the replay, the chance stream (required)
``snapshot``       ``snapshot(state, viewer)``, what a client draws (required)
``public_moves``   the moves as a viewer may see them (else: every move as played)
``options_of``     ``options_of(state)``: every option the game was made with, where
                   the defaults depend on each other (else: defaults + given options)
``Course``         a game with courses: ``load``, ``from_dict``, ``from_text``,
                   ``to_dict``, and ``bundled_names()`` (``GET /api/courses``); without
                   ``bundled_names()``, the choices of its ``course`` option name them
``solve_solo``     ``solve_solo(state, seconds) -> JSON``: the best line of a solo game
``RECORD_KIND_KEY`` the key of a seat's kind in the record's players (else ``kind``)
``SEATS_BY_OPTION`` ``{option: {choice: (fewest, most)}}``: the seats a choice of an
                   option allows, inside the game's range (a game's modes); else none
``CHOICE_FACTS``   ``{option: {choice: {fact: value}}}``: what a page needs to know of a
                   choice before any table has it (a mode's words, road or track...)
``MOVE_LISTS``     the snapshot's keys that list the moves at hand (else ``("legal",)``):
                   sent whole to whoever may play them, empty to everyone else
=================  ==========================================================

What a game offers beyond its tables (a tutorial, a course editor, competitions) it
declares in its ``GameInfo`` (:mod:`peloton.core.offers`); :meth:`GameSpec.offer`
imports each on first use, and :func:`offering` finds the games with one.

:func:`contract` finds a name: the package's own, else the package module that
docs/games.md puts it in (``solve_solo`` in its ``solver``, imported only then). A game
package that is not installed, or lacks a required name, is not offered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from string import ascii_uppercase
from typing import Any

from ..bots import bot_names
from ..core import registry
from ..core.errors import ConfigError, IllegalMoveError, PelotonError
from ..core.registry import FIRST_GAME, GameInfo, Option
from ..core.rng import Rng

log = logging.getLogger("peloton.server")

#: A seat played by a person (the other seat kinds are bot names).
HUMAN = "human"
#: The option that names the course of a game with courses (its package's ``Course``).
COURSE_OPTION = "course"

#: Where docs/games.md puts a contract name that a package may not hand on yet.
_MODULE_OF = {
    "snapshot": "snapshot",
    "public_moves": "snapshot",
    "solve_solo": "solver",
    "SEATS_BY_OPTION": "modes",
    "CHOICE_FACTS": "modes",
    "MOVE_LISTS": "snapshot",
}
_MISSING = object()


_WORDS = {"tutorial": "a tutorial", "editor": "a course editor", "competitions": "competitions"}

#: Bots that play every game through the core protocol and the game's heuristics,
#: weakest first.
GENERIC_BOTS = ("random", "greedy", "easy", "medium", "hard", "expert", "mcts")


def contract(module: Any, name: str, default: Any = _MISSING) -> Any:
    """The contract name ``name`` of a game package (see the module docstring);
    ``default`` when the package has none (:class:`ConfigError` without a default)."""
    found = getattr(module, name, _MISSING)
    if found is _MISSING and name in _MODULE_OF:
        try:
            found = getattr(import_module(f"{module.__name__}.{_MODULE_OF[name]}"), name, _MISSING)
        except ImportError:
            found = _MISSING
    if found is _MISSING:
        found = default
    if found is _MISSING:
        raise ConfigError(f"the game package {module.__name__} has no {name!r} (docs/games.md)")
    return found


def shown(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as a table summary shows them: an object (a course) by its ``name``."""
    return {k: (v.get("name", "custom") if isinstance(v, dict) else v) for k, v in options.items()}


def objects(options: Mapping[str, Any]) -> dict[str, Any]:
    """The object options in full, as ``<option>_data`` (a course as ``course_data``)."""
    return {f"{k}_data": v for k, v in options.items() if isinstance(v, dict)}


def bots_for(game: str) -> list[str]:
    """The bot names a seat of a ``game`` table may have: the generic bots, weakest
    first, then the bots made for that game."""
    names = bot_names(game)
    return [n for n in GENERIC_BOTS if n in names] + [n for n in names if n not in GENERIC_BOTS]


@dataclass(frozen=True)
class GameSpec:
    """What the server uses of one game: its declared facts and its contract."""

    info: GameInfo
    module: Any
    snapshot_fn: Callable[..., dict[str, Any]]
    public_moves_fn: Callable[..., Any] | None
    options_of_fn: Callable[[Any], dict[str, Any]] | None
    #: The package's ``Course`` class (a game with courses), else ``None``.
    course_cls: Any
    #: The names of its bundled courses (a game with courses), else ``None``.
    course_names_fn: Callable[[], Any] | None
    solve_solo_fn: Callable[[Any, float], dict[str, Any]] | None
    record_kind_key: str
    #: The seats' letters, in order, for the most seats.
    letters: tuple[str, ...]
    #: ``{option: {choice: (fewest, most)}}``: seats a choice allows (``SEATS_BY_OPTION``).
    seats_by_option: Mapping[str, Mapping[str, tuple[int, int]]] = field(default_factory=dict)
    #: ``{option: {choice: {fact: value}}}``: what a page knows of a choice (``CHOICE_FACTS``).
    choice_facts: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    #: The snapshot's keys that list the moves at hand (``MOVE_LISTS``): only whoever may
    #: play them gets them filled.
    move_lists: tuple[str, ...] = ("legal",)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def title(self) -> str:
        return self.info.title

    @property
    def hidden(self) -> bool:
        """``view(player)`` hides something: every message is built for its viewer."""
        return self.info.hidden_information

    @property
    def public(self) -> bool:
        """The snapshot is the same for every viewer: one message for all."""
        return self.info.public_snapshot and not self.info.hidden_information

    @property
    def options(self) -> Mapping[str, Option]:
        return self.info.options

    @property
    def min_seats(self) -> int:
        return self.info.min_players

    @property
    def max_seats(self) -> int:
        return self.info.max_players

    # ------------------------------------------------------------ offers

    def offers(self) -> dict[str, bool]:
        """``{"tutorial", "editor", "competitions"}``: whether the game declares each."""
        return {offer: getattr(self.info, offer) is not None for offer in registry.OFFERS}

    def offer(self, offer: str) -> Any:
        """The game's ``offer`` (``tutorial``, ``editor`` or ``competitions``), imported
        from the ``"module:attribute"`` its ``GameInfo`` names; ``None`` when it offers
        none; :class:`ConfigError` when the name leads to something else."""
        if getattr(self.info, offer) is None:
            return None
        found = _OFFERS.get((self.name, offer))
        if found is None:
            found = _OFFERS[(self.name, offer)] = registry.offer(self.name, offer)
        return found

    # ------------------------------------------------------------ games and moves

    def new_state(self, options: Mapping[str, Any], seed: int | None = None) -> Any:
        """A fresh game (``from_options``), knowing its chance seed where it keeps one;
        :class:`ConfigError` for bad options."""
        state = self.module.from_options(dict(options))
        if seed is not None and hasattr(state, "seed"):
            state.seed = seed
        return state

    @staticmethod
    def check_move(state: Any, move: Any) -> Any:
        """The legal move meant by ``move`` (notation text or a move), without playing
        it. Raises the engine's :class:`NotationError` or :class:`IllegalMoveError`
        (saying why)."""
        check = getattr(state, "check", None)
        if check is not None:
            return check(move)
        move = state.parse_move(move) if isinstance(move, str) else move
        if move in state.legal_moves():
            return move
        probe = state.copy()
        probe.play(move)  # the engine says why it is illegal
        raise IllegalMoveError(f"{move!r} is not legal now")  # defensive: play accepted it

    def snapshot(self, state: Any, viewer: str | None) -> dict[str, Any]:
        """The position as ``viewer`` may see it (``None``: a spectator)."""
        return self.snapshot_fn(state, viewer)

    def describe(self, state: Any, move: Any) -> str:
        """``move`` (a move or its notation) in words, as played in ``state`` (the
        state before it; a viewer's view in a game with hidden information): the game's
        ``describe`` hook, or the notation for a game without one (or, logged, where
        the hook fails: a log line is not worth a lost move)."""
        describe = self.info.describe
        if describe is None:
            return str(move)
        try:
            return str(describe(state, move))
        except Exception:
            log.exception("%s: describe failed for move %r", self.name, str(move))
            return str(move)

    def public_moves(self, state: Any, viewer: str | None) -> list[str]:
        """The moves played so far, as ``viewer`` may see them."""
        if self.public_moves_fn is None:
            return [str(m) for m in state.history]
        return [str(m) for m in self.public_moves_fn(state, viewer)]

    # ------------------------------------------------------------ options

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {name: option.default for name, option in self.options.items()}

    def effective_options(self, state: Any, given: Mapping[str, Any]) -> dict[str, Any]:
        """Every option of a game made from ``given`` options: the game's own account
        (``options_of``) where it has one, else the defaults with ``given`` over them."""
        if self.options_of_fn is not None:
            return self.options_of_fn(state)
        return {**self.defaults(), **given}

    def check_choice(self, name: str, value: Any) -> None:
        """:class:`ConfigError` for an option with ``choices`` whose value is not one of
        them; where the choices are texts (names of bundled files), an object (a course,
        a layout) may stand in their place. A client's text therefore never names a file
        of the server. The option's default is always accepted: a default that is none
        of the choices (a ``course`` left to the game, ``null``) is what a table
        made without the option shows, and sent back it must make the same table."""
        option = self.options.get(name)
        if option is None or not option.choices:
            return
        accepted = (*option.choices, option.default)
        if any(type(value) is type(choice) and value == choice for choice in accepted):
            return
        named = all(isinstance(choice, str) for choice in option.choices)
        if named and isinstance(value, dict):
            return
        allowed = ", ".join(map(str, option.choices)) + (" (or an object)" if named else "")
        raise ConfigError(f"option {name!r} must be one of {allowed}, not {value!r}")

    # ------------------------------------------------------------ records and chance

    def record(self, state: Any, players: dict[str, dict[str, str]], seed: int | None) -> Any:
        """The game's record of ``state`` (with the chance seed where the record keeps one)."""
        record = self.module.Record.from_state(state, players)
        if seed is not None and hasattr(record, "seed") and record.seed is None:
            record.seed = seed
        return record

    def chance_stream(self, state: Any, seed: int | None) -> Rng | None:
        """The one chance stream of a game whose record can position it
        (``Record.chance_rng``: ``Rng(seed)`` past the recorded rolls), else ``None``."""
        if not hasattr(self.module.Record, "chance_rng"):
            return None
        stream: Rng = self.record(state, {}, seed).chance_rng()
        return stream

    # ------------------------------------------------------------ courses and solver

    def courses(self) -> list[dict[str, Any]]:
        """The bundled courses of a game with courses (empty otherwise)."""
        if self.course_cls is None:
            return []
        assert self.course_names_fn is not None  # set with course_cls
        return [self.course_cls.load(n).to_dict() for n in self.course_names_fn()]

    def solve_solo(self, options: Mapping[str, Any], seconds: float) -> dict[str, Any]:
        """The solo solver's answer for a solo game made from ``options`` (blocking)."""
        if self.solve_solo_fn is None:
            raise ConfigError(f"{self.title} has no solo solver")
        return self.solve_solo_fn(self.new_state(options), seconds)


def _letters(module: Any, info: GameInfo) -> tuple[str, ...]:
    """The seat letters of a game at its most seats: those of that game where its
    defaults can seat that many; otherwise (the default course cannot hold the most
    teams) those of its fewest seats, continued in alphabetical order."""
    takes_players = "players" in info.options
    try:
        return tuple(
            module.from_options({"players": info.max_players} if takes_players else {}).players
        )
    except PelotonError:
        pass
    first = list(
        module.from_options({"players": info.min_players} if takes_players else {}).players
    )
    start = (
        ascii_uppercase.index(first[-1]) + 1
        if first[-1] in ascii_uppercase
        else len(ascii_uppercase)
    )
    return tuple(first + list(ascii_uppercase[start : start + info.max_players - len(first)]))


def _course_names(module: Any, info: GameInfo) -> Callable[[], Any] | None:
    """How to list a game's bundled courses: its package's ``bundled_names``, else the
    choices its ``course`` option declares (the only names a client may send, which
    are therefore the bundled courses); ``None`` for a game without either."""
    names: Callable[[], Any] | None = getattr(module, "bundled_names", None)
    option = info.options.get(COURSE_OPTION)
    if names is None and option is not None and option.choices:
        choices = list(option.choices)
        names = choices.copy
    return names


def _build(name: str) -> GameSpec:
    info = registry.get(name)
    module = import_module(registry.package(name))
    for required in ("from_options", "Record"):
        contract(module, required)
    course_cls, names = getattr(module, "Course", None), _course_names(module, info)
    if names is None:
        course_cls = None
    return GameSpec(
        info=info,
        module=module,
        snapshot_fn=contract(module, "snapshot"),
        public_moves_fn=contract(module, "public_moves", None),
        options_of_fn=contract(module, "options_of", None),
        course_cls=course_cls,
        course_names_fn=names if course_cls is not None else None,
        solve_solo_fn=contract(module, "solve_solo", None),
        record_kind_key=contract(module, "RECORD_KIND_KEY", "kind"),
        letters=_letters(module, info),
        seats_by_option=contract(module, "SEATS_BY_OPTION", {}),
        choice_facts=contract(module, "CHOICE_FACTS", {}),
        move_lists=tuple(contract(module, "MOVE_LISTS", ("legal",))),
    )


_SPECS: dict[str, GameSpec] = {}
#: The offers imported so far, by (game, offer).
_OFFERS: dict[tuple[str, str], Any] = {}


def spec(name: str) -> GameSpec:
    """The game called ``name``; :class:`ConfigError` if it is unknown or not installed."""
    found = _SPECS.get(name)
    if found is not None:
        return found
    if name not in registry.names():
        raise ConfigError(
            f"unknown game {name!r} (games: {', '.join(s.name for s in available())})"
        )
    try:
        found = _build(name)
    except Exception as exc:  # not written yet, half-written, or no package: not offered
        raise ConfigError(f"the game {name!r} is not installed on this server ({exc})") from None
    _SPECS[name] = found
    return found


def available() -> list[GameSpec]:
    """Every game this server can host, the first game of the protocol first."""
    out = []
    for name in sorted(registry.names(), key=lambda n: (n != FIRST_GAME, n)):
        try:
            out.append(spec(name))
        except ConfigError as exc:
            log.debug("game %s not offered: %s", name, exc)
    return out


def offering(offer: str) -> list[GameSpec]:
    """The games that offer ``offer`` (``tutorial``, ``editor``, ``competitions``), the
    first game of the protocol first."""
    return [found for found in available() if found.offers()[offer]]


def offered(offer: str, name: Any) -> tuple[GameSpec, Any]:
    """The game named ``name`` (``None``: the first game that offers it) and its
    ``offer``; :class:`ConfigError` naming the games that offer it otherwise."""
    games = offering(offer)
    found = next((g for g in games if g.name == name), None) if name is not None else None
    if name is None and games:
        found = games[0]
    if found is None:
        names = ", ".join(g.name for g in games) or "none"
        raise ConfigError(f"{str(name)[:40]!r} is not a game with {_WORDS[offer]} (games: {names})")
    return found, found.offer(offer)
