"""Plots of a tournament: medal shares and the points distribution per entry."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .match_stats import MatchStats
from .metrics import Metrics
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
    medals_ax.set_xticks(
        [m + width * (len(stats) - 1) / 2 for m in range(len(MEDALS))], list(MEDALS)
    )
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


def plot_match(stats: Sequence[MatchStats], metrics: Metrics, path: Path, title: str = "") -> None:
    """Win shares with their 95% intervals, and the distribution of each per-seat
    figure (Pistard's points, Mind Twist's margin) per entry, to a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [s.label for s in stats]
    figures = [(key, name) for key, name in metrics.seat]
    fig, axes = plt.subplots(
        1, 1 + len(figures), figsize=(5.5 * (1 + len(figures)), 4.5), squeeze=False
    )
    wins_ax = axes[0][0]
    shares = [s.win_share for s in stats]
    errors = [[s.win_share - s.win_low for s in stats], [s.win_high - s.win_share for s in stats]]
    wins_ax.bar(range(len(stats)), shares, yerr=errors, capsize=4)
    wins_ax.set_xticks(range(len(stats)), labels)
    wins_ax.set_ylim(0, 1)
    wins_ax.set_ylabel("share of games won (95% CI)")
    wins_ax.set_title("Wins")
    for ax, (key, name) in zip(axes[0][1:], figures, strict=True):
        ax.boxplot([s.values.get(key) or [0.0] for s in stats])
        ax.set_xticks(range(1, len(stats) + 1), labels)
        ax.set_title(name)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)
