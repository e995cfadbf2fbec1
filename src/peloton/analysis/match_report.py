"""A match's results (any game but Mind Cycling) as a Rich table, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.table import Table

from ..core import registry
from .match import Match, MatchOutcome
from .match_stats import MatchStats
from .metrics import Metrics
from .report import csv_row, pct, rating_text


def describe(m: Match) -> str:
    """One line naming the game, its options and the seed."""
    title = registry.get(m.game).title
    opts = ", ".join(f"{k}={json.dumps(v)}" for k, v in m.options.items() if k != "players")
    return f"{m.games} games of {title} ({len(m.bots)} seats{', ' + opts if opts else ''}, seed {m.seed})"


def table(m: Match, stats: Sequence[MatchStats], metrics: Metrics) -> Table:
    """The results table: wins, win share and its 95% CI, the game's figures, rating."""
    figures = [title for _, title in (*metrics.seat, *metrics.game)]
    caption = f"{', '.join(figures)}: means per game; rating: openskill μ±σ" if figures else None
    shown = Table(
        title=describe(m),
        caption=caption,
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    shown.add_column("bot", no_wrap=True)
    shown.add_column("games", justify="right", no_wrap=True)
    shown.add_column("wins", justify="right", no_wrap=True)
    shown.add_column("win", justify="right", no_wrap=True)
    shown.add_column("95% CI", justify="right", no_wrap=True)
    for title in figures:
        shown.add_column(title, justify="right", no_wrap=True)
    shown.add_column("rating", justify="right", no_wrap=True)
    for s in stats:
        row = [
            s.label,
            str(s.games),
            str(s.wins),
            pct(s.win_share),
            f"{100 * s.win_low:.0f}–{100 * s.win_high:.0f}%",
        ]
        row += [f"{s.means.get(key, 0.0):.1f}" for key, _ in (*metrics.seat, *metrics.game)]
        row.append(rating_text(s))
        shown.add_row(*row)
    return shown


#: Beyond this many figures the results table would be too wide for a terminal: the
#: figures go to a table of their own (as Mind Cycling's medals and places do).
FIGURES_INLINE = 3


def tables(m: Match, stats: Sequence[MatchStats], metrics: Metrics) -> list[Table]:
    """The tables ``peloton simulate`` prints: :func:`table`, or with more than
    :data:`FIGURES_INLINE` figures the results and then the figures apart."""
    keys = (*metrics.seat, *metrics.game)
    if len(keys) <= FIGURES_INLINE:
        return [table(m, stats, metrics)]
    results = table(m, stats, Metrics((), (), metrics.measure))
    results.caption = "rating: openskill μ±σ"
    shown = Table(
        title="Figures: means per game", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True
    )
    shown.add_column("bot", no_wrap=True)
    for _, title in keys:
        shown.add_column(title, justify="right", no_wrap=True)
    for s in stats:
        shown.add_row(s.label, *(f"{s.means.get(key, 0.0):.1f}" for key, _ in keys))
    return [results, shown]


def _settings(m: Match) -> dict[str, Any]:
    return {
        "game": m.game,
        "bots": list(m.bots),
        "options": dict(m.options),
        "games": m.games,
        "seed": m.seed,
        "swap": m.swap,
        "records": None if m.records is None else str(m.records),
    }


def to_json(m: Match, stats: Sequence[MatchStats], games: Sequence[MatchOutcome]) -> str:
    """Settings, per-entry statistics and every game's outcome."""
    data = {
        "format": "peloton-simulation/1",
        "settings": _settings(m),
        "entries": [s.to_dict() for s in stats],
        "games": [g.to_dict() for g in games],
    }
    return json.dumps(data, indent=1)


def to_csv(stats: Sequence[MatchStats], metrics: Metrics) -> str:
    """One row per entry of the line-up."""
    keys = [key for key, _ in (*metrics.seat, *metrics.game)]
    fields = ["bot", "label", "games", "wins", "win_share", "win_low", "win_high",
              *(f"mean_{k}" for k in keys), "rating_mu", "rating_sigma"]  # fmt: skip
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for s in stats:
        row = csv_row(s)
        row["wins"] = s.wins
        for key in keys:
            row[f"mean_{key}"] = round(s.means.get(key, 0.0), 6)
        writer.writerow(row)
    return buf.getvalue()
