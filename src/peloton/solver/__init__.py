"""The exact solo solver (MC-9.4): ``peloton solve``."""

from .rows import TimeUp
from .search import (
    COMPOSITIONS,
    Bounds,
    Solution,
    composition_of,
    position_key,
    solve,
    solve_state,
)

__all__ = ["COMPOSITIONS", "Bounds", "Solution", "TimeUp", "composition_of", "position_key", "solve", "solve_state"]
