"""``peloton simulate --game mind-twist|pistard``: play a :class:`.match.Match`, print
its table and write the outputs asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console

from . import match_report
from .match import Match, run_match
from .match_stats import summarise_match
from .metrics import metrics_for
from .plots import plot_match


def simulate_match(
    m: Match, jobs: int, console: Console, progress: Any, *, out: Path | None = None, plot: Path | None = None
) -> None:
    """Play ``m`` over ``jobs`` processes (advancing the Rich ``progress``), print the
    results table, and write ``out`` (.json or .csv) and ``plot`` (.png) if given."""
    m.check()
    metrics = metrics_for(m.game)
    with progress:
        task = progress.add_task("games", total=m.games)
        outcomes = run_match(m, jobs, lambda _: progress.advance(task))
    results = summarise_match(m.bots, outcomes, metrics)
    console.print(match_report.table(m, results, metrics))
    if out is not None:
        is_json = out.suffix.lower() == ".json"
        text = match_report.to_json(m, results, outcomes) if is_json else match_report.to_csv(results, metrics)
        out.write_text(text, encoding="utf-8")
        console.print(f"results written to {out}", markup=False, soft_wrap=True)
    if plot is not None:
        plot_match(results, metrics, plot, match_report.describe(m))
        console.print(f"plot drawn to {plot}", markup=False, soft_wrap=True)
    if m.records is not None:
        console.print(f"{m.games} records saved in {m.records}", markup=False, soft_wrap=True)
