"""The rules of a turn as functions of the game's facts (:class:`.Setup`) and its
:class:`.Position`: round order (CY-3), dice and tokens (CY-4.2, CY-4.3), targets and
holding back (CY-4.4), room and lanes (CY-4.5), dark squares (CY-4.6), line crossings
(CY-4.7), the wheel (CY-5) and the swap (CY-6), on the road and on the velodrome
(3 dice from a distance, the keirin pacer's cap, loop spaces sharing lanes: CY-11).
Nothing here knows the ``State``.
"""

from __future__ import annotations

from .course import UNLIMITED
from .notation import TOKEN_CHOICES, Ride
from .position import Position
from .riders import rider_type, slot_index
from .setup import Setup
from .terrain import CLIMBER, Terrain
from .track import PACER_STEP

#: One token accelerates (+6), two attack (+12) (CY-4.3).
TOKEN_SPACES = 6
#: Lanes free at a position of width w: the low w bits.
_FULL = tuple((1 << w) - 1 for w in range(UNLIMITED + 1))
#: Each token choice with its size and the own and team tokens it needs.
_NEEDS = tuple((c, len(c), c.count("r"), c.count("t")) for c in TOKEN_CHOICES)
#: Ride values are shared: the same ride is the same object (hashing and equality
#: are then cheap in the hot path of ``legal_moves``/``play``).
_RIDES: dict[tuple[str, int, str, bool], Ride] = {}


def terrain_at(setup: Setup, at: int) -> Terrain:
    """The track type of the road position ``at`` (the start line: that of position 1)."""
    return setup.terrain[at]


# ----------------------------------------------------------------- round order


def round_order(setup: Setup, position: Position) -> list[str]:
    """The order of a round (CY-3.1, CY-3.2, CY-19.3): in round 1 and in the timed
    modes team by team in seat order, each team in position order; otherwise position
    order. At one position the lower lane goes first, then rider order."""
    racing = position.racing(setup.riders)
    pos, lane = position.pos, position.lane
    if position.round == 1 or setup.mode.timed:
        seat = {t: i for i, t in enumerate(setup.teams)}
        return sorted(racing, key=lambda r: (seat[r[0]], -pos[r], lane[r], slot_index(r)))
    seat = {t: i for i, t in enumerate(setup.teams)}
    return sorted(racing, key=lambda r: (-pos[r], lane[r], slot_index(r), seat[r[0]]))


# ----------------------------------------------------------------- the roll


def dice_count(setup: Setup, position: Position, rider: str) -> int:
    """CY-4.2: the dice of ``rider``'s ride: by the terrain it stands on, one fewer
    with the technical flag (never fewer than 1); exactly 1 with a hunger flag."""
    if position.hunger.get(rider):
        return 1
    track = setup.track
    if track is not None:  # CY-11.1, CY-11.2: 2 dice, 3 from the distance the event says
        three = track.three_dice_from
        return 3 if three is not None and position.pos[rider] >= three else 2
    n = terrain_at(setup, position.pos[rider]).dice_for(rider_type(rider))
    if rider in position.technical:
        n -= 1
    return n if n > 1 else 1


def token_choices(setup: Setup, position: Position, rider: str) -> list[str]:
    """CY-4.3: the token choices open to ``rider`` now ("" = none)."""
    if not setup.pro or rider in position.technical or position.pacer is not None:
        return [""]  # no token either while the keirin pacer rides (CY-11.4)
    panel = terrain_at(setup, position.pos[rider]).panel(rider_type(rider))
    own, team = position.own.get(rider, 0), position.team.get(rider[0], 0)
    return [c for c, size, r, t in _NEEDS if size <= panel and r <= own and t <= team]


def may_hold_back(setup: Setup, position: Position, rider: str) -> bool:
    """CY-4.4: Pro, and the terrain allows it (on the start line: position 1's)."""
    return setup.pro and terrain_at(setup, position.pos[rider]).hold_back


def pacer_after(setup: Setup, pacer: int) -> int | None:
    """CY-11.4: the keirin pacer's distance after its move at the start of a round:
    ``PACER_STEP`` on if that stays within the first lap, else ``None`` (it leaves)."""
    ahead = pacer + PACER_STEP
    lap = setup.course.lap
    assert lap is not None
    return ahead if ahead < lap else None


def cap_of(setup: Setup, position: Position) -> int:
    """The furthest a move may end (CY-4.4): N+9 (D+9 on the velodrome), or one
    short of the keirin pacer while it rides (CY-11.4)."""
    return setup.cap if position.pacer is None else position.pacer - 1


def ride_move(setup: Setup, rider: str, target: int, tokens: str) -> Ride:
    """The ride of ``rider`` to course position ``target`` (written ``#k`` past the
    finish line, CY-14.1)."""
    finish = setup.finish
    key = (
        (rider, target - finish, tokens, True)
        if target > finish
        else (rider, target, tokens, False)
    )
    move = _RIDES.get(key)
    if move is None:
        move = _RIDES[key] = Ride(*key)
    return move


def target_of(setup: Setup, move: Ride) -> int:
    """The course position a ride aims at."""
    return setup.finish + move.target if move.runout else move.target


def ride_row(setup: Setup, rider: str, tokens: str) -> list[Ride]:
    """``row[t]``: the ride of ``rider`` to position ``t`` (0 … N+9) spending ``tokens``
    (shared lists, built once per rider, token choice and course length: a ride's legal
    targets are then one slice of it)."""
    key = (rider, tokens, setup.finish)
    row = _ROWS.get(key)
    if row is None:
        row = _ROWS[key] = [ride_move(setup, rider, t, tokens) for t in range(setup.cap + 1)]
    return row


_ROWS: dict[tuple[str, str, int], list[Ride]] = {}


def ride_moves(setup: Setup, position: Position, rider: str) -> list[Ride]:
    """CY-4.4: every distinct (target, token choice) of ``rider``'s ride with the
    dice ``position.dice``: the full total, or with holding back any target from one space
    ahead; targets past the cap become the cap, and a capped target at or below the
    rider's position keeps it where it is."""
    s = position.pos[rider]
    here = terrain_at(setup, s)
    total = sum(position.dice)
    if rider_type(rider) == CLIMBER:
        total += here.climber_bonus
    hold = setup.pro and here.hold_back
    cap = cap_of(setup, position)
    moves: list[Ride] = []
    for tokens in token_choices(setup, position, rider):
        top = s + total + TOKEN_SPACES * len(tokens)
        if top > cap:
            top = cap
        row = ride_row(setup, rider, tokens)
        if top <= s:
            moves.append(row[s])
        elif hold:
            moves += row[s + 1 : top + 1]
        else:
            moves.append(row[top])
    return moves


# ----------------------------------------------------------------- moving


def free_lane(mask: int, width: int) -> int:
    """The lowest free lane of a square set ``mask`` of ``width`` lanes, -1 if none;
    where width is unlimited (start line, run-out), the next lane letter (CY-4.5)."""
    if width >= UNLIMITED:
        return mask.bit_length()
    free = ~mask & _FULL[width]
    return (free & -free).bit_length() - 1 if free else -1


def landing(setup: Setup, position: Position, rider: str, aim: int) -> tuple[int, int]:
    """Where ``rider`` ends aiming at ``aim`` (capped, CY-1.4), as (position, lane),
    without moving it. CY-4.5: the highest position up to ``aim`` ahead of it with a
    free lane in its world, the lowest free lane there; else it stays (its own
    square). CY-4.6: a dark square reached having changed space sends it back once."""
    s = position.pos[rider]
    own = position.lane[rider]
    cap = cap_of(setup, position)
    if aim > cap:
        aim = cap
    if aim <= s:
        return s, own
    occ = position.occupied[setup.world[rider]]
    widths, slots = setup.widths, setup.slots
    here = slots[s]
    occ[here] &= ~(1 << own)  # its own square counts as free (CY-19.5)
    try:
        q = aim
        while q > s:
            lane = free_lane(occ[slots[q]], widths[q])
            if lane >= 0:
                back = setup.darks[q]
                return _fall_back(occ, widths, slots, q, back) if back else (q, lane)
            q -= 1
        return s, own
    finally:
        occ[here] |= 1 << own


def move_rider(setup: Setup, position: Position, rider: str, aim: int) -> int:
    """Move ``rider`` towards ``aim`` by :func:`landing` and return where it ends;
    the scoring lines and the finish line it crosses are noted for the end of the
    round (CY-4.7, CY-8.2)."""
    s = position.pos[rider]
    q, lane = landing(setup, position, rider, aim)
    if q == s and lane == position.lane[rider]:
        return s
    occ, slots = position.occupied[setup.world[rider]], setup.slots
    occ[slots[s]] &= ~(1 << position.lane[rider])
    position.pos[rider] = q
    position.lane[rider] = lane
    occ[slots[q]] |= 1 << lane
    if q > s:
        _cross(setup, position, rider, s, q)
    return q


def _fall_back(
    occ: list[int], widths: tuple[int, ...], slots: tuple[int, ...], q: int, back: int
) -> tuple[int, int]:
    """CY-4.6: the highest position at or below max(1, q - back) with a free lane;
    if none, the lowest above it (``q`` itself has one)."""
    t = q - back if q - back > 1 else 1
    for r in range(t, 0, -1):
        lane = free_lane(occ[slots[r]], widths[r])
        if lane >= 0:
            return r, lane
    for r in range(t + 1, q + 1):
        lane = free_lane(occ[slots[r]], widths[r])
        if lane >= 0:
            return r, lane
    raise AssertionError("the square a rider landed on has room")  # pragma: no cover


def _cross(setup: Setup, position: Position, rider: str, before: int, after: int) -> None:
    """CY-4.7: note every scoring line and the finish line crossed from ``before``
    (at or behind it) to ``after`` (beyond it)."""
    for i, line in enumerate(setup.scoring):
        if before <= line.after < after and rider not in position.crossed[i]:
            position.crossed[i].append(rider)
    if before <= setup.finish < after:
        position.crossed[-1].append(rider)
        position.finished.add(rider)


def spend(position: Position, rider: str, tokens: str) -> None:
    """Pay a ride's tokens: ``r`` from the rider's own, ``t`` from its team's."""
    for token in tokens:
        if token == "r":
            position.own[rider] -= 1
        else:
            position.team[rider[0]] -= 1


# ----------------------------------------------------------------- swap and wheel


def swap_partners(setup: Setup, position: Position, rider: str) -> list[str]:
    """CY-6.1: the riders ``rider`` may propose a swap to, best placed first: in its
    world, on its position or one less, off the start line, turn not over, no skip
    flag, neither having swapped this round, neither on climb, cobbles or slope."""
    if not setup.pro or rider in position.swapped:
        return []
    x = position.pos[rider]
    terrain = setup.terrain
    if x < 1 or not terrain[x].swap:
        return []
    world = setup.world
    mine = world[rider]
    out = []
    for other, y in position.pos.items():
        if (
            (y == x or (y == x - 1 and y >= 1))
            and other != rider
            and world[other] == mine
            and terrain[y].swap
            and other not in position.turn_over
            and other not in position.skip
            and other not in position.swapped
            and other not in position.finished
        ):
            out.append(other)
    if len(out) > 1:
        out.sort(key=lambda r: (-position.pos[r], position.lane[r]))
    return out


def swap(position: Position, x: str, y: str) -> None:
    """CY-6.4: ``x`` and ``y`` exchange squares and slots in the round order."""
    position.pos[x], position.pos[y] = position.pos[y], position.pos[x]
    position.lane[x], position.lane[y] = position.lane[y], position.lane[x]
    i, j = position.order.index(x), position.order.index(y)
    position.order[i], position.order[j] = y, x
    position.swapped.add(x)
    position.swapped.add(y)


def wheel_riders(setup: Setup, position: Position, rider: str, start: int, end: int) -> list[str]:
    """CY-5.1: who may follow ``rider``, which rode from ``start`` to ``end`` (not an
    attack: the caller checks): riders of its world on ``start - 1``, off the start
    line, turn not over, no skip flag, not on climb, cobbles or slope; lane order."""
    behind = start - 1
    if not setup.pro or end <= start or behind < 1 or not terrain_at(setup, behind).wheel:
        return []
    world = setup.world[rider]
    found = [
        other
        for other, y in position.pos.items()
        if y == behind
        and setup.world[other] == world
        and other not in position.turn_over
        and other not in position.skip
    ]
    return sorted(found, key=position.lane.__getitem__)
