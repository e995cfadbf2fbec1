"""Where a rider may go (PI-3.3 to PI-3.5): paths, the longest path, bonus squares.

The board is read as one occupancy bitmask of lanes per row index (``occupied[i]`` for
row ``i + 1``), so that the lanes reachable after ``k`` steps are a small bitmask too:
from lanes ``m``, a step reaches ``m`` and its neighbours on the next row, less the
occupied squares.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .notation import Move
from .track import LANES, Layout

ALL_LANES = (1 << LANES) - 1
#: Longest die path (a six).
MAX_STEPS = 6
#: Colour squares after the end of a move (PI-3.4) or after a shelter square (PI-3.5).
MAX_COLOUR_SQUARES = 2

COLOUR, SHELTER, NONE = "colour", "shelter", "none"
BONUSES = (COLOUR, SHELTER, NONE)


def reach(occupied: Sequence[int], length: int, distance: int, lane: int, steps: int = MAX_STEPS) -> list[int]:
    """``masks[k]``: the lanes a rider at ``distance`` in ``lane`` reaches by a path of
    exactly ``k`` steps into free squares, for ``k`` = 0 .. the longest such path
    (at most ``steps``). A rider behind the start line (``lane`` -1) may enter any lane."""
    masks = [ALL_LANES if lane < 0 else 1 << lane]
    prev = masks[0]
    for k in range(1, steps + 1):
        spread = (prev | prev << 1 | prev >> 1) & ALL_LANES
        free = spread & ~occupied[(distance + k - 1) % length]
        if not free:
            break
        masks.append(free)
        prev = free
    return masks


def lanes_of(mask: int) -> Iterable[int]:
    """The lanes set in ``mask``, inner first."""
    return (m for m in range(LANES) if mask >> m & 1)


def ride_moves(
    rider: str,
    values: Iterable[int],
    *,
    layout: Layout,
    occupied: Sequence[int],
    distance: int,
    lane: int,
    colour: int,
    bonus: str,
) -> list[Move]:
    """Every legal move of ``rider`` with one of the dice ``values`` (PI-3.2/3.3).

    A die moves the rider exactly its value when some path allows it, else along the
    longest path it has (any end square at that distance); every bonus the rules
    offer at the end square may be taken or not, square by square."""
    length = layout.length
    masks = reach(occupied, length, distance, lane, max(values, default=0))
    moves = []
    names = layout.names
    for value in sorted(set(values)):
        k = min(value, len(masks) - 1)
        if k == 0:
            moves.append(Move.ride(rider, value))
            continue
        end = distance + k
        for m in lanes_of(masks[k]):
            for path in bonus_paths(layout, occupied, end, m, colour, bonus):
                moves.append(Move.ride(rider, value, tuple(names[sq] for sq in path)))
    return moves


def bonus_paths(
    layout: Layout, occupied: Sequence[int], end: int, lane: int, colour: int, bonus: str
) -> list[tuple[int, ...]]:
    """The square paths of a move ending at distance ``end`` in ``lane``: the end square
    alone, then each way of taking bonus squares one by one (a bonus is optional)."""
    length = layout.length
    here = layout.square_at(end, lane)
    paths: list[tuple[int, ...]] = [(here,)]
    if bonus == NONE:
        return paths
    if bonus == COLOUR:
        # PI-3.4: on its base colour, straight ahead if free; again if that one matches.
        path: tuple[int, ...] = (here,)
        sq, x = here, end
        for _ in range(MAX_COLOUR_SQUARES):
            if layout.colour[sq] != colour or occupied[x % length] >> lane & 1:
                break
            x += 1
            sq = layout.square_at(x, lane)
            path = (*path, sq)
            paths.append(path)
        return paths
    # PI-3.5: directly behind a rider, one square diagonally forward if free; on that
    # square, while its colour is the rider's, on diagonally the same way (twice at most).
    if not occupied[end % length] >> lane & 1:
        return paths
    for step in (-1, 1):
        path = (here,)
        m, x = lane + step, end + 1
        if not 0 <= m < LANES or occupied[(x - 1) % length] >> m & 1:
            continue
        sq = layout.square_at(x, m)
        path = (*path, sq)
        paths.append(path)
        for _ in range(MAX_COLOUR_SQUARES):
            m += step
            if layout.colour[sq] != colour or not 0 <= m < LANES or occupied[x % length] >> m & 1:
                break
            x += 1
            sq = layout.square_at(x, m)
            path = (*path, sq)
            paths.append(path)
    return paths


def first_move_square(occupied: Sequence[int], value: int) -> tuple[int, int]:
    """PI-2.2: ``(distance, lane)`` a rider entering with ``value`` reaches: exactly its
    value if a square of that row is free, else the most it can; the innermost free
    lane of that row. ``(0, -1)``: no room at all, it stays behind the line."""
    for k in range(value, 0, -1):
        free = ALL_LANES & ~occupied[k - 1]
        if free:
            return k, (free & -free).bit_length() - 1
    return 0, -1
