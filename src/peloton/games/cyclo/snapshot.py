"""JSON views of a Cyclo state for clients (a board renderer, tools).

:func:`snapshot` is everything a client needs to draw the course and the riders and to
offer the legal moves; it does not depend on the viewer (Cyclo hides nothing, and the
legal moves of whoever acts are listed for every viewer: a client offers them only on
its own turn). :func:`public_moves` is the move list.

On the velodrome (the track events, CY-11) the snapshot keeps the road's shape, with
``course.spaces`` listing the distances 1 … D (type ``track``, each with its ``loop``
space) and ``course.lines`` the event's lines, and adds what a loop drawing needs:

* ``track``: ``lap`` (spaces a lap), ``width`` (lanes), ``distance`` (D, the finish
  line lies after it), ``half`` (lap / 2), ``run_out`` (9), ``three_dice_from`` (a
  ride starting at this distance or beyond rolls 3 dice; ``None``: never), ``pacer``
  (the keirin pacer while it rides: ``{"distance", "loop"}``, else ``None``) and
  ``lines``: one entry per line in race order, the finish last, each
  ``{"at": k, "kind": "sprint" | "elimination" | "finish", "pays": [points of its
  first riders], "list": [rider ids, in list order]}`` (the line lies after distance
  k; the finish's list is the finishing order);
* per rider: ``distance`` (its position: 0 on the start line, D + k on the run-out,
  ``None`` once finished or out), ``loop`` (its loop space 1 … lap, ``None`` off the
  loop: start line, run-out, gone), ``laps`` (whole laps ridden, distance // lap),
  ``lane`` (as on the road) and ``out`` (eliminated).

On the road ``track`` is ``None``.

Whatever the course, ``mode`` is the mode's name and ``mode_facts`` what a client
shows of it (:func:`~peloton.games.cyclo.modes.mode_facts`: its words, road or track,
timed, points, eliminations, a pacer …), so a client keeps no list of mode names.
``rides`` are the legal rides already parsed (``{"text", "rider", "target", "tokens",
"at"}``: ``target`` as the move writes it, ``57`` or ``#3``; ``at`` the distance it
aims at, the run-out counted past the finish), and ``last_ride`` the last move played
when it was a ride (``{"text", "rider", "target", "tokens", "at"}``, else ``None``):
a client need not read move notation.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from .modes import mode_facts
from .notation import Move, Ride
from .position import RIDE, WHEEL
from .riders import LANE_LETTERS, rider_type
from .rules import landing, may_hold_back, target_of, terrain_at
from .state import State
from .terrain import CLIMBER, TERRAIN
from .track import FINISH, loop_space

#: The snapshot's lists of the moves at hand (``legal``, and the legal rides in parts): the server
#: fills them only for whoever may play them (docs/games.md, ``MOVE_LISTS``).
MOVE_LISTS = ("legal", "rides")
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
    if setup.is_track:
        return _velodrome_json(state) | _terrain_json()
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
            {
                "after": line.after,
                "kind": line.kind,
                "category": line.category,
                "scores": line in setup.scoring,
            }
            for line in course.lines
        ]
        + [{"after": n, "kind": "finish", "category": None, "scores": True}],
    } | _terrain_json()


def _terrain_json() -> dict[str, Any]:
    """The legend and every track type's facts (CY-1.1)."""
    return {
        "legend": {name: t.meaning for name, t in TERRAIN.items()},
        "terrain": {
            name: {
                "dice": t.dice,
                "sprinter_dice": t.sprinter_dice,
                "climber_bonus": t.climber_bonus,
                "dark_back": t.dark_back,
                "panels": list(t.panels),
                "wheel": t.wheel,
                "swap": t.swap,
                "hold_back": t.hold_back,
            }
            for name, t in TERRAIN.items()
        },
    }


def _velodrome_json(state: State) -> dict[str, Any]:
    """The velodrome as a course: distances 1 … D, each with its loop space."""
    setup = state.setup
    lap, n = setup.course.lap, setup.finish
    assert lap is not None
    return {
        "name": setup.course.name,
        "length": n,
        "run_out": setup.cap - n,
        "boards": [],
        "spaces": [
            {
                "position": k,
                "type": "track",
                "width": setup.widths[k],
                "dark": False,
                "event": False,
                "board": setup.course.name,
                "loop": loop_space(k, lap),
            }
            for k in range(1, n + 1)
        ],
        "lines": [
            {"after": line.after, "kind": line.kind, "category": None, "scores": True}
            for line in setup.scoring
        ]
        + [{"after": n, "kind": "finish", "category": None, "scores": True}],
    }


def track_json(state: State) -> dict[str, Any] | None:
    """What a loop drawing of the velodrome needs (module docstring); ``None`` on the
    road."""
    setup, position = state.setup, state.position
    facts = setup.track
    if facts is None:
        return None
    lap = setup.course.lap
    assert lap is not None
    lines = [
        {"at": line.after, "kind": line.kind, "pays": list(pays), "list": list(listed)}
        for line, pays, listed in zip(setup.scoring, setup.pays, position.lists, strict=True)
    ]
    lines.append(
        {
            "at": setup.finish,
            "kind": FINISH,
            "pays": list(setup.finish_pays),
            "list": [r for r, _, _ in position.finishers],
        }
    )
    pacer = position.pacer
    return {
        "lap": lap,
        "width": setup.course.width,
        "distance": setup.finish,
        "half": lap // 2,
        "run_out": setup.cap - setup.finish,
        "three_dice_from": facts.three_dice_from,
        "pacer": None if pacer is None else {"distance": pacer, "loop": loop_space(pacer, lap)},
        "lines": lines,
    }


def _track_rider(state: State, rider: str) -> dict[str, Any]:
    """A rider's place on the loop (module docstring)."""
    setup, position = state.setup, state.position
    lap = setup.course.lap
    assert lap is not None
    d = position.pos.get(rider)
    on_loop = d is not None and 1 <= d <= setup.finish
    return {
        "distance": d,
        "loop": loop_space(d, lap) if on_loop and d is not None else None,
        "laps": None if d is None else min(d, setup.finish) // lap,
        "out": rider in position.out,
    }


def _square(state: State, position: int, lane: int) -> str:
    """A square's name: lane and position, ``#k`` on the run-out (``b#3``)."""
    n = state.setup.finish
    return f"{LANE_LETTERS[lane]}{'#' + str(position - n) if position > n else position}"


def ride_json(state: State) -> dict[str, Any] | None:
    """What the rider due may do with its dice, for a client to explain the ride (the
    ride and wheel phases only, else ``None``): its position, the total it rolled
    (a climber's +1 included), its token panel here (CY-4.3), whether it may hold
    back, and ``landing``: the square each target of its rides, or the wheel's aim,
    puts it on (room and dark squares counted, CY-4.5, CY-4.6), keyed by the target
    as a ride writes it (``56``, ``#4``)."""
    setup, position, due = state.setup, state.position, state.due
    if due is None or position.phase not in (RIDE, WHEEL):
        return None
    n = setup.finish

    def key(t: int) -> str:
        return f"#{t - n}" if t > n else str(t)

    if position.phase == WHEEL:
        aim = min(position.ride_to - 1, setup.cap)
        lands = _square(state, *landing(setup, position, due, aim))
        return {"from": position.pos[due], "wheel": key(aim), "landing": {key(aim): lands}}
    here = terrain_at(setup, position.pos[due])
    total = sum(position.dice) + (here.climber_bonus if rider_type(due) == CLIMBER else 0)
    aims = sorted({target_of(setup, m) for m in state.legal_moves() if isinstance(m, Ride)})
    return {
        "from": position.pos[due],
        "total": total,
        "panel": here.panel(rider_type(due)) if setup.pro else 0,
        "hold_back": may_hold_back(setup, position, due),
        "landing": {key(t): _square(state, *landing(setup, position, due, t)) for t in aims},
    }


def ride_parts(state: State, ride: Ride) -> dict[str, Any]:
    """A ride's parts (module docstring): its text, rider, target as written, tokens
    and the distance it aims at."""
    key = f"#{ride.target}" if ride.runout else str(ride.target)
    return {
        "text": str(ride),
        "rider": ride.rider,
        "target": key,
        "tokens": ride.tokens,
        "at": target_of(state.setup, ride),
    }


def _last_ride(state: State) -> dict[str, Any] | None:
    last: Move | None = state.history[-1] if state.history else None
    return ride_parts(state, last) if isinstance(last, Ride) else None


def snapshot(state: State, viewer: str | None = None) -> dict[str, Any]:
    """The position as JSON data (the same for every viewer)."""
    view = state.view(viewer)
    setup, position = view.setup, view.position
    riders = []
    for rid in setup.riders:
        info = view.rider(rid)
        riders.append(
            {
                "id": rid,
                "team": rid[0],
                "type": rider_type(rid),
                "position": info.position,
                "lane": None if info.position is None else LANE_LETTERS[position.lane[rid]],
                "square": info.square,
                "tokens": info.tokens,
                "skip": info.skip,
                "technical": info.technical,
                "hunger": info.hunger,
                "finished": info.finished,
                "turn_over": rid in position.turn_over,
                "due": rid == view.due,
                "points": position.points.get(rid, 0),
                "mountain": position.red.get(rid, 0),
            }
            | (_track_rider(view, rid) if setup.is_track else {})
        )
    moves = [] if view.is_chance or view.is_over else view.legal_moves()
    return {
        "game": view.game,
        "mode": setup.mode.name,
        "mode_facts": mode_facts(setup.mode),
        "level": setup.level,
        "events": setup.events,
        "round": view.round,
        "phase": view.phase,
        "players": list(view.players),
        "current_player": view.current_player,
        "is_chance": view.is_chance,
        "is_over": view.is_over,
        "due": view.due,
        "proposer": position.proposer,
        "leader": position.leader if view.phase == "wheel" else None,
        "order": list(position.order),
        "dice": list(position.last_roll),
        "card": position.last_card,
        "course": course_json(view),
        "track": track_json(view),
        "riders": riders,
        "team_tokens": view.team_tokens,
        "cards_left": view.cards_left,
        "deck": {
            card.id: {
                "name": card.name,
                "count": card.count,
                "effect": card.pro if setup.pro else card.starter,
                "limit": card.limit,
            }
            for card in CARDS
        },
        "lines": [list(listed) for listed in position.lists],
        "finish": [{"rider": r, "round": rnd, "past": past} for r, rnd, past in position.finishers],
        "legal": [str(m) for m in moves],
        "rides": [ride_parts(view, m) for m in moves if isinstance(m, Ride)],
        "last_ride": _last_ride(view),
        "last_moves": [str(m) for m in view.history[-LAST_MOVES:]],
        "moves_played": len(view.history),
        "result": view.result.to_dict(),
        "ride": ride_json(view),
    }
