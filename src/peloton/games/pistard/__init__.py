"""Pistard: a dice track race for 2 to 4 players with elimination laps.

The public API (docs/games.md):

>>> from peloton.core.rng import Rng
>>> from peloton.games import pistard as pi
>>> state = pi.from_options({"players": 2})     # the standard game: both bonuses
>>> state.current_player                         # each player's roll is a chance step
'chance'
>>> state.play("roll:1,3,5,6")                   # player A's four dice
>>> state.play(state.chance_move(Rng(1)))        # player B's, drawn from a seeded Rng
>>> state.play("A3=5")                           # first move: give a die to a rider
>>> state.current_player, state.unassigned_dice("A")
('A', [1, 3, 6])

Rule ids PI-1 .. PI-5; the engine's reading of them: ``docs/pistard.md``.
"""

from ...core import registry
from .describe import describe
from .heuristics import HEURISTICS
from .notation import Move, Position, parse_move, parse_position
from .paths import BONUSES
from .record import Record, load_record
from .riders import MAX_PLAYERS, MIN_PLAYERS, base_colour_name, team_riders
from .scoring import Result
from .snapshot import public_moves, snapshot
from .start import OPTIONS, from_options, from_position, new_game, to_position
from .state import State
from .track import COLOURS, Layout, LayoutError, bundled_names

registry.register(
    registry.GameInfo(
        "pistard",
        "Pistard",
        load_record,
        HEURISTICS,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        has_chance=True,
        options=OPTIONS,
        describe=describe,
        editor="peloton.games.pistard.layout_design:EDITOR",
        tutorial="peloton.games.pistard.tutorial:TUTORIAL",
    )
)

__all__ = [
    "BONUSES",
    "COLOURS",
    "HEURISTICS",
    "OPTIONS",
    "Layout",
    "LayoutError",
    "Move",
    "Position",
    "Record",
    "Result",
    "State",
    "base_colour_name",
    "bundled_names",
    "describe",
    "from_options",
    "from_position",
    "load_record",
    "new_game",
    "parse_move",
    "parse_position",
    "public_moves",
    "snapshot",
    "team_riders",
    "to_position",
]
