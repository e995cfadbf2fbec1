"""An independent reference model of PI-3.3 to PI-3.6, written plainly from the rules:
rider positions as (distance, lane) pairs, paths enumerated step by step, bonus squares
walked one at a time. The property tests compare the engine's legal moves with it."""

from __future__ import annotations

from peloton.games import pistard as pi

LANES = "abcd"


def occupied_squares(state: pi.State) -> set[tuple[int, int]]:
    """(row, lane) of every racing rider on the track (rows 1 .. length)."""
    out = set()
    for rider in state.racing:
        lane = state.lane[rider]
        if lane >= 0:
            out.add(((state.dist[rider] - 1) % state.length + 1, lane))
    return out


def expected_moves(state: pi.State) -> set[str]:
    """PI-3.2-3.5: the due rider's moves, as texts, by brute force."""
    rider = state.due
    assert rider is not None
    length = state.length
    taken = occupied_squares(state)
    colour_of = {sq: state.layout.colour_name(i) for sq, i in _squares(state)}
    base = pi.base_colour_name(rider)
    start, lane0 = state.dist[rider], state.lane[rider]

    def row(distance: int) -> int:
        return (distance - 1) % length + 1

    def free(distance: int, lane: int) -> bool:
        return 0 <= lane < 4 and (row(distance), lane) not in taken

    def name(distance: int, lane: int) -> str:
        return f"{LANES[lane]}{row(distance)}"

    def ends(steps: int) -> set[int]:
        """Lanes where a path of exactly ``steps`` free squares ends."""
        lanes = set(range(4)) if lane0 < 0 else {lane0}
        for k in range(1, steps + 1):
            lanes = {m for here in lanes for m in (here - 1, here, here + 1) if free(start + k, m)}
        return lanes

    out = set()
    for value in set(state.dice[rider[0]]):
        k = value
        while k > 0 and not ends(k):
            k -= 1
        if k == 0:
            out.add(f"{rider}={value}:-")
            continue
        for lane in ends(k):
            x = start + k
            paths = [[name(x, lane)]]
            ahead_free = free(x + 1, lane)
            if state.bonus in ("colour", "both") and ahead_free:
                path, d = [name(x, lane)], x
                while len(path) < 3 and colour_of[(row(d), lane)] == base and free(d + 1, lane):
                    d += 1
                    path = [*path, name(d, lane)]
                    paths.append(path)
            elif state.bonus in ("shelter", "both") and not ahead_free:
                for step in (-1, 1):
                    m, d = lane + step, x + 1
                    if not free(d, m):
                        continue
                    path = [name(x, lane), name(d, m)]
                    paths.append(path)
                    while (
                        len(path) < 4 and colour_of[(row(d), m)] == base and free(d + 1, m + step)
                    ):
                        d, m = d + 1, m + step
                        path = [*path, name(d, m)]
                        paths.append(path)
            out |= {f"{rider}={value}:{'+'.join(p)}" for p in paths}
    return out


def _squares(state: pi.State) -> list[tuple[tuple[int, int], int]]:
    return [
        ((r, lane), (r - 1) * 4 + lane) for r in range(1, state.length + 1) for lane in range(4)
    ]
