"""The registry of games: how the CLI, bots, the server and records find a game by its
name, and the facts every game declares about itself.

A game states its fixed facts once, as data (:class:`GameInfo`): how many seats it
has, whether it has chance steps or hidden information, its options and its own
bots. Nothing else in Peloton probes a game or tests its name to learn them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, NamedTuple, TypedDict

from . import offers
from .errors import ConfigError


class Option(NamedTuple):
    """One option of a game's ``from_options`` (its JSON value, default and meaning)."""

    default: Any
    help: str
    #: The only values a text option may take (a create form's select), or ``()`` when
    #: any value the game accepts will do. A value outside the list is refused before it
    #: reaches the game: a client-supplied text never names a server file.
    choices: tuple[Any, ...] = ()


class Heuristics(TypedDict, total=False):
    """Game knowledge the game-agnostic bots may use (see :mod:`peloton.bots.mcts`).

    Every hook is optional; a bot names the ones it needs and falls back without them.
    """

    #: ``score_moves(state, moves) -> list[float]``: the greedy bot's move scores.
    score_moves: Callable[..., Any]
    #: ``best_moves(state, moves) -> list[move]``: the moves the greedy bot ties between.
    best_moves: Callable[..., Any]
    #: ``rollout_move(state, rng) -> move``: MCTS's playout policy.
    rollout_move: Callable[..., Any]
    #: A cheaper playout policy, chosen on request.
    fast_rollout_move: Callable[..., Any]
    #: ``playout(state, rng, rollout) -> {player: reward} | None``: a whole playout to
    #: the end by the policy named ``rollout`` (a native engine's, drawing from ``rng``
    #: exactly as the policy would); ``None`` when the game cannot, and MCTS plays it
    #: move by move. ``state`` may be left anywhere.
    playout: Callable[..., Any]
    #: ``horizon(state) -> int | None``: the moves an MCTS playout from ``state`` should
    #: run before ``evaluate`` scores it (``None``: to the end of the game).
    horizon: Callable[..., Any]
    #: ``progressive_bias(state) -> float``: the weight MCTS gives the ``score_moves``
    #: ordering of a move in its choice (fading with visits; default 0).
    progressive_bias: Callable[..., Any]
    #: ``anchor(state) -> float``: the margin of mean reward by which MCTS's choice
    #: must beat the ``score_moves`` best move to be played instead (default 0).
    anchor: Callable[..., Any]
    #: ``evaluate(state) -> {player: value in [0, 1]}``: a position's worth to each seat.
    evaluate: Callable[..., Any]
    #: ``outcome(state) -> {player: value in [0, 1]}``: a finished game's result.
    outcome: Callable[..., Any]
    #: ``determinize(view, rng) -> state``: a full state consistent with a view.
    determinize: Callable[..., Any]
    #: ``observe(state, player) -> hashable``: what ``player`` has seen so far.
    observe: Callable[..., Any]
    #: ``metrics(state) -> {"winner", "ranks", "seat", "game"}``: the game's own figures
    #: for ``peloton simulate`` (see :func:`peloton.analysis.metrics.from_hook`).
    metrics: Callable[..., Any]


@dataclass(frozen=True)
class GameInfo:
    """What the rest of Peloton needs to know about one game, declared by the game."""

    name: str
    title: str
    #: Load a record (already decoded JSON) of this game into a replayable object.
    load_record: Callable[[dict[str, Any]], Any]
    #: Game-specific helpers that bots may use (rollout policy, move scoring, ...).
    heuristics: Heuristics = field(default_factory=lambda: Heuristics())
    #: True when ``view(player)`` hides something (Mind Twist's dial): bots, clients and
    #: spectators must then be given views, never the full state.
    hidden_information: bool = False
    #: The fewest and the most seats a game may have (its ``players`` option).
    min_players: int = 2
    max_players: int = 2
    #: True when the game has chance steps (``is_chance``: dice, cards).
    has_chance: bool = False
    #: True when ``snapshot(state, viewer)`` is the same for every viewer, so a server
    #: may build one message for all.
    public_snapshot: bool = False
    #: ``{name: Option}``: what ``from_options`` accepts.
    options: Mapping[str, Option] = field(default_factory=dict)
    #: The bots made for this game only, ``{name: "module:attribute"}`` of a factory
    #: taking a seed (the generic bots play every game and are not listed).
    bots: Mapping[str, str] = field(default_factory=dict)
    #: ``describe(state, move) -> str``: what ``move`` (a move or its notation) does when
    #: played in ``state``, in one sentence for a table's move log ("BD2 attacks to
    #: c33, against the wind"); ``state`` may be a player's view. ``None``: logs show
    #: the notation alone.
    describe: Callable[[Any, Any], str] | None = None
    #: What the game offers beyond its tables, each ``"module:attribute"`` of a record
    #: of :mod:`peloton.core.offers` (imported when first needed), or ``None``: its
    #: tutorial (a :class:`~.offers.Tutorial`), its course editor (an
    #: :class:`~.offers.Editor`) and its competitions (a :class:`~.offers.Competitions`).
    tutorial: str | None = None
    editor: str | None = None
    competitions: str | None = None
    #: The engine of ``peloton analyse`` for this game, ``"module:attribute"`` of a
    #: factory called with no argument that returns a
    #: :class:`~peloton.analysis.review.Analyst` (imported on first use), or ``None``:
    #: the generic MCTS analyst.
    analyst: str | None = None

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise ConfigError(f"game {self.name!r} declares bad facts: {'; '.join(problems)}")


def _problems(info: GameInfo) -> list[str]:
    """Everything wrong with ``info``'s declared facts, in one list (so a new game's
    author sees every problem at once)."""
    problems = []
    if not isinstance(info.name, str) or not info.name:
        problems.append("its name must be a non-empty string")
    if not 1 <= info.min_players <= info.max_players:
        problems.append(
            f"seats must satisfy 1 <= min_players <= max_players, not {info.min_players}..{info.max_players}"
        )
    for name, option in info.options.items():
        if not isinstance(option, Option):
            problems.append(
                f"option {name!r} must be an Option(default, help, choices), not {option!r}"
            )
            continue
        if not option.help:
            problems.append(f"option {name!r} has no help text")
        # A default of None means "the game chooses from the other options" (Cyclo's
        # course follows its mode), so it need not be one of the choices.
        if option.choices and option.default is not None and option.default not in option.choices:
            problems.append(
                f"option {name!r}: default {option.default!r} is not one of its choices"
            )
    players = info.options.get("players")
    if isinstance(players, Option) and not (
        isinstance(players.default, int) and info.min_players <= players.default <= info.max_players
    ):
        problems.append(
            f"option 'players' defaults to {players.default!r}, outside {info.min_players}..{info.max_players}"
        )
    for name, path in info.bots.items():
        module, _, attr = path.partition(":") if isinstance(path, str) else ("", "", "")
        if not name or not module or not attr:
            problems.append(f"bot {name!r} must be declared as 'module:attribute', not {path!r}")
    for offer in OFFERS:
        path = getattr(info, offer)
        module, _, attr = path.partition(":") if isinstance(path, str) else ("", "", "")
        if path is not None and (not module or not attr):
            problems.append(f"{offer} must be declared as 'module:attribute', not {path!r}")
    if info.describe is not None and not callable(info.describe):
        problems.append(f"describe must be a function (state, move) -> str, not {info.describe!r}")
    return problems


#: The offers a game may declare (:mod:`peloton.core.offers`).
OFFERS = ("tutorial", "editor", "competitions")

_GAMES: dict[str, GameInfo] = {}

# Games register themselves when their package is imported; this maps a name to that
# package so that ``get("mind-cycling")`` works without importing every game up front.
_MODULES = {
    "mind-cycling": "peloton.games.mindcycling",
    "mind-twist": "peloton.games.mindtwist",
    "pistard": "peloton.games.pistard",
    "cyclo": "peloton.games.cyclo",
}


#: The environment variable naming more game packages to load, comma-separated (a
#: plug-in's, or a test's toy game): each registers its games on import, as the bundled
#: ones do, in every process that reads the registry (a server's workers too).
EXTRA_GAMES_ENV = "PELOTON_EXTRA_GAMES"
#: The packages of the games that ``EXTRA_GAMES_ENV`` loaded, by name.
_EXTRA: dict[str, str] = {}
_extras_loaded = False


def _load_extras() -> None:
    """Import the packages ``EXTRA_GAMES_ENV`` names (once); :class:`ConfigError` for
    one that cannot be imported."""
    global _extras_loaded
    if _extras_loaded:
        return
    _extras_loaded = True
    for module in filter(None, (m.strip() for m in os.environ.get(EXTRA_GAMES_ENV, "").split(","))):
        before = set(_GAMES)
        try:
            import_module(module)
        except ImportError as exc:
            raise ConfigError(f"{EXTRA_GAMES_ENV}: cannot import {module!r} ({exc})") from None
        for name in set(_GAMES) - before:
            _EXTRA[name] = module


#: The game of Peloton's first version: a table request, stored table or record that
#: names no game is this game's (they were made before there was a choice).
FIRST_GAME = "mind-cycling"


def register(info: GameInfo) -> None:
    """Make a game known by its name (called by each game package on import)."""
    _GAMES[info.name] = info


def unregister(name: str) -> None:
    """Forget a game registered at run time (a plug-in's or a test's); nothing if it is
    not registered. A bundled game cannot be forgotten: its package registers it once,
    on import (:class:`ConfigError`)."""
    if name in _MODULES:
        raise ConfigError(f"game {name!r} is bundled with Peloton and cannot be unregistered")
    _GAMES.pop(name, None)
    _EXTRA.pop(name, None)


def get(name: str) -> GameInfo:
    """The registered game called ``name``; :class:`ConfigError` if there is none."""
    _load_extras()
    if name not in _GAMES and name in _MODULES:
        import_module(_MODULES[name])
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(set(_GAMES) | set(_MODULES)))
        raise ConfigError(f"unknown game {name!r} (known games: {known})") from None


def package(name: str) -> str:
    """The import path of the package that implements game ``name`` (for the pieces
    outside the registry entry: ``from_options``, ``snapshot``, ``Record``...);
    :class:`ConfigError` for an unknown game."""
    get(name)  # the error message lists the known games
    try:
        return _MODULES.get(name) or _EXTRA[name]
    except KeyError:
        raise ConfigError(f"game {name!r} is registered without a package") from None


def names() -> list[str]:
    """The names of every game Peloton knows."""
    _load_extras()
    return sorted(set(_GAMES) | set(_MODULES))


def offer(name: str, kind: str) -> Any | None:
    """What game ``name`` offers as ``kind`` (one of :data:`OFFERS`: its tutorial,
    course editor or competitions, records of :mod:`.offers`), imported from the
    ``"module:attribute"`` its ``GameInfo`` names; ``None`` when it offers none.
    :class:`ConfigError` for an unknown game or kind, or a name that cannot be loaded
    or leads to something else than the offer's record."""
    records = {"tutorial": offers.Tutorial, "editor": offers.Editor,
               "competitions": offers.Competitions}  # fmt: skip
    if kind not in records:
        raise ConfigError(f"no offer {kind!r} (offers: {', '.join(OFFERS)})")
    info = get(name)
    path = getattr(info, kind)
    if path is None:
        return None
    module, _, attribute = path.partition(":")
    try:
        found = getattr(import_module(module), attribute)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"{info.title}'s {kind} {path!r} cannot be loaded ({exc})") from None
    if not isinstance(found, records[kind]):
        raise ConfigError(
            f"{info.title}'s {kind} {path!r} is not a peloton.core.offers.{records[kind].__name__}"
        )
    return found
