"""JSON views of a Mind Twist game for clients (the web table, tools).

:func:`snapshot` is built from ``state.view(viewer)`` only, so it never holds a dial
``viewer`` could not see at the table (MT-4.1); :func:`public_moves` is the move list
as a viewer may see it (MT-4.2).
"""

from __future__ import annotations

from typing import Any

from .notation import PASS
from .public_log import Turn
from .state import State


def public_moves(state: State, viewer: str | None = None) -> list[str]:
    """The moves played so far as ``viewer`` may see them: the other player's dials
    not revealed by a wrong guess or a pass are ``dial:?`` (MT-4.2)."""
    return state.public_texts(viewer)


def snapshot(state: State, viewer: str | None = None) -> dict[str, Any]:
    """The position as JSON data for ``viewer`` (``"R"``, ``"B"`` or ``None``).

    Keys: ``game``, ``players``, ``current_player``, ``is_over``, ``result``, ``end``
    (``finish``, ``limit`` or ``None``), ``turn_limit``,
    ``phase`` (``dial``, ``guess`` or ``over``), ``length``, ``milestones``,
    ``spaces`` (each token's space; ``length`` for a finished one), ``active`` (whose
    dial moves), ``first`` (who was active first), ``dial`` (the dial awaiting a guess, only for its dialer), ``legal``
    (the viewer's legal moves when it is the viewer's turn), ``moves`` (the public move
    list), ``last_turn`` (the last answered turn: dialer, dial, response, outcome).
    """
    # Read from ``state`` itself, not from ``state.view(viewer)``: the view is a copy,
    # which would read the whole history again, where ``state``'s logs read only what
    # the last move added (a replay takes a snapshot after every move). What the view
    # would hide is hidden here: the dial, shown to its dialer alone (MT-4.1).
    seen = state
    last = state.last_answered_turn(viewer)
    own_turn = viewer is not None and viewer == seen.current_player
    return {
        "game": seen.game,
        "players": list(seen.players),
        "current_player": seen.current_player,
        "is_over": seen.is_over,
        "result": seen.result,
        "end": seen.end,
        "turn_limit": seen.board.turn_limit,
        "phase": seen.phase,
        "length": seen.board.length,
        "milestones": list(seen.board.milestones),
        "spaces": {p: seen.space(p) for p in seen.players},
        "active": seen.active_player,
        "first": seen.first,
        "dial": seen.dial if viewer == seen.active_player else None,
        "legal": [str(m) for m in seen.legal_moves()] if own_turn else [],
        "moves": state.public_texts(viewer),
        "last_turn": _turn_json(last) if last is not None else None,
    }


def _turn_json(turn: Turn) -> dict[str, Any]:
    assert turn.response is not None
    if turn.correct:
        outcome = "correct"
    elif turn.response.kind == PASS:
        outcome = "pass"
    else:
        outcome = "wrong"
    return {
        "dialer": turn.dialer,
        "dial": turn.dial.amount,
        "response": str(turn.response),
        "outcome": outcome,
    }
