"""The time a rider still needs to the finish line, riding as well as it can alone:
the measure the bots use in the modes ranked by time (CY-10, CY-11.2).

A rider's time is 10 seconds a round less the squares it ends past the line, at most
9 (CY-10.2, CY-1.4). :func:`seconds_to_line` is the expected number of seconds a
rider at position ``x`` holding ``k`` tokens still needs, if every ride from now on
picks the target (holding back where the ground allows it, CY-4.4) and the tokens
(within the ground's panel, CY-4.3) that make this expectation least: an exact
dynamic programme from the line back to the start, once a course, rider type and
level. Alone means no room taken by others, no wheel and no swap: exact in an
individual time trial, where each rider is a world of its own (CY-2.6), and a good
guide in the team modes. A dark square sends the rider back (CY-4.6).

Own and team tokens are counted together (a time-trial rider may spend both).

>>> from peloton.games import cyclo as cy
>>> setup = cy.new_game("itt", players=1).setup           # prologue: 20 spaces of last km
>>> round(seconds_to_line(setup, "sprinter", 0, 1), 1) < round(seconds_to_line(setup, "helper", 0, 1), 1)
True
>>> seconds_to_line(setup, "helper", 25, 0)               # past the line: nothing left
0.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import TOKEN_SPACES
from ..scoring import ROUND_SECONDS
from ..terrain import CLIMBER
from .race_model import MAX_HELD, SUMS, dice_at, ground

if TYPE_CHECKING:
    from ..setup import Setup

__all__ = ["landing_seconds", "seconds_to_line"]

#: Fixed-point passes for a roll that may leave the rider where it stands (a dark
#: square sending it back behind its start counts as staying).
_PASSES = 3
#: The tables by course terrain, rider type and level (the terrain tuple is kept with
#: the table, so that an id is never mistaken for another course's).
_TABLES: dict[tuple[int, str, bool], tuple[list[list[float]], object]] = {}


def seconds_to_line(setup: Setup, kind: str, position: int, tokens: int) -> float:
    """The expected seconds a rider of type ``kind`` at ``position`` with ``tokens``
    still needs to cross the finish line, riding alone and as well as it can
    (0 past the line)."""
    if position > setup.finish:
        return 0.0
    return _table(setup, kind)[min(tokens, MAX_HELD)][position]


def landing_seconds(setup: Setup, kind: str, position: int, tokens: int) -> float:
    """What landing on ``position`` with ``tokens`` left is worth, in seconds still to
    come after this ride: :func:`seconds_to_line` on the course; past the line, minus
    the squares past it (they come off the time, CY-10.2)."""
    finish = setup.finish
    if position > finish:
        return -float(min(position, setup.cap) - finish)
    return _table(setup, kind)[min(tokens, MAX_HELD)][position]


def _table(setup: Setup, kind: str) -> list[list[float]]:
    key = (id(setup.terrain), kind, setup.pro)
    entry = _TABLES.get(key)
    if entry is None or entry[1] is not setup.terrain:
        same = (ground(setup), kind, setup.pro)  # a course seen before: its tables
        table = _BY_GROUND.get(same)
        if table is None:
            table = _BY_GROUND[same] = _build(setup, kind)
        entry = _TABLES[key] = (table, setup.terrain)
    return entry[0]


#: The tables by the ground itself (:func:`.race_model.ground`), shared by every game.
_BY_GROUND: dict[tuple[object, str, bool], list[list[float]]] = {}


def _build(setup: Setup, kind: str) -> list[list[float]]:
    """``table[k][x]`` for every token count and position, from the line back."""
    finish, cap = setup.finish, setup.cap
    darks = setup.darks
    pro = setup.pro
    value = [[0.0] * (finish + 1) for _ in range(MAX_HELD + 1)]

    def land(x: int, y: int, k: int, here: float) -> float:
        """Seconds still to come after a ride from ``x`` aimed at ``y`` (``here``: the
        current estimate of staying at ``x`` with ``k`` tokens)."""
        if y > finish:
            return -float(min(y, cap) - finish)
        back = darks[y]
        if back:
            y = max(1, y - back, x)
        return here if y == x else value[k][y]

    for x in range(finish, -1, -1):
        terrain = setup.terrain[x]
        sums = SUMS[dice_at(setup, x, kind)]
        bonus = terrain.climber_bonus if kind == CLIMBER else 0
        panel = terrain.panel(kind) if pro else 0
        hold = pro and terrain.hold_back
        reach = max(total for total, _ in sums) + bonus + TOKEN_SPACES * panel
        for k in range(MAX_HELD + 1):
            # The estimate of staying put, refined by a few passes (it only matters
            # where a dark square may send a rider back behind its start).
            here = value[k][x + 1] + ROUND_SECONDS if x < finish else float(ROUND_SECONDS)
            for _ in range(_PASSES if any(darks[x + 1 : x + reach + 1]) else 1):
                # best[s][m]: the best landing among the targets x+1 … x+m spending s
                best: list[list[float]] = []
                for s in range(min(panel, k) + 1):
                    row = [0.0] * (reach + 1)
                    low = float("inf")
                    for m in range(1, reach + 1):
                        v = land(x, x + m, k - s, here if s == 0 else value[k - s][x])
                        if hold:
                            low = min(low, v)
                            row[m] = low
                        else:
                            row[m] = v
                    best.append(row)
                total = 0.0
                for dice, chance in sums:
                    step = dice + bonus
                    total += chance * min(
                        best[s][step + TOKEN_SPACES * s] for s in range(len(best))
                    )
                here = ROUND_SECONDS + total
            value[k][x] = here
    return value
