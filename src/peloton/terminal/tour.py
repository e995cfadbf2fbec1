"""``peloton tour``: a whole Cyclo competition at the terminal, humans and bots: a
stage race, an omnium, a sprint tournament or a pursuit series (CY-12).

Each game is an ordinary Cyclo table (:class:`TableSession` with the Cyclo drawing);
between games the standings are shown (the general classification with its jerseys,
the omnium's points, the tournament's duels, the series' times), and the
competition file is written after every game. A file holds the competition's
settings, the records of the games ridden and, under ``table``, the seats and the
seed, so that a competition resumed from it goes on with the same players and the
same dice it would have had without the break. A game left half-way is not kept:
resuming rides it again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..core.errors import ConfigError, RecordError
from ..core.rng import Rng
from ..games import cyclo as cy
from ..games.cyclo.competitions.omnium import EVENTS
from ..games.cyclo.competitions.stage_race import LEG_MODES
from ..games.cyclo.riders import TEAM_LETTERS
from .cyclo import CycloTerminal
from .cyclo_board import team_style
from .play import EXIT_INPUT_ENDED, EXIT_INTERRUPTED
from .prompt import QUIT_WORDS, Ask
from .seats import HUMAN, make_seats
from .setup import chance_stream
from .standings import omnium_view, race_time, series_view, team_label, tournament_view
from .table import TableSession, seat_entry

GAME = "cyclo"
#: The jersey marks beside a rider's id.
MARKS = {"yellow": ("Y", "bold black on yellow"), "green": ("G", "bold black on green"),
         "red": ("R", "bold white on red")}  # fmt: skip
#: Riders listed in the points and mountains classifications between legs.
TOP = 5


def parse_legs(text: str) -> str | list[dict[str, Any]]:
    """``--legs``: ``tour``, or a comma list of ``MODE`` or ``MODE:COURSE`` (a bundled
    course or a course file), e.g. ``itt:prologue,leg:flat-stage,ttt``."""
    if text.strip() == "tour":
        return "tour"
    legs: list[dict[str, Any]] = []
    for part in text.split(","):
        mode, _, course = part.strip().partition(":")
        if mode not in LEG_MODES:
            raise ConfigError(
                f"--legs {text!r}: {part.strip()!r} is not MODE or MODE:COURSE with MODE one of "
                f"{', '.join(LEG_MODES)} (or give 'tour')"
            )
        leg: dict[str, Any] = {"mode": mode}
        if course:
            bundled = course in cy.bundled_courses()
            leg["course"] = course if bundled else cy.Course.load(course).to_dict()
        legs.append(leg)
    return legs


def stage_race_view(race: cy.StageRace, players: Mapping[str, str]) -> RenderableType:
    """The general classification with times and gaps, the jerseys, the points and
    mountains leaders and the tokens saved for the next leg."""
    standings = race.standings
    ridden, legs = standings["ridden"], standings["legs"]
    wearers = standings["jerseys"]
    head = (
        "Final classification"
        if race.is_over
        else f"General classification after leg {ridden} of {legs}"
    )
    table = Table(box=None, padding=(0, 1), pad_edge=False, title=head, title_justify="left",
                  title_style="bold underline")  # fmt: skip
    for column, justify in (("", "right"), ("rider", "left"), ("team", "left"), ("time", "right"),
                            ("gap", "right"), ("green", "right"), ("red", "right")):  # fmt: skip
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    leader = standings["yellow"][0][1]
    green, red = dict(standings["green"]), dict(standings["red"])
    for place, (rider, time) in enumerate(standings["yellow"], start=1):
        name = Text(rider, team_style(rider[0]))
        for jersey, (mark, style) in MARKS.items():
            if wearers[jersey] == rider:
                name.append(" ")
                name.append(mark, style)
        table.add_row(f"{place}.", name, _team(rider[0], players), race_time(time),
                      "" if place == 1 else f"+{race_time(time - leader)}",
                      str(green[rider]), str(red[rider]))  # fmt: skip
    lines: list[RenderableType] = [table, _jerseys(wearers, standings, players)]
    for jersey, label, unit in (
        ("green", "Points (green)", "pts"),
        ("red", "Mountains (red)", "pts"),
    ):
        row = Text(f"{label}: ", "bold")
        scored = [(rider, value) for rider, value in standings[jersey][:TOP] if value]
        for i, (rider, value) in enumerate(scored):
            row.append(", " if i else "")
            row.append(rider, team_style(rider[0]))
            row.append(f" {value} {unit}")
        lines.append(row if scored else row.append("no points yet"))
    saved = {r: n for r, n in sorted(standings["tokens"].items()) if n}
    if saved and not race.is_over:
        line = Text("Tokens saved for the next leg: ", "bold")
        line.append(", ".join(f"{r} {n}" for r, n in saved.items()))
        lines.append(line)
    return Group(*lines)


def standings_view(race: cy.Competition, players: Mapping[str, str]) -> RenderableType:
    """The standings of any competition, as its kind shows them."""
    if isinstance(race, cy.StageRace):
        return stage_race_view(race, players)
    if isinstance(race, cy.Omnium):
        return omnium_view(race, players)
    if isinstance(race, cy.SprintTournament):
        return tournament_view(race, players)
    assert isinstance(race, cy.PursuitSeries)
    return series_view(race, players)


def _team(team: str, players: Mapping[str, str]) -> Text:
    return team_label(team, players)


def _jerseys(wearers: Mapping[str, str], standings: Mapping[str, Any],
             players: Mapping[str, str]) -> Text:  # fmt: skip
    line = Text("Jerseys: ", "bold")
    for i, jersey in enumerate(("yellow", "green", "red")):
        rider = wearers[jersey]
        line.append(" · " if i else "")
        line.append(jersey, MARKS[jersey][1])
        line.append(" ")
        line.append(rider, team_style(rider[0]))
        line.append(" of team ")
        line.append_text(_team(rider[0], players))
    return line


#: What a kind calls its games (singular, plural) in the terminal's messages.
UNITS = {"stage": ("leg", "legs"), "omnium": ("event", "events")}


def game_units(race: cy.Competition) -> tuple[str, str]:
    """``("leg", "legs")``: what a competition's games are called."""
    return UNITS.get(race.kind, ("heat", "heats"))


def planned_games(race: cy.Competition) -> int | None:
    """How many games a competition has, when that is known from the start (the
    tournament's and the series' depend on heats won and ties)."""
    if isinstance(race, cy.StageRace):
        return len(race.legs)
    if isinstance(race, cy.Omnium):
        return len(EVENTS)
    return None


class TourSession:
    """A competition at the terminal, from its next game to the end (or until the
    players stop); the competition file is saved to ``save`` after every game."""

    def __init__(
        self,
        race: cy.Competition,
        seats: list[str],
        seed: int | None,
        console: Console,
        ask: Ask,
        save: Path | None = None,
    ) -> None:
        if len(seats) != race.players:
            raise ConfigError(
                f"the {race.title} has {race.players} teams; --seats gives {len(seats)} "
                f"({','.join(seats)})"
            )
        self.race = race
        self.seats = seats
        self.base = Rng(seed)
        self.console = console
        self.ask = ask
        self.save_path = save
        self.humans = HUMAN in seats
        self.players = {seat.team: seat.label for seat in make_seats(seats, 0, None, GAME)}

    def to_dict(self) -> dict[str, Any]:
        """The competition file, with the table's seats and seed."""
        return {
            **self.race.to_dict(),
            "table": {"seats": ",".join(self.seats), "seed": self.base.seed},
        }

    def save(self) -> bool:
        """Write the file (whole or not at all); whether it was written."""
        if self.save_path is None:
            return True
        path = self.save_path
        temporary = path.with_name(f".{path.name}.tmp")
        try:
            temporary.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
            os.replace(temporary, path)
        except OSError as exc:
            self.console.print(
                Text(f"✗ cannot save the {self.race.title} to {path}: {exc}", "bold red")
            )
            return False
        return True

    def run(self) -> int:
        """Ride the games left; the exit code (that of a game left unfinished, 1 when
        the file could not be saved)."""
        race, console = self.race, self.console
        if race.records:
            console.print(standings_view(race, self.players))
        saved_all = self.save()  # the settings are kept before the first game too
        one = game_units(race)[0]
        while not race.is_over:
            index = len(race.records)
            console.print(Rule(race.next_title()))
            game = self.base.spawn(index)
            chance = chance_stream(game)
            state = race.next_game(seed=chance.seed)
            assert state is not None
            names = [self.seats[TEAM_LETTERS.index(team)] for team in state.players]
            seats = make_seats(names, game.seed, state.players, GAME)
            table = TableSession(state, seats, CycloTerminal(), console, self.ask, chance=chance)
            code = table.run()
            if not state.is_over:
                self._stopped(index)
                return code
            race.add(state, {seat.team: seat_entry(seat) for seat in seats})
            saved_all = self.save() and saved_all
            console.print(standings_view(race, self.players))
            if self.humans and not race.is_over:
                what = f"{one} {index + 2}" if race.kind in UNITS else f"the next {one}"
                try:
                    answer = self.ask(f"Press Enter for {what} (q to stop) > ")
                except EOFError:
                    console.print(Text(f"\nInput ended before the {race.title} did.", "bold red"))
                    self._stopped(index + 1)
                    return EXIT_INPUT_ENDED
                except KeyboardInterrupt:
                    console.print(Text("\nInterrupted.", "bold red"))
                    self._stopped(index + 1)
                    return EXIT_INTERRUPTED
                if answer.strip().lower() in QUIT_WORDS:
                    self._stopped(index + 1)
                    return 0 if saved_all else 1
        self._finish()
        return 0 if saved_all else 1

    def _stopped(self, ridden: int) -> None:
        where = (
            f"; resume with: peloton tour --resume {self.save_path}"
            if self.save_path is not None
            else ""
        )
        one, many = game_units(self.race)
        planned = planned_games(self.race)
        of = f" of {planned}" if planned is not None else ""
        self.console.print(
            f"The {self.race.title} stops after {ridden}{of} {one if ridden == 1 and not of else many}"
            f"{where}",
            markup=False,
            soft_wrap=True,
        )

    def _finish(self) -> None:
        winner = self.race.winner
        assert winner is not None
        line = Text(f"Winner of the {self.race.title}: ", "bold")
        if len(winner) == 1:  # a team: the tournament and the series
            line.append("team ")
            line.append_text(_team(winner, self.players))
        else:
            line.append(winner, team_style(winner[0]))
            line.append(" of team ")
            line.append_text(_team(winner[0], self.players))
        self.console.print(line)
        if self.save_path is not None:
            self.console.print(
                f"{self.race.title.capitalize()} saved to {self.save_path}",
                markup=False,
                soft_wrap=True,
            )


def load_tour(path: Path) -> tuple[cy.Competition, dict[str, Any]]:
    """A saved competition and its ``table`` (seats, seed); :class:`RecordError` for
    a file that is not one."""
    text = path.read_text(encoding="utf-8")
    race = cy.load_competition(text)
    table = json.loads(text).get("table") or {}
    if (
        not isinstance(table, dict)
        or not isinstance(table.get("seats", ""), str)
        or not (table.get("seed") is None or isinstance(table["seed"], int))
    ):
        raise RecordError(f'{path}: \'table\' must be {{"seats": text, "seed": integer}}')
    return race, table
