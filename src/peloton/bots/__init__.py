"""Bots: players driven by the core state protocol.

* :class:`Bot`: the protocol (``name``, ``choose(state) -> move``);
* :func:`make_bot` / :func:`bot_names` / :func:`register_bot`: bots by name
  (``random``, ``greedy``; later MCTS and solver bots);
* :func:`play_out`: play a game to its end with one bot per seat.

Game knowledge stays with each game: the greedy bot finds a game's move-scoring
heuristic in the game's registry entry (``GameInfo.heuristics``).
"""

from .base import Bot, BotFactory, SeededBot, bot_names, make_bot, play_out, register_bot

__all__ = ["Bot", "BotFactory", "SeededBot", "bot_names", "make_bot", "play_out", "register_bot"]
