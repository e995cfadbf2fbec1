"""Move generation and move effects: setup (MC-3), movement and wind (MC-5), trains
(MC-6), bottles (MC-7), finish and section medals (MC-8).

Reachability uses lane bitmasks: the set of squares a rider can stand on after ``k``
steps is one int per row, spread one lane left and right and masked by the free
squares of the next row (MC-5.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .course import Course
from .notation import ATTACK, FINISH, GIVE, MOVE, PLACE, RELAY, STAY, WHEEL, Move
from .riders import OWN_SECTIONS, SPRINTER

if TYPE_CHECKING:
    from .state import State

_new = tuple.__new__


# ---------------------------------------------------------------- game length


def max_rounds(course: Course, riders: int) -> int:
    """A bound on the rounds any game of ``riders`` riders on ``course`` lasts.

    No position can loop: the first rider of every round stands on the furthest row,
    with no rider ahead of it and no wall of rocks (MC-1.3), and has not been passed by
    anyone yet, so it advances at least one row or crosses the line (MC-5.1, MC-5.3);
    the rows left to ride, summed over the riders on the road, drop by at least one a
    round. The bound is loose: every rider crawling one row a round on a 200-row course
    of 9 lanes with 42 riders ends in 196 rounds (docs/decisions.md).
    """
    return max(1, riders * (course.finish - 1))


# ---------------------------------------------------------------- generation


def legal_moves(state: State) -> list[Move]:
    """Every legal move of the state, in a stable order."""
    if state.over:
        return []
    if state.round == 0:
        return _placements(state)
    return _race_moves(state)


def _placement_squares(state: State, team: str) -> list[int]:
    """Free start-zone squares for ``team`` (MC-3.1, MC-3.2, MC-9.2), front rows first."""
    course, at = state.course, state.at
    last = course.start_rows
    rows = [last] if state.solo else range(last, 0, -1)
    free = [r << 5 | lane for r in rows for lane in range(course.lanes) if (r << 5 | lane) not in at]
    if state.solo:
        return free

    def clear(sq: int) -> bool:
        ahead, behind = at.get(sq + 32), at.get(sq - 32)
        return not ((ahead and ahead[0] == team) or (behind and behind[0] == team))

    allowed = [sq for sq in free if clear(sq)]
    return allowed or free  # MC-3.2 [decision]: lifted when nothing respects it


def _placements(state: State) -> list[Move]:
    team = state.current_player
    assert team is not None
    names = state.course.names
    squares = [names[sq >> 5][sq & 31] for sq in _placement_squares(state, team)]
    return [_new(Move, (PLACE, rid, name, None)) for rid in state._unplaced[team] for name in squares]


def _race_moves(state: State) -> list[Move]:
    rid = state.current
    assert rid is not None
    course = state.course
    finish = course.finish
    rows = state.rows
    sq = state.pos[rid]
    row = sq >> 5
    moves: list[Move] = []

    # MC-7.1: a bottle for the teammate directly behind, before moving.
    if not state._gave and rid in state.bottles:
        mate = state.at.get(sq - 32)
        if mate is not None and mate[0] == rid[0] and mate not in state.bottles:
            moves.append(_new(Move, (GIVE, rid, None, mate)))
    gives = len(moves)

    # MC-5: normal moves within the allowance; MC-7.2: attacks within allowance + 3.
    # The moves reaching a row depend only on the rider, the kind, the row and the
    # lanes reachable there, so they are memoised per course (a large share of a
    # random playout's time otherwise goes to building the same tuples again).
    memo = course.move_memo.get(rid)
    if memo is None:
        memo = course.move_memo[rid] = {}
    allowance = state._allow[rid]
    attack = rid in state._held and rid in state.bottles and state._sect[rid] in OWN_SECTIONS[rid[1]]
    top = row + (allowance + 3 if attack else allowance)
    last = top if top < finish else finish - 1
    full = (1 << course.lanes) - 1
    frontier = 1 << (sq & 31)
    r = row
    while r < last:
        r += 1
        # ``rows`` marks riders and rocks alike: the squares a path may not enter.
        frontier = (frontier | frontier << 1 | frontier >> 1) & full & ~rows[r]
        if not frontier:
            break
        key = r << 32 | frontier
        if r - row <= allowance:
            found = memo.get(key)
            moves += found if found is not None else _memo_moves(memo, key, course, MOVE, rid, r, frontier)
        if attack:
            key |= _ATTACK_BIT
            found = memo.get(key)
            moves += found if found is not None else _memo_moves(memo, key, course, ATTACK, rid, r, frontier)
    else:
        if top >= finish:  # MC-5.6: a path that reaches the last row can step across
            if finish - row <= allowance:
                moves.append(_new(Move, (MOVE, rid, FINISH, None)))
            if attack:
                moves.append(_new(Move, (ATTACK, rid, FINISH, None)))

    # MC-6: wheel and relay behind the rider this one is linked to.
    x = state._leader.get(rid)
    if x is not None and may_follow(state, rid, x):
        moves.extend(_train_moves(state, rid, x))

    if len(moves) == gives:
        moves.append(_new(Move, (STAY, rid, None, None)))  # MC-5.3
    return moves


_ATTACK_BIT = 1 << 31


def _memo_moves(
    memo: dict[int, tuple[Move, ...]], key: int, course: Course, kind: str, rid: str, row: int, lanes: int
) -> tuple[Move, ...]:
    """Build (and remember) the moves of ``kind`` taking ``rid`` to the ``lanes`` of ``row``."""
    found = memo[key] = tuple(_new(Move, (kind, rid, name, None)) for name in course.squares_in(row, lanes))
    return found


def may_follow(state: State, y: str, x: str) -> bool:
    """MC-6.3 (b)-(d) for ``y`` linked to ``x``: may ``y`` wheel or relay behind ``x``?"""
    if y in state._tired:  # (c)
        return False
    if y[1] == SPRINTER and state._sect[y] == "mountain":  # (b)
        return False
    gi = state._group_of.get(x)  # (d): no group means x stayed or has not moved
    return gi is not None and not state._groups[gi][2]


def _train_moves(state: State, rid: str, x: str) -> list[Move]:
    """Wheel and relay targets behind ``x`` (MC-6.4, 6.5, 6.6); (e) checked here.

    The wheel square is directly behind ``x`` where it stands now (one row back along
    the shelter direction): right after ``x`` relayed it holds the group's old head.
    The relay square is directly in front of the head of ``x``'s group, open only to a
    rider whose train place at the assessment is at most ``relay_limit + 1``."""
    course = state.course
    dl = state.dl
    out = []
    here = state.pos[x]
    target = here - 32 - dl  # one row back along the shelter direction
    lane = (here & 31) - dl
    if 0 <= lane < course.lanes and target >> 5 >= 1 and _free(state, target):
        out.append(_new(Move, (WHEEL, rid, course.names[target >> 5][lane], None)))
    if state._train_place[rid] <= state.relay_limit + 1:
        head = state._groups[state._group_of[x]][0]
        lane = (head & 31) + dl
        target = head + 32 + dl
        if 0 <= lane < course.lanes:
            if target >> 5 >= course.finish:
                out.append(_new(Move, (RELAY, rid, FINISH, None)))
            elif _free(state, target):
                out.append(_new(Move, (RELAY, rid, course.names[target >> 5][lane], None)))
    return out


def _free(state: State, sq: int) -> bool:
    return not state.rows[sq >> 5] >> (sq & 31) & 1


# ---------------------------------------------------------------- effects


def apply(state: State, move: Move) -> None:
    """Apply a legal race move (already validated) and hand the turn on."""
    kind, rid, dest, target = move
    if kind == GIVE:  # MC-7.1: no move is spent; the same rider goes on
        state.bottles.discard(rid)
        state.bottles.add(target)  # type: ignore[arg-type]
        state._gave = True
        return
    if kind == STAY:
        state._end_turn(rid)
        return
    course = state.course
    start = state.pos[rid]
    crossed = dest == FINISH
    end = -1 if crossed else course.codes[dest]  # type: ignore[index]
    if kind == ATTACK:
        state.bottles.discard(rid)  # thrown away before riding (MC-7.2, MC-7.5)
    if (
        kind in (MOVE, ATTACK)
        and not crossed
        and rid[1] == "D"
        and rid not in state.bottles
        and _feed_on_path(state, start, end)
    ):
        state.bottles.add(rid)
    # Lift the rider off its square and set it down (State._put inlined: hot path).
    del state.at[start]
    state.rows[start >> 5] &= ~(1 << (start & 31))
    after = course.finish if crossed else end >> 5
    for medal, last in course.medal_lines:  # MC-8.3: first across a section's last row
        if start >> 5 <= last < after and medal not in state.medals:
            state.medals[medal] = rid
    if crossed:
        del state.pos[rid]
        _cross(state, rid)
    else:
        state.pos[rid] = end
        state.at[end] = rid
        state.rows[after] |= 1 << (end & 31)

    groups = state._groups
    if kind in (MOVE, ATTACK):  # MC-6.2: a new group; an attack's is closed
        groups.append([end, 1, kind == ATTACK or crossed])
        state._group_of[rid] = len(groups) - 1
    else:
        gi = state._group_of[state._leader[rid]]
        group = groups[gi]
        group[1] += 1
        if kind == RELAY:  # the relaying rider is the group's new head
            group[0] = end
            if crossed:
                group[2] = True
        state._group_of[rid] = gi
    state._end_turn(rid)


def _feed_on_path(state: State, start: int, end: int) -> bool:
    """MC-7.5: does some path from ``start`` to ``end`` enter a feed square?"""
    course = state.course
    feed = course.feed_mask
    first, last = (start >> 5) + 1, end >> 5
    if course.feed_before[last + 1] == course.feed_before[first]:
        return False  # no feed square on the rows crossed: the common case
    full = (1 << course.lanes) - 1
    rows = state.rows
    reach, fed = 1 << (start & 31), 0
    for r in range(first, last + 1):
        reach = (reach | reach << 1 | reach >> 1) & full & ~rows[r]
        fed = ((fed | fed << 1 | fed >> 1) & reach) | (reach & feed[r])
    return bool(fed >> (end & 31) & 1)


def _cross(state: State, rid: str) -> None:
    """MC-8.1: the rider leaves the road and takes the next place."""
    state.bottles.discard(rid)
    state.finished.append(rid)
    if len(state.finished) == 1:
        state.medals["cyclist"] = rid


# ---------------------------------------------------------------- explanations


def why_illegal(state: State, move: Move) -> str:
    """A player-facing reason why ``move`` is not legal now (it is assumed illegal)."""
    kind, rid, dest, target = move
    if state.over:
        return "the game is over"
    if rid not in state.ids:
        return f"there is no rider {rid} in this game"
    if state.round == 0:
        return _why_not_placement(state, move)
    if kind == PLACE:
        return "setup is over; riders are placed only before round 1"
    if rid in state.finished:
        return f"{rid} has already crossed the finish line"
    if rid != state.current:
        return f"it is {state.current}'s turn, not {rid}'s (out of turn)"
    if kind == GIVE:
        return _why_not_give(state, rid, target)  # type: ignore[arg-type]
    if kind == STAY:
        return "staying is legal only when no square can be reached and no wheel or relay is possible"
    here = state.course.square_name(state.pos[rid])
    allowance = state._allow[rid]
    if kind == ATTACK:
        if state._sect[rid] not in OWN_SECTIONS[rid[1]]:
            return f"{rid} may attack only in its own section, not in the {state._sect[rid]}"
        if rid not in state._held:
            return f"{rid} held no bottle at the start of the round"
        if rid not in state.bottles:
            return f"{rid} has given its bottle away"
        return f"{rid} cannot reach {dest} from {here} even attacking (allowance {allowance} + 3)"
    if kind in (WHEEL, RELAY):
        word = "wheel" if kind == WHEEL else "relay"
        x = state._leader.get(rid)
        if x is None:
            return f"{rid} is not linked to a rider (it rides against the wind), so it cannot {word}"
        if rid in state._tired:
            return f"{rid} is an exhausted domestique and cannot {word}"
        if rid[1] == SPRINTER and state._sect[rid] == "mountain":
            return f"a sprinter in the mountain cannot {word}"
        gi = state._group_of.get(x)
        if gi is None:
            return f"{x} has not moved at least one square this round"
        if state._groups[gi][2]:
            return f"{x}'s group is closed (an attack or a finish)"
        place = state._train_place[rid]
        if kind == RELAY and place > state.relay_limit + 1:
            return (
                f"{rid} is rider {place} of its train at the round's start; only riders 2 to "
                f"{state.relay_limit + 1} may relay (relay limit {state.relay_limit}), whatever the group's size"
            )
        return _why_no_train_square(state, rid, x, kind)
    return (
        f"{rid} cannot reach {dest} from {here}: allowance {allowance}, each step one row forward "
        "(straight or diagonal) into free squares, no rocks"
    )


def _why_no_train_square(state: State, rid: str, x: str, kind: str) -> str:
    """Why a wheel or relay of ``rid`` behind ``x`` is refused once (a)-(d) hold."""
    for m in _train_moves(state, rid, x):
        if m[0] == kind:
            return f"{rid}'s {'wheel' if kind == WHEEL else 'relay'} square is {m[2]}, not the one given"
    course = state.course
    if kind == WHEEL:
        here = state.pos[x]
        target = here - 32 - state.dl
        lane = (here & 31) - state.dl
        behind = f"the square behind {x} ({course.square_name(here)})"
        if not (0 <= lane < course.lanes and target >> 5 >= 1):
            return f"{behind} is off the road"
        name = course.square_name(target)
        who = state.at.get(target)
        if who is None:
            return f"{behind}, {name}, is a rock"
        if state._group_of.get(who) == state._group_of[x] and state._groups[state._group_of[x]][0] == here:
            return f"{behind} is {name}, where {who} stands: {x} relayed in front of it, so no wheel right after a relay"
        return f"{behind}, {name}, is taken by {who}"
    head = state._groups[state._group_of[x]][0]
    return f"the square in front of {course.square_name(head)}, the head of {x}'s group, is off the road, a rock or taken"


def _why_not_give(state: State, rid: str, target: str) -> str:
    if state._gave:
        return f"{rid} has already given a bottle this turn"
    if rid not in state.bottles:
        return f"{rid} holds no bottle"
    if target[0] != rid[0]:
        return "a bottle is never given to an opponent"
    behind = state.at.get(state.pos[rid] - 32)
    if behind != target:
        return f"{target} is not directly behind {rid} (same lane, previous row)"
    return f"{target} already holds a bottle"


def _why_not_placement(state: State, move: Move) -> str:
    kind, rid, dest, _ = move
    team = state.current_player
    if kind != PLACE:
        return f"during setup every move places a rider, e.g. {team}D1@a1"
    if rid[0] != team:
        return f"it is team {team}'s turn to place a rider (out of turn)"
    if rid not in state._unplaced[rid[0]]:
        return f"{rid} is already placed"
    course = state.course
    sq = course.parse_square(dest or "")
    last = course.start_rows
    if sq is None or sq >> 5 > last:
        return f"{dest} is not in the start zone (rows 1-{last})"
    if state.solo and sq >> 5 != last:
        return f"solo riders start side by side on the start zone's last row, row {last} (MC-9.2)"
    if sq in state.at:
        return f"{dest} is taken by {state.at[sq]}"
    return f"{dest} is directly in front of or behind a teammate (MC-3.2)"
