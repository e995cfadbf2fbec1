"""The rules of Mind Cycling as functions of a :class:`~.position.Race`: the round's
assessment (MC-4.2, MC-4.3, MC-6.1), legal moves and their effects in setup (MC-3),
movement and wind (MC-5), trains (MC-6), bottles (MC-7), the finish, medals and the end
of the game (MC-8, MC-9.3), and why a move is illegal.

Nothing here decides whose turn it is (:mod:`.state` does, MC-4.4, MC-4.5) and nothing
imports :mod:`.state`: a function reads and changes only the race it is given.

Reachability uses lane bitmasks: the set of squares a rider can stand on after ``k``
steps is one int per row, spread one lane left and right and masked by the free
squares of the next row (MC-5.1).
"""

from __future__ import annotations

from .course import Course
from .notation import ATTACK, FINISH, GIVE, MOVE, PLACE, RELAY, STAY, WHEEL, Move
from .position import CLOSED, HEAD, SIZE, Race, RoundTables
from .riders import OWN_SECTIONS, SPRINTER, STEPS
from .scoring import best_team

#: MC-5.5: the lane offset of a rider's shelter square for each wind.
WINDS = {"front": 0, "left": -1, "right": 1}
#: MC-6.5: the default rule option.
DEFAULT_RELAY_LIMIT = 3
#: MC-8.5: the early end needs this many riders across the line.
SCORING_PLACES = 12
#: MC-9.3: the solo game ends in the round the fourth rider crosses.
SOLO_TARGET = 4

_new = tuple.__new__


# ---------------------------------------------------------------- the round


def assess(race: Race) -> None:
    """MC-4.2, MC-4.3, MC-6.1: fix every rider's section, allowance, wind, link, train
    place, bottle and fatigue, and the order; the round starts with nobody moved."""
    pos, at, bottles, dl = race.square_of, race.rider_at, race.bottles, race.shelter
    section_by_row = race.course.section_by_row
    allowance: dict[str, int] = {}
    section: dict[str, str] = {}
    windy: set[str] = set()
    tired: set[str] = set()
    leader: dict[str, str] = {}
    follower: dict[str, str] = {}
    for rid, sq in pos.items():
        sect = section_by_row[sq >> 5]
        a = STEPS[rid[1]][sect]
        # The shelter square (MC-5.5). A lane off the road has code lane 31 or
        # ``lanes``, which no rider occupies, so no bounds check is needed.
        x = at.get(sq + 32 + dl)
        if x is None:
            windy.add(rid)
            a -= 1
        else:
            leader[rid] = x
            follower[x] = rid
        if rid[1] == "D" and rid not in bottles:  # MC-7.4
            tired.add(rid)
            a -= 1
        allowance[rid] = a
        section[rid] = sect
    order = tuple(sorted(pos, key=lambda r: (-(pos[r] >> 5), pos[r] & 31)))
    # MC-6.1: train places. A leader stands one row ahead, so it comes first in the
    # order and its place is known when its follower's is counted.
    place: dict[str, int] = {}
    for rid in order:
        x = leader.get(rid)
        if x is not None:
            place[rid] = place[x] + 1
        elif rid in follower:
            place[rid] = 1
    race.tables = RoundTables(
        order, section, allowance, frozenset(windy), frozenset(tired), frozenset(bottles & pos.keys()),
        leader, follower, place,
    )  # fmt: skip
    race.next_in_order = 0
    race.done = set()
    race.gave = False
    race.groups = []
    race.group_of = {}
    race.current = order[0] if order else None


def can_follow(tables: RoundTables, y: str) -> bool:
    """MC-6.3 (b), (c): may ``y`` ever wheel or relay this round (not a sprinter in the
    mountain, not an exhausted domestique)?"""
    return y not in tables.exhausted and not (y[1] == SPRINTER and tables.section[y] == "mountain")


def may_follow(race: Race, y: str, x: str) -> bool:
    """MC-6.3 (b)-(d) for ``y`` linked to ``x``: may ``y`` wheel or relay behind ``x``?
    (Also MC-4.4's condition for train priority.)"""
    tables = race.tables
    if y in tables.exhausted:  # (c)
        return False
    if y[1] == SPRINTER and tables.section[y] == "mountain":  # (b)
        return False
    gi = race.group_of.get(x)  # (d): no group means x stayed or has not moved
    return gi is not None and not race.groups[gi][CLOSED]


def solo_done(race: Race) -> bool:
    """MC-9.3: the fourth rider is across (checked at the end of a round); any game
    ends once nobody is left on the road."""
    return (race.solo and len(race.finished) >= SOLO_TARGET) or not race.square_of


def race_decided(race: Race) -> bool:
    """MC-8.5: every rider across, or twelve across and every section medal given."""
    if not race.square_of:
        return True
    if len(race.finished) < SCORING_PLACES:
        return False
    return all(key in race.medals for key, _ in race.course.medal_lines)


def finish_game(race: Race) -> None:
    """The game is over: Best Team is awarded (MC-8.3) if anyone crossed."""
    race.over = True
    race.current = None
    if race.finished:
        race.medals["team"] = best_team(race.finished, tuple(race.teams))


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


def placing_team(race: Race) -> str:
    """MC-3.1: the team to place a rider (equal team sizes make it round the table)."""
    teams = tuple(race.teams)
    return teams[len(race.square_of) % len(teams)]


def legal_moves(race: Race) -> list[Move]:
    """Every legal move of the race, in a stable order (empty once it is over)."""
    if race.over:
        return []
    if race.round == 0:
        return _placements(race)
    return _race_moves(race)


def _placement_squares(race: Race, team: str) -> list[int]:
    """Free start-zone squares for ``team`` (MC-3.1, MC-3.2, MC-9.2), front rows first."""
    course, at = race.course, race.rider_at
    last = course.start_rows
    rows = [last] if race.solo else range(last, 0, -1)
    free = [
        r << 5 | lane for r in rows for lane in range(course.lanes) if (r << 5 | lane) not in at
    ]
    if race.solo:
        return free

    def clear(sq: int) -> bool:
        ahead, behind = at.get(sq + 32), at.get(sq - 32)
        return not ((ahead and ahead[0] == team) or (behind and behind[0] == team))

    allowed = [sq for sq in free if clear(sq)]
    return allowed or free  # MC-3.2 [decision]: lifted when nothing respects it


def _placements(race: Race) -> list[Move]:
    team = placing_team(race)
    names = race.course.names
    squares = [names[sq >> 5][sq & 31] for sq in _placement_squares(race, team)]
    return [_new(Move, (PLACE, rid, name, None)) for rid in race.unplaced[team] for name in squares]


def _race_moves(race: Race) -> list[Move]:
    rid = race.current
    assert rid is not None
    course = race.course
    tables = race.tables
    finish = course.finish
    blocked = race.blocked
    bottles = race.bottles
    sq = race.square_of[rid]
    row = sq >> 5
    moves: list[Move] = []

    # MC-7.1: a bottle for the teammate directly behind, before moving.
    if not race.gave and rid in bottles:
        mate = race.rider_at.get(sq - 32)
        if mate is not None and mate[0] == rid[0] and mate not in bottles:
            moves.append(_new(Move, (GIVE, rid, None, mate)))
    gives = len(moves)

    # MC-5: normal moves within the allowance; MC-7.2: attacks within allowance + 3.
    # The moves reaching a row depend only on the rider, the kind, the row and the
    # lanes reachable there, so they are memoised per course (a large share of a
    # random playout's time otherwise goes to building the same tuples again).
    memo = course.move_memo.get(rid)
    if memo is None:
        memo = course.move_memo[rid] = {}
    allowance = tables.allowance[rid]
    attack = (
        rid in tables.held_bottle and rid in bottles and tables.section[rid] in OWN_SECTIONS[rid[1]]
    )
    top = row + (allowance + 3 if attack else allowance)
    last = top if top < finish else finish - 1
    full = (1 << course.lanes) - 1
    frontier = 1 << (sq & 31)
    r = row
    while r < last:
        r += 1
        frontier = (frontier | frontier << 1 | frontier >> 1) & full & ~blocked[r]
        if not frontier:
            break
        key = r << 32 | frontier
        if r - row <= allowance:
            found = memo.get(key)
            moves += (
                found
                if found is not None
                else _memo_moves(memo, key, course, MOVE, rid, r, frontier)
            )
        if attack:
            key |= _ATTACK_BIT
            found = memo.get(key)
            moves += (
                found
                if found is not None
                else _memo_moves(memo, key, course, ATTACK, rid, r, frontier)
            )
    else:
        if top >= finish:  # MC-5.6: a path that reaches the last row can step across
            if finish - row <= allowance:
                moves.append(_new(Move, (MOVE, rid, FINISH, None)))
            if attack:
                moves.append(_new(Move, (ATTACK, rid, FINISH, None)))

    # MC-6: wheel and relay behind the rider this one is linked to.
    x = tables.leader.get(rid)
    if x is not None and may_follow(race, rid, x):
        moves.extend(_train_moves(race, rid, x))

    if len(moves) == gives:
        moves.append(_new(Move, (STAY, rid, None, None)))  # MC-5.3
    return moves


_ATTACK_BIT = 1 << 31


def _memo_moves(
    memo: dict[int, tuple[Move, ...]],
    key: int,
    course: Course,
    kind: str,
    rid: str,
    row: int,
    lanes: int,
) -> tuple[Move, ...]:
    """Build (and remember) the moves of ``kind`` taking ``rid`` to the ``lanes`` of ``row``."""
    found = memo[key] = tuple(
        _new(Move, (kind, rid, name, None)) for name in course.squares_in(row, lanes)
    )
    return found


def _train_moves(race: Race, rid: str, x: str) -> list[Move]:
    """Wheel and relay targets behind ``x`` (MC-6.4, 6.5, 6.6); (e) checked here.

    The wheel square is directly behind ``x`` where it stands now (one row back along
    the shelter direction): right after ``x`` relayed it holds the group's old head.
    The relay square is directly in front of the head of ``x``'s group, open only to a
    rider whose train place at the assessment is at most ``relay_limit + 1``."""
    course = race.course
    dl = race.shelter
    out = []
    here = race.square_of[x]
    target = here - 32 - dl  # one row back along the shelter direction
    lane = (here & 31) - dl
    if 0 <= lane < course.lanes and target >> 5 >= 1 and _free(race, target):
        out.append(_new(Move, (WHEEL, rid, course.names[target >> 5][lane], None)))
    if race.tables.train_place[rid] <= race.relay_limit + 1:
        head = race.groups[race.group_of[x]][HEAD]
        lane = (head & 31) + dl
        target = head + 32 + dl
        if 0 <= lane < course.lanes:
            if target >> 5 >= course.finish:
                out.append(_new(Move, (RELAY, rid, FINISH, None)))
            elif _free(race, target):
                out.append(_new(Move, (RELAY, rid, course.names[target >> 5][lane], None)))
    return out


def _free(race: Race, sq: int) -> bool:
    return not race.blocked[sq >> 5] >> (sq & 31) & 1


# ---------------------------------------------------------------- effects


def apply(race: Race, move: Move) -> bool:
    """Apply a legal move (already validated); whether the mover's turn is over (a gift
    leaves the same rider to move, MC-7.1). A placement puts the rider on its square
    (MC-3.1); the round starts once everyone is placed (:func:`assess` is then due)."""
    kind, rid, dest, target = move
    if kind == PLACE:
        race.unplaced[rid[0]].remove(rid)
        race.put(rid, race.course.codes[dest])  # type: ignore[index]
        return True
    if kind == GIVE:  # MC-7.1: no move is spent; the same rider goes on
        race.bottles.discard(rid)
        race.bottles.add(target)  # type: ignore[arg-type]
        race.gave = True
        return False
    if kind == STAY:
        return True
    course = race.course
    start = race.square_of[rid]
    crossed = dest == FINISH
    end = -1 if crossed else course.codes[dest]  # type: ignore[index]
    if kind == ATTACK:
        race.bottles.discard(rid)  # thrown away before riding (MC-7.2, MC-7.5)
    if (
        kind in (MOVE, ATTACK)
        and not crossed
        and rid[1] == "D"
        and rid not in race.bottles
        and _feed_on_path(race, start, end)
    ):
        race.bottles.add(rid)
    # Lift the rider off its square and set it down (Race.put inlined: hot path).
    del race.rider_at[start]
    race.blocked[start >> 5] &= ~(1 << (start & 31))
    after = course.finish if crossed else end >> 5
    for medal, last in course.medal_lines:  # MC-8.3: first across a section's last row
        if start >> 5 <= last < after and medal not in race.medals:
            race.medals[medal] = rid
    if crossed:
        del race.square_of[rid]
        _cross(race, rid)
    else:
        race.square_of[rid] = end
        race.rider_at[end] = rid
        race.blocked[after] |= 1 << (end & 31)

    groups = race.groups
    if kind in (MOVE, ATTACK):  # MC-6.2: a new group; an attack's is closed
        groups.append([end, 1, kind == ATTACK or crossed])
        race.group_of[rid] = len(groups) - 1
    else:
        gi = race.group_of[race.tables.leader[rid]]
        group = groups[gi]
        group[SIZE] += 1
        if kind == RELAY:  # the relaying rider is the group's new head
            group[HEAD] = end
            if crossed:
                group[CLOSED] = True
        race.group_of[rid] = gi
    return True


def _feed_on_path(race: Race, start: int, end: int) -> bool:
    """MC-7.5: does some path from ``start`` to ``end`` enter a feed square?"""
    course = race.course
    feed = course.feed_mask
    first, last = (start >> 5) + 1, end >> 5
    if course.feed_before[last + 1] == course.feed_before[first]:
        return False  # no feed square on the rows crossed: the common case
    full = (1 << course.lanes) - 1
    blocked = race.blocked
    reach, fed = 1 << (start & 31), 0
    for r in range(first, last + 1):
        reach = (reach | reach << 1 | reach >> 1) & full & ~blocked[r]
        fed = ((fed | fed << 1 | fed >> 1) & reach) | (reach & feed[r])
    return bool(fed >> (end & 31) & 1)


def _cross(race: Race, rid: str) -> None:
    """MC-8.1: the rider leaves the road and takes the next place."""
    race.bottles.discard(rid)
    race.finished.append(rid)
    if len(race.finished) == 1:
        race.medals["cyclist"] = rid


# ---------------------------------------------------------------- explanations


def why_illegal(race: Race, move: Move) -> str:
    """A player-facing reason why ``move`` is not legal now (it is assumed illegal)."""
    kind, rid, dest, target = move
    if race.over:
        return "the game is over"
    if rid not in race.ids:
        return f"there is no rider {rid} in this game"
    if race.round == 0:
        return _why_not_placement(race, move)
    if kind == PLACE:
        return "setup is over; riders are placed only before round 1"
    if rid in race.finished:
        return f"{rid} has already crossed the finish line"
    if rid != race.current:
        return f"it is {race.current}'s turn, not {rid}'s (out of turn)"
    if kind == GIVE:
        return _why_not_give(race, rid, target)  # type: ignore[arg-type]
    if kind == STAY:
        return (
            "staying is legal only when no square can be reached and no wheel or relay is possible"
        )
    here = race.course.square_name(race.square_of[rid])
    allowance = race.tables.allowance[rid]
    if kind == ATTACK:
        if race.tables.section[rid] not in OWN_SECTIONS[rid[1]]:
            return (
                f"{rid} may attack only in its own section, not in the {race.tables.section[rid]}"
            )
        if rid not in race.tables.held_bottle:
            return f"{rid} held no bottle at the start of the round"
        if rid not in race.bottles:
            return f"{rid} has given its bottle away"
        return f"{rid} cannot reach {dest} from {here} even attacking (allowance {allowance} + 3)"
    if kind in (WHEEL, RELAY):
        word = "wheel" if kind == WHEEL else "relay"
        x = race.tables.leader.get(rid)
        if x is None:
            return (
                f"{rid} is not linked to a rider (it rides against the wind), so it cannot {word}"
            )
        if rid in race.tables.exhausted:
            return f"{rid} is an exhausted domestique and cannot {word}"
        if rid[1] == SPRINTER and race.tables.section[rid] == "mountain":
            return f"a sprinter in the mountain cannot {word}"
        gi = race.group_of.get(x)
        if gi is None:
            return f"{x} has not moved at least one square this round"
        if race.groups[gi][CLOSED]:
            return f"{x}'s group is closed (an attack or a finish)"
        place = race.tables.train_place[rid]
        if kind == RELAY and place > race.relay_limit + 1:
            return (
                f"{rid} is rider {place} of its train at the round's start; only riders 2 to "
                f"{race.relay_limit + 1} may relay (relay limit {race.relay_limit}), whatever the group's size"
            )
        return _why_no_train_square(race, rid, x, kind)
    return (
        f"{rid} cannot reach {dest} from {here}: allowance {allowance}, each step one row forward "
        "(straight or diagonal) into free squares, no rocks"
    )


def _why_no_train_square(race: Race, rid: str, x: str, kind: str) -> str:
    """Why a wheel or relay of ``rid`` behind ``x`` is refused once (a)-(d) hold."""
    for m in _train_moves(race, rid, x):
        if m[0] == kind:
            return f"{rid}'s {'wheel' if kind == WHEEL else 'relay'} square is {m[2]}, not the one given"
    course = race.course
    if kind == WHEEL:
        here = race.square_of[x]
        target = here - 32 - race.shelter
        lane = (here & 31) - race.shelter
        behind = f"the square behind {x} ({course.square_name(here)})"
        if not (0 <= lane < course.lanes and target >> 5 >= 1):
            return f"{behind} is off the road"
        name = course.square_name(target)
        who = race.rider_at.get(target)
        if who is None:
            return f"{behind}, {name}, is a rock"
        if (
            race.group_of.get(who) == race.group_of[x]
            and race.groups[race.group_of[x]][HEAD] == here
        ):
            return f"{behind} is {name}, where {who} stands: {x} relayed in front of it, so no wheel right after a relay"
        return f"{behind}, {name}, is taken by {who}"
    head = race.groups[race.group_of[x]][HEAD]
    return f"the square in front of {course.square_name(head)}, the head of {x}'s group, is off the road, a rock or taken"


def _why_not_give(race: Race, rid: str, target: str) -> str:
    if race.gave:
        return f"{rid} has already given a bottle this turn"
    if rid not in race.bottles:
        return f"{rid} holds no bottle"
    if target[0] != rid[0]:
        return "a bottle is never given to an opponent"
    behind = race.rider_at.get(race.square_of[rid] - 32)
    if behind != target:
        return f"{target} is not directly behind {rid} (same lane, previous row)"
    return f"{target} already holds a bottle"


def _why_not_placement(race: Race, move: Move) -> str:
    kind, rid, dest, _ = move
    team = placing_team(race)
    if kind != PLACE:
        return f"during setup every move places a rider, e.g. {team}D1@a1"
    if rid[0] != team:
        return f"it is team {team}'s turn to place a rider (out of turn)"
    if rid not in race.unplaced[rid[0]]:
        return f"{rid} is already placed"
    course = race.course
    sq = course.parse_square(dest or "")
    last = course.start_rows
    if sq is None or sq >> 5 > last:
        return f"{dest} is not in the start zone (rows 1-{last})"
    if race.solo and sq >> 5 != last:
        return f"solo riders start side by side on the start zone's last row, row {last} (MC-9.2)"
    if sq in race.rider_at:
        return f"{dest} is taken by {race.rider_at[sq]}"
    return f"{dest} is directly in front of or behind a teammate (MC-3.2)"
