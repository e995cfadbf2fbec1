"""Why a well-formed move is not legal now: the reason an :class:`IllegalMoveError`
gives, in the game's words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .notation import ASSIGN, ROLL, Move

if TYPE_CHECKING:
    from .state import State


def why_illegal(state: State, move: Move) -> str:
    """Why ``move`` (well-formed, not legal) cannot be played now, in words."""
    roller = state.roller
    if roller is not None:
        if move.kind != ROLL:
            return f"player {roller} must roll first"
        return f"player {roller} rolls {state.dice_to_roll()} dice, not {len(move.dice)}"
    if move.kind == ROLL:
        return f"no roll is due; {state.current_player} is to play"
    team = state.current_player
    if move.rider[0] != team:
        return f"it is player {team}'s turn"
    if state.round == 1:
        if move.kind != ASSIGN:
            return "in the first move each rider is given a die, e.g. A3=5 (PI-2.2)"
        if move.rider in state.assigned:
            return f"{move.rider} already has a die"
        return f"player {team} has no unassigned {move.value} (dice left: {state.unassigned_dice(team)})"
    if move.kind == ASSIGN:
        return "after the first move a rider's move names its end square, e.g. A3=5:c22"
    due = state.order[state.idx]
    if move.rider != due:
        return f"{due} is due to move (race order, PI-3.1)"
    if move.value not in state.dice[team]:
        return f"player {team} has no unused {move.value} (dice left: {sorted(state.dice[team])})"
    ends = sorted({str(m).split(":")[1] for m in state.legal_moves() if m.value == move.value})
    return f"with a {move.value}, {due} may go to: {', '.join(ends)}"

