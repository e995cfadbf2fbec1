"""The bot protocol, the bot registry and a helper that plays a game out with bots.

A bot is anything with a ``name`` and a ``choose(state)`` method returning one of
``state.legal_moves()``. Bots drive games only through the core protocol
(:mod:`peloton.core.protocol`), so the same bot object can sit at a Mind Cycling,
Mind Twist or Pistard table; a bot that needs game knowledge (the greedy bot) looks
it up by ``state.game``.

Bots are reproducible: every random decision draws from a :class:`peloton.core.rng.Rng`
built from the seed given to :func:`make_bot`, so the same seeds replay the same game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from importlib import import_module
from typing import Any, Protocol, runtime_checkable

from ..core import registry
from ..core.errors import ConfigError, StateError
from ..core.protocol import GameState
from ..core.rng import Rng


@runtime_checkable
class Bot(Protocol):
    """A player that picks a move for whoever is to act in a state.

    ``choose`` must not modify ``state`` (copy it to look ahead) and must return one
    of ``state.legal_moves()``. It is only called while the game is not over and not
    at a chance step.
    """

    name: str

    def choose(self, state: GameState) -> Any: ...


class SeededBot:
    """Base of bots whose every random decision draws from one seeded stream."""

    name = "seeded"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(seed)

    @property
    def seed(self) -> int:
        """The seed this bot's choices derive from."""
        return self.rng.seed

    @staticmethod
    def legal_moves(state: GameState) -> list[Any]:
        """``state``'s legal moves; :class:`StateError` if there are none (game over)."""
        moves = list(state.legal_moves())
        if not moves:
            raise StateError(f"no legal move to choose: the {state.game} game is over")
        return moves

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


#: A factory builds a bot from an optional seed (``None``: seeded from the system).
BotFactory = Callable[[int | None], Bot]

# name -> "module:attribute" of the factory, imported on first use so that asking for
# the random bot never imports a game's heuristics (or, later, an MCTS).
_FACTORIES: dict[str, str | BotFactory] = {
    "random": "peloton.bots.random_bot:RandomBot",
    "greedy": "peloton.bots.greedy:GreedyBot",
    "mcts": "peloton.bots.mcts:MCTSBot",
    # Named levels, weakest first (see peloton.bots.mcts).
    "easy": "peloton.bots.mcts:easy",
    "medium": "peloton.bots.mcts:medium",
    "hard": "peloton.bots.mcts:hard",
    "expert": "peloton.bots.mcts:expert",
    "optimal": "peloton.bots.mindtwist_bots:OptimalBot",
    "pass3": "peloton.bots.mindtwist_bots:Pass3Bot",
}

# Bots made for some games only (the others play any game through the core protocol
# and the game's heuristics).
_ONLY_FOR: dict[str, frozenset[str]] = {
    "optimal": frozenset({"mind-twist"}),
    "pass3": frozenset({"mind-twist"}),
}


def register_bot(name: str, factory: BotFactory | str, *, games: Iterable[str] | None = None) -> None:
    """Make a bot known to :func:`make_bot` by name.

    ``factory`` is a callable taking the seed, or its ``"module:attribute"`` path to be
    imported lazily. ``games``: the games the bot can play (``None``: every game).
    Registering an existing name replaces it.
    """
    if not name or not isinstance(name, str):
        raise ConfigError(f"a bot name must be a non-empty string, not {name!r}")
    _FACTORIES[name] = factory
    if games is None:
        _ONLY_FOR.pop(name, None)
    else:
        _ONLY_FOR[name] = frozenset(games)


def bot_names(game: str | None = None) -> list[str]:
    """The names :func:`make_bot` accepts, sorted; with ``game``, only the bots that can
    play it."""
    return sorted(n for n in _FACTORIES if game is None or game in _ONLY_FOR.get(n, (game,)))


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot called ``name`` (see :func:`bot_names`), seeded with ``seed``.

    ``mcts:N`` is an MCTS bot with N playouts per move, ``mcts:Xs`` one with X seconds
    per move.

    Raises :class:`peloton.ConfigError` for an unknown name, listing the known ones.
    """
    if isinstance(name, str) and name.startswith("mcts:") and name not in _FACTORIES:
        from .mcts import mcts_budget  # "mcts:400" (iterations) or "mcts:0.5s" (seconds)

        return mcts_budget(name, seed)
    try:
        factory = _FACTORIES[name]
    except (KeyError, TypeError):
        raise ConfigError(f"unknown bot {name!r} (known bots: {', '.join(bot_names())})") from None
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        factory = getattr(import_module(module), attr)
        _FACTORIES[name] = factory
    bot: Bot = factory(seed)
    return bot


def hides_information(state: GameState) -> bool:
    """Whether ``state``'s game hides something from some seat (its registry entry says
    so). A game the registry does not know is assumed to hide: a view is always safe."""
    try:
        return registry.get(state.game).hidden_information
    except ConfigError:
        return True


def bot_view(state: GameState, hidden: bool | None = None) -> GameState:
    """What the bot to act in ``state`` may look at: ``state.view(current_player)`` in a
    game with hidden information, otherwise ``state`` itself (no copy: bots must not
    modify it, and copying every move would slow playouts down).

    ``hidden`` short-cuts the registry look-up for callers that did it once.
    """
    if hidden is None:
        hidden = hides_information(state)
    return state.view(state.current_player) if hidden else state


def play_out(
    state: GameState,
    bots: Mapping[str, Bot] | Bot,
    *,
    chance: Rng | None = None,
    max_moves: int | None = None,
) -> GameState:
    """Play ``state`` forward in place until it is over; return it.

    ``bots`` maps each player (``state.current_player``) to its bot, or is one bot that
    plays every seat. Each bot sees only what its seat sees (:func:`bot_view`). Chance
    steps are drawn from ``chance`` (required for games with dice). ``max_moves`` guards
    against a game that never ends: :class:`StateError` when exceeded.
    """
    hidden = hides_information(state)
    played = 0
    while not state.is_over:
        if state.is_chance:
            if chance is None:
                raise StateError(f"{state.game} has a chance step: play_out needs a chance Rng")
            move = state.chance_move(chance)
        else:
            move = _seat_bot(bots, state.current_player).choose(bot_view(state, hidden))
        state.play(move)
        played += 1
        if max_moves is not None and played > max_moves:
            raise StateError(f"{state.game} game not over after {max_moves} moves")
    return state


def _seat_bot(bots: Mapping[str, Bot] | Bot, player: str | None) -> Bot:
    if not isinstance(bots, Mapping):
        return bots
    bot = bots.get(player) if player is not None else None
    if bot is None:
        raise ConfigError(f"no bot for player {player!r} (bots for: {', '.join(bots)})")
    return bot
