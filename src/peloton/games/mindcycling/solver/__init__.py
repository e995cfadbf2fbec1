"""The exact solo solver (MC-9.4) of Mind Cycling: ``peloton solve``.

:mod:`.bounds` (admissible bounds) sits under both :mod:`.rows` (the row game, a
relaxation without lanes) and :mod:`.search` (the exact search over whole rounds);
:mod:`.lines` holds the lines given, shipped with a course or played by the greedy bot;
:mod:`.examples` small courses the solver proves in seconds.
"""

from .bounds import Bounds
from .rows import TimeUp
from .search import COMPOSITIONS, Solution, composition_of, position_key, solve, solve_state

__all__ = ["COMPOSITIONS", "Bounds", "Solution", "TimeUp", "composition_of", "position_key", "solve", "solve_state"]
