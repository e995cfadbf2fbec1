"""Bots: players driven by the core state protocol.

* :class:`Bot`: the protocol (``name``, ``choose(state) -> move``), :class:`SeededBot`
  its seeded base (:mod:`.base`);
* the bots: :mod:`.random_bot`, :mod:`.greedy` (greedy and easy), :mod:`.mcts` (the
  search);
* :func:`make_bot` / :func:`bot_names` / :func:`register_bot`: bots by name, the named
  levels and ``mcts:N`` budgets, and each game's own bots as its registry entry
  declares them (:mod:`.levels`);
* :func:`play_out`: play a game to its end with one bot per seat.

Game knowledge stays with each game: the bots find a game's heuristics in the game's
registry entry (``GameInfo.heuristics``).
"""

from .base import Bot, BotFactory, SeededBot, bot_view, play_out
from .levels import bot_names, make_bot, register_bot

__all__ = [
    "Bot",
    "BotFactory",
    "SeededBot",
    "bot_names",
    "bot_view",
    "make_bot",
    "play_out",
    "register_bot",
]
