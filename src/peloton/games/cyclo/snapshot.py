"""JSON views of a Cyclo state for clients (a board renderer, tools).

:func:`snapshot` is everything a client needs to draw the course and the riders and to
offer the legal moves; it does not depend on the viewer (Cyclo hides nothing, and the
legal moves of whoever acts are listed for every viewer: a client offers them only on
its own turn). :func:`public_moves` is the move list.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from .riders import LANE_LETTERS, rider_type
from .state import State
from .terrain import TERRAIN

#: How many of the latest moves a snapshot lists.
LAST_MOVES = 16


def public_moves(state: State, viewer: str | None = None) -> list[str]:
    """The moves played so far as ``viewer`` may see them: all of them (CY-13.3)."""
    return [str(m) for m in state.history]


def course_json(state: State) -> dict[str, Any]:
    """The course: one entry per position 1 … N, the lines and the run-out."""
    setup = state.setup
    course = setup.course
    n = setup.finish
    return {
        "name": course.name,
        "length": n,
        "run_out": setup.cap - n,
        "boards": [board.name for board in course.boards],
        "spaces": [
            {
                "position": k,
                "type": course.kinds[k],
                "width": course.widths[k],
                "dark": course.darks[k] > 0,
                "event": course.events[k],
                "board": course.board_names[k],
            }
            for k in range(1, n + 1)
        ],
        "lines": [
            {"after": line.after, "kind": line.kind, "category": line.category,
             "scores": line in setup.scoring}
            for line in course.lines
        ] + [{"after": n, "kind": "finish", "category": None, "scores": True}],
        "legend": {name: t.meaning for name, t in TERRAIN.items()},
    }


def snapshot(state: State, viewer: str | None = None) -> dict[str, Any]:
    """The position as JSON data (the same for every viewer)."""
    view = state.view(viewer)
    setup, p = view.setup, view.p
    riders = []
    for rid in setup.riders:
        info = view.rider(rid)
        riders.append({
            "id": rid,
            "team": rid[0],
            "type": rider_type(rid),
            "position": info.position,
            "lane": None if info.position is None else LANE_LETTERS[p.lane[rid]],
            "square": info.square,
            "tokens": info.tokens,
            "skip": info.skip,
            "technical": info.technical,
            "hunger": info.hunger,
            "finished": info.finished,
            "turn_over": rid in p.turn_over,
            "due": rid == view.due,
            "points": p.points.get(rid, 0),
            "mountain": p.red.get(rid, 0),
        })
    legal = [] if view.is_chance or view.is_over else [str(m) for m in view.legal_moves()]
    return {
        "game": view.game,
        "mode": setup.mode.name,
        "level": setup.level,
        "events": setup.events,
        "round": view.round,
        "phase": view.phase,
        "players": list(view.players),
        "current_player": view.current_player,
        "is_chance": view.is_chance,
        "is_over": view.is_over,
        "due": view.due,
        "proposer": p.proposer,
        "leader": p.leader if view.phase == "wheel" else None,
        "order": list(p.order),
        "dice": list(p.last_roll),
        "card": p.last_card,
        "course": course_json(view),
        "riders": riders,
        "team_tokens": view.team_tokens,
        "cards_left": view.cards_left,
        "deck": {card.id: {"name": card.name, "count": card.count, "effect": card.pro if setup.pro else card.starter,
                           "limit": card.limit} for card in CARDS},
        "lines": [list(listed) for listed in p.lists],
        "finish": [{"rider": r, "round": rnd, "past": past} for r, rnd, past in p.finishers],
        "legal": legal,
        "last_moves": [str(m) for m in view.history[-LAST_MOVES:]],
        "moves_played": len(view.history),
        "result": view.result.to_dict(),
    }
