"""Per-entry statistics of a :class:`.match.Match`: win share with its 95% Wilson
interval, the game's own figures averaged, and openskill ratings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .match import MatchOutcome
from .metrics import Metrics
from .stats import labels, wilson


@dataclass
class MatchStats:
    """What one entry of the line-up (a bot at some seat each game) achieved."""

    entry: int
    label: str
    bot: str
    games: int = 0
    wins: int = 0
    win_share: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    #: Per-seat metric key -> its mean over this entry's games.
    means: dict[str, float] = field(default_factory=dict)
    #: Per-seat metric key -> every value (for plots).
    values: dict[str, list[float]] = field(default_factory=dict)
    rating_mu: float | None = None
    rating_sigma: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarise_match(
    bots: Sequence[str], games: Sequence[MatchOutcome], metrics: Metrics, ratings: bool = True
) -> list[MatchStats]:
    """Per-entry statistics of ``games`` (aggregated in game order). Per-game figures
    (a game's length) count for every entry that played it."""
    names = labels(bots)
    stats = [MatchStats(i, names[i], bots[i]) for i in range(len(bots))]
    keys = [key for key, _ in metrics.seat] + [key for key, _ in metrics.game]
    for s in stats:
        s.values = {key: [] for key in keys}
    for game in games:
        for seat, entry in enumerate(game.lineup):
            s = stats[entry]
            s.games += 1
            s.wins += game.winner == seat
            for key, _ in metrics.seat:
                s.values[key].append(game.seat[key][seat])
            for key, _ in metrics.game:
                s.values[key].append(game.game[key])
    for s in stats:
        if s.games:
            s.win_share = s.wins / s.games
            s.win_low, s.win_high = wilson(s.wins, s.games)
        s.means = {key: (sum(v) / len(v) if v else 0.0) for key, v in s.values.items()}
    if ratings and len(bots) > 1:
        from .ratings import rate_ranks

        rated = rate_ranks(names, [(g.lineup, g.ranks) for g in games])
        for s in stats:
            s.rating_mu, s.rating_sigma = rated[s.label]
    return stats
