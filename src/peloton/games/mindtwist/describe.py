"""Moves in words, for a table's move log: ``describe(state, move)`` says what ``move``
does when played in ``state`` ("Blue guesses 2: right, Red stays on 12").

A table's log says each move as its viewer sees it (``dial:?`` for a dial that viewer
has not seen, MT-4.1) from the whole state before it, once the move is played: a dial
shown as ``dial:?`` is described without its amount, and a guess or a pass with its
outcome, which the rules make public as it resolves (MT-2.2: a wrong guess or a pass
reveals the dial; after a right guess the dialler stays put). ``state`` may also be a
view that never knew the dial (a public record's ``dial:?``): a guess or a pass after
it is then described without its outcome.
"""

from __future__ import annotations

from .notation import BLUE, DIAL, GUESS, RED, Move
from .state import State

#: The players' names at the table (MT-1.1).
NAMES = {RED: "Red", BLUE: "Blue"}


def describe(state: State, move: Move | str) -> str:
    """One sentence saying what ``move`` does in ``state`` (the state before it)."""
    move = state.parse_move(move) if isinstance(move, str) else move
    active = state.active_player
    other = BLUE if active == RED else RED
    mover, challenger = NAMES[active], NAMES[other]
    if move.kind == DIAL:
        if move.amount is None:
            return f"{mover} turns the dial in secret"
        return f"{mover} dials {move.amount} in secret"
    dial = state.dial
    here = state.space(active)
    # MT-2.3: reaching or passing the last space wins at once.
    there = "the finish" if dial is not None and here + dial >= state.board.length else None
    there = there or (str(here + dial) if dial is not None else "")
    if move.kind == GUESS:
        if dial is None:
            return f"{challenger} guesses {move.amount}"
        if dial == move.amount:
            return f"{challenger} guesses {move.amount}: right, {mover} stays on {here}"
        # A dial that reaches the finish ends the game (MT-2.3): no dial follows.
        again = "" if there == "the finish" else " and dials again"
        return (
            f"{challenger} guesses {move.amount}: wrong, the dial was {dial}; "
            f"{mover} rides to {there}{again}"
        )
    if dial is None:
        return f"{challenger} does not challenge"
    return f"{challenger} does not challenge: the dial was {dial}; {mover} rides to {there}"
