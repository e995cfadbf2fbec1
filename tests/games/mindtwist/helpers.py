"""Shared helpers for the Mind Twist scenario tests: positions in MT-4.3 text."""

from __future__ import annotations

from peloton.games import mindtwist as mt


def at(position: str, **options: object) -> mt.State:
    """A game from MT-4.3 position text (default board unless options say otherwise)."""
    return mt.from_position(position, **options)


def play(state: mt.State, *moves: str) -> mt.State:
    """Play moves given as notation, in order; return the state."""
    for move in moves:
        state.play(move)
    return state


def legal(state: mt.State) -> list[str]:
    """The legal moves as notation."""
    return [str(m) for m in state.legal_moves()]
