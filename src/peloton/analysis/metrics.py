"""What a finished game says about each seat: who won, the seats' ranking (for
ratings), figures per seat (Pistard's points, Cyclo's best place) and figures of the
whole game (its length).

A game states its own figures in its bot hooks (``HEURISTICS["metrics"]``, see
:func:`from_hook`): the columns are the keys it reports for the game's starting
position, so they follow the options (Cyclo reports points in a leg only). Pistard
and Mind Twist keep their figures here (:data:`_METRICS`, by name, from before the
hook). A game with neither reads its winner from ``state.result`` when that is a
seat's name, else from its ``outcome`` hook (1 to the winner).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots.base import heuristics_of


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
    """A game without figures of its own: the winner is ``result`` when that names a
    seat, else the one seat its ``outcome`` hook gives 1 (seats ranked by their
    outcome, equal outcomes tied); no winner without either."""
    players = list(state.players)
    result = state.result
    if isinstance(result, str) or result is None:
        return winner_ranks(players, result)
    outcome = heuristics_of(state.game).get("outcome")
    if outcome is None or not state.is_over:
        return winner_ranks(players, None)
    values = [float(outcome(state).get(p, 0.0)) for p in players]
    winners = [s for s, v in enumerate(values) if v >= 1.0]
    ranks = [1 + sum(1 for w in values if w > v) for v in values]
    return Measured(winners[0] if len(winners) == 1 else None, ranks)


def title(key: str) -> str:
    """A figure's column title: its key in words (``best_place``: best place)."""
    return key.replace("_", " ")


def from_hook(hook: Callable[[Any], Mapping[str, Any]], start: Any) -> Metrics:
    """The figures a game reports through its ``metrics`` hook.

    ``hook(state)`` returns ``{"winner": seat name or None, "ranks": {seat: rank},
    "seat": {key: {seat: value}}, "game": {key: value}}`` (ranks 1 for the best, equal
    for a tie; ``winner`` None until the game is over). The columns are the keys it
    gives for ``start``, the game's starting position, in its order.
    """
    shown = hook(start)

    def measure(state: Any) -> Measured:
        got = hook(state)
        players = list(state.players)
        winner = got.get("winner")
        ranks = got["ranks"]
        return Measured(
            players.index(winner) if winner in players else None,
            [int(ranks[p]) for p in players],
            {
                key: [float(values[p]) for p in players]
                for key, values in got.get("seat", {}).items()
            },
            {key: float(value) for key, value in got.get("game", {}).items()},
        )

    return Metrics(
        seat=tuple((key, title(key)) for key in shown.get("seat", {})),
        game=tuple((key, title(key)) for key in shown.get("game", {})),
        measure=measure,
    )


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
    out.seat["eliminated"] = [
        float(sum(1 for r in result.eliminated if r[0] == team)) for team in players
    ]
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


def metrics_for(game: str, start: Any = None) -> Metrics:
    """The figures of ``game``: those its ``metrics`` hook reports (``start``, a
    starting position of the game, says which), else those registered here, else
    the winner only."""
    hook = heuristics_of(game).get("metrics") if start is not None else None
    if hook is not None:
        return from_hook(hook, start)
    return _METRICS.get(game) or Metrics((), (), measure_any)
