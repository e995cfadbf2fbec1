"""Seats at the table: one per team (or player), each a human at the terminal or a bot.

``--seats human,greedy,random`` gives team A to a human, B to the greedy bot and C to
the random bot; in other games the seats follow ``state.players`` (Mind Twist: R, B).
Bots come from :func:`peloton.bots.make_bot`; each bot seat gets its own seed derived
from the game's seed, so a bot game replays exactly from its seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import Bot, bot_names, make_bot
from ..core.errors import ConfigError
from ..core.rng import Rng
from ..games.mindcycling.riders import TEAM_LETTERS

HUMAN = "human"


@dataclass
class Seat:
    """One team's seat: who controls it, and the bot object if it is a bot."""

    team: str
    controller: str
    bot: Bot | None = None
    seed: int | None = None

    @property
    def is_human(self) -> bool:
        """Whether moves for this seat are typed at the terminal."""
        return self.bot is None

    @property
    def label(self) -> str:
        """A short name for the board's panel and the move log."""
        return self.controller

    def player(self) -> dict[str, str]:
        """The record's ``players`` entry for this seat (MC-10.3)."""
        entry = {"name": self.label, "controller": self.controller}
        if self.seed is not None:
            # A bot's seed is what makes a bot game reproducible; keep it with the record.
            entry["seed"] = str(self.seed)
        return entry


def parse_seats(text: str, *, solo: bool = False) -> list[str]:
    """Split ``human,greedy,random`` into controller names, checking the seat count."""
    names = _split(text)
    if solo and len(names) != 1:
        raise ConfigError(f"the solo game has exactly one seat, not {len(names)} ({text!r})")
    if not solo and not 2 <= len(names) <= len(TEAM_LETTERS):
        hint = " (one seat plays with --solo)" if len(names) == 1 else ""
        raise ConfigError(
            f"a race needs 2 to {len(TEAM_LETTERS)} seats, one per team; {text!r} has {len(names)}{hint}"
        )
    return names


def parse_seat_list(text: str, low: int, high: int, game: str) -> list[str]:
    """Split ``human,greedy`` into controller names for a game of ``low`` to ``high``
    seats, checking the count."""
    names = _split(text)
    if not low <= len(names) <= high:
        span = str(low) if low == high else f"{low} to {high}"
        raise ConfigError(f"{game} has {span} seats, one per player; {text!r} has {len(names)}")
    return names


def _split(text: str) -> list[str]:
    """The controller names of ``--seats``, none of them empty."""
    names = [part.strip().lower() for part in text.split(",")]
    if any(not name for name in names):
        raise ConfigError(f"--seats {text!r} has an empty entry; write e.g. human,greedy")
    return names


def make_seats(
    names: list[str],
    seed: int | None = None,
    players: Sequence[str] | None = None,
    game: str | None = None,
) -> list[Seat]:
    """Seats for ``players`` (default teams A, B, ...) in order; bots are built with
    per-seat seeds. With ``game``, a seat may only be a bot that plays it (the generic
    bots and the game's own, as its registry entry declares them)."""
    base = Rng(seed)
    seats = []
    letters = TEAM_LETTERS if players is None else list(players)
    if len(names) > len(letters):
        raise ConfigError(f"{len(names)} seats for {len(letters)} players ({', '.join(letters)})")
    for index, name in enumerate(names):
        team = letters[index]
        if name == HUMAN:
            seats.append(Seat(team, HUMAN))
            continue
        bot_seed = base.spawn(index).seed
        seats.append(Seat(team, name, _make_bot(name, bot_seed, game), bot_seed))
    return seats


def seat_names(game: str | None = None) -> list[str]:
    """Every controller a seat (of a ``game`` table) may have: ``human`` and the bots'
    names."""
    return [HUMAN, *bot_names(game)]


def _make_bot(name: str, seed: int, game: str | None) -> Bot:
    if name.startswith("mcts:"):
        return make_bot(name, seed)  # a budget: mcts:400 or mcts:0.5s (its own errors)
    if name not in bot_names(game):
        raise ConfigError(f"unknown seat {name!r} (choose from {', '.join(seat_names(game))})")
    return make_bot(name, seed, game=game)
