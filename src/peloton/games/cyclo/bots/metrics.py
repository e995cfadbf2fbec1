"""Cyclo's figures for ``peloton simulate`` (the ``metrics`` hook of :data:`HEURISTICS`).

Per team: the place of its best rider (CY-8.4: a team ranks by it); in a leg and a
time trial its best rider's time behind the best (CY-9.1, CY-10.2); in a leg its
riders' green and red points (CY-9.3); in a tempo or points race its best rider's
points (CY-11.2: they rank riders); in Pro the own tokens its riders have left
(CY-8.6's ``tokens_left``, what a next leg would carry); per game the rounds raced. The winner is the result's
``winner_team``, the ranks its ``teams`` order.

>>> from peloton.games import cyclo as cy
>>> figures = metrics(cy.new_game("leg", players=2))
>>> list(figures["seat"]), list(figures["game"]), figures["winner"]
(['place', 'gap', 'green', 'red', 'tokens'], ['rounds'], None)
>>> list(metrics(cy.new_game("points", players=2))["seat"])
['place', 'points', 'tokens']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..scoring import ROUND_SECONDS

if TYPE_CHECKING:
    from ..state import State


def metrics(state: State) -> dict[str, Any]:
    """The winner, each team's rank and figures, and the game's (see the module
    docstring); a game still running gives its standing so far."""
    setup = state.setup
    result = state.result
    teams = setup.teams
    place = {rider: i + 1 for i, rider in enumerate(result.places)}
    riders = {t: setup.team_riders(t) for t in teams}
    seat: dict[str, dict[str, float]] = {
        "place": {t: float(min(place[r] for r in riders[t])) for t in teams}
    }
    if setup.mode.leg_times or setup.mode.timed:
        times = result.times
        first = min(times.values(), default=0)
        # A team none of whose riders finished (the round-300 guard) trails the last
        # finisher by a round.
        late = max(times.values(), default=0) + ROUND_SECONDS
        seat["gap"] = {
            t: float(min((times[r] for r in riders[t] if r in times), default=late) - first)
            for t in teams
        }
    if setup.mode.course_lines:
        seat["green"] = {t: float(sum(result.points.get(r, 0) for r in riders[t])) for t in teams}
        seat["red"] = {t: float(sum(result.mountain.get(r, 0) for r in riders[t])) for t in teams}
    if setup.finish_pays:
        seat["points"] = {t: float(max(result.points.get(r, 0) for r in riders[t])) for t in teams}
    if setup.pro:
        seat["tokens"] = {
            t: float(sum(result.tokens_left.get(r, 0) for r in riders[t])) for t in teams
        }
    return {
        "winner": result.winner_team,
        "ranks": {t: i + 1 for i, t in enumerate(result.teams)},
        "seat": seat,
        "game": {"rounds": float(state.round)},
    }
