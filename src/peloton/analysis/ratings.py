"""Openskill (Plackett-Luce) ratings of the line-up's entries, updated game by game in
game order, so they are the same however the games were spread over processes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .tournament import GameOutcome


def finishing_order(game: GameOutcome) -> list[int]:
    """Seats ranked best first: the trophy holder, then by medals, points, best place."""
    seats = range(len(game.lineup))
    medals = [sum(1 for h in game.medals.values() if h == s) for s in seats]
    return sorted(
        seats,
        key=lambda s: (s != game.trophy, -medals[s], -game.points[s], game.best_place[s], s),
    )


def rate(labels: Sequence[str], games: Sequence[GameOutcome]) -> dict[str, tuple[float, float]]:
    """``{label: (mu, sigma)}`` after every multi-team game, in order. Entries that
    share a label (never, with :func:`.stats.labels`) would share a rating."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for game in games:
        if len(game.lineup) < 2:
            continue
        order = finishing_order(game)
        rank = {seat: i + 1 for i, seat in enumerate(order)}
        seats = list(range(len(game.lineup)))
        teams = [[ratings[labels[game.lineup[s]]]] for s in seats]
        new = model.rate(teams, ranks=[rank[s] for s in seats])
        for s, team in zip(seats, new, strict=True):
            ratings[labels[game.lineup[s]]] = team[0]
    return {label: (r.mu, r.sigma) for label, r in ratings.items()}


def rate_ranks(
    labels: Sequence[str], games: Iterable[tuple[Sequence[int], Sequence[int]]]
) -> dict[str, tuple[float, float]]:
    """``{label: (mu, sigma)}`` from games given as ``(lineup, ranks)``: the entry at
    each seat and that seat's rank (1 best, equal ranks tie), in game order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for lineup, ranks in games:
        if len(lineup) < 2:
            continue
        teams = [[ratings[labels[entry]]] for entry in lineup]
        new = model.rate(teams, ranks=list(ranks))
        for entry, team in zip(lineup, new, strict=True):
            ratings[labels[entry]] = team[0]
    return {label: (r.mu, r.sigma) for label, r in ratings.items()}
