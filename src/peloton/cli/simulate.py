"""``peloton simulate``: many bot games of any game (a match; Mind Cycling a tournament on
a course), or whole Cyclo competitions (stage races, omniums, sprint tournaments,
pursuit series), each bot's shares reported; played in processes or on Ray."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ..core.errors import ConfigError
from ..terminal.tour import parse_legs
from .base import (
    EXIT_USAGE,
    GAME_HELP,
    MIND_CYCLING_GAME,
    OPTION_HELP,
    RelayLimitOption,
    WindOption,
    errors,
    fail,
    game_name,
    reject_game_options,
    reject_mind_cycling_flags,
)
from .base import console as new_console
from .help import Command

if TYPE_CHECKING:
    from ..analysis.pool import Workers


def register(app: typer.Typer) -> None:
    """Add ``simulate`` to ``app``."""
    app.command(cls=Command)(simulate)


@dataclass(frozen=True)
class Run:
    """What every kind of ``peloton simulate`` run takes from the command line, checked:
    the game, one bot a seat, the ``-o`` options, how many games and where to play them
    (processes or Ray), the seed, whether seats rotate, and where the results go."""

    game: str
    bots: tuple[str, ...]
    option: list[str] | None
    games: int
    workers: Workers
    seed: int
    swap: bool
    out: Path | None
    plot: Path | None
    records: Path | None
    console: Console


# ---------------------------------------------------------------- simulate


def simulate(
    bots: Annotated[
        str,
        typer.Option(
            help="One bot per seat, first seat first: random, greedy, easy, medium, hard, expert, mcts:N, mcts:Xs."
        ),
    ],
    game: Annotated[str, typer.Option(help=f"The game: {GAME_HELP}")] = MIND_CYCLING_GAME,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP, metavar="NAME=VALUE")
    ] = None,
    games: Annotated[int, typer.Option(help="Number of games.")] = 100,
    jobs: Annotated[
        int | None,
        typer.Option(
            help="Processes to play games in (with --ray: the most games at once, by "
            "default one per CPU of the Ray cluster).",
            show_default="1",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="Seed of the whole run (same seed, same results, any --jobs).")
    ] = 0,
    course: Annotated[
        str | None,
        typer.Option(
            help="A bundled course name or a course file (default standard; solo with --solo)."
        ),
    ] = None,
    riders: Annotated[int | None, typer.Option(help="Riders per team, 3 to 6 (default 6).")] = None,
    wind: WindOption = None,
    relay_limit: RelayLimitOption = None,
    solo: Annotated[bool, typer.Option("--solo", help="The solo challenge: one bot.")] = False,
    swap: Annotated[
        bool,
        typer.Option(
            "--swap", help="Rotate the line-up one seat per game, so every bot plays every seat."
        ),
    ] = False,
    out: Annotated[
        Path | None, typer.Option(help="Also write the results to FILE.json or FILE.csv.")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Draw medal shares and points (other games: wins and figures) to FILE.png."
        ),
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Save every game's record in this directory.")
    ] = None,
    stage_race: Annotated[
        str | None,
        typer.Option(
            "--stage-race",
            help="Cyclo: ride whole stage races over these legs (tour, or MODE:COURSE,...) and "
            "report each bot's jersey shares; -o takes level, events, bonus_seconds.",
        ),
    ] = None,
    ray: Annotated[
        bool,
        typer.Option(
            "--ray",
            help="Play the games on Ray: a local Ray started for the run, or the cluster of "
            "--ray-address; the same results as --jobs. Needs Ray: pip install 'peloton\\[ray]'.",
        ),
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="With --ray: the Ray cluster to play on, HOST:PORT (its head node), "
            "ray://HOST:PORT (Ray Client) or auto (the one `ray start` runs on this machine).",
        ),
    ] = None,
    competition: Annotated[
        str | None,
        typer.Option(
            "--competition",
            help="Cyclo: ride whole omnium, sprint-tournament or pursuit-series competitions "
            "and report each bot's win share and mean standing; -o takes level, and entries "
            "(omnium) or mode (sprint or team-sprint, pursuit or team-pursuit). stage: the "
            "tour, as --stage-race tour.",
        ),
    ] = None,
) -> None:
    """Play many bot games and report win shares, medals, points, places and ratings."""
    if games < 1:
        raise fail(f"--games must be at least 1, not {games}", EXIT_USAGE)
    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}", EXIT_USAGE)
    if ray_address is not None and not ray:
        raise fail("--ray-address goes with --ray (play the games on that cluster)", EXIT_USAGE)
    workers = _workers(jobs, ray, ray_address)
    if out is not None and out.suffix.lower() not in (".json", ".csv"):
        raise fail(f"--out must name a .json or .csv file, not {str(out)!r}", EXIT_USAGE)
    if plot is not None and plot.suffix.lower() != ".png":
        raise fail(f"--plot must name a .png file, not {str(plot)!r}", EXIT_USAGE)
    for path, what in ((out, "--out"), (plot, "--plot")):
        if path is not None and not path.resolve().parent.is_dir():
            raise fail(f"cannot write {what} {str(path)!r}: no such directory")
    console = new_console()
    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    name = game_name(game)
    if stage_race is not None and competition is not None:
        raise fail("give --stage-race or --competition, not both", EXIT_USAGE)
    if competition == "stage":  # the tour's legs; --stage-race LEGS chooses others
        competition, stage_race = None, "tour"
    run = Run(name, names, option, games, workers, seed, swap, out, plot, records, console)
    if competition is not None:
        _competitions(run, competition)
    elif stage_race is not None:
        _stage_races(run, stage_race)
    elif name != MIND_CYCLING_GAME:
        flags = {"--course": course, "--riders": riders, "--wind": wind, "--relay-limit": relay_limit,
                 "--solo": solo or None}  # fmt: skip
        reject_mind_cycling_flags(name, flags)
        _match(run)
    else:
        _tournament(run, course, riders, wind, relay_limit, solo)


def _match(run: Run) -> None:
    """The games other than Mind Cycling: a match of ``run.games`` games."""
    from ..analysis.match import Match
    from ..analysis.simulate import simulate_match
    from ..terminal.setup import parse_option_args

    with errors():
        match = Match(
            run.game,
            run.bots,
            parse_option_args(run.option),
            games=run.games,
            seed=run.seed,
            swap=run.swap,
            records=run.records,
        )
        simulate_match(match, run.workers, run.console, _progress(), out=run.out, plot=run.plot)


def _tournament(
    run: Run,
    course: str | None,
    riders: int | None,
    wind: str | None,
    relay_limit: int | None,
    solo: bool,
) -> None:
    """Mind Cycling: a tournament on a course, with its own flags (not ``-o``)."""
    from ..analysis.simulate import simulate_tournament
    from ..analysis.tournament import Tournament

    reject_game_options(run.option)
    tournament = Tournament(
        bots=run.bots,
        games=run.games,
        seed=run.seed,
        course=course or ("solo" if solo else "standard"),
        riders=riders,
        wind=wind or "front",
        relay_limit=3 if relay_limit is None else relay_limit,
        solo=solo,
        swap=run.swap,
        records=run.records,
    )
    with errors():
        simulate_tournament(
            tournament, run.workers, run.console, _progress(), out=run.out, plot=run.plot
        )


def _workers(jobs: int | None, ray: bool, address: str | None) -> Workers:
    """Where ``simulate`` plays: ``jobs`` processes, or on Ray (checked here, before
    any game, so that a malformed address is a usage error)."""
    if not ray:
        return 1 if jobs is None else jobs
    from ..analysis.ray_pool import RayCluster

    cluster = RayCluster(address, jobs)
    try:
        cluster.check()
    except ConfigError as exc:
        raise fail(str(exc), EXIT_USAGE) from None
    return cluster


def _progress() -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    return Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,  # piped: no bar, not even its closing newline
    )


# ---------------------------------------------------------------- Cyclo competitions


def _stage_races(run: Run, legs: str) -> None:
    """``--stage-race LEGS``: many bot-ridden Cyclo stage races, each bot's jersey shares
    and mean general-classification place."""
    from ..analysis import stage_races as sr
    from ..terminal.setup import parse_option_args

    if run.game != "cyclo":
        raise fail(
            f"--stage-race: stage races are Cyclo's, not {run.game}'s (--game cyclo)", EXIT_USAGE
        )
    if run.plot is not None:
        raise fail("--plot: stage races report a table (and --out), no plot", EXIT_USAGE)
    with errors():
        given = parse_option_args(run.option)
        unknown = sorted(set(given) - {"level", "events", "bonus_seconds"})
        if unknown:
            raise ConfigError(
                f"-o {', '.join(unknown)}: a stage race takes level, events and bonus_seconds "
                "(the legs set the modes and courses, --bots the teams)"
            )
        races = sr.StageRaces(
            run.bots,
            legs=parse_legs(legs),
            games=run.games,
            seed=run.seed,
            swap=run.swap,
            records=run.records,
            **given,
        )
        outcomes = sr.run_stage_races(races, run.workers)
    stats = sr.summarise(run.bots, outcomes)
    run.console.print(sr.table(races, stats))
    if run.out is not None:
        is_json = run.out.suffix.lower() == ".json"
        text = sr.to_json(races, stats, outcomes) if is_json else sr.to_csv(stats)
        run.out.write_text(text, encoding="utf-8")
        run.console.print(f"results written to {run.out}", markup=False, soft_wrap=True)
    if run.records is not None:
        run.console.print(
            f"{run.games} stage races saved in {run.records}", markup=False, soft_wrap=True
        )


def _competitions(run: Run, kind: str) -> None:
    """``--competition KIND``: many bot-ridden Cyclo track competitions (an omnium, a
    sprint tournament, a pursuit series), each bot's win share and mean standing
    (:mod:`peloton.analysis.competitions`)."""
    from ..analysis import competitions as cp
    from ..terminal.setup import parse_option_args

    if run.game != "cyclo":
        raise fail(
            f"--competition: competitions are Cyclo's, not {run.game}'s (--game cyclo)",
            EXIT_USAGE,
        )
    if run.plot is not None:
        raise fail("--plot: competitions report a table (and --out), no plot", EXIT_USAGE)
    with errors():
        runs = cp.Competitions(
            run.bots,
            kind=kind,
            settings=parse_option_args(run.option),
            games=run.games,
            seed=run.seed,
            swap=run.swap,
            records=run.records,
        )
        outcomes = cp.run_competitions(runs, run.workers)
    stats = cp.summarise(run.bots, outcomes)
    run.console.print(cp.table(runs, stats))
    if run.out is not None:
        is_json = run.out.suffix.lower() == ".json"
        run.out.write_text(
            cp.to_json(runs, stats, outcomes) if is_json else cp.to_csv(stats), encoding="utf-8"
        )
        run.console.print(f"results written to {run.out}", markup=False, soft_wrap=True)
    if run.records is not None:
        run.console.print(
            f"{run.games} competitions saved in {run.records}", markup=False, soft_wrap=True
        )
