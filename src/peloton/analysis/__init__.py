"""Analysis: many bot games and what they say (``peloton simulate``).

* :mod:`.tournament`: play games between bot line-ups, in parallel, reproducibly;
* :mod:`.stats`: win shares with Wilson intervals, medal shares, points, places;
* :mod:`.ratings`: openskill ratings from the games, in game order;
* :mod:`.plots`: medal shares and points distributions (matplotlib, Agg).
"""

from .stats import EntryStats, summarise, wilson
from .tournament import GameOutcome, Tournament, run

__all__ = ["EntryStats", "GameOutcome", "Tournament", "run", "summarise", "wilson"]
