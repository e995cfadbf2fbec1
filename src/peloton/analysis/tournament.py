"""Many Mind Cycling games between bot line-ups, in parallel and reproducibly.

A :class:`Tournament` names one bot per seat (its *entries*), the course and the rule
options. Game ``i`` draws its seeds from ``Rng(seed).spawn(i)`` and, with ``swap``,
rotates the line-up by ``i`` seats so that over ``k × teams`` games every entry sits
in every seat equally often. Games are returned in game order whatever the number of
processes, so every figure computed from them is the same for the same seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot, play_out
from ..core.errors import ConfigError
from ..core.rng import Rng
from ..games import mindcycling as mc
from ..games.mindcycling.riders import DEFAULT_COMPOSITIONS
from ..terminal.courses import load_course
from .pool import Workers, play_games, rotated_lineup

#: Medal keys, in the order tables show them (MC-8.3).
MEDALS = ("cyclist", "sprinter", "climber", "team")
#: Rider types (MC-2.1): domestique, sprinter, climber.
RIDER_TYPES = ("D", "S", "C")
#: A game that has not ended after this many moves is reported as an error.
MAX_MOVES = 20_000


@dataclass(frozen=True)
class Tournament:
    """What to play: one bot name per seat (entries), games, seed, course and rules."""

    bots: tuple[str, ...]
    games: int = 100
    seed: int = 0
    course: str = "standard"
    riders: int | None = None
    wind: str = "front"
    relay_limit: int = 3
    solo: bool = False
    swap: bool = False
    records: Path | None = None

    def check(self) -> None:
        """Raise :class:`ConfigError` (saying what is wrong) for an unplayable setup."""
        if not self.bots:
            raise ConfigError("give at least one bot (--bots greedy,random)")
        if self.solo and len(self.bots) != 1:
            raise ConfigError(
                f"the solo challenge has one seat: give one bot, not {len(self.bots)}"
            )
        if not self.solo and len(self.bots) < 2:
            raise ConfigError(
                "a race needs at least two teams: give a bot per seat, e.g. --bots greedy,random"
            )
        if self.games < 1:
            raise ConfigError(f"--games must be at least 1, not {self.games}")
        if self.riders is not None and self.riders not in DEFAULT_COMPOSITIONS:
            raise ConfigError(f"--riders must be 3 to 6, not {self.riders}")
        for name in self.bots:
            # Unknown names, another game's bots and bad budgets fail here, not in a worker.
            make_bot(name, 0, game=mc.State.game)
        if self.records is not None and not self.records.is_dir():
            raise ConfigError(f"--records {str(self.records)!r} is not a directory")
        new_state(self, load_course(self.course))  # bad course, wind, team counts

    def lineup(self, index: int) -> list[int]:
        """The entry sitting at each seat in game ``index``."""
        return rotated_lineup(len(self.bots), index, self.swap)

    def seeds(self, index: int) -> list[int]:
        """The seed of each seat's bot in game ``index``."""
        game = Rng(self.seed).spawn(index)
        return [game.spawn(seat).seed for seat in range(len(self.bots))]


@dataclass
class GameOutcome:
    """The result of one game, by seat (seat 0 is team A); plain data (JSON-ready)."""

    index: int
    lineup: list[int]
    seeds: list[int]
    solo: bool
    #: Seat holding the trophy (None in the solo game).
    trophy: int | None
    #: Medal key -> seat holding it.
    medals: dict[str, int]
    points: list[int]
    #: Per seat: rider type -> the places (1-based) of its riders across the line.
    places: list[dict[str, list[int]]]
    #: Per seat: its best place (a large number when none of its riders crossed).
    best_place: list[int]
    rounds: int
    moves: int
    record: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "lineup": self.lineup,
            "seeds": self.seeds,
            "trophy": self.trophy,
            "medals": self.medals,
            "points": self.points,
            "places": self.places,
            "rounds": self.rounds,
            "moves": self.moves,
            "record": self.record,
        }


def new_state(t: Tournament, course: mc.Course) -> mc.State:
    """The starting state of every game of ``t``."""
    if t.solo:
        if t.riders not in (None, len(mc.SOLO_COMPOSITION)):
            raise ConfigError(
                f"the solo team has {len(mc.SOLO_COMPOSITION)} riders, not {t.riders}"
            )
        return mc.new_solo(course, wind=t.wind, relay_limit=t.relay_limit)
    teams = mc.default_teams(len(t.bots), 6 if t.riders is None else t.riders)
    return mc.new_game(course, teams, wind=t.wind, relay_limit=t.relay_limit)


_COURSES: dict[str, mc.Course] = {}


def _course(name: str) -> mc.Course:
    course = _COURSES.get(name)
    if course is None:
        course = _COURSES[name] = load_course(name)
    return course


def play_game(t: Tournament, index: int) -> GameOutcome:
    """Play game ``index`` of ``t`` (in this process) and describe its outcome."""
    state = new_state(t, _course(t.course))
    lineup = t.lineup(index)
    seeds = t.seeds(index)
    letters = list(state.players)
    bots = {
        letters[seat]: make_bot(t.bots[lineup[seat]], seeds[seat], game=state.game)
        for seat in range(len(letters))
    }
    play_out(state, bots, max_moves=MAX_MOVES)
    result = state.result
    seat_of = {letter: i for i, letter in enumerate(letters)}
    medals = {
        key: seat_of[holder if key == "team" else holder[0]]
        for key, holder in result.medals.items()
    }
    places: list[dict[str, list[int]]] = [{k: [] for k in RIDER_TYPES} for _ in letters]
    best = [10_000] * len(letters)
    for i, rid in enumerate(result.places):
        seat = seat_of[rid[0]]
        places[seat][rid[1]].append(i + 1)
        best[seat] = min(best[seat], i + 1)
    record = None
    if t.records is not None:
        path = t.records / f"game-{index:05d}.json"
        players = {
            letters[s]: {"name": t.bots[lineup[s]], "controller": t.bots[lineup[s]]}
            for s in range(len(letters))
        }
        mc.Record.from_state(state, players).save(path)
        record = str(path)
    return GameOutcome(
        index=index,
        lineup=lineup,
        seeds=seeds,
        solo=t.solo,
        trophy=seat_of[result.trophy] if result.trophy is not None else None,
        medals=medals,
        points=[result.points[letter] for letter in letters],
        places=places,
        best_place=best,
        rounds=state.round,
        moves=len(state.history),
        record=record,
    )


def run(
    t: Tournament, jobs: Workers = 1, progress: Callable[[GameOutcome], None] | None = None
) -> list[GameOutcome]:
    """Play every game of ``t`` over ``jobs`` processes (or on Ray); the outcomes in game order.

    ``progress`` is called once per finished game, in game order.
    """
    return play_games(play_game, t, jobs, progress)
