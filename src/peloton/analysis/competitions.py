"""Many bot-ridden Cyclo track competitions (``peloton simulate --game cyclo
--competition omnium|sprint-tournament|pursuit-series``): how often each bot's team
wins the competition, where it ends in the final standings on average, and a figure
of the kind (an omnium's points, a tournament's duels won, a series' qualifying
time). Stage races, with their jerseys, are :mod:`.stage_races`.

Competition ``i`` draws everything from ``Rng(seed).spawn(i)``: seat ``s``'s bot from
``.spawn(s)``, game ``k``'s dice from the chance stream of ``.spawn(GAME_SALT + k)``;
with ``swap`` the line-up is rotated by ``i`` seats. Outcomes come back in competition
order, so the figures are the same for the same seed whatever the number of processes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
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
from .stage_races import check_lineup
from .stats import labels, wilson

GAME = "cyclo"
#: The salt of a competition's games' dice streams, apart from the seats' spawns.
GAME_SALT = 100
#: A game that has not ended after this many moves is reported as an error.
MAX_MOVES = 50_000
#: The competitions run here, with the settings ``-o`` may give each (besides the
#: number of teams, which the bots give), and the figure reported per team: the key of
#: its standings' rows, what it is called, and whether the least is best.
KINDS: dict[str, tuple[tuple[str, ...], str, str, bool]] = {
    "omnium": (("entries", "level"), "points", "points", False),
    "sprint-tournament": (("mode", "level"), "duels", "duels won", False),
    "pursuit-series": (("mode", "level"), "time", "qualifying time (s)", True),
}


@dataclass(frozen=True)
class Competitions:
    """What to ride: one bot per team, the kind and its settings, how many."""

    bots: tuple[str, ...]
    kind: str = "omnium"
    settings: Mapping[str, Any] = field(default_factory=dict)
    games: int = 20
    seed: int = 0
    swap: bool = False
    records: Path | None = None

    def competition(self) -> cy.Competition:
        """A new competition of these settings (:class:`ConfigError` if they are bad)."""
        if self.kind not in KINDS:
            raise ConfigError(
                f"--competition {self.kind!r}: one of {', '.join(KINDS)} (stage races: "
                "--stage-race LEGS)"
            )
        known = KINDS[self.kind][0]
        unknown = sorted(set(self.settings) - set(known))
        if unknown:
            article = "an" if self.kind[0] in "aeiou" else "a"
            raise ConfigError(
                f"-o {', '.join(unknown)}: {article} {self.kind} takes {' and '.join(known)} "
                "(--bots gives the teams)"
            )
        return cy.KINDS[self.kind].from_settings({"players": len(self.bots), **self.settings})

    def check(self) -> None:
        """Raise :class:`ConfigError` (saying what is wrong) for runs that cannot go."""
        check_lineup(self.bots, self.games, self.records, "greedy,random,greedy")
        self.competition()


def team_order(competition: cy.Competition) -> list[str]:
    """The teams in final standing order: by their rows' ranks (an omnium ranks
    riders: a team by its best rider)."""
    order: list[str] = []
    for row in sorted(competition.standings["table"], key=lambda row: row["rank"]):
        team = row["team"]
        if team not in order:
            order.append(team)
    return order


def team_figure(competition: cy.Competition, key: str, least: bool) -> dict[str, float | None]:
    """Each team's figure from its standings rows (its best rider's in an omnium);
    ``None`` where it has none."""
    out: dict[str, float | None] = {}
    for row in competition.standings["table"]:
        value = row.get(key)
        team = row["team"]
        if value is None:
            out.setdefault(team, None)
            continue
        held = out.get(team)
        if held is None or (value < held if least else value > held):
            out[team] = float(value)
    return out


def play_competition(s: Competitions, index: int) -> dict[str, Any]:
    """Ride competition ``index`` of ``s`` (in this process): the entry that won, each
    entry's final standing and figure."""
    rng = Rng(s.seed).spawn(index)
    lineup = rotated_lineup(len(s.bots), index, s.swap)
    competition = s.competition()
    teams = "ABCDEF"[: len(s.bots)]
    seeds = [rng.spawn(seat).seed for seat in range(len(teams))]
    bots = {t: make_bot(s.bots[lineup[k]], seeds[k], game=GAME) for k, t in enumerate(teams)}
    names = {t: {"name": s.bots[lineup[k]], "kind": "bot"} for k, t in enumerate(teams)}
    game = 0
    while not competition.is_over:
        chance = chance_stream(rng.spawn(GAME_SALT + game))
        state = competition.next_game(seed=chance.seed)
        assert state is not None
        play_out(state, {t: bots[t] for t in state.players}, chance=chance, max_moves=MAX_MOVES)
        competition.add(state, {t: names[t] for t in state.players})
        game += 1
    entry = {t: lineup[k] for k, t in enumerate(teams)}
    order = team_order(competition)
    _, key, _, least = KINDS[s.kind]
    figure = team_figure(competition, key, least)
    winner = competition.winner
    assert winner is not None
    record = None
    if s.records is not None:
        path = s.records / f"{s.kind}-{index:05d}.json"
        path.write_text(json.dumps(competition.to_dict()), encoding="utf-8")
        record = str(path)
    by_entry = {entry[t]: t for t in teams}
    return {
        "index": index,
        "lineup": lineup,
        "games": game,
        "winner": entry[winner[0]],
        "standing": [order.index(by_entry[e]) + 1 for e in range(len(s.bots))],
        "figure": [figure.get(by_entry[e]) for e in range(len(s.bots))],
        "record": record,
    }


@dataclass
class EntryStandings:
    """What one entry of the line-up achieved over the competitions."""

    entry: int
    label: str
    bot: str
    competitions: int = 0
    wins: int = 0
    #: Its share of the wins, and the share's 95% Wilson interval.
    win_share: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    #: Its mean final standing (1 best), and the mean of the kind's figure.
    mean_standing: float = 0.0
    mean_figure: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarise(bots: Sequence[str], outcomes: Sequence[dict[str, Any]]) -> list[EntryStandings]:
    """Win shares and mean standings per entry."""
    names = labels(bots)
    n = len(outcomes)
    out = []
    for e, bot in enumerate(bots):
        won = sum(1 for o in outcomes if o["winner"] == e)
        low, high = wilson(won, n)
        figures = [o["figure"][e] for o in outcomes if o["figure"][e] is not None]
        out.append(
            EntryStandings(
                e,
                names[e],
                bot,
                competitions=n,
                wins=won,
                win_share=won / n if n else 0.0,
                win_low=low,
                win_high=high,
                mean_standing=sum(o["standing"][e] for o in outcomes) / n if n else 0.0,
                mean_figure=sum(figures) / len(figures) if figures else None,
            )
        )
    return out


def describe(s: Competitions) -> str:
    """The run in words, e.g. ``omnium (entries 2, level pro): 20 competitions``."""
    settings = ", ".join(f"{k} {v}" for k, v in s.settings.items())
    return f"Cyclo {s.kind}{f' ({settings})' if settings else ''}: {s.games} competitions"


def table(s: Competitions, stats: Sequence[EntryStandings]) -> Table:
    """The win shares per bot (with their 95% intervals), mean standings and figures."""
    figure = KINDS[s.kind][2]
    whose = "its best rider's" if s.kind == "omnium" else "the team's"
    shown = Table(
        title=describe(s),
        caption="wins: share of the competitions won (95% Wilson interval); standing: "
        f"mean final place of the bot's team; {figure}: the mean of {whose}",
    )
    shown.add_column("bot")
    shown.add_column("wins", justify="right")
    shown.add_column("standing", justify="right")
    shown.add_column(figure, justify="right")
    for st in stats:
        shown.add_row(
            st.label,
            f"{st.win_share:.0%} ({st.win_low:.0%}-{st.win_high:.0%})",
            f"{st.mean_standing:.2f}",
            "-" if st.mean_figure is None else f"{st.mean_figure:.2f}",
        )
    return shown


def run_competitions(
    s: Competitions, jobs: Workers = 1, progress: Callable[[dict[str, Any]], None] | None = None
) -> list[dict[str, Any]]:
    """Ride every competition of ``s`` over ``jobs`` processes (or on Ray); outcomes in order."""
    return play_games(play_competition, s, jobs, progress)


def to_json(s: Competitions, stats: Sequence[EntryStandings], outcomes: Sequence[Any]) -> str:
    """The settings, the figures per bot and every competition's outcome."""
    settings = {
        **asdict(s),
        "settings": dict(s.settings),
        "records": None if s.records is None else str(s.records),
    }
    return json.dumps(
        {
            "settings": settings,
            "entries": [st.to_dict() for st in stats],
            "competitions": list(outcomes),
        },
        indent=1,
    )


def to_csv(stats: Sequence[EntryStandings]) -> str:
    """One row per bot."""
    rows = ["bot,wins,win_share,win_low,win_high,mean_standing,mean_figure"]
    for st in stats:
        figure = "" if st.mean_figure is None else f"{st.mean_figure:.3f}"
        rows.append(
            f"{st.label},{st.wins},{st.win_share:.4f},{st.win_low:.4f},{st.win_high:.4f},"
            f"{st.mean_standing:.3f},{figure}"
        )
    return "\n".join(rows) + "\n"
