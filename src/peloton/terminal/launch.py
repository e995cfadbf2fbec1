"""``peloton play GAME``: a terminal table for any game, set up from the command line's
game name, seats, ``--option`` pairs, seed and record path (Mind Cycling keeps its
own flags and board, :mod:`.play`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from ..core.errors import ConfigError
from ..core.rng import Rng
from .games import game_package, terminal_game
from .inputs import secret_ask, terminal_ask
from .seats import HUMAN, make_seats, parse_seat_list
from .setup import (
    chance_stream,
    default_bot,
    default_seats,
    game_options,
    make_record,
    new_state,
    parse_option_args,
)
from .table import TableSession

#: A generous bound on ``--seats`` before the game itself says how many it takes.
MAX_SEATS = 8


def table_for(
    game: str,
    seats: str | None,
    option_args: Sequence[str] | None,
    seed: int | None,
    record: Path | None,
    console: Console,
    *,
    start: str | None = None,
) -> TableSession:
    """The session of a new game of ``game`` (from the position ``start`` when given,
    in the game's notation); :class:`ConfigError` (or another :class:`PelotonError`)
    saying what is wrong with the arguments.

    Bots' seeds and the dice derive from ``seed`` (drawn at random when ``None``); the
    record keeps the dice seed."""
    given = parse_option_args(option_args)
    shown = terminal_game(game)
    if start is not None:
        # The position names the players: the seats follow it (a human, then bots).
        state = shown.from_position(start, game_options(game, given, None))
        line_up = ",".join([HUMAN] + [default_bot(game)] * (len(state.players) - 1))
        names = parse_seat_list(seats or line_up, 1, MAX_SEATS, game)
    else:
        names = parse_seat_list(seats or default_seats(game), 1, MAX_SEATS, game)
        state = new_state(game, game_options(game, given, len(names)))
    if len(names) != len(state.players):
        raise ConfigError(
            f"{game} has {len(state.players)} seats ({', '.join(state.players)}); --seats gives {len(names)}"
        )
    base = Rng(seed)
    table = make_seats(names, base.seed, state.players, game)
    package = game_package(game)
    chance = chance_stream(base)

    def save(final: Any, players: dict[str, dict[str, str]]) -> None:
        assert record is not None
        make_record(package, final, players, chance.seed).save(record)

    return TableSession(
        state,
        table,
        shown,
        console,
        terminal_ask(console),
        secret_ask=secret_ask(console),
        chance=chance,
        save=save if record is not None else None,
        record_path=record,
    )
