"""``peloton simulate``: play a Mind Cycling :class:`.tournament.Tournament` or another
game's :class:`.match.Match`, print its tables and write the outputs asked for."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from . import match_report, report
from .match import Match, run_match
from .match_stats import summarise_match
from .plots import plot as plot_tournament
from .plots import plot_match
from .pool import Workers
from .stats import summarise
from .tournament import Tournament, run


def simulate_tournament(
    t: Tournament,
    jobs: Workers,
    console: Console,
    progress: Any,
    *,
    out: Path | None = None,
    plot: Path | None = None,
) -> None:
    """Play ``t`` over ``jobs`` processes or on Ray (advancing the Rich ``progress``), print the
    results tables, and write ``out`` (.json or .csv) and ``plot`` (.png) if given."""
    t.check()
    with progress:
        task = progress.add_task("games", total=t.games)
        outcomes = run(t, jobs, lambda _: progress.advance(task))
    results = summarise(t.bots, outcomes)
    for shown in report.tables(t, results):
        console.print(shown)
    if out is not None:
        text = report.to_json(t, results, outcomes) if _is_json(out) else report.to_csv(results)
        _write(console, out, text)
    title = f"{t.games} games on {t.course}"
    _finish(console, plot, lambda path: plot_tournament(results, path, title), t.records, t.games)


def simulate_match(
    m: Match,
    jobs: Workers,
    console: Console,
    progress: Any,
    *,
    out: Path | None = None,
    plot: Path | None = None,
) -> None:
    """Play ``m`` over ``jobs`` processes or on Ray (advancing the Rich ``progress``), print the
    results table, and write ``out`` (.json or .csv) and ``plot`` (.png) if given."""
    m.check()
    metrics = m.metrics()
    with progress:
        task = progress.add_task("games", total=m.games)
        outcomes = run_match(m, jobs, lambda _: progress.advance(task))
    results = summarise_match(m.bots, outcomes, metrics)
    for shown in match_report.tables(m, results, metrics):
        console.print(shown)
    if out is not None:
        is_json = _is_json(out)
        text = (
            match_report.to_json(m, results, outcomes)
            if is_json
            else match_report.to_csv(results, metrics)
        )
        _write(console, out, text)
    title = match_report.describe(m)
    _finish(
        console, plot, lambda path: plot_match(results, metrics, path, title), m.records, m.games
    )


def _is_json(out: Path) -> bool:
    return out.suffix.lower() == ".json"


def _write(console: Console, out: Path, text: str) -> None:
    out.write_text(text, encoding="utf-8")
    console.print(f"results written to {out}", markup=False, soft_wrap=True)


def _finish(
    console: Console,
    plot_to: Path | None,
    draw: Callable[[Path], None],
    records: Path | None,
    games: int,
) -> None:
    """Draw the plot if asked for, and say where the records went."""
    if plot_to is not None:
        draw(plot_to)
        console.print(f"plot drawn to {plot_to}", markup=False, soft_wrap=True)
    if records is not None:
        console.print(f"{games} records saved in {records}", markup=False, soft_wrap=True)
