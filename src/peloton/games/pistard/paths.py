"""Where a rider may go (PI-3.3 to PI-3.5): paths, the longest path, bonus squares.

The board is read as one occupancy bitmask of lanes per row index (``occupied[i]`` for
row ``i + 1``), so that the lanes reachable after ``k`` steps are a small bitmask too:
from lanes ``m``, a step reaches ``m`` and its neighbours on the next row, less the
occupied squares.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .notation import RIDE, Move
from .track import LANES, Layout

ALL_LANES = (1 << LANES) - 1
#: Longest die path (a six).
MAX_STEPS = 6
#: Colour squares after the end of a move (PI-3.4) or after a shelter square (PI-3.5).
MAX_COLOUR_SQUARES = 2

BOTH, COLOUR, SHELTER, NONE = "both", "colour", "shelter", "none"
#: The ``bonus`` option: ``both`` is the standard game (PI-3.6), the others house rules.
BONUSES = (BOTH, COLOUR, SHELTER, NONE)
#: The values of the option that give the colour bonus (PI-3.4), the shelter bonus (PI-3.5).
COLOUR_BONUS = frozenset({BOTH, COLOUR})
SHELTER_BONUS = frozenset({BOTH, SHELTER})


def reach(
    occupied: Sequence[int], length: int, distance: int, lane: int, steps: int = MAX_STEPS
) -> list[int]:
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
    values = sorted(set(values))
    colour_bonus, shelter_bonus = bonus in COLOUR_BONUS, bonus in SHELTER_BONUS
    masks = reach(occupied, layout.length, distance, lane, values[-1] if values else 0)
    moves: list[Move] = []
    new = tuple.__new__
    ends: dict[int, list[tuple[str, ...]]] = {}  # paths by steps: a blocked die shares them
    for value in values:
        k = min(value, len(masks) - 1)
        if k == 0:
            moves.append(new(Move, (RIDE, rider, value, (), ())))
            continue
        paths = ends.get(k)
        if paths is None:
            end = distance + k
            paths = ends[k] = []
            for m in lanes_of(masks[k]):
                paths += bonus_paths(layout, occupied, end, m, colour, colour_bonus, shelter_bonus)
        moves += [new(Move, (RIDE, rider, value, path, ())) for path in paths]
    return moves


def bonus_paths(
    layout: Layout,
    occupied: Sequence[int],
    end: int,
    lane: int,
    colour: int,
    colour_bonus: bool,
    shelter_bonus: bool,
) -> list[tuple[str, ...]]:
    """The square paths (names) of a move ending at distance ``end`` in ``lane``: the
    end square alone, then each way of taking bonus squares one by one (a bonus is
    optional). ``colour_bonus`` and ``shelter_bonus`` say which bonuses the game's
    ``bonus`` option gives (:data:`COLOUR_BONUS`, :data:`SHELTER_BONUS`): with both,
    whichever the square ahead allows."""
    length = layout.length
    names, colours = layout.names, layout.colour
    row = (end - 1) % length * LANES
    here = row + lane
    first: tuple[str, ...] = (names[here],)
    # PI-3.6: the square straight ahead decides which bonus the rules offer: free, the
    # colour bonus (PI-3.4); taken, the shelter bonus (PI-3.5). Never both. (The
    # colour is tested first: it rules out three squares in four at once.)
    if colour_bonus and colours[here] == colour and not occupied[end % length] >> lane & 1:
        # PI-3.4: on its base colour, straight ahead if free; again if that one matches.
        paths: list[tuple[str, ...]] = [first]
        path, sq, x = first, here, end
        for _ in range(MAX_COLOUR_SQUARES):
            if colours[sq] != colour or occupied[x % length] >> lane & 1:
                break
            x += 1
            sq = layout.square_at(x, lane)
            path = (*path, names[sq])
            paths.append(path)
        return paths
    if not shelter_bonus or not occupied[end % length] >> lane & 1:
        return [first]
    # PI-3.5: directly behind a rider, one square diagonally forward if free; on that
    # square, while its colour is the rider's, on diagonally the same way (twice at most).
    paths = [first]
    for step in (-1, 1):
        m, x = lane + step, end + 1
        if not 0 <= m < LANES or occupied[(x - 1) % length] >> m & 1:
            continue
        sq = layout.square_at(x, m)
        path = (*first, names[sq])
        paths.append(path)
        for _ in range(MAX_COLOUR_SQUARES):
            m += step
            if colours[sq] != colour or not 0 <= m < LANES or occupied[x % length] >> m & 1:
                break
            x += 1
            sq = layout.square_at(x, m)
            path = (*path, names[sq])
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
