"""Plots of a tournament: medal shares and the points distribution per entry."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .stats import EntryStats
from .tournament import MEDALS


def plot(stats: Sequence[EntryStats], path: Path, title: str = "") -> None:
    """Draw medal shares (grouped bars) and points (box plots) per entry to a PNG."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    labels = [s.label for s in stats]
    fig, (medals_ax, points_ax) = plt.subplots(1, 2, figsize=(11, 4.5))
    width = 0.8 / max(1, len(stats))
    for i, s in enumerate(stats):
        xs = [m + i * width for m in range(len(MEDALS))]
        medals_ax.bar(xs, [s.medal_share.get(k, 0.0) for k in MEDALS], width, label=s.label)
    medals_ax.set_xticks([m + width * (len(stats) - 1) / 2 for m in range(len(MEDALS))], list(MEDALS))
    medals_ax.set_ylim(0, 1)
    medals_ax.set_ylabel("share of games")
    medals_ax.set_title("Medal shares")
    medals_ax.legend()
    points_ax.boxplot([s.points or [0] for s in stats])
    points_ax.set_xticks(range(1, len(stats) + 1), labels)
    points_ax.set_ylabel("team points per game")
    points_ax.set_title("Points")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
