"""JSON views of a Pistard state for clients (an SVG track renderer, tools).

:func:`snapshot` is everything a client needs to draw the track and the riders and to
offer the legal moves, as plain JSON data built from ``state.view(viewer)``: each legal
move both as its notation (``legal``) and in parts (``legal_moves``, :func:`move_parts`),
so a client never parses the notation itself; :func:`public_moves` is the move list
(Pistard hides nothing).
"""

from __future__ import annotations

from typing import Any

from ...core.protocol import CHANCE
from .notation import ASSIGN, Move
from .riders import base_colour_name
from .state import State
from .track import COLOUR_OF_LETTER, LANE_LETTERS

#: The snapshot's lists of the moves at hand (``legal``, and the legal moves in parts): the server
#: fills them only for whoever may play them (docs/games.md, ``MOVE_LISTS``).
MOVE_LISTS = ("legal", "legal_moves")
#: How many of the latest moves a snapshot lists.
LAST_MOVES = 12


def phase(state: State) -> str:
    """``first`` (the first move, PI-2), ``race`` or ``over``."""
    if state.is_over:
        return "over"
    return "first" if state.round == 1 else "race"


def public_moves(state: State, viewer: str | None = None) -> list[str]:
    """The moves played so far as ``viewer`` may see them: all of them."""
    return [str(m) for m in state.history]


def move_parts(move: Move) -> dict[str, Any]:
    """A player's move (PI-5.2) in the parts a client offers it by: its ``text``,
    ``kind`` (``assign``: a die given to a rider in the first move, PI-2.2; ``ride``:
    a die ridden to ``end`` along ``path``, the end of the die's path then the bonus
    squares, PI-3.4/3.5; ``stay``: a die used by a rider with no free square ahead),
    ``rider``, ``die`` (the die's value), ``path`` (empty unless a ride) and ``end``
    (the square the rider stops on; null unless a ride)."""
    kind = "assign" if move.kind == ASSIGN else "ride" if move.path else "stay"
    return {
        "text": str(move),
        "kind": kind,
        "rider": move.rider,
        "die": move.value,
        "path": list(move.path),
        "end": move.end,
    }


def last_squares(state: State) -> list[str]:
    """The square the last move's ride ended on: one square, or none (a roll, a first
    move's die, a rider with no free square ahead, no move yet)."""
    last = state.history[-1] if state.history else None
    if isinstance(last, Move) and last.end is not None:
        return [last.end]
    return []


def snapshot(state: State, viewer: str | None = None) -> dict[str, Any]:
    """The position as JSON data; ``legal`` lists the legal moves' notation when it is
    ``viewer``'s turn, else it is empty, and ``legal_moves`` the same moves in parts
    (:func:`move_parts`), in the same order."""
    view = state.view(viewer)
    layout = view.layout
    riders = []
    for rid in view.riders:
        lane = view.lane[rid]
        out = rid in view.out
        riders.append(
            {
                "id": rid,
                "team": rid[0],
                "colour": base_colour_name(rid),
                "distance": view.dist[rid],
                "lap": view.lap_of(rid),
                "row": None if lane < 0 or out else (view.dist[rid] - 1) % view.length + 1,
                "lane": None if lane < 0 or out else LANE_LETTERS[lane],
                "square": view.square_of(rid),
                "eliminated": out,
                "behind_line": lane < 0 and not out,
                "moved": rid in view.moved,
                "due": rid == view.due,
                "assigned": view.assigned.get(rid) if view.round == 1 else None,
            }
        )
    current = view.current_player
    moves = list(view.legal_moves()) if viewer is not None and current == viewer else []
    return {
        "game": view.game,
        "phase": phase(view),
        "round": view.round,
        "players": list(view.players),
        "current_player": current,
        "is_chance": view.is_chance,
        "roller": view.roller,
        "due": view.due,
        "is_over": view.is_over,
        "options": {"length": view.length, "bonus": view.bonus, "target": view.target},
        "track": {
            "name": layout.name,
            "length": layout.length,
            "lanes": list(LANE_LETTERS),
            # rows[r - 1][lane]: colour of square lane+r
            "rows": [[COLOUR_OF_LETTER[c] for c in row] for row in layout.rows],
        },
        "riders": riders,
        "points": dict(view.points),
        # The dice each player still has to use this round, and its whole roll.
        "dice": {t: sorted(d) for t, d in view.dice.items()}
        if view.round > 1
        else {t: sorted(view.unassigned_dice(t)) for t in view.first_rolls},
        "rolls": {
            t: list(d) for t, d in (view.rolls if view.round > 1 else view.first_rolls).items()
        },
        "dice_to_roll": view.dice_to_roll() if current == CHANCE else None,
        "laps": {str(k): n for k, n in sorted(view.laps.items())},
        "legal": [str(m) for m in moves],
        "legal_moves": [move_parts(m) for m in moves],
        "last_moves": [str(m) for m in view.history[-LAST_MOVES:]],
        # The square the last ride ended on (the page marks it; it reads no notation).
        "last_squares": last_squares(view),
        "moves_played": len(view.history),
        "result": view.result.to_dict(),
    }
