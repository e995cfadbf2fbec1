"""``peloton simulate --game cyclo --competition KIND``: many bot-ridden Cyclo track
competitions (an omnium, a sprint tournament, a pursuit series), each bot's win share
and mean standing (:mod:`peloton.analysis.competitions`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from .cli_base import EXIT_USAGE, errors, fail

if TYPE_CHECKING:
    from .analysis.pool import Workers


def simulate_competitions(
    game: str,
    bots: tuple[str, ...],
    kind: str,
    option: list[str] | None,
    games: int,
    jobs: Workers,
    seed: int,
    swap: bool,
    out: Path | None,
    plot: Path | None,
    records: Path | None,
    console: Console,
) -> None:
    """Ride ``games`` competitions of ``kind``, print the table, write ``out``."""
    from .analysis import competitions as cp
    from .terminal.setup import parse_option_args

    if game != "cyclo":
        raise fail(
            f"--competition: competitions are Cyclo's, not {game}'s (--game cyclo)", EXIT_USAGE
        )
    if plot is not None:
        raise fail("--plot: competitions report a table (and --out), no plot", EXIT_USAGE)
    with errors():
        runs = cp.Competitions(
            bots,
            kind=kind,
            settings=parse_option_args(option),
            games=games,
            seed=seed,
            swap=swap,
            records=records,
        )
        outcomes = cp.run_competitions(runs, jobs)
    stats = cp.summarise(bots, outcomes)
    console.print(cp.table(runs, stats))
    if out is not None:
        is_json = out.suffix.lower() == ".json"
        out.write_text(
            cp.to_json(runs, stats, outcomes) if is_json else cp.to_csv(stats), encoding="utf-8"
        )
        console.print(f"results written to {out}", markup=False, soft_wrap=True)
    if records is not None:
        console.print(f"{games} competitions saved in {records}", markup=False, soft_wrap=True)
