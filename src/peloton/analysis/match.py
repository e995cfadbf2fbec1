"""Many bot games of any game (``peloton simulate --game GAME``), in parallel and
reproducibly.

A :class:`Match` names the game, its JSON options and one bot per seat. Game ``i``
draws everything from ``Rng(seed).spawn(i)``: seat ``s``'s bot from ``.spawn(s)`` and
the dice from the game's chance stream (:func:`peloton.terminal.setup.chance_stream`),
and with ``swap`` rotates the line-up by ``i`` seats. Outcomes come back in game
order, so the results are the same for the same seed whatever the number of processes.
(Mind Cycling keeps its own, richer :mod:`.tournament`.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot, play_out
from ..core.errors import ConfigError
from ..core.rng import Rng
from ..terminal.games import game_package
from ..terminal.setup import chance_stream, game_options, make_record, new_state
from .metrics import Metrics, metrics_for
from .pool import Workers, play_games, rotated_lineup

#: A game that has not ended after this many moves is reported as an error.
MAX_MOVES = 50_000


@dataclass(frozen=True)
class Match:
    """What to play: the game, its options, one bot name per seat (the entries)."""

    game: str
    bots: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    games: int = 100
    seed: int = 0
    swap: bool = False
    records: Path | None = None

    def check(self) -> None:
        """Raise :class:`ConfigError` (saying what is wrong) for an unplayable match."""
        if not self.bots:
            raise ConfigError("give one bot per seat, e.g. --bots greedy,random")
        if self.games < 1:
            raise ConfigError(f"--games must be at least 1, not {self.games}")
        for name in self.bots:
            # Unknown names, another game's bots and bad budgets fail here, not in a worker.
            make_bot(name, 0, game=self.game)
        if self.records is not None and not self.records.is_dir():
            raise ConfigError(f"--records {str(self.records)!r} is not a directory")
        state = self.new_state()
        if len(state.players) != len(self.bots):
            raise ConfigError(
                f"{self.game} has {len(state.players)} seats ({', '.join(state.players)}); "
                f"--bots gives {len(self.bots)}"
            )

    def new_state(self) -> Any:
        """The starting state of every game."""
        return new_state(self.game, game_options(self.game, self.options, len(self.bots)))

    def metrics(self) -> Metrics:
        """The figures reported for this game with these options."""
        return metrics_for(self.game, self.new_state())

    def lineup(self, index: int) -> list[int]:
        """The entry sitting at each seat in game ``index``."""
        return rotated_lineup(len(self.bots), index, self.swap)

    def streams(self, index: int) -> tuple[list[int], int]:
        """The seats' bot seeds and the dice seed of game ``index``."""
        game = Rng(self.seed).spawn(index)
        return [game.spawn(seat).seed for seat in range(len(self.bots))], chance_stream(game).seed


@dataclass
class MatchOutcome:
    """One game's result, by seat; plain data (JSON-ready)."""

    index: int
    lineup: list[int]
    seeds: list[int]
    chance_seed: int
    winner: int | None
    ranks: list[int]
    seat: dict[str, list[float]]
    game: dict[str, float]
    moves: int
    record: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "lineup": self.lineup,
            "seeds": self.seeds,
            "chance_seed": self.chance_seed,
            "winner": self.winner,
            "ranks": self.ranks,
            "seat": self.seat,
            "game": self.game,
            "moves": self.moves,
            "record": self.record,
        }


def play_match_game(m: Match, index: int) -> MatchOutcome:
    """Play game ``index`` of ``m`` (in this process) and measure its outcome."""
    state = m.new_state()
    lineup = m.lineup(index)
    seeds, chance_seed = m.streams(index)
    seats = list(state.players)
    bots = {seats[s]: make_bot(m.bots[lineup[s]], seeds[s], game=m.game) for s in range(len(seats))}
    chance = Rng(chance_seed)
    play_out(state, bots, chance=chance, max_moves=MAX_MOVES)
    measured = m.metrics().measure(state)
    package = game_package(m.game)
    record = None
    if m.records is not None:
        path = m.records / f"game-{index:05d}.json"
        players = {
            seats[s]: {
                "name": m.bots[lineup[s]],
                "kind": "bot",
                "controller": m.bots[lineup[s]],
                "seed": str(seeds[s]),
            }
            for s in range(len(seats))
        }
        make_record(package, state, players, chance_seed).save(path)
        record = str(path)
    return MatchOutcome(
        index=index,
        lineup=lineup,
        seeds=seeds,
        chance_seed=chance_seed,
        winner=measured.winner,
        ranks=measured.ranks,
        seat=measured.seat,
        game=measured.game,
        moves=len(package.public_moves(state, None)),
        record=record,
    )


def run_match(
    m: Match, jobs: Workers = 1, progress: Callable[[MatchOutcome], None] | None = None
) -> list[MatchOutcome]:
    """Play every game of ``m`` over ``jobs`` processes (or on Ray); the outcomes in game order."""
    return play_games(play_match_game, m, jobs, progress)
