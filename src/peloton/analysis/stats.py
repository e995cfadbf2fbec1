"""Statistics over a tournament's games: per line-up entry, whatever seat it sat in."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .tournament import MEDALS, RIDER_TYPES, GameOutcome


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class EntryStats:
    """What one entry of the line-up (a bot at some seat each game) achieved."""

    entry: int
    label: str
    bot: str
    games: int = 0
    trophies: int = 0
    win_share: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    medal_share: dict[str, float] = field(default_factory=dict)
    mean_points: float = 0.0
    points: list[int] = field(default_factory=list)
    #: Mean finishing place of its riders that crossed the line, by rider type.
    mean_place: dict[str, float | None] = field(default_factory=dict)
    #: Mean rounds a game took (in the solo challenge, its score: MC-9.4).
    mean_rounds: float | None = None
    rating_mu: float | None = None
    rating_sigma: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def labels(bots: Sequence[str]) -> list[str]:
    """Entry labels: the bot names, numbered when a name appears more than once."""
    out = []
    for i, name in enumerate(bots):
        if bots.count(name) > 1:
            out.append(f"{name}#{bots[: i + 1].count(name)}")
        else:
            out.append(name)
    return out


def summarise(
    bots: Sequence[str], games: Sequence[GameOutcome], ratings: bool = True
) -> list[EntryStats]:
    """Per-entry statistics of ``games`` (aggregated in game order), with openskill
    ratings when there are two or more entries."""
    names = labels(bots)
    stats = [EntryStats(i, names[i], bots[i]) for i in range(len(bots))]
    medals = [dict.fromkeys(MEDALS, 0) for _ in bots]
    places: list[dict[str, list[int]]] = [{t: [] for t in RIDER_TYPES} for _ in bots]
    rounds: list[list[int]] = [[] for _ in bots]
    for game in games:
        for seat, entry in enumerate(game.lineup):
            s = stats[entry]
            s.games += 1
            s.trophies += game.trophy == seat
            for key, holder in game.medals.items():
                if holder == seat:
                    medals[entry][key] += 1
            s.points.append(game.points[seat])
            for kind, got in game.places[seat].items():
                places[entry][kind].extend(got)
            if game.rounds is not None:
                rounds[entry].append(game.rounds)
    for s in stats:
        n = s.games
        if n:
            s.win_share = s.trophies / n
            s.win_low, s.win_high = wilson(s.trophies, n)
            s.medal_share = {k: medals[s.entry][k] / n for k in MEDALS}
            s.mean_points = sum(s.points) / n
        s.mean_place = {t: (sum(v) / len(v) if v else None) for t, v in places[s.entry].items()}
        if rounds[s.entry]:
            s.mean_rounds = sum(rounds[s.entry]) / len(rounds[s.entry])
    if ratings and len(bots) > 1:
        from .ratings import rate

        rated = rate(names, games)
        for s in stats:
            s.rating_mu, s.rating_sigma = rated[s.label]
    return stats
