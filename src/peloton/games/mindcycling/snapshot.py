"""JSON views of a Mind Cycling state for clients (the web table, tools).

:func:`snapshot` is everything a client needs to draw a position and offer its legal
moves, as plain JSON data; :func:`public_moves` the moves played as a viewer may see
them; :func:`describe_move` says in words what a move does (the hover text of the web
table). All are read-only views of a state.
"""

from __future__ import annotations

from typing import Any

from .course import row_of
from .notation import ATTACK, FINISH, GIVE, MOVE, PLACE, RELAY, STAY, WHEEL, Move
from .riders import TYPE_NAMES
from .rules import may_follow
from .state import State

KIND_NAMES = {
    PLACE: "place",
    MOVE: "move",
    ATTACK: "attack",
    WHEEL: "wheel",
    RELAY: "relay",
    GIVE: "give",
    STAY: "stay",
}


def phase(state: State) -> str:
    """``setup``, ``race`` or ``over``."""
    if state.is_over:
        return "over"
    return "setup" if state.round == 0 else "race"


def describe_move(state: State, move: Move) -> str:
    """A sentence saying what a legal ``move`` of ``state`` does."""
    return _Describer(state, move[1])(move)


class _Describer:
    """Describes the moves of one rider, reading its assessment only once (a snapshot
    describes every legal move of the rider to play)."""

    __slots__ = ("leader", "row", "who", "windy")

    def __init__(self, state: State, rid: str) -> None:
        self.who = f"{rid} ({TYPE_NAMES[rid[1]]})"
        tables = state.race.tables
        here = state.race.square_of.get(rid)
        self.row = None if here is None else row_of(here)
        self.windy = rid in tables.against_wind
        self.leader = tables.leader.get(rid)

    def __call__(self, move: Move) -> str:
        kind, _, dest, target = move
        who = self.who
        if kind == PLACE:
            return f"place {who} on {dest}"
        if kind == GIVE:
            return f"{who} gives its bottle to {target}, then moves"
        if kind == STAY:
            return f"{who} cannot move and stays"
        rows = ""
        if dest == FINISH:
            where = "across the finish line"
        else:
            where = dest  # type: ignore[assignment]
            if self.row is not None:
                n = int(where[1:]) - self.row
                rows = f" ({n} row{'s' if n != 1 else ''})"
        if kind == MOVE:
            wind = " against the wind" if self.windy else ""
            return f"{who} rides{wind} to {where}{rows}"
        if kind == ATTACK:
            return f"{who} attacks to {where}{rows}: throws its bottle, +3, nobody may follow"
        if kind == WHEEL:  # MC-6.4: directly behind the rider it is linked to
            return f"{who} takes the wheel of {self.leader} to {where}{rows}"
        return f"{who} takes a relay in front of {self.leader}'s group to {where}{rows}"


def last_squares(state: State) -> list[str]:
    """The square the last move put a rider on: one square, or none (a give, a stay, a
    rider across the finish line, no move yet)."""
    last = state.history[-1] if state.history else None
    if isinstance(last, Move) and last.square is not None and last.square != FINISH:
        return [last.square]
    return []


def snapshot(state: State, viewer: str | None = None, *, legal: bool = True) -> dict[str, Any]:
    """The position as JSON data (see docs/protocol.md, "snapshot").

    ``viewer`` (a team letter, or ``None`` for a spectator) is the contract's
    (docs/games.md): Mind Cycling hides nothing, so every viewer gets the same
    snapshot, legal moves included.

    In a round, ``legal`` lists every legal move; during setup ``legal`` is empty and
    ``placement`` gives the team to place, its unplaced riders and the allowed squares
    (any rider on any of them: ``RIDER@SQUARE``)."""
    names = state.course.names
    # The round's assessment (MC-4.2) read straight from the race's tables: this runs
    # for every move a server broadcasts.
    race = state.race
    racing = race.round > 0
    tables = race.tables
    allow, windy, leader, tired = (
        tables.allowance,
        tables.against_wind,
        tables.leader,
        tables.exhausted,
    )
    done, finished, pos, bottles = race.done, set(race.finished), race.square_of, race.bottles
    riders = []
    for rid in state.ids:
        sq = pos.get(rid)
        assessed = racing and rid in allow
        lead = leader.get(rid) if assessed else None
        riders.append(
            {
                "id": rid,
                "team": rid[0],
                "type": rid[1],
                "square": None if sq is None else names[sq >> 5][sq & 31],
                "bottle": rid in bottles,
                "finished": rid in finished,
                "placed": sq is not None or rid in finished,
                "wind": assessed and rid in windy,
                "leader": lead,
                # MC-6.3 (b)-(d): may it wheel or relay behind its leader now? False
                # until the leader has moved, and for good once it attacked (MC-7.3).
                "follow": lead is not None and lead in done and may_follow(race, rid, lead),
                "exhausted": assessed and rid in tired,
                "allowance": allow[rid] if assessed else None,
                "moved": rid in done,
            }
        )
    result = state.result
    data: dict[str, Any] = {
        "game": state.game,
        "phase": phase(state),
        "round": state.round,
        "wind": state.wind,
        "relay_limit": state.relay_limit,
        "solo": state.solo,
        "teams": dict(state.teams),
        "players": list(state.players),
        "current_player": state.current_player,
        "is_over": state.is_over,
        "current_rider": state.current_rider,
        "riders": riders,
        "moves_played": len(state.history),
        # The square the last move put a rider on (the page marks it; it reads no notation).
        "last_squares": last_squares(state),
        "result": result.to_dict(),
    }
    if legal and state.in_setup:
        # 6 riders x 40 squares would be 240 moves: send the two lists they combine.
        team = state.current_player or ""
        moves = state.legal_moves()
        data["placement"] = {
            "team": team,
            "riders": state.unplaced(team),
            "squares": sorted({m.square for m in moves}, key=state.course.row_lane),
        }
        data["legal"] = []
    elif legal:
        data["legal"] = legal_moves_json(state)
    return data


def legal_moves_json(state: State) -> list[dict[str, Any]]:
    """The legal moves with their notation, kind, rider, square and description."""
    moves = state.legal_moves()
    if not moves:
        return []
    describe = _Describer(state, moves[0][1])  # every legal move is the same rider's
    return [
        {
            "text": str(m),
            "kind": KIND_NAMES[m[0]],
            "rider": m[1],
            "square": m[2],
            "target": m[3],
            "describe": describe(m),
        }
        for m in moves
    ]


def public_moves(state: State, viewer: str | None = None) -> list[str]:
    """The moves played so far, in notation, as ``viewer`` may see them: Mind Cycling
    hides nothing, so every viewer sees them all."""
    return [str(move) for move in state.history]
