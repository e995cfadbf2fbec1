"""Analysis: many bot games and what they say (``peloton simulate``).

* :mod:`.tournament`: play Mind Cycling games between bot line-ups, in parallel,
  reproducibly; :mod:`.match` the same for the other games (:mod:`.match_stats`,
  :mod:`.match_report`, :mod:`.metrics` their figures); :mod:`.pool` what both share,
  and :mod:`.ray_pool` the same games on Ray (``--ray``, the optional ``ray`` extra);
* :mod:`.simulate`: ``peloton simulate``, either kind, with its tables and files;
* :mod:`.stats`, :mod:`.report`: win shares with Wilson intervals, medal shares, points,
  places; the tables, JSON and CSV;
* :mod:`.ratings`: openskill ratings from the games, in game order;
* :mod:`.plots`: medal shares and points distributions (matplotlib, Agg).
"""

from .stats import EntryStats, summarise, wilson
from .tournament import GameOutcome, Tournament, run

__all__ = ["EntryStats", "GameOutcome", "Tournament", "run", "summarise", "wilson"]
