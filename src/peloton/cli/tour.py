"""``peloton tour``: a Cyclo competition at the terminal (:mod:`peloton.terminal.tour`):
a stage race, an omnium, a sprint tournament or a pursuit series, saved after every
game and resumed from its file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import RecordError
from ..games import cyclo as cy
from ..terminal.inputs import terminal_ask
from ..terminal.seats import parse_seat_list
from ..terminal.tour import TourSession, load_tour, parse_legs
from .base import EXIT_USAGE, errors, fail
from .base import console as new_console
from .help import Command

#: ``--kind``: the competitions, by the ``kind`` of their files (CY-12.6).
TOUR_KINDS = ("stage", "omnium", "sprint-tournament", "pursuit-series")
#: The seats when none are given: the omnium needs three riders.
DEFAULT_SEATS = {"omnium": "human,greedy,greedy"}
#: The options that belong to one kind only.
KIND_OPTIONS = {
    "--legs": ("stage",),
    "--events": ("stage",),
    "--bonus-seconds": ("stage",),
    "--entries": ("omnium",),
    "--mode": ("sprint-tournament", "pursuit-series"),
}


def register(app: typer.Typer) -> None:
    """Add ``tour`` to ``app``."""
    app.command(cls=Command)(tour)


def tour(
    kind: Annotated[
        str | None,
        typer.Option(
            help="stage (a stage race), omnium (scratch, elimination, tempo and points races), "
            "sprint-tournament (every pair of teams in a duel) or pursuit-series (timed "
            "qualifying heats and a final).",
            show_default="stage",
        ),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="One controller per team, first team first: human or a bot name (default "
            "human,greedy, in an omnium human,greedy,greedy; when resuming, the file's)."
        ),
    ] = None,
    legs: Annotated[
        str | None,
        typer.Option(
            help="Stage race: tour (prologue, flat stage, mountain stage, team time trial) or a "
            "comma list of MODE or MODE:COURSE, MODE one of leg, itt, ttt (e.g. "
            "itt:prologue,leg:cobble-stage)."
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            help="Sprint tournament: sprint or team-sprint; pursuit series: pursuit or "
            "team-pursuit (default: sprint, pursuit)."
        ),
    ] = None,
    entries: Annotated[
        int | None,
        typer.Option(help="Omnium: riders a team, 1 or 2.", show_default="1"),
    ] = None,
    level: Annotated[
        str | None, typer.Option(help="pro (tokens, wheel, swap) or starter.", show_default="pro")
    ] = None,
    events: Annotated[
        bool | None, typer.Option("--events", help="Stage race: event cards on the road legs.")
    ] = None,
    bonus_seconds: Annotated[
        bool | None,
        typer.Option(
            "--bonus-seconds", help="Stage race: each leg's green points come off its time."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the bots and the dice (reproducible races).")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Save the competition to this file after every game (default: --resume's)."
        ),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Go on with the competition saved in this file.")
    ] = None,
) -> None:
    """Ride a Cyclo competition, each game at the Cyclo table, with the standings
    between games: a stage race (the general classification and the yellow, green
    and red jerseys), an omnium (points), a sprint tournament (duels) or a pursuit
    series (times)."""
    console = new_console()
    race: cy.Competition | None = None
    dice = seed
    target = save if save is not None else resume
    if target is not None and not target.resolve().parent.is_dir():
        raise fail(f"cannot save the competition to {str(target)!r}: no such directory")
    given = {"--kind": kind, "--legs": legs, "--mode": mode, "--entries": entries,
             "--level": level, "--events": events, "--bonus-seconds": bonus_seconds}  # fmt: skip
    if resume is not None:
        clash = [flag for flag, value in given.items() if value is not None]
        if clash:
            raise fail(
                f"{', '.join(clash)}: a resumed competition keeps the settings of its file",
                EXIT_USAGE,
            )
        try:
            race, table = load_tour(resume)
        except (RecordError, UnicodeDecodeError) as exc:
            raise fail(f"{resume}: {exc}") from None
        except OSError as exc:
            raise fail(f"cannot read {str(resume)!r}: {exc.strerror or exc}") from None
        if race.is_over:
            raise fail(f"{resume}: the {race.title} is over (winner {race.winner})")
        line_up = seats or table.get("seats") or DEFAULT_SEATS.get(race.kind, "human,greedy")
        dice = seed if seed is not None else table.get("seed")
    else:
        chosen = kind or "stage"
        if chosen not in TOUR_KINDS:
            raise fail(f"--kind {chosen!r}: one of {', '.join(TOUR_KINDS)}", EXIT_USAGE)
        stray = [
            f for f, kinds in KIND_OPTIONS.items() if given[f] is not None and chosen not in kinds
        ]
        if stray:
            raise fail(
                f"{', '.join(stray)}: not an option of the {cy.KINDS[chosen].title} (--kind {chosen})",
                EXIT_USAGE,
            )
        line_up = seats or DEFAULT_SEATS.get(chosen, "human,greedy")
    with errors():
        names = parse_seat_list(line_up, 1, 6, "a competition")
        if race is None:
            race = new_competition(chosen, len(names), legs, mode, entries, level, events,
                                   bonus_seconds)  # fmt: skip
        session = TourSession(race, names, dice, console, terminal_ask(console), save=target)
    raise typer.Exit(session.run())


def new_competition(
    kind: str,
    players: int,
    legs: str | None,
    mode: str | None,
    entries: int | None,
    level: str | None,
    events: bool | None,
    bonus_seconds: bool | None,
) -> cy.Competition:
    """The competition ``peloton tour`` starts (:class:`ConfigError` for a bad option)."""
    level = level or "pro"
    if kind == "omnium":
        return cy.Omnium(players, entries=1 if entries is None else entries, level=level)
    if kind == "sprint-tournament":
        return cy.SprintTournament(players, mode=mode or "sprint", level=level)
    if kind == "pursuit-series":
        return cy.PursuitSeries(players, mode=mode or "pursuit", level=level)
    return cy.StageRace(
        players,
        legs=parse_legs(legs or "tour"),
        level=level,
        events=bool(events),
        bonus_seconds=bool(bonus_seconds),
    )
