"""Mind Cycling: teams of sprinters, domestiques and climbers on a grid road.

The public API is MC-10.4 of the rules specification (these examples run as doctests):

>>> from peloton.games import mindcycling as mc
>>> course = mc.Course.load("standard")
>>> state = mc.new_game(course, teams={"A": "DDSSCC", "B": "DDSSCC"})
>>> state.play("AD1@c8")
>>> state.rider("AD1").square, state.current_player
('c8', 'B')
>>> solo = mc.from_mcn("solo", "3 AC1:c12,AD1:c14+,AD2:c13+,AS1:c11,AS2:c10")
>>> solo.current_rider, solo.assessment("AD2").train_place
('AD1', 2)
>>> solo.play("AD1-c20")
>>> sorted(str(m) for m in solo.legal_moves() if m.kind in "wr")
['AD2-c19w', 'AD2-c21r']
>>> mc.snapshot(solo)["current_rider"]
'AD2'
"""

from ...core import registry
from .course import Course, bundled_names
from .describe import describe
from .heuristics import HEURISTICS
from .notation import Move, Position, parse_mcn, parse_move
from .record import RECORD_KIND_KEY, Record, load_record
from .riders import DEFAULT_COMPOSITIONS, SOLO_COMPOSITION, Rider, default_teams
from .scoring import Result
from .snapshot import public_moves, snapshot
from .start import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    from_mcn,
    from_options,
    new_game,
    new_solo,
    options_of,
)
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
        describe=describe,
        tutorial="peloton.games.mindcycling.tutorial:TUTORIAL",
        editor="peloton.games.mindcycling.course_design:EDITOR",
    )
)

__all__ = [
    "DEFAULT_COMPOSITIONS",
    "OPTIONS",
    "RECORD_KIND_KEY",
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
    "describe",
    "from_mcn",
    "from_options",
    "new_game",
    "new_solo",
    "options_of",
    "parse_mcn",
    "parse_move",
    "public_moves",
    "snapshot",
]
