"""``peloton tour``: a Cyclo stage race at the terminal (:mod:`peloton.terminal.tour`),
saved after every leg and resumed from its file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from .cli_base import EXIT_USAGE, app, errors, fail
from .cli_base import console as new_console
from .core.errors import ConfigError, RecordError
from .games import cyclo as cy
from .terminal.inputs import terminal_ask
from .terminal.seats import parse_seat_list
from .terminal.tour import TourSession, load_tour, parse_legs


@app.command()
def tour(
    seats: Annotated[
        str | None,
        typer.Option(
            help="One controller per team, first team first: human or a bot name (default "
            "human,greedy; when resuming, the file's)."
        ),
    ] = None,
    legs: Annotated[
        str | None,
        typer.Option(
            help="tour (prologue, flat stage, mountain stage, team time trial) or a comma list "
            "of MODE or MODE:COURSE, MODE one of leg, itt, ttt (e.g. itt:prologue,leg:cobble-stage)."
        ),
    ] = None,
    level: Annotated[
        str | None, typer.Option(help="pro (tokens, wheel, swap) or starter.", show_default="pro")
    ] = None,
    events: Annotated[
        bool | None, typer.Option("--events", help="Event cards on the road legs.")
    ] = None,
    bonus_seconds: Annotated[
        bool | None,
        typer.Option("--bonus-seconds", help="Each leg's green points come off its time."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed for the bots and the dice (reproducible races).")
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Save the stage race to this file after every leg (default: --resume's)."
        ),
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Go on with the stage race saved in this file.")
    ] = None,
) -> None:
    """Ride a Cyclo stage race: legs and time trials in turn, with the general
    classification, the yellow, green and red jerseys between legs."""
    console = new_console()
    race: cy.StageRace | None = None
    line_up, dice = seats or "human,greedy", seed
    target = save if save is not None else resume
    if target is not None and not target.resolve().parent.is_dir():
        raise fail(f"cannot save the stage race to {str(target)!r}: no such directory")
    if resume is not None:
        given = {"--legs": legs, "--level": level, "--events": events,
                 "--bonus-seconds": bonus_seconds}  # fmt: skip
        clash = [flag for flag, value in given.items() if value is not None]
        if clash:
            raise fail(
                f"{', '.join(clash)}: a resumed stage race keeps the settings of its file",
                EXIT_USAGE,
            )
        try:
            race, table = load_tour(resume)
        except (RecordError, UnicodeDecodeError) as exc:
            raise fail(f"{resume}: {exc}") from None
        except OSError as exc:
            raise fail(f"cannot read {str(resume)!r}: {exc.strerror or exc}") from None
        if race.is_over:
            raise fail(f"{resume}: the stage race is over (winner {race.winner})")
        line_up = seats or table.get("seats") or "human,greedy"
        dice = seed if seed is not None else table.get("seed")
    with errors():
        if race is None:
            race = cy.StageRace(
                len(parse_seat_list(seats or "human,greedy", 1, 6, "a stage race")),
                legs=parse_legs(legs or "tour"),
                level=level or "pro",
                events=bool(events),
                bonus_seconds=bool(bonus_seconds),
            )
        names = parse_seat_list(line_up, 1, 6, "a stage race")
        session = TourSession(race, names, dice, console, terminal_ask(console), save=target)
    raise typer.Exit(session.run())


def simulate_stage_races(
    game: str,
    bots: tuple[str, ...],
    legs: str,
    option: list[str] | None,
    games: int,
    jobs: int,
    seed: int,
    swap: bool,
    out: Path | None,
    plot: Path | None,
    records: Path | None,
    console: Console,
) -> None:
    """``peloton simulate --game cyclo --stage-race LEGS``: many bot-ridden stage races,
    each bot's jersey shares and mean general-classification place."""
    from .analysis import stage_races as sr
    from .terminal.setup import parse_option_args

    if game != "cyclo":
        raise fail(
            f"--stage-race: stage races are Cyclo's, not {game}'s (--game cyclo)", EXIT_USAGE
        )
    if plot is not None:
        raise fail("--plot: stage races report a table (and --out), no plot", EXIT_USAGE)
    with errors():
        given = parse_option_args(option)
        unknown = sorted(set(given) - {"level", "events", "bonus_seconds"})
        if unknown:
            raise ConfigError(
                f"-o {', '.join(unknown)}: a stage race takes level, events and bonus_seconds "
                "(the legs set the modes and courses, --bots the teams)"
            )
        races = sr.StageRaces(
            bots,
            legs=parse_legs(legs),
            games=games,
            seed=seed,
            swap=swap,
            records=records,
            **given,
        )
        outcomes = sr.run_stage_races(races, jobs)
    stats = sr.summarise(bots, outcomes)
    console.print(sr.table(races, stats))
    if out is not None:
        text = (
            sr.to_json(races, stats, outcomes)
            if out.suffix.lower() == ".json"
            else sr.to_csv(stats)
        )
        out.write_text(text, encoding="utf-8")
        console.print(f"results written to {out}", markup=False, soft_wrap=True)
    if records is not None:
        console.print(f"{games} stage races saved in {records}", markup=False, soft_wrap=True)
