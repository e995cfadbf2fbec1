"""Bots by name: what a seat, ``peloton simulate --bots`` or a table's menu may ask for.

* The generic bots play every game through the core protocol and the game's
  heuristics: ``random``, ``greedy``, ``mcts``, and the named levels, weakest first,
  ``easy`` (greedy one move in three), ``medium`` (greedy), ``hard`` (MCTS, 0.3 s a
  move) and ``expert`` (MCTS, 1 s a move).
* ``mcts:N`` is an MCTS bot with N playouts per move, ``mcts:Xs`` one with X seconds
  per move.
* A game's own bots (Mind Twist's ``optimal``) are declared by the game, in its
  registry entry (``GameInfo.bots``: ``{name: "module:attribute"}``); they are
  offered for that game only, and imported on first use.
* :func:`register_bot` adds a bot at run time (a plug-in, a test), for every game or
  for some.

This module sits on top of the package: it imports the bots, none of them imports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from importlib import import_module

from ..core import registry
from ..core.errors import ConfigError
from .base import Bot, BotFactory
from .greedy import EasyBot, GreedyBot
from .mcts import MCTSBot
from .random_bot import RandomBot

#: The named levels, weakest first (a table's seat menu offers them in this order).
LEVELS = ("easy", "medium", "hard", "expert")


def easy(seed: int | None = None) -> EasyBot:
    """``easy``: random with a little greed (see :class:`~.greedy.EasyBot`)."""
    return EasyBot(seed)


def medium(seed: int | None = None) -> GreedyBot:
    """``medium``: the greedy bot."""
    bot = GreedyBot(seed)
    bot.name = "medium"
    return bot


def hard(seed: int | None = None) -> MCTSBot:
    """``hard``: MCTS, 0.3 s per move."""
    bot = MCTSBot(seed, seconds=0.3)
    bot.name = "hard"
    return bot


def expert(seed: int | None = None) -> MCTSBot:
    """``expert``: MCTS, 1 s per move."""
    bot = MCTSBot(seed, seconds=1.0)
    bot.name = "expert"
    return bot


def mcts_budget(spec: str, seed: int | None = None) -> MCTSBot:
    """The bot ``mcts:N`` (N playouts per move) or ``mcts:Xs`` (X seconds per move);
    :class:`ConfigError` for a budget that is neither."""
    budget = spec.partition(":")[2].strip()
    try:
        if budget.endswith("s"):
            bot = MCTSBot(seed, seconds=float(budget[:-1]))
        else:
            bot = MCTSBot(seed, iterations=int(budget))
    except ValueError as exc:
        if isinstance(exc, ConfigError):
            raise
        raise ConfigError(
            f"bad MCTS budget in {spec!r}: use mcts:N (playouts per move) or mcts:Xs (seconds per move)"
        ) from None
    bot.name = spec
    return bot


#: The bots that play every game, by name.
GENERIC: Mapping[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "easy": easy,
    "medium": medium,
    "hard": hard,
    "expert": expert,
}


@cache
def _load(path: str) -> BotFactory:
    """The factory at ``"module:attribute"``, imported once."""
    module, _, attr = path.partition(":")
    factory: BotFactory = getattr(import_module(module), attr)
    return factory


def _game_bots(game: str) -> Mapping[str, str]:
    """The bots ``game`` declares as its own."""
    return registry.get(game).bots


def _owners(name: str) -> dict[str, str]:
    """``{game: "module:attribute"}`` of every game that declares a bot ``name``."""
    owners = {}
    for game in registry.names():
        path = _game_bots(game).get(name)
        if path is not None:
            owners[game] = path
    return owners


class BotTable:
    """Bot names and their factories: the generic bots, those registered at run time
    (each for every game or for some), and every game's own bots, read from the
    registry whenever they are asked for (so a game's declaration is the only list).

    :func:`make_bot`, :func:`bot_names` and :func:`register_bot` use :data:`BOTS`; a
    test may build its own table.
    """

    def __init__(self, factories: Mapping[str, BotFactory | str] = GENERIC) -> None:
        self._factories: dict[str, BotFactory | str] = dict(factories)
        #: Registered bots made for some games only.
        self._only_for: dict[str, frozenset[str]] = {}

    def register(
        self, name: str, factory: BotFactory | str, *, games: Iterable[str] | None = None
    ) -> None:
        """See :func:`register_bot`."""
        if not name or not isinstance(name, str):
            raise ConfigError(f"a bot name must be a non-empty string, not {name!r}")
        self._factories[name] = factory
        if games is None:
            self._only_for.pop(name, None)
        else:
            self._only_for[name] = frozenset(games)

    def names(self, game: str | None = None) -> list[str]:
        """See :func:`bot_names`."""
        mine = {
            n for n in self._factories if game is None or game in self._only_for.get(n, (game,))
        }
        games = registry.names() if game is None else [game]
        return sorted(mine.union(*(_game_bots(g) for g in games)))

    def make(self, name: str, seed: int | None = None, *, game: str | None = None) -> Bot:
        """See :func:`make_bot`."""
        if not isinstance(name, str):
            raise ConfigError(f"unknown bot {name!r}: a bot name is a string")
        if name in self._factories:
            only = self._only_for.get(name)
            if game is not None and only is not None and game not in only:
                raise ConfigError(
                    f"the {name!r} bot plays {', '.join(sorted(only))} only, not {game}"
                )
            return self._build(name, self._factories[name], seed)
        if name.startswith("mcts:"):
            return mcts_budget(name, seed)
        if game is not None and name in _game_bots(game):  # an unknown game says so
            return self._build(name, _game_bots(game)[name], seed, game)
        owners = _owners(name)
        if game is not None:
            if owners:
                raise ConfigError(
                    f"the {name!r} bot plays {', '.join(sorted(owners))} only, not {game}"
                )
        elif len(set(owners.values())) == 1:
            owner, path = next(iter(owners.items()))
            return self._build(name, path, seed, owner)
        elif owners:
            raise ConfigError(
                f"several games have a bot called {name!r} ({', '.join(sorted(owners))}): name the game"
            )
        raise ConfigError(f"unknown bot {name!r} (known bots: {', '.join(self.names(game))})")

    @staticmethod
    def _build(
        name: str, factory: BotFactory | str, seed: int | None, game: str | None = None
    ) -> Bot:
        if isinstance(factory, str):
            try:
                factory = _load(factory)
            except (ImportError, AttributeError) as exc:
                whose = f"game {game!r} declares" if game is not None else "registered"
                raise ConfigError(
                    f"bot {name!r} ({whose} {factory!r}) cannot be loaded: {exc}"
                ) from None
        bot: Bot = factory(seed)
        return bot


#: The table behind :func:`make_bot`, :func:`bot_names` and :func:`register_bot`.
BOTS = BotTable()


def register_bot(
    name: str, factory: BotFactory | str, *, games: Iterable[str] | None = None
) -> None:
    """Make a bot known to :func:`make_bot` by name.

    ``factory`` is a callable taking the seed, or its ``"module:attribute"`` path to be
    imported lazily. ``games``: the games the bot can play (``None``: every game).
    Registering an existing name replaces it. (A game's own bots need no registering:
    the game declares them in ``GameInfo.bots``.)
    """
    BOTS.register(name, factory, games=games)


def bot_names(game: str | None = None) -> list[str]:
    """The names :func:`make_bot` accepts, sorted (``mcts:N`` and ``mcts:Xs`` aside);
    with ``game``, only the bots that can play it: the generic ones and its own."""
    return BOTS.names(game)


def make_bot(name: str, seed: int | None = None, *, game: str | None = None) -> Bot:
    """A new bot called ``name`` (see :func:`bot_names`), seeded with ``seed``.

    ``mcts:N`` is an MCTS bot with N playouts per move, ``mcts:Xs`` one with X seconds
    per move. With ``game``, a bot that cannot play that game is refused; without it,
    a game's own bot is found in whichever game declares it.

    Raises :class:`peloton.ConfigError` for an unknown name, listing the known ones,
    and for a bot of another game.
    """
    return BOTS.make(name, seed, game=game)
