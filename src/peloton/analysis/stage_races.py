"""Many bot-ridden Cyclo stage races (``peloton simulate --game cyclo --stage-race
LEGS``): how often each bot's team wears each jersey at the end, and where its best
rider ends up in the general classification.

Race ``i`` draws everything from ``Rng(seed).spawn(i)``: seat ``s``'s bot from
``.spawn(s)``, leg ``k``'s dice from the chance stream of ``.spawn(LEG_SALT + k)``;
with ``swap`` the line-up is rotated by ``i`` seats. Outcomes come back in race order,
so the figures are the same for the same seed whatever the number of processes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rich.table import Table

from ..bots import make_bot, play_out
from ..core.errors import ConfigError
from ..core.rng import Rng
from ..games import cyclo as cy
from ..terminal.setup import chance_stream
from .pool import Workers, play_games, rotated_lineup
from .stats import labels, wilson

GAME = "cyclo"
JERSEYS = ("yellow", "green", "red")
#: The salt of a race's legs' dice streams, apart from the seats' ``spawn(0..n-1)``.
LEG_SALT = 100
#: A leg that has not ended after this many moves is reported as an error.
MAX_MOVES = 50_000


@dataclass(frozen=True)
class StageRaces:
    """What to ride: one bot per team, the stage race's settings, how many races."""

    bots: tuple[str, ...]
    legs: str | list[dict[str, Any]] = "tour"
    level: str = "pro"
    events: bool = False
    bonus_seconds: bool = False
    games: int = 20
    seed: int = 0
    swap: bool = False
    records: Path | None = None

    def race(self) -> cy.StageRace:
        """A new stage race of these settings."""
        return cy.StageRace(
            len(self.bots),
            legs=self.legs,
            level=self.level,
            events=self.events,
            bonus_seconds=self.bonus_seconds,
        )

    def check(self) -> None:
        """Raise :class:`ConfigError` (saying what is wrong) for races that cannot run."""
        check_lineup(self.bots, self.games, self.records, "greedy,random")
        self.race()


def check_lineup(bots: Sequence[str], games: int, records: Path | None, example: str) -> None:
    """Raise :class:`ConfigError` for a run of Cyclo competitions that cannot go: no
    bots (``example`` shows a line-up), fewer than one game, an unknown bot, or a
    ``--records`` that is not a directory."""
    if not bots:
        raise ConfigError(f"give one bot per team, e.g. --bots {example}")
    if games < 1:
        raise ConfigError(f"--games must be at least 1, not {games}")
    for name in bots:
        make_bot(name, 0, game=GAME)
    if records is not None and not records.is_dir():
        raise ConfigError(f"--records {str(records)!r} is not a directory")


def play_stage_race(s: StageRaces, index: int) -> dict[str, Any]:
    """Ride race ``index`` of ``s`` (in this process): which entry's team wears each
    jersey, each entry's best general-classification place and its gap (seconds)."""
    race_rng = Rng(s.seed).spawn(index)
    lineup = rotated_lineup(len(s.bots), index, s.swap)
    race = s.race()
    teams = "ABCDEF"[: len(s.bots)]
    seeds = [race_rng.spawn(seat).seed for seat in range(len(teams))]
    bots = {t: make_bot(s.bots[lineup[k]], seeds[k], game=GAME) for k, t in enumerate(teams)}
    leg = 0
    while not race.is_over:
        chance = chance_stream(race_rng.spawn(LEG_SALT + leg))
        state = race.next_game(seed=chance.seed)
        assert state is not None
        play_out(state, bots, chance=chance, max_moves=MAX_MOVES)
        players = {t: {"name": s.bots[lineup[k]], "kind": "bot"} for k, t in enumerate(teams)}
        race.add(state, players)
        leg += 1
    standings = race.standings
    entry = {t: lineup[k] for k, t in enumerate(teams)}
    yellow = standings["yellow"]
    best: dict[int, int] = {}
    gap: dict[int, int] = {}
    for place, (rider, time) in enumerate(yellow, start=1):
        e = entry[rider[0]]
        if e not in best:
            best[e], gap[e] = place, time - yellow[0][1]
    record = None
    if s.records is not None:
        path = s.records / f"stage-race-{index:05d}.json"
        path.write_text(json.dumps(race.to_dict()), encoding="utf-8")
        record = str(path)
    return {
        "index": index,
        "lineup": lineup,
        "jerseys": {j: entry[standings["jerseys"][j][0]] for j in JERSEYS},
        "best_place": [best[e] for e in range(len(s.bots))],
        "gap": [gap[e] for e in range(len(s.bots))],
        "record": record,
    }


@dataclass
class EntryJerseys:
    """What one entry of the line-up won over the races."""

    entry: int
    label: str
    bot: str
    races: int = 0
    #: Per jersey: its share of the races, and the share's 95% Wilson interval.
    share: dict[str, float] = field(default_factory=dict)
    low: dict[str, float] = field(default_factory=dict)
    high: dict[str, float] = field(default_factory=dict)
    #: Mean general-classification place of its best rider, and its mean time gap.
    mean_best_place: float = 0.0
    mean_gap: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarise(bots: Sequence[str], outcomes: Sequence[dict[str, Any]]) -> list[EntryJerseys]:
    """Jersey shares and mean places per entry."""
    names = labels(bots)
    n = len(outcomes)
    out = []
    for e, bot in enumerate(bots):
        stats = EntryJerseys(e, names[e], bot, races=n)
        for jersey in JERSEYS:
            won = sum(1 for o in outcomes if o["jerseys"][jersey] == e)
            stats.share[jersey] = won / n if n else 0.0
            stats.low[jersey], stats.high[jersey] = wilson(won, n)
        stats.mean_best_place = sum(o["best_place"][e] for o in outcomes) / n if n else 0.0
        stats.mean_gap = sum(o["gap"][e] for o in outcomes) / n if n else 0.0
        out.append(stats)
    return out


def table(s: StageRaces, stats: Sequence[EntryJerseys]) -> Table:
    """The jersey shares per bot (with their 95% intervals) and the mean GC figures."""
    legs = s.legs if isinstance(s.legs, str) else ",".join(leg["mode"] for leg in s.legs)
    shown = Table(
        title=f"Cyclo stage races ({legs}, {s.level}): {s.games} races",
        caption="jerseys: share of the races (95% Wilson interval); best GC: mean place of "
        "the bot's best rider in the final classification; gap: its mean time behind yellow",
    )
    shown.add_column("bot")
    for jersey in JERSEYS:
        shown.add_column(jersey, justify="right")
    shown.add_column("best GC", justify="right")
    shown.add_column("gap (s)", justify="right")
    for st in stats:
        shown.add_row(
            st.label,
            *(f"{st.share[j]:.0%} ({st.low[j]:.0%}-{st.high[j]:.0%})" for j in JERSEYS),
            f"{st.mean_best_place:.2f}",
            f"{st.mean_gap:.1f}",
        )
    return shown


def run_stage_races(
    s: StageRaces, jobs: Workers = 1, progress: Callable[[dict[str, Any]], None] | None = None
) -> list[dict[str, Any]]:
    """Ride every race of ``s`` over ``jobs`` processes (or on Ray); the outcomes in race order."""
    return play_games(play_stage_race, s, jobs, progress)


def to_json(s: StageRaces, stats: Sequence[EntryJerseys], outcomes: Sequence[Any]) -> str:
    """The settings, the figures per bot and every race's outcome."""
    settings = {**asdict(s), "records": None if s.records is None else str(s.records)}
    return json.dumps(
        {"settings": settings, "entries": [st.to_dict() for st in stats], "races": list(outcomes)},
        indent=1,
    )


def to_csv(stats: Sequence[EntryJerseys]) -> str:
    """One row per bot."""
    head = ["bot", *(f"{j}_share" for j in JERSEYS), "mean_best_place", "mean_gap"]
    rows = [",".join(head)]
    for st in stats:
        values = [st.label, *(f"{st.share[j]:.4f}" for j in JERSEYS)]
        rows.append(",".join([*values, f"{st.mean_best_place:.3f}", f"{st.mean_gap:.2f}"]))
    return "\n".join(rows) + "\n"
