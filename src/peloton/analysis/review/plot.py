"""The plot of an analysis: each seat's chance to win over the game, its mistakes and
blunders marked where they were played."""

from __future__ import annotations

from pathlib import Path

from .run import Analysis

#: How each marked class is drawn.
MARKS = {"mistake": ("o", 40), "blunder": ("X", 80)}


def plot_analysis(analysis: Analysis, path: Path) -> None:
    """Draw each seat's chance over the record's moves to a PNG at ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(10, 4.5))
    xs = [p.index for p in analysis.positions]
    for seat in analysis.players:
        ys = [p.chances.get(seat, 0.0) for p in analysis.positions]
        (line,) = ax.plot(xs, ys, label=seat)
        for kind, (marker, size) in MARKS.items():
            hit = [p for p in analysis.positions if p.mover == seat and p.kind == kind]
            ax.scatter(
                [p.index for p in hit],
                [p.chances.get(seat, 0.0) for p in hit],
                marker=marker,
                s=size,
                color=line.get_color(),
                label=f"{seat} {kind}" if hit else None,
            )
    ax.set_ylim(0, 1)
    ax.set_xlabel("move")
    ax.set_ylabel("chance to win")
    ax.set_title(f"{analysis.game}: chances as {analysis.engine} sees them")
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
