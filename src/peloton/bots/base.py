"""The bot protocol, the seeded base of bots and a helper that plays a game out with bots.

A bot is anything with a ``name`` and a ``choose(state)`` method returning one of
``state.legal_moves()``. Bots drive games only through the core protocol
(:mod:`peloton.core.protocol`), so the same bot object can sit at a Mind Cycling,
Mind Twist or Pistard table; a bot that needs game knowledge (the greedy bot) looks
it up by ``state.game``.

Bots are reproducible: every random decision draws from a :class:`peloton.core.rng.Rng`
built from the bot's seed, so the same seeds replay the same game.

This module is the ground floor of :mod:`peloton.bots`: it imports nothing from the
package. The bots build on it (:mod:`.random_bot`, :mod:`.greedy`, :mod:`.mcts`), and
:mod:`.levels` names them all (``make_bot``, ``bot_names``, the levels).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def heuristics_of(game: str) -> registry.Heuristics:
    """The bot hooks ``game`` declares (``GameInfo.heuristics``), or none for a game
    the registry does not know (a toy game in a test): bots then fall back to their
    game-agnostic defaults."""
    try:
        return registry.get(game).heuristics
    except ConfigError:
        return registry.Heuristics()


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
