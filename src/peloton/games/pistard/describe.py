"""Moves in words, for a table's move log: ``describe(state, move)`` says what ``move``
does when played in ``state`` ("B rolls 3 and 5", "A3 uses the 5 to ride to c22").
"""

from __future__ import annotations

from .notation import ASSIGN, ROLL, Move
from .state import State


def _listed(values: list[str]) -> str:
    """``3``, ``3 and 5``, ``1, 3, 5 and 6``."""
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"


def describe(state: State, move: Move | str) -> str:
    """One sentence saying what ``move`` does in ``state`` (the state before it)."""
    move = state.parse_move(move) if isinstance(move, str) else move
    if move.kind == ROLL:
        return f"{state.roller or 'The player'} rolls {_listed([str(d) for d in move.dice])}"
    if move.kind == ASSIGN:
        return f"Team {move.rider[0]} gives the {move.value} to {move.rider} for the first move"
    if not move.path:
        return f"{move.rider} uses the {move.value} and stays: no free square ahead"
    sentence = f"{move.rider} uses the {move.value} to ride to {move.path[0]}"
    if move.bonus:
        sentence += f", then on to {_listed(list(move.bonus))} (bonus)"
    return sentence
