"""The exact solo solver (MC-9.4) of Mind Cycling: ``peloton solve``.

:mod:`.bounds` (admissible bounds) sits under both :mod:`.rows` (the row game, a
relaxation without lanes) and :mod:`.search` (the exact search over whole rounds);
:mod:`.lines` holds the lines given, shipped with a course or played by the greedy bot;
:mod:`.beam` finds good first lines; :mod:`.driver` holds the entry points and spends a
solve's time; :mod:`.examples` small courses the solver proves in seconds.
"""

from typing import Any

from ..state import State
from .bounds import Bounds
from .driver import composition_of, solve, solve_state
from .rows import TimeUp
from .search import COMPOSITIONS, Solution, position_key


def solve_solo(state: State, seconds: float) -> dict[str, Any]:
    """The best line of a solo game's course, team and rules, as JSON (the table
    server's solver panel, docs/games.md)."""
    team = next(iter(state.teams.values()))
    solution = solve(
        state.course, team, wind=state.wind, relay_limit=state.relay_limit, time_limit=seconds
    )
    answer: dict[str, Any] = solution.to_dict()
    return answer


__all__ = [
    "COMPOSITIONS",
    "Bounds",
    "Solution",
    "TimeUp",
    "composition_of",
    "position_key",
    "solve",
    "solve_solo",
    "solve_state",
]
