"""Who surely leaves its row this round: a rider stays only when it cannot move.

A rider must advance at least one square if it can (MC-5.3); it stays where it is only
when, at its turn, every square one row ahead of it that a step may enter (straight
ahead or diagonally, MC-5.1) holds a rider or a rock, and it can neither wheel nor
relay. The round bound (:func:`.bounds.round_reach`) keeps a rider still to move
anywhere from its row to its reach, and the later rounds' bound
(:meth:`.bounds.Bounds.step`) keeps that lowest row for good: a sprinter that left the
start zone for the mountain stays "maybe in the start zone" and may ride trains there
in every later round. Knowing it surely moves lifts its lowest row by one.

Which riders may fill those squares before its turn:

* a rider that has ridden this round stands where it ended;
* a rider still to move standing on such a square keeps it only if it may stay too
  (decided first, riders on further rows first): otherwise it moves before ours
  (MC-4.3: further rows first) and leaves it;
* a rider still to move from this row or a row behind fills one square at most, and
  only if it may move before ours: it comes first in the order (further rows first,
  then lanes from the left, MC-4.3), or it is pulled forward by train priority
  (MC-4.4) behind a leader that may move before ours and is not ours, or that has
  just ridden (the follower's turn comes at once). It reaches the
  square by a normal move or an attack (within its allowance + 3, one lane aside per
  row, MC-5.1, MC-7.2), or by a wheel or a relay (anywhere, when it has a leader and
  may follow, MC-6.3 b, c).

Ours may stay only if every open square gets its own such rider.
"""

from __future__ import annotations

from ..rules import can_follow
from ..state import State
from .team import Bounded


def surely_moving(state: State) -> set[str]:
    """The riders still to move this round that cannot stay on their row (MC-5.3)."""
    race = state.race
    tables = race.tables
    course = state.course
    pos = race.square_of
    done = race.done
    leader = tables.leader
    allow = tables.allowance
    lanes = course.lanes
    rocks = course.rock_mask
    at = {sq: rid for rid, sq in pos.items()}
    todo = sorted((rid for rid in pos if rid not in done), key=lambda r: (-(pos[r] >> 5), pos[r]))
    rank = {rid: i for i, rid in enumerate(todo)}
    follows = {rid for rid in todo if leader.get(rid) is not None and can_follow(tables, rid)}

    def before(m: str, i: str) -> bool:
        """May ``m`` move before ``i``: it, or a rider up its chain of leaders (not
        ``i``), comes before ``i`` in the order (MC-4.3, MC-4.4)."""
        x: str | None = m
        while x is not None and x != i:
            if x in rank and rank[x] < rank[i]:
                return True
            if x not in follows:
                return False
            x = leader.get(x)
            if x in done:
                return True  # its leader has just ridden: its priority turn may be now
        return False

    may_stay: dict[str, bool] = {}
    for i in todo:
        row, lane = pos[i] >> 5, pos[i] & 31
        ahead = row + 1
        rock = rocks[ahead] if ahead < len(rocks) else 0
        open_squares = []
        for ln in (lane - 1, lane, lane + 1):
            if not 0 <= ln < lanes or rock >> ln & 1:
                continue
            sq = ahead << 5 | ln
            j = at.get(sq)
            if j is not None and (j in done or may_stay[j]):
                continue  # stays taken
            open_squares.append(ln)
        fillers = [
            [
                m
                for m in todo
                if m != i
                and (pos[m] >> 5) <= row
                and before(m, i)
                and (
                    m in follows
                    or (
                        ahead - (pos[m] >> 5) <= allow[m] + 3
                        and abs(ln - (pos[m] & 31)) <= ahead - (pos[m] >> 5)
                    )
                )
            ]
            for ln in open_squares
        ]
        may_stay[i] = _fill(fillers, frozenset())
    return {rid for rid, stays in may_stay.items() if not stays}


def _fill(fillers: list[list[str]], used: frozenset[str]) -> bool:
    """Whether each square gets a rider of its own from its list."""
    if not fillers:
        return True
    return any(_fill(fillers[1:], used | {m}) for m in fillers[0] if m not in used)


def lift_lows(state: State, after: list[Bounded]) -> list[Bounded]:
    """``after`` (:func:`.bounds.round_reach` of ``state``, in the order of the race's
    riders) with the lowest row of every rider that surely moves raised by one."""
    moving = surely_moving(state)
    if not moving:
        return after
    out = []
    for rid, (t, low, high) in zip(state.race.square_of, after, strict=True):
        out.append((t, low + 1, high) if rid in moving and high > low else (t, low, high))
    return out
