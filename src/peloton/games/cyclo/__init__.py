"""Cyclo The Game: a dice race where the terrain under a rider decides its dice; in
Pro riders also spend tokens, take wheels, hold back and swap places; classics add a
deck of event cards. Rules: the project's Cyclo specification (CY-0 … CY-19);
player's page and decisions: ``docs/cyclo.md``.

>>> from peloton.core.rng import Rng
>>> from peloton.games import cyclo as cy
>>> state = cy.new_game("classic", players=4, course="flemish-4", seed=7)
>>> state.play(state.chance_move(Rng(7)))        # AS1's roll: a chance step
>>> state.phase, state.current_player
('ride', 'A')
"""

from ...core import registry
from .board import Board, BoardError, bundled_boards
from .bots.heuristics import HEURISTICS
from .cards import CARDS
from .competitions.competition import COMPETITION_FORMAT, Competition
from .competitions.kinds import KINDS, load_competition
from .competitions.omnium import Omnium
from .competitions.pursuit_series import PursuitSeries
from .competitions.sprint_tournament import SprintTournament
from .competitions.stage_race import StageRace
from .course import Course, bundled_courses
from .describe import describe
from .modes import AVAILABLE, CHOICE_FACTS, MODES
from .notation import Answer, Draw, Fall, Move, Ride, Roll, Swap, Wheel, parse_move
from .record import Record, load_record
from .scoring import Result
from .snapshot import public_moves, snapshot
from .start import OPTIONS, from_cyn, from_options, from_position, new_game
from .state import RiderInfo, State

registry.register(
    registry.GameInfo(
        "cyclo",
        "Cyclo The Game",
        load_record,
        HEURISTICS,
        hidden_information=False,
        min_players=1,
        max_players=6,
        has_chance=True,
        public_snapshot=True,
        options=OPTIONS,
        describe=describe,
        competitions="peloton.games.cyclo.competitions.kinds:COMPETITIONS",
        editor="peloton.games.cyclo.course_design:EDITOR",
        tutorial="peloton.games.cyclo.tutorial:TUTORIAL",
    )
)

__all__ = [
    "AVAILABLE",
    "CARDS",
    "CHOICE_FACTS",
    "COMPETITION_FORMAT",
    "HEURISTICS",
    "KINDS",
    "MODES",
    "OPTIONS",
    "Answer",
    "Board",
    "BoardError",
    "Competition",
    "Course",
    "Draw",
    "Fall",
    "Move",
    "Omnium",
    "PursuitSeries",
    "Record",
    "Result",
    "Ride",
    "RiderInfo",
    "Roll",
    "SprintTournament",
    "StageRace",
    "State",
    "Swap",
    "Wheel",
    "bundled_boards",
    "bundled_courses",
    "describe",
    "from_cyn",
    "from_options",
    "from_position",
    "load_competition",
    "load_record",
    "new_game",
    "parse_move",
    "public_moves",
    "snapshot",
]
