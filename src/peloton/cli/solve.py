"""``peloton solve``: the Mind Cycling solo solver, keeping ``--time-limit`` as a whole
command (:mod:`peloton.cli.clock`: Python's start-up counts too)."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import ConfigError
from ..games import mindcycling as mc
from ..terminal.courses import load_course
from . import clock
from .base import EXIT_USAGE, errors, fail
from .base import console as new_console
from .help import Command


def register(app: typer.Typer) -> None:
    """Add ``solve`` to ``app``."""
    app.command(cls=Command)(solve)


# ---------------------------------------------------------------- solve

#: Seconds kept back from ``--time-limit`` for what follows the search (printing the
#: line, writing the record, Python's exit) on a machine that gives the command a
#: whole core.
SOLVE_MARGIN = 0.5
#: What follows the search, in CPU seconds: the solver's last step past its deadline,
#: printing, the record, the exit (measured: about 0.1 s). On a busy machine the
#: command keeps back this CPU time at the rate the machine gave it so far
#: (:func:`peloton.cli.clock.share`): a tenth of a core makes it 1.5 s of wall time.
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
    return max(SOLVE_MARGIN, min(AFTER_CPU / clock.share(), MOST_KEPT * time_limit))


def solve_budget(time_limit: float | None, reserve: float = SOLVE_MARGIN) -> float | None:
    """The solver's own limit: ``--time-limit`` less the time the command has already
    spent (Python's start-up and imports included, :mod:`peloton.cli.clock`) and
    ``reserve``, so the command as a whole keeps its limit."""
    if time_limit is None:
        return None
    return max(SOLVE_LEAST, time_limit - clock.elapsed() - reserve)


def solve_clock(began: float) -> Callable[[], float]:
    """The solver's clock: the command's own (:func:`peloton.cli.clock.elapsed`), on
    which the solve began at ``began``, when its budget was set. The solver's first
    reading marks its start: loading the course's book and setting up, which the
    solver does before it reads its clock, count in its time too."""
    readings = 0
    offset = began - time.monotonic()  # the command's clock, read from the system's

    def read() -> float:
        nonlocal readings
        readings += 1
        return began if readings == 1 else max(began, time.monotonic() + offset)

    return read


def time_account(
    time_limit: float | None, starting: float, solving: float, cpu: float, nodes: int, proven: bool
) -> list[str]:
    """What ``peloton solve`` says its time went to, last: its parts add up to its
    total, by its own clock (the line's own printing and the exit aside)."""
    total = clock.elapsed()
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
    from ..games.mindcycling.solver import composition_of
    from ..games.mindcycling.solver import solve as run_solver
    from ..terminal.solving import print_solution

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
        starting = clock.elapsed()
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
        solving = clock.elapsed() - starting
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
    if clock.whole_process():
        # Nothing is left to do, and Python's own exit frees the search's tables one by
        # one: on a busy machine that took seconds past the account just printed.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
