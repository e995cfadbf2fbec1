"""A tournament's results as a Rich table, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from rich.table import Table

from .match_stats import MatchStats
from .stats import EntryStats
from .tournament import MEDALS, RIDER_TYPES, GameOutcome, Tournament

_TYPE_NAMES = {"D": "domestique", "S": "sprinter", "C": "climber"}


def pct(x: float) -> str:
    """A share as a percentage, ``41.7%``."""
    return f"{100 * x:.1f}%"


def rating_text(s: EntryStats | MatchStats) -> str:
    """An entry's openskill rating, ``25.3±1.2`` (``-`` when not rated)."""
    return "-" if s.rating_mu is None else f"{s.rating_mu:.1f}±{s.rating_sigma:.1f}"


def csv_row(s: EntryStats | MatchStats) -> dict[str, Any]:
    """The CSV columns every simulation has (rounded to 6 places; empty when unrated);
    the caller adds its game's own."""
    return {
        "bot": s.bot,
        "label": s.label,
        "games": s.games,
        "win_share": round(s.win_share, 6),
        "win_low": round(s.win_low, 6),
        "win_high": round(s.win_high, 6),
        "rating_mu": "" if s.rating_mu is None else round(s.rating_mu, 6),
        "rating_sigma": "" if s.rating_sigma is None else round(s.rating_sigma, 6),
    }


def _place(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def tables(t: Tournament, stats: Sequence[EntryStats]) -> list[Table]:
    """The tables printed by ``peloton simulate``: results, then medals and places
    (two narrow tables rather than one too wide for a terminal)."""
    what = "solo challenge" if t.solo else f"{len(t.bots)} teams"
    main = Table(title=f"{t.games} games on {t.course} ({what}, wind {t.wind}, seed {t.seed})")
    main.add_column("bot")
    main.add_column("games", justify="right")
    if t.solo:
        main.add_column("mean rounds", justify="right")
    else:
        main.add_column("trophy", justify="right")
        main.add_column("95% CI", justify="right")
    main.add_column("points", justify="right")
    if not t.solo:
        main.add_column("rating μ±σ", justify="right")
    for s in stats:
        row = [s.label, str(s.games)]
        if t.solo:
            row.append("-" if s.mean_rounds is None else f"{s.mean_rounds:.2f}")
        else:
            row += [pct(s.win_share), f"{pct(s.win_low)}–{pct(s.win_high)}"]
        row.append(f"{s.mean_points:.1f}")
        if not t.solo:
            row.append(rating_text(s))
        main.add_row(*row)
    detail = Table(title="Medal shares; mean place of domestiques (D), sprinters (S), climbers (C)")
    detail.add_column("bot")
    if not t.solo:
        for key in MEDALS:
            detail.add_column(key, justify="right")
    for kind in RIDER_TYPES:
        detail.add_column(f"{kind} place", justify="right")
    for s in stats:
        row = [s.label]
        if not t.solo:
            row += [pct(s.medal_share.get(k, 0.0)) for k in MEDALS]
        row += [_place(s.mean_place.get(k)) for k in RIDER_TYPES]
        detail.add_row(*row)
    return [main, detail]


def _settings(t: Tournament) -> dict[str, Any]:
    data = asdict(t)
    data["bots"] = list(t.bots)
    data["records"] = None if t.records is None else str(t.records)
    return data


def to_json(t: Tournament, stats: Sequence[EntryStats], games: Sequence[GameOutcome]) -> str:
    """Settings, per-entry statistics and every game's outcome."""
    entries = []
    for s in stats:
        d = s.to_dict()
        d["points"] = list(s.points)
        entries.append(d)
    data = {
        "format": "peloton-simulation/1",
        "settings": _settings(t),
        "entries": entries,
        "games": [g.to_dict() for g in games],
    }
    return json.dumps(data, indent=1)


CSV_FIELDS = (
    "bot", "label", "games", "trophies", "win_share", "win_low", "win_high",
    *(f"{k}_share" for k in MEDALS), "mean_points",
    *(f"mean_place_{_TYPE_NAMES[k]}" for k in RIDER_TYPES),
    "mean_rounds", "rating_mu", "rating_sigma",
)  # fmt: skip


def to_csv(stats: Sequence[EntryStats]) -> str:
    """One row per entry of the line-up."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for s in stats:
        row = csv_row(s)
        row["trophies"] = s.trophies
        row["mean_points"] = round(s.mean_points, 6)
        row["mean_rounds"] = "" if s.mean_rounds is None else round(s.mean_rounds, 6)
        for k in MEDALS:
            row[f"{k}_share"] = round(s.medal_share.get(k, 0.0), 6)
        for k in RIDER_TYPES:
            v = s.mean_place.get(k)
            row[f"mean_place_{_TYPE_NAMES[k]}"] = "" if v is None else round(v, 6)
        writer.writerow(row)
    return buf.getvalue()
