"""Mind Twist: a two-player race of bluff (rule ids MT-1 to MT-5; the engine's
reading of them: ``docs/mind-twist.md``).

Each turn the active player secretly dials 1-3 spaces and the other may guess it:

>>> from peloton.games import mindtwist as mt
>>> state = mt.from_options({"length": 30})
>>> state.play("dial:3")
>>> state.view("B").dial is None          # blue does not see the dial
True
>>> state.play("guess:2")                 # wrong: red moves 3 and dials again
>>> state.position
'R3 B0 R'
>>> round(mt.solve().value(state), 4)     # the active player's (red's) chance (MT-5)
0.6491
"""

from ...core import registry
from ...core.record import FULL
from .board import DEFAULT_LENGTH, DEFAULT_MILESTONES, Board
from .describe import describe
from .heuristics import HEURISTICS, determinize
from .notation import BLUE, PLAYERS, RED, Move, format_position, parse_move, parse_position
from .public_log import Turn
from .record import Record, load_record
from .snapshot import public_moves, snapshot
from .solver import Certificate, Solution, certify, solve
from .start import OPTIONS, from_options, from_position, new_game, options_of
from .state import State

registry.register(
    registry.GameInfo(
        "mind-twist",
        "Mind Twist",
        load_record,
        HEURISTICS,
        hidden_information=True,
        min_players=2,
        max_players=2,
        options=OPTIONS,
        describe=describe,
        bots={
            "optimal": "peloton.games.mindtwist.bots:OptimalBot",
            "pass3": "peloton.games.mindtwist.bots:Pass3Bot",
        },
        tutorial="peloton.games.mindtwist.tutorial:TUTORIAL",
        analyst="peloton.games.mindtwist.solver.analysis:make",
    )
)


__all__ = [
    "BLUE",
    "DEFAULT_LENGTH",
    "DEFAULT_MILESTONES",
    "FULL",
    "HEURISTICS",
    "OPTIONS",
    "PLAYERS",
    "RED",
    "Board",
    "Certificate",
    "Move",
    "Record",
    "Solution",
    "State",
    "Turn",
    "certify",
    "describe",
    "determinize",
    "format_position",
    "from_options",
    "from_position",
    "load_record",
    "new_game",
    "options_of",
    "parse_move",
    "parse_position",
    "public_moves",
    "snapshot",
    "solve",
]
