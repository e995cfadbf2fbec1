"""Team-level bounds: what the riders of one team can do together in a round, which the
per-rider reach of :class:`.bounds.Bounds` misses.

**The train's front** (:func:`train_front`). A rider ends a round ahead of every normal
move only by relaying (MC-6.5), and relays need a train behind the group's founder:

* the group's founder ``X`` rode a normal move (an attack closes its group, MC-7.3);
  from row ``x`` it ends at most at ``x + a``, its type's allowance in that row's
  section (MC-5.2), and one row less unless a rider stands on its shelter square at the
  round's start (MC-5.4, MC-5.5): the rider on the furthest row never has one;
* a rider joins ``X``'s group only behind a rider of that group it is linked to
  (MC-6.3 a, d), so the riders joining it are the chain of links behind ``X``: one
  rider on each of the rows ``x - 1``, ``x - 2``, ... (MC-6.1), each of them a rider
  that may ride a train from its row (MC-6.3 b, c: no sprinter in the mountain, no
  tired domestique);
* each relay lands one row ahead of the group's head (MC-6.5), so ``j`` relays end at
  most ``j`` rows ahead of ``X``'s end; a relayer's train place is ``X``'s place plus
  the rows between them and is at most ``relay_limit + 1`` (MC-6.5), so ``j`` is at most
  ``relay_limit``, and ``relay_limit - 1`` when ``X`` is sheltered (its place is 2 or
  more: it is linked to the rider on its shelter square, MC-6.1);
* a wheel lands behind its leader (MC-6.4), never ahead of a normal move's end.

So no rider ends a round beyond ``max over x`` of ``x + a - 1 + min(j, relay_limit)``
(unsheltered) or ``x + a + min(j, relay_limit - 1)`` (sheltered: only if another rider
may stand on row ``x + 1``), where ``j`` is the longest chain of distinct riders that
may stand, and ride a train, on rows ``x - 1``, ``x - 2``, ... With the riders known
only by intervals of rows, a rider "may stand" on any row of its interval. The
per-rider bound counted a relay for every other rider on the road, wherever it was:
after the start, when the riders behind the leaders are still far back, and in the
mountain, where the sprinters may not ride trains, it promised rows no line reaches.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

#: A rider in the bounds: (type, the row it stands on now, an upper bound on its row).
Bounded = tuple[str, int, int]


def train_front(
    road: Sequence[Bounded],
    lead: dict[str, list[int]],
    trains: dict[str, list[bool]],
    relay_limit: int,
    top_allowance: int,
) -> int:
    """The furthest row any rider may end the round on by a normal move, a wheel or a
    relay (see the module doc; attacks are the caller's: they close their group).

    ``road``: the riders on the road, ``(type, low, high)`` with ``high`` below the
    line; ``lead[t][r]``: the end of a normal move of a sheltered rider of type ``t``
    from row ``r`` (``r`` + allowance); ``trains[t][r]``: whether it may ride a train
    from row ``r``; ``top_allowance``: no allowance is larger (the scan stops there)."""
    top = max(high for _, _, high in road)
    # Once a rider on the top row has been scanned, the best is at least ``top + 1``,
    # so no founder below ``top - top_allowance - relay_limit`` is scanned, nor read
    # as a relayer below that by ``relay_limit`` rows.
    bottom = max(min(low for _, low, _ in road), top - top_allowance - 2 * relay_limit)
    sheltered_relays = max(relay_limit - 1, 0)

    masks: dict[int, tuple[int, int]] = {}

    def standing(y: int) -> tuple[int, int]:
        """The riders (bits) that may stand on row ``y``, and those that may also ride
        a train from it."""
        found = masks.get(y)
        if found is None:
            stand = able = 0
            if y >= bottom:
                for g, (t, low, high) in enumerate(road):
                    if low <= y <= high:
                        stand |= 1 << g
                        if trains[t][y]:
                            able |= 1 << g
            found = masks[y] = (stand, able)
        return found

    best = -1
    x = top
    while x >= bottom and x + top_allowance + relay_limit > best:
        here = standing(x)[0]
        g = 0
        while here >> g:
            if here >> g & 1:
                end = lead[road[g][0]][x]
                if end + sheltered_relays > best:  # otherwise no chain can beat the best
                    not_g = ~(1 << g)
                    chain = _chain(
                        tuple(standing(x - i)[1] & not_g for i in range(1, relay_limit + 1))
                    )
                    best = max(best, end - 1 + chain)
                    # A rider that may stand on row x + 1 may shelter the founder (MC-5.4).
                    if standing(x + 1)[0] & not_g:
                        best = max(best, end + min(chain, sheltered_relays))
            g += 1
        x -= 1
    return best


@lru_cache(maxsize=1 << 16)
def _chain(rows: tuple[int, ...]) -> int:
    """The longest chain of distinct riders standing on rows ``x - 1``, ``x - 2``, ... in
    turn, ``rows[i]`` the riders (bits) that may stand on row ``x - 1 - i``."""
    best = 0

    def extend(depth: int, used: int) -> None:
        nonlocal best
        best = max(best, depth)
        if depth == len(rows) or best == len(rows):
            return
        free = rows[depth] & ~used
        while free:
            bit = free & -free
            extend(depth + 1, used | bit)
            free ^= bit

    extend(0, 0)
    return best


def rider_train_reach(
    road: Sequence[Bounded],
    me: int,
    upto: int,
    lead: dict[str, list[int]],
    trains: dict[str, list[bool]],
    relay_limit: int,
    masks: dict[int, tuple[int, int]] | None = None,
    cap: int | None = None,
) -> int:
    """The furthest row rider ``road[me]`` may end the round on by a relay or a wheel,
    standing on a row from its ``low`` up to ``upto`` (-1: never).

    The per-rider table of :class:`.bounds.Bounds` lets the train's founder be the
    team's best type in its section. The founder is one of the *other* riders,
    standing ``k`` rows ahead of this one (MC-6.1: links point one row forward, so the
    chain between them holds one rider per row, each able to ride a train, MC-6.3 b,
    c). Its normal move ends at most at its own type's allowance (MC-5.2), one row
    less unless a rider other than these stands on its shelter square (MC-5.4); this
    rider relays ``k``-th and lands ``k`` rows ahead of that end (MC-6.5) while its place
    allows (``k <= relay_limit``, ``k < relay_limit`` when the founder is sheltered).
    Otherwise it may only wheel, behind a rider that ended behind the founder's end
    (MC-6.4). With a sprinter of a sprinter-heavy team in a mountain's last rows, or a
    rider whose team's fast type for the next section is itself, this is rows short
    of the table's promise. ``masks`` caches, per row, the riders (bits) that may stand
    on it and those that may also ride a train from it: share it between the riders of
    one ``road``. The search stops once it reaches ``cap`` (the caller's bound
    already)."""
    t, low, _ = road[me]
    mine = 1 << me

    if masks is None:
        masks = {}

    def standing(y: int, able: bool) -> int:
        found = masks.get(y)
        if found is None:
            stand = trainable = 0
            for g, (tg, lo, hi) in enumerate(road):
                if lo <= y <= hi:
                    stand |= 1 << g
                    if trains[tg][y]:
                        trainable |= 1 << g
            found = masks[y] = (stand, trainable)
        return found[able] & ~mine

    others = len(road) - 1
    best = -1
    for y in range(upto, low - 1, -1):
        if not trains[t][y]:
            continue
        for k in range(1, others + 1):
            x = y + k
            founders = standing(x, False)
            g = 0
            while founders >> g:
                if founders >> g & 1:
                    end = lead[road[g][0]][x]
                    if k > relay_limit:
                        if end - 1 > best:
                            best = end - 1  # a wheel, behind the founder's end
                    elif end + k > best:
                        rest = ~(mine | 1 << g)
                        chain = _chain(tuple(standing(x - i, True) & rest for i in range(1, k)))
                        if chain == k - 1:
                            if end - 1 + k > best:
                                best = end - 1 + k
                            if k < relay_limit and end + k > best and standing(x + 1, False) & rest:
                                best = end + k
                    if cap is not None and best >= cap:
                        return best
                g += 1
    return best
