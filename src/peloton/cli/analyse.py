"""``peloton analyse``: a record's every position assessed by its game's engine (each
seat's chance to win, the best move, what the played move cost), printed as a table
with a summary per seat, or written as ``peloton-analysis/1`` JSON and a plot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from ..analysis.review import Analysis, Budget, analyse, to_json
from ..core.errors import RecordError
from ..core.record import decode_record, read_record_text
from ..server.limits import MAX_RECORD_BYTES, MAX_RECORD_MOVES
from .base import EXIT_USAGE, errors, fail
from .base import console as new_console
from .help import Command


def register(app: typer.Typer) -> None:
    """Add ``analyse`` to ``app``."""
    app.command(cls=Command)(analyse_command)


def analyse_command(
    record: Annotated[Path, typer.Argument(help="The record file (any game).", show_default=False)],
    budget: Annotated[
        float, typer.Option(help="CPU seconds of search per position (exact engines need none).")
    ] = 0.2,
    jobs: Annotated[int, typer.Option(help="Processes analysing positions at once.")] = 1,
    seed: Annotated[int, typer.Option(help="Seed of the searches.")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the peloton-analysis/1 JSON instead of a table.")
    ] = False,
    out: Annotated[
        Path | None, typer.Option(help="Also write the peloton-analysis/1 JSON to this file.")
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(help="Draw each seat's chance over the game, mistakes marked, to FILE.png."),
    ] = None,
) -> None:
    """Analyse a record: each seat's chance to win at every move, the engine's best move
    and what the played one cost (inaccuracy, mistake, blunder), and a summary per seat.
    Mind Twist is exact (its solver); the other games are searched (MCTS)."""
    if not budget > 0:
        raise fail(f"--budget must be more than 0 seconds, not {budget}", EXIT_USAGE)
    if jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}", EXIT_USAGE)
    with errors():
        data = read_checked(record)
        with _progress() as bar:
            task = bar.add_task("positions", total=len(data["moves"]))
            analysis = analyse(
                data, Budget(seconds=budget), jobs, seed, lambda _: bar.advance(task)
            )
        written = to_json(analysis)
        if out is not None:
            out.write_text(json.dumps(written, indent=1) + "\n", encoding="utf-8")
        if plot is not None:
            from ..analysis.review.plot import plot_analysis

            plot_analysis(analysis, plot)
    if as_json:
        print(json.dumps(written, indent=1))
    else:
        show(analysis)


analyse_command.__name__ = "analyse"


def read_checked(path: Path) -> dict[str, Any]:
    """The decoded record at ``path``: :class:`RecordError` for a file too large (the
    server's upload limits) or not a record."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise RecordError(f"cannot read record {str(path)!r}: {exc.strerror}") from None
    if size > MAX_RECORD_BYTES:
        raise RecordError(
            f"record {str(path)!r} is {size} bytes: more than the {MAX_RECORD_BYTES} a record may have"
        )
    data = decode_record(read_record_text(path))
    moves = data.get("moves")
    if isinstance(moves, list) and len(moves) > MAX_RECORD_MOVES:
        raise RecordError(
            f"record {str(path)!r} has {len(moves)} moves: more than the {MAX_RECORD_MOVES} a record may have"
        )
    if not isinstance(moves, list):
        raise RecordError("record has no 'moves' list")
    return data


def show(analysis: Analysis) -> None:
    """The per-move table and the summary per seat, on stdout."""
    from rich.table import Table

    console = new_console()
    table = Table(title=f"{analysis.game}: analysed by {analysis.engine}")
    for column in ("move", "seat", "played", "best", "chance", "cost", "class"):
        table.add_column(
            column, justify="right" if column in ("move", "chance", "cost") else "left"
        )
    for p in analysis.positions:
        if p.chance:
            continue
        mover_chance = p.chances.get(p.mover, 0.0)
        table.add_row(
            str(p.index + 1),
            p.mover,
            p.played,
            p.best or "",
            f"{mover_chance:.0%}",
            f"{p.cost or 0.0:.3f}",
            p.kind or "",
        )
    console.print(table)
    summary = Table(title="summary per seat")
    for column in ("seat", "moves", "mean cost", "accuracy", "inaccuracy", "mistake", "blunder"):
        summary.add_column(column, justify="left" if column == "seat" else "right")
    for seat, row in analysis.summary().items():
        summary.add_row(
            seat,
            str(row["moves"]),
            f"{row['mean_cost']:.3f}",
            f"{row['accuracy']:.0%}",
            str(row["inaccuracy"]),
            str(row["mistake"]),
            str(row["blunder"]),
        )
    console.print(summary)


def _progress() -> Any:
    """A progress bar on stderr, only when stderr is a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    console = Console(stderr=True)
    return Progress(
        TextColumn("positions"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal or not sys.stderr.isatty(),
    )
