"""Moves in words, for a table's move log: ``describe(state, move)`` says what ``move``
does when played in ``state`` ("BD2 attacks to c33, against the wind").

The sentence reads the round's assessment (MC-4.2) of the state before the move, so
it says what the rules made of the move: a rider against the wind (MC-5.4), an
exhausted domestique (MC-7.4), a relay (MC-6.5) or a wheel (MC-6.4).
"""

from __future__ import annotations

from .notation import ATTACK, FINISH, GIVE, PLACE, RELAY, STAY, WHEEL, Move
from .state import State


def describe(state: State, move: Move | str) -> str:
    """One sentence saying what ``move`` does in ``state`` (the state before it)."""
    move = state.parse_move(move) if isinstance(move, str) else move
    rider = move.rider
    if move.kind == PLACE:
        return f"Team {rider[0]} places {rider} on {move.square}"
    if move.kind == GIVE:
        return f"{rider} gives a bottle to {move.target}"
    if move.kind == STAY:
        return f"{rider} stays: no square ahead is free"
    crossing = move.square == FINISH
    where = "across the finish line" if crossing else f"to {move.square}"
    if move.kind == WHEEL:
        return f"{rider} takes the wheel {where}"
    if move.kind == RELAY:
        return f"{rider} relays {where}, taking the head of the group"
    verb = "attacks" if move.kind == ATTACK else "rides"
    sentence = f"{rider} {verb} {where}"
    seen = state.assessment(rider)
    notes = []
    if seen is not None and seen.against_wind:
        notes.append("against the wind")
    if seen is not None and seen.exhausted:
        notes.append("exhausted")
    return ", ".join([sentence, *notes])
