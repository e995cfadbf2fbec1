"""Shared helpers for the Mind Cycling scenario tests.

Positions are written in MCN (MC-10.2) on small custom courses; move sets are compared
as sets of MC-10.1 texts so that a failing assertion reads like the rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from peloton.games import mindcycling as mc

LANES = "abcdefg"


def course(
    sections: list[list[object]],
    finish: int,
    *,
    lanes: int = 5,
    feed: Iterable[str] = (),
    rocks: Iterable[str] = (),
    name: str = "test",
) -> mc.Course:
    """A custom course from the MC-1.5 keys."""
    return mc.Course.from_dict(
        {
            "name": name,
            "lanes": lanes,
            "finish": finish,
            "sections": sections,
            "feed": list(feed),
            "rocks": list(rocks),
        }
    )


#: Start zone rows 1-2, then one long plain section up to row 39.
FLAT = course([[3, "plain"]], 40, name="flat")
#: Start zone rows 1-2, plain 3-9, sprint 10-19, mountain 20-29, plain 30-39.
MIXED = course([[3, "plain"], [10, "sprint"], [20, "mountain"], [30, "plain"]], 40, name="mixed")


def texts(moves: Iterable[object]) -> set[str]:
    """The MC-10.1 texts of some moves."""
    return {str(m) for m in moves}


def legal(state: mc.State) -> set[str]:
    """The current legal moves as texts."""
    return texts(state.legal_moves())


def of_kind(state: mc.State, suffix: str = "") -> set[str]:
    """Destination squares of the current rider's moves of one kind.

    ``suffix`` is ``""`` (normal move), ``"!"`` (attack), ``"w"`` (wheel), ``"r"`` (relay).
    """
    out = set()
    for m in state.legal_moves():
        text = str(m)
        if "-" not in text:
            continue
        dest = text.split("-", 1)[1]
        kind = dest[-1] if dest[-1] in "!wr" else ""
        if kind == suffix:
            out.add(dest[:-1] if kind else dest)
    return out


def row(sq: str) -> int:
    """The row of a square name."""
    return int(sq[1:])


def max_row(state: mc.State, suffix: str = "") -> int:
    """The furthest row the current rider reaches with moves of one kind ('#' counts as
    a very large row)."""
    return max(10_000 if sq == "#" else row(sq) for sq in of_kind(state, suffix))


def cone(start: str, steps: int, *, lanes: int = 5, blocked: Iterable[str] = ()) -> set[str]:
    """Squares reachable in 1..steps forward/diagonal steps from ``start`` on an open road
    of ``lanes`` lanes, never entering a ``blocked`` square (independent oracle, MC-5.1)."""
    blocked = set(blocked)
    lane, r = LANES.index(start[0]), row(start)
    frontier = {lane}
    out: set[str] = set()
    for k in range(1, steps + 1):
        nxt = set()
        for x in frontier:
            for y in (x - 1, x, x + 1):
                name = f"{LANES[y]}{r + k}" if 0 <= y < lanes else None
                if name is not None and name not in blocked:
                    nxt.add(y)
        frontier = nxt
        out |= {f"{LANES[y]}{r + k}" for y in frontier}
    return out


def play(state: mc.State, *moves: str) -> mc.State:
    """Play moves in order (each must be legal) and return the state."""
    for m in moves:
        state.play(m)
    return state


def place_all(state: mc.State, squares: dict[str, str]) -> mc.State:
    """Finish a setup: place riders in the order the rules ask for, each team choosing
    from ``squares`` (rider id -> square) the first of its unplaced riders listed."""
    while state.round == 0:
        team = state.current_player
        rid = next(r for r in squares if r[0] == team and r in state.unplaced(team))
        state.play(f"{rid}@{squares[rid]}")
    return state
