"""The kinds of competition the server offers: those of every game that declares
competitions (``GameInfo.competitions``, a :class:`~peloton.core.offers.Competitions`),
found by kind (kinds are told apart across games: the first game declaring a kind has
it), and what their games are called."""

from __future__ import annotations

import inspect
import logging
from typing import Any

from ...core.errors import ConfigError
from ...core.offers import Competitions as Offer
from .. import games

log = logging.getLogger("peloton.server")

#: The type of a competition (a kind's instance, see :class:`~peloton.core.offers.Competitions`).
Competition = Any


def all_kinds() -> dict[str, tuple[str, Offer]]:
    """``{kind: (game, offer)}`` over every game that offers competitions, the first
    game of the protocol first (a later game's kind of the same name is not offered)."""
    found: dict[str, tuple[str, Offer]] = {}
    for spec in games.offering("competitions"):
        try:
            offer: Offer = spec.offer("competitions")
        except ConfigError as exc:
            log.error("%s", exc)
            continue
        for kind in offer.kinds:
            found.setdefault(kind, (spec.name, offer))
    return found


def game_of(kind: str) -> str:
    """The game whose competitions have ``kind`` (``""`` for none)."""
    return all_kinds().get(kind, ("", None))[0]


def offer_of(game: str) -> Offer | None:
    """The competitions ``game`` offers (``None``: none, or not installed here)."""
    try:
        found: Offer | None = games.spec(game).offer("competitions")
    except ConfigError:
        return None
    return found


def kind_class(game: str, kind: str) -> Any:
    """The class of ``kind`` among ``game``'s competitions, ``None`` for none."""
    offer = offer_of(game)
    return None if offer is None else offer.kinds.get(kind)


def game_word(game: str, kind: str) -> str:
    """What the games of a ``kind`` of ``game``'s competitions are called (``leg``,
    ``heat``...; ``game`` when the game is gone)."""
    offer = offer_of(game)
    return "game" if offer is None else offer.game_word(kind)


def kind_facts() -> list[dict[str, Any]]:
    """The kinds a competition may be, each with its game and title, what its games
    are called and its settings (every constructor argument but ``players``, which the
    seats give, with its default)."""
    found = []
    for kind, (game, offer) in all_kinds().items():
        cls = offer.kinds[kind]
        settings = []
        for name, param in inspect.signature(cls.__init__).parameters.items():
            if name in ("self", "players") or param.kind is not param.POSITIONAL_OR_KEYWORD:
                continue
            default = None if param.default is param.empty else param.default
            settings.append({"name": name, "default": default})
        found.append(
            {"kind": kind, "title": cls.title, "game": offer.game_word(kind),
             "of": game, "settings": settings}
        )  # fmt: skip
    return found
