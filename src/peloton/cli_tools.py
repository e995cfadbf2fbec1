"""The ``peloton`` commands that run long work: ``serve`` (the web table), ``simulate``
(bot tournaments) and ``solve`` (the Mind Cycling solo solver). Registered on the app
of :mod:`peloton.cli_base` when :mod:`peloton.cli` imports this module."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from . import cli_clock
from .cli_base import (
    EXIT_USAGE,
    GAME_HELP,
    MIND_CYCLING_GAME,
    OPTION_HELP,
    RelayLimitOption,
    WindOption,
    app,
    errors,
    fail,
    game_name,
    reject_game_options,
    reject_mind_cycling_flags,
)
from .cli_base import console as new_console
from .core.errors import ConfigError
from .games import mindcycling as mc
from .terminal.courses import load_course

if TYPE_CHECKING:
    from .analysis.pool import Workers

# ---------------------------------------------------------------- serve


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            envvar="PELOTON_DB_URL",
            help="Database URL: sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DB "
            "(default: a SQLite file in your data directory).",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.")] = 0.4,
    solver_seconds: Annotated[
        float,
        typer.Option(
            help="Seconds the solo solver may spend on a solo table's course, from the moment it is asked for."
        ),
    ] = 20.0,
    limits: Annotated[
        str,
        typer.Option(
            help="Per-client limits: 'default' (per client address: 30 new tables a minute, 50 open "
            "connections, 240 new connections a minute, one solver run, two checks or replays at once) "
            "or 'relaxed' (none: for tests, benchmarks and trusted networks where every client has one address)."
        ),
    ] = "default",
    broker: Annotated[
        str | None,
        typer.Option(
            envvar="PELOTON_BROKER_URL",
            help="Cluster mode: the Redis that carries messages between the nodes, "
            "redis://HOST:PORT/DB. Every node serves every table (it relays to the node that "
            "runs it); needs a PostgreSQL --db shared by every node (docs/deployment.md).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            help="Node processes on this machine, sharing the port (cluster mode: more than 1 "
            "needs --broker and a PostgreSQL --db). A worker that dies is started again."
        ),
    ] = 1,
    socket_fd: Annotated[
        int | None, typer.Option(hidden=True, help="A worker's inherited listening socket.")
    ] = None,
) -> None:
    """Serve the web table: lobby, live games, spectators and replays (one process; or,
    with --broker, a node of a cluster: docs/deployment.md)."""
    if not 0 <= port <= 65535:
        raise fail(f"--port must be 0 (any free port) to 65535, not {port}", EXIT_USAGE)
    if bot_delay < 0:
        raise fail(f"--bot-delay must be 0 or more seconds, not {bot_delay}", EXIT_USAGE)
    if not solver_seconds > 0:
        raise fail(f"--solver-seconds must be more than 0, not {solver_seconds}", EXIT_USAGE)
    if limits not in ("default", "relaxed"):
        raise fail(f"--limits must be 'default' or 'relaxed', not {limits!r}", EXIT_USAGE)
    check_cluster(db, broker, workers)
    from .server.run import serve as run_server  # the server's dependencies load only here

    code = run_server(host, port, db, bot_delay, solver_seconds, limits, broker, workers, socket_fd)
    raise typer.Exit(code)


def check_cluster(db: str | None, broker: str | None, workers: int) -> None:
    """Refuse, with what to give, a cluster asked for without what it needs: a Redis
    broker and a PostgreSQL database shared by every node."""
    from .server.broker import check_url  # light: the Redis client loads only to connect

    if workers < 1:
        raise fail(f"--workers must be 1 or more, not {workers}", EXIT_USAGE)
    if broker is not None:
        try:
            check_url(broker)
        except ValueError as exc:
            raise fail(f"--broker: {exc}", EXIT_USAGE) from None
    postgres = db is not None and db.split(":", 1)[0].split("+", 1)[0] in ("postgresql", "postgres")
    needs = (
        "cluster mode needs a Redis broker and a PostgreSQL database shared by every node: "
        "give --broker redis://HOST:PORT/DB and --db postgresql://USER:PASSWORD@HOST/DB"
    )
    if workers > 1 and broker is None:
        raise fail(
            f"--workers {workers} runs a cluster: {needs} (or leave --workers out)", EXIT_USAGE
        )
    if broker is not None and not postgres:
        what = "the default SQLite file" if db is None else f"{db.split(':', 1)[0]}"
        raise fail(f"--broker runs a cluster, not on {what}: {needs}", EXIT_USAGE)


# ---------------------------------------------------------------- simulate


@app.command()
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

    from .analysis.simulate import simulate_tournament
    from .analysis.tournament import Tournament

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
    if competition is not None:
        from .cli_competitions import simulate_competitions

        simulate_competitions(name, names, competition, option, games, workers, seed, swap, out,
                              plot, records, console)  # fmt: skip
        return
    if stage_race is not None:
        from .cli_tour import simulate_stage_races

        simulate_stage_races(name, names, stage_race, option, games, workers, seed, swap, out, plot,
                             records, console)  # fmt: skip
        return
    if name != MIND_CYCLING_GAME:
        flags = {"--course": course, "--riders": riders, "--wind": wind, "--relay-limit": relay_limit,
                 "--solo": solo or None}  # fmt: skip
        reject_mind_cycling_flags(name, flags)
        from .analysis.match import Match
        from .analysis.simulate import simulate_match
        from .terminal.setup import parse_option_args

        with errors():
            m = Match(
                name,
                names,
                parse_option_args(option),
                games=games,
                seed=seed,
                swap=swap,
                records=records,
            )
            simulate_match(m, workers, console, _progress(), out=out, plot=plot)
        return
    reject_game_options(option)
    t = Tournament(
        bots=names,
        games=games,
        seed=seed,
        course=course or ("solo" if solo else "standard"),
        riders=riders,
        wind=wind or "front",
        relay_limit=3 if relay_limit is None else relay_limit,
        solo=solo,
        swap=swap,
        records=records,
    )
    with errors():
        simulate_tournament(t, workers, console, _progress(), out=out, plot=plot)


def _workers(jobs: int | None, ray: bool, address: str | None) -> Workers:
    """Where ``simulate`` plays: ``jobs`` processes, or on Ray (checked here, before
    any game, so that a malformed address is a usage error)."""
    if not ray:
        return 1 if jobs is None else jobs
    from .analysis.ray_pool import RayCluster

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


# ---------------------------------------------------------------- solve

#: Seconds kept back from ``--time-limit`` for what follows the search (printing the
#: line, writing the record, Python's exit) on a machine that gives the command a
#: whole core.
SOLVE_MARGIN = 0.5
#: What follows the search, in CPU seconds: the solver's last step past its deadline,
#: printing, the record, the exit (measured: about 0.1 s). On a busy machine the
#: command keeps back this CPU time at the rate the machine gave it so far
#: (:func:`peloton.cli_clock.share`): a tenth of a core makes it 1.5 s of wall time.
AFTER_CPU = 0.15
#: The most of the limit kept back that way.
MOST_KEPT = 0.3
#: The least a solve is given, however late it starts (it answers at once with a line).
SOLVE_LEAST = 0.05
#: How far past ``--time-limit`` the command may end, by its own clock, when its
#: start-up left time to search: the solver's last step and the printing on a machine
#: busier than the start-up said.
LIMIT_MARGIN = 1.0


def solve_reserve(time_limit: float) -> float:
    """Seconds to keep back from ``time_limit`` for what follows the search:
    :data:`SOLVE_MARGIN`, or more on a busy machine (:data:`AFTER_CPU` at the share of
    a core the command got so far), at most :data:`MOST_KEPT` of the limit."""
    return max(SOLVE_MARGIN, min(AFTER_CPU / cli_clock.share(), MOST_KEPT * time_limit))


def solve_budget(time_limit: float | None, reserve: float = SOLVE_MARGIN) -> float | None:
    """The solver's own limit: ``--time-limit`` less the time the command has already
    spent (Python's start-up and imports included, :mod:`peloton.cli_clock`) and
    ``reserve``, so the command as a whole keeps its limit."""
    if time_limit is None:
        return None
    return max(SOLVE_LEAST, time_limit - cli_clock.elapsed() - reserve)


def solve_clock(began: float) -> Callable[[], float]:
    """The solver's clock: the command's own (:func:`peloton.cli_clock.elapsed`), on
    which the solve began at ``began``, when its budget was set. The solver's first
    reading marks its start: loading the course's book and setting up, which the
    solver does before it reads its clock, count in its time too."""
    readings = 0
    offset = began - time.monotonic()  # the command's clock, read from the system's

    def clock() -> float:
        nonlocal readings
        readings += 1
        return began if readings == 1 else max(began, time.monotonic() + offset)

    return clock


def time_account(
    time_limit: float | None, starting: float, solving: float, cpu: float, nodes: int, proven: bool
) -> list[str]:
    """What ``peloton solve`` says its time went to, last: its parts add up to its
    total, by its own clock (the line's own printing and the exit aside)."""
    total = cli_clock.elapsed()
    rest = max(0.0, total - starting - solving)
    busy = ""
    if solving > 0.2 and cpu < 0.5 * solving:
        busy = f": the machine was busy, the search got {cpu / solving:.0%} of a core"
    limit = "" if time_limit is None else f" (limit {time_limit:g} s)"
    lines = [
        f"time: {total:.2f} s{limit}: {starting:.2f} s starting and loading, "
        f"{solving:.2f} s solving ({cpu:.2f} s of CPU{busy}), {rest:.2f} s printing"
    ]
    if nodes == 0:
        lines.insert(
            0,
            "nodes: 0, since "
            + (
                "the bounds proved the first line optimal without a search"
                if proven
                else "the time ran out before the exact search began (the time went to the "
                "first lines and the bounds)"
            ),
        )
    return lines


@app.command()
def solve(
    course: Annotated[str, typer.Option(help="A bundled course name or a course file.")] = "solo",
    team: Annotated[
        str, typer.Option(help="The solo team's composition (5 riders).")
    ] = mc.SOLO_COMPOSITION,
    any_team: Annotated[
        bool,
        typer.Option("--any-team", help="Also search the compositions (each type once or twice)."),
    ] = False,
    start: Annotated[
        str | None, typer.Option(help="Solve from this solo MCN position instead of the setup.")
    ] = None,
    wind: Annotated[
        str, typer.Option(help="Wind direction: front, left or right (MC-5.5).")
    ] = "front",
    relay_limit: Annotated[int, typer.Option(help="Largest group a rider may relay (MC-6.5).")] = 3,
    time_limit: Annotated[
        float | None,
        typer.Option(help="Stop after S seconds with the best line so far (not proven)."),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Write the best line as a game record to FILE.")
    ] = None,
    line: Annotated[
        Path | None,
        typer.Option(
            help="Start from the line of this solo game record (a line you found): the solver improves "
            "on it and proves the result. The record's course, team, start and rules are used."
        ),
    ] = None,
    from_scratch: Annotated[
        bool,
        typer.Option(
            "--from-scratch",
            help="Ignore the best line shipped with a bundled course (start from greedy lines).",
        ),
    ] = False,
) -> None:
    """Find the best possible solo score (MC-9.4) with proof: an exact search."""
    from .games.mindcycling.solver import composition_of
    from .games.mindcycling.solver import solve as run_solver
    from .terminal.solving import print_solution

    if time_limit is not None and time_limit <= 0:
        raise fail(f"--time-limit must be more than 0 seconds, not {time_limit}", EXIT_USAGE)
    if record is not None and not record.resolve().parent.is_dir():
        raise fail(f"cannot write the record to {str(record)!r}: no such directory")
    console = new_console()
    with errors():
        known: list[str] | None = None
        if line is None:
            chosen = load_course(course)
            comp = composition_of(team)
        else:
            given = mc.Record.load(line)
            if len(given.teams) != 1:
                raise ConfigError(
                    f"the record {str(line)!r} is not a solo game: it has {len(given.teams)} teams"
                )
            chosen, comp, start = given.course, composition_of(given.teams["A"]), given.start
            wind, relay_limit, known = given.wind, given.relay_limit, given.moves
        # The budget is set last, as the search begins: what came before is start-up.
        starting = cli_clock.elapsed()
        reserve = SOLVE_MARGIN if time_limit is None else solve_reserve(time_limit)
        solution = run_solver(
            chosen,
            comp,
            start=start,
            any_team=any_team,
            wind=wind,
            relay_limit=relay_limit,
            time_limit=solve_budget(time_limit, reserve),
            known_line=known,
            from_scratch=from_scratch,
            clock=solve_clock(starting),
        )
        solving = cli_clock.elapsed() - starting
    what = f"from {start}" if start is not None else ("any team" if any_team else f"team {comp}")
    print_solution(console, f"solving course {chosen.name!r}, {what}", solution, any_team)
    if record is not None and solution.final is not None:
        with errors():
            mc.Record.from_state(
                solution.final, {"A": {"name": "solver", "controller": "solver"}}
            ).save(record)
        console.print(f"record written to {record}", markup=False, soft_wrap=True)
    account = time_account(
        time_limit, starting, solving, solution.cpu_seconds, solution.nodes, solution.proven
    )
    for text in account:
        console.print(text, markup=False, soft_wrap=True)
    if cli_clock.whole_process():
        # Nothing is left to do, and Python's own exit frees the search's tables one by
        # one: on a busy machine that took seconds past the account just printed.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
