"""Mind Cycling: teams of sprinters, domestiques and climbers on a grid road.

The public API is MC-10.4 of the rules specification::

    from peloton.games import mindcycling as mc
    course = mc.Course.load("standard")
    state = mc.new_game(course, teams={"A": "DDSSCC", "B": "DDSSCC"})
    state.play("AD1@c8")
"""

from ...core import registry
from .course import Course, bundled_names
from .heuristics import HEURISTICS
from .notation import Move, Position, parse_mcn, parse_move
from .options import MAX_PLAYERS, MIN_PLAYERS, OPTIONS, from_options, public_moves
from .record import Record, load_record
from .riders import DEFAULT_COMPOSITIONS, SOLO_COMPOSITION, Rider, default_teams
from .scoring import Result
from .start import from_mcn, new_game, new_solo
from .state import Assessment, State

registry.register(
    registry.GameInfo(
        "mind-cycling",
        "Mind Cycling",
        load_record,
        HEURISTICS,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        public_snapshot=True,
        options=OPTIONS,
    )
)

__all__ = [
    "DEFAULT_COMPOSITIONS",
    "OPTIONS",
    "SOLO_COMPOSITION",
    "Assessment",
    "Course",
    "Move",
    "Position",
    "Record",
    "Result",
    "Rider",
    "State",
    "bundled_names",
    "default_teams",
    "from_mcn",
    "from_options",
    "new_game",
    "new_solo",
    "parse_mcn",
    "parse_move",
    "public_moves",
]
