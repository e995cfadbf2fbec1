"""Moves in words, for a table's move log: ``describe(state, move)`` says what ``move``
does when played in ``state`` ("AS1 rolls 2 and 5", "AS1 rides to 56, spending one
of its own tokens and one team token").
"""

from __future__ import annotations

from .cards import CARD
from .notation import Answer, Draw, Move, Ride, Roll, Swap, Wheel
from .state import State

_TOKENS = {
    "r": "one of its own tokens",
    "t": "one team token",
    "rr": "two of its own tokens",
    "rt": "one of its own tokens and one team token",
    "tt": "two team tokens",
}


def _listed(values: list[str]) -> str:
    """``3``, ``3 and 5``, ``1, 3 and 5``."""
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"


def describe(state: State, move: Move | str) -> str:
    """One sentence saying what ``move`` does in ``state`` (the state before it)."""
    move = state.parse_move(move) if isinstance(move, str) else move
    due = state.due or "The rider"
    if isinstance(move, Roll):
        return f"{due} rolls {_listed([str(d) for d in move.dice])}"
    if isinstance(move, Draw):
        return f"{due} draws the card “{CARD[move.card].name}”"
    if isinstance(move, Ride):
        where = (
            f"across the line, to run-out square {move.target}"
            if move.runout
            else f"to distance {move.target}"  # the velodrome counts distance ridden
            if state.setup.is_track
            else f"to space {move.target}"
        )
        spent = f", spending {_TOKENS[move.tokens]}" if move.tokens else ""
        return f"{move.rider} rides {where}{spent}"
    if isinstance(move, Swap):
        if move.partner is None:
            return f"{move.rider} rides on without a swap"
        return f"{move.rider} offers {move.partner} a swap of places"
    if isinstance(move, Answer):
        return f"{move.rider} {'accepts' if move.accept else 'refuses'} the swap"
    if isinstance(move, Wheel):
        if move.leader is None:
            return f"{move.rider} lets the wheel go"
        return f"{move.rider} takes {move.leader}'s wheel"
    if not move.picks:
        return f"{due}'s fall brings nobody else down"
    return f"{due}'s fall brings down {_listed(list(move.picks))} too"
