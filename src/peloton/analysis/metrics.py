"""What a finished game says about each seat, per game: who won, the seats' ranking
(for ratings), figures per seat (Pistard's points and eliminations, Mind Twist's
margin) and figures of the whole game (its length).

Each game's :class:`Metrics` names its columns; :func:`metrics_for` finds them by the
game's name, and games without their own read only the winner from ``state.result``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Measured:
    """One finished game, by seat (seat 0 is the first of ``state.players``)."""

    #: The winning seat, ``None`` for no winner.
    winner: int | None
    #: Per seat, 1 for the best; equal numbers for a tie.
    ranks: list[int]
    #: Metric key -> one value per seat.
    seat: dict[str, list[float]] = field(default_factory=dict)
    #: Metric key -> the game's value.
    game: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Metrics:
    """A game's figures: ``(key, column title)`` for each per-seat and per-game metric,
    and the function measuring a finished state."""

    seat: tuple[tuple[str, str], ...]
    game: tuple[tuple[str, str], ...]
    measure: Callable[[Any], Measured]


def winner_ranks(players: list[str], winner: str | None) -> Measured:
    """The winner first, everyone else tied second (no winner: all tied)."""
    if winner not in players:
        return Measured(None, [1] * len(players))
    seat = players.index(winner)
    return Measured(seat, [1 if s == seat else 2 for s in range(len(players))])


def measure_any(state: Any) -> Measured:
    """A game whose ``result`` is the winner's seat name (or None)."""
    result = state.result
    return winner_ranks(list(state.players), result if isinstance(result, str) else None)


def measure_mind_twist(state: Any) -> Measured:
    """MT: the winner, each seat's margin (its space minus the other's at the end; the
    winner's token stands on the finish) and the game's length in turns."""
    players = list(state.players)
    out = winner_ranks(players, state.result)
    spaces = [state.space(p) for p in players]
    out.seat["margin"] = [float(spaces[s] - spaces[1 - s]) for s in range(2)]
    out.game["turns"] = float(len(state.turns()))
    out.game["moves"] = float(len(state.history))
    return out


def measure_pistard(state: Any) -> Measured:
    """PI-4: the winner, every seat ranked by the final standings (PI-4.3), each
    seat's points and eliminated riders, and the game's length in rounds."""
    players = list(state.players)
    result = state.result
    place = {team: i + 1 for i, team in enumerate(result.places)}
    winner = players.index(result.winner) if result.winner in players else None
    out = Measured(winner, [place[team] for team in players])
    out.seat["points"] = [float(result.points[team]) for team in players]
    out.seat["eliminated"] = [float(sum(1 for r in result.eliminated if r[0] == team)) for team in players]
    out.game["rounds"] = float(state.round)
    return out


_METRICS: dict[str, Metrics] = {
    "pistard": Metrics(
        seat=(("points", "points"), ("eliminated", "out")),
        game=(("rounds", "rounds"),),
        measure=measure_pistard,
    ),
    "mind-twist": Metrics(
        seat=(("margin", "margin"),),
        game=(("turns", "turns"),),
        measure=measure_mind_twist,
    ),
}


def register_metrics(game: str, metrics: Metrics) -> None:
    """Give ``game`` its own figures in ``peloton simulate``."""
    _METRICS[game] = metrics


def metrics_for(game: str) -> Metrics:
    """The figures of ``game`` (the winner only for a game without its own)."""
    return _METRICS.get(game) or Metrics((), (), measure_any)
