"""Row positions of the row game (:mod:`.rows`) and the forms it compares them in: the
Pareto-best pairs of a last round, the ways riders link to the row ahead, and the
bottle dominance between positions."""

from __future__ import annotations

from collections.abc import Callable, Iterable

#: A rider of the row game: (row, type letter, holds a bottle).
RowRider = tuple[int, str, bool]
#: A row-game position at a round's start: riders on the road (sorted) and riders across.
RowState = tuple[tuple[RowRider, ...], int]


def pareto(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs no other pair beats or equals in both places."""
    out: list[tuple[int, int]] = []
    for k, m in sorted(set(pairs), reverse=True):  # most across first
        if not out or m > out[-1][1]:
            out.append((k, m))
    return out


def maximal_matchings(rows_here: list[int], ahead: list[int]) -> list[dict[int, int]]:
    """Every maximal injective map from the riders of a row to riders one row ahead."""
    if not ahead:
        return [{}]
    size = min(len(rows_here), len(ahead))
    out: list[dict[int, int]] = []

    def rec(i: int, used: frozenset[int], m: dict[int, int]) -> None:
        if i == len(rows_here):
            if len(m) == size:
                out.append(dict(m))
            return
        y = rows_here[i]
        for x in ahead:
            if x not in used:
                m[y] = x
                rec(i + 1, used | {x}, m)
                del m[y]
        rec(i + 1, used, m)

    rec(0, frozenset(), {})
    return out


def undominated(
    positions: set[RowState], step: Callable[[], None] = lambda: None
) -> list[RowState]:
    """Drop a position when another one differs from it only by riders holding bottles
    it lacks: a bottle never hurts (a tired domestique may do less, MC-7.4; a holder
    may always keep it), so the one with more bottles can do all the other can."""
    # Riders of one row and type are sorted without a bottle first, so a position holds
    # at least the bottles of another of the same rows exactly when its set of holders,
    # by index, contains the other's.
    by_rows: dict[tuple[tuple[tuple[int, str], ...], int], dict[int, RowState]] = {}
    for pos in positions:
        mask = sum(1 << k for k, (_, _, b) in enumerate(pos[0]) if b)
        by_rows.setdefault((tuple((r, t) for r, t, _ in pos[0]), pos[1]), {})[mask] = pos
    out: list[RowState] = []
    for group in by_rows.values():
        if len(group) == 1:
            out.extend(group.values())
            continue
        step()
        for mask, pos in group.items():
            if not any(other != mask and other & mask == mask for other in group):
                out.append(pos)
    return out
