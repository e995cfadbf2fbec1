"""A probabilistic model of a Cyclo road race for the bots: how many rides each rider
still needs to cross the finish line, and from that each team's chance to win.

**Rides to the line.** A rider at position ``x`` holding ``k`` tokens rolls the dice
the ground under it gives (CY-4.2; the climber's +1 on a climb) and adds 6 a token,
spending tokens as soon as the ground's panel lets it (CY-4.3); a dark square sends
it back (CY-4.6; room is not modelled). :func:`rides_to_line` gives the mean and the
variance, over the dice, of the rides it needs to cross the line, the last counted
as a fraction (``(N + 1 - x) / step``: of two riders crossing in one round the
further past the line has the smaller figure, CY-8.3). They are exact expectations
of that policy, by dynamic programming from the line back to the start, once a
course, rider type and token count.

**The race.** :func:`race_times` puts every rider on one clock counted in rides from
the start of the round in progress: a rider whose turn is over this round rides next
in the next one (+1), a rider that lost its next turn (skip) +1, a technical problem
or a hunger knock costs dice. A team's tokens count for whichever of its riders turns
out best. A rider already past the line has a fixed figure from its round and squares
past it. In a team time trial a team's figure is its third rider's (CY-10.3).

**The win.** :func:`win_shares`: each rider's figure is normal; a team's time is the
least of its riders'; a team wins when its time is the least of all. The chance is
integrated on a grid (about 0.1 ms a position).

A race whose finish line list has its first name is decided (CY-8.4): the model is
then not asked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ....core.rng import roll_outcomes
from ..riders import rider_type
from ..rules import TOKEN_SPACES
from ..terrain import CLIMBER

if TYPE_CHECKING:
    from ..setup import Setup
    from ..state import State

__all__ = ["dice_at", "ground", "race_times", "rank_shares", "rides_to_line", "win_shares"]

#: The mean of one die.
DIE_MEAN = 3.5
#: The most tokens a model rider may hold (5 own and 5 of its team).
MAX_HELD = 10
#: The sums of 1, 2 and 3 dice with their chances.
SUMS: dict[int, tuple[tuple[int, float], ...]] = {}
for _n in (1, 2, 3):
    _sums: dict[int, float] = {}
    for _dice, _chance in roll_outcomes(_n):
        _sums[sum(_dice)] = _sums.get(sum(_dice), 0.0) + _chance
    SUMS[_n] = tuple(sorted(_sums.items()))

#: ``(mean, variance)`` tables by course terrain and rider type: ``table[k][x]`` for
#: ``k`` tokens at position ``x``. Built on first use for each course (its terrain tuple
#: is kept with it, so that an id is never mistaken for another course's).
_TABLES: dict[tuple[int, str], tuple[list[list[tuple[float, float]]], object]] = {}


def rides_to_line(setup: Setup, kind: str, position: int, tokens: int) -> tuple[float, float]:
    """(mean, variance) of the rides a rider of type ``kind`` at ``position`` holding
    ``tokens`` needs to cross the finish line (0 past it)."""
    key = (id(setup.terrain), kind)
    entry = _TABLES.get(key)
    if entry is None or entry[1] is not setup.terrain:
        # A new game of a course already seen shares its tables (each game's setup has
        # its own terrain tuple).
        same = (ground(setup), kind)
        tables = _BY_GROUND.get(same)
        if tables is None:
            tables = _BY_GROUND[same] = _tables(setup, kind)
        entry = _TABLES[key] = (tables, setup.terrain)
    table = entry[0][min(tokens, MAX_HELD)]
    return table[min(position, len(table) - 1)]


#: The tables by the ground itself (:func:`ground`), shared by every game on it.
_BY_GROUND: dict[tuple[object, str], list[list[tuple[float, float]]]] = {}


def ground(setup: Setup) -> tuple[object, ...]:
    """What the models' tables depend on: the track types, dark squares and finish of
    the course, and on the velodrome where rides roll 3 dice."""
    track = setup.track
    return (setup.terrain, setup.darks, setup.finish, track and track.three_dice_from)


def dice_at(setup: Setup, x: int, kind: str) -> int:
    """The dice of a ride from ``x`` (no flags): the ground's on the road (CY-4.2), 2 on
    the velodrome, 3 from the distance the event says (CY-11.2)."""
    track = setup.track
    if track is not None:
        three = track.three_dice_from
        return 3 if three is not None and x >= three else 2
    return setup.terrain[x].dice_for(kind)


def _tables(setup: Setup, kind: str) -> list[list[tuple[float, float]]]:
    """``rides_to_line`` for every token count and position, from the line back."""
    finish, line = setup.finish, setup.finish + 1
    darks = setup.darks
    size = setup.cap + 1
    mean = [[0.0] * size for _ in range(MAX_HELD + 1)]
    square = [[0.0] * size for _ in range(MAX_HELD + 1)]  # E[rides²]
    for x in range(finish, -1, -1):
        terrain = setup.terrain[x]
        sums = SUMS[dice_at(setup, x, kind)]
        bonus = terrain.climber_bonus if kind == CLIMBER else 0
        panel = terrain.panel(kind)
        for k in range(MAX_HELD + 1):
            spent = min(panel, k)
            after = k - spent
            add = bonus + TOKEN_SPACES * spent
            m = s = stay = 0.0
            for total, chance in sums:
                step = total + add
                y = x + step
                if y >= line:
                    f = (line - x) / step
                    m += chance * f
                    s += chance * f * f
                    continue
                back = darks[y]
                if back:  # CY-4.6; a rider sent behind its start counts as staying
                    y = max(1, y - back, x)
                if y == x and after == k:
                    stay += chance
                    continue
                r, r2 = mean[after][y], square[after][y]
                m += chance * (1.0 + r)
                s += chance * (1.0 + 2.0 * r + r2)
            if stay:  # the rides that leave it where it was, tokens unspent: solve for itself
                m = (m + stay) / (1.0 - stay)
                s = (s + stay * (1.0 + 2.0 * m)) / (1.0 - stay)
            mean[k][x], square[k][x] = m, s
    return [
        [(mean[k][x], max(0.0, square[k][x] - mean[k][x] ** 2)) for x in range(size)]
        for k in range(MAX_HELD + 1)
    ]


#: CY-10.3: the rider whose time is a team time trial team's time.
TEAM_TIME_RIDER = 3
#: The step by which a rider past the line this round turns its squares past the line
#: into a fraction of a ride (a sprinter's mean in the last kilometre is 10.5).
RUN_OUT_STEP = 8.0


def race_times(
    state: State, noise: float = 1.0, without: str | None = None
) -> dict[str, list[tuple[float, float]]]:
    """Each team's riders as (mean, variance) of the rides from the start of the round in
    progress until they cross the finish line (see the module docstring); the
    variances times ``noise``; rider ``without`` left out (as if eliminated)."""
    setup, position = state.setup, state.position
    finish = setup.finish
    pro = setup.pro
    out: dict[str, list[tuple[float, float]]] = {}
    for team in setup.teams:
        # The team's tokens count for every rider: a team's time is the least of its
        # riders', so they are spent once, by whichever rider turns out best (the team
        # keeps that choice while it holds them). Counting them for the rider best
        # placed now fits the outcomes of greedy games as well (log loss 0.442 both)
        # but would make spending them at once look free.
        shared = position.team.get(team, 0) if pro else 0
        figures = []
        for r in setup.team_riders(team):
            x = position.pos.get(r)
            if x is None or r in position.out or r == without:
                continue
            if x > finish:  # crossed this round, waits to be ranked (CY-8.3)
                figures.append((1.0 - (x - finish - 1) / RUN_OUT_STEP, 0.0))
                continue
            kind = rider_type(r)
            rides, var = rides_to_line(
                setup, kind, x, (position.own.get(r, 0) if pro else 0) + shared
            )
            if r in position.turn_over:
                rides += 1.0
            if r in position.skip:
                rides += 1.0
            hungry = position.hunger.get(r, 0)
            if r in position.technical or hungry:  # a die less for one ride, or 1 die for 1-2
                dice = setup.terrain[x].dice_for(kind)
                if dice > 1:
                    rides += (
                        DIE_MEAN * (dice - 1 if hungry else 1) * max(1, hungry) / (dice * DIE_MEAN)
                    )
            figures.append((rides, var * noise))
        for r, rnd, past in position.finishers:  # ranked in an earlier round: a fixed figure
            if r[0] == team:
                figures.append((rnd - position.round + 1.0 - (past - 1) / RUN_OUT_STEP, 0.0))
        if setup.mode.team_time and len(figures) >= TEAM_TIME_RIDER:
            # CY-10.3: a team's time is its third rider's; the team's least figure
            # stands for it, so keep the third least alone.
            figures = [sorted(figures)[TEAM_TIME_RIDER - 1]]
        out[team] = figures
    return out


#: Points of the integration grid, and the floor of a figure's variance (a rider on
#: the run-out has none: a narrow normal stands for its fixed figure).
GRID = 48
MIN_VARIANCE = 1e-4


def win_shares(times: dict[str, list[tuple[float, float]]]) -> dict[str, float]:
    """Each team's chance that its least figure is the least of all (they sum to 1)."""
    teams = [t for t, riders in times.items() if riders]
    if not teams:
        n = len(times)
        return dict.fromkeys(times, 1.0 / n) if n else {}
    if len(teams) == 1:
        return {t: float(t == teams[0]) for t in times}
    sds = {
        t: [(m, math.sqrt(max(v, MIN_VARIANCE))) for m, v in riders]
        for t, riders in times.items()
        if riders
    }
    low = min(m - 4 * s for riders in sds.values() for m, s in riders)
    high = min(m + 4 * s for riders in sds.values() for m, s in riders)
    if high <= low:
        high = low + 1e-6
    grid = [low + (high - low) * i / (GRID - 1) for i in range(GRID)]
    survival = {t: _survival(riders, grid) for t, riders in sds.items()}
    shares = dict.fromkeys(times, 0.0)
    for t in teams:
        mine = survival[t]
        others = [survival[o] for o in teams if o != t]
        total = 0.0
        for i in range(GRID - 1):
            drop = mine[i] - mine[i + 1]
            if drop <= 0.0:
                continue
            rest = 1.0
            for s in others:
                rest *= 0.5 * (s[i] + s[i + 1])
            total += drop * rest
        shares[t] = total
    norm = sum(shares.values())
    if norm <= 0.0:
        return {t: 1.0 / len(teams) if t in teams else 0.0 for t in times}
    return {t: v / norm for t, v in shares.items()}


def _survival(riders: Sequence[tuple[float, float]], grid: Sequence[float]) -> list[float]:
    """P(every rider's figure exceeds t) at each t of ``grid``."""
    out = []
    erfc = math.erfc
    for t in grid:
        s = 1.0
        for m, sd in riders:
            s *= 0.5 * erfc((t - m) / (sd * 1.4142135623730951))
        out.append(s)
    return out


#: Points of the grid of :func:`rank_shares` (it spans every team, not only the front).
RANK_GRID = 64


def rank_shares(times: dict[str, list[tuple[float, float]]]) -> dict[str, float]:
    """Each team's expected share of the other teams it beats: the mean over the
    others of the chance that its least figure is less than theirs, that is
    ``1 - (E[rank] - 1) / (n - 1)`` (a team with no figure beats nobody). With two
    teams it is the chance to win."""
    teams = [t for t, riders in times.items() if riders]
    n = len(times)
    if n < 2:
        return dict.fromkeys(times, 1.0)
    sds = {t: [(m, math.sqrt(max(v, MIN_VARIANCE))) for m, v in times[t]] for t in teams}
    low = min(m - 4 * s for riders in sds.values() for m, s in riders)
    high = max(m + 4 * s for riders in sds.values() for m, s in riders)
    grid = [low + (high - low) * i / (RANK_GRID - 1) for i in range(RANK_GRID)]
    survival = {t: _survival(riders, grid) for t, riders in sds.items()}
    shares = dict.fromkeys(times, 0.0)
    for a, b in ((a, b) for i, a in enumerate(teams) for b in teams[i + 1 :]):
        sa, sb = survival[a], survival[b]
        ahead = behind = 0.0
        for i in range(RANK_GRID - 1):
            ahead += (sa[i] - sa[i + 1]) * 0.5 * (sb[i] + sb[i + 1])
            behind += (sb[i] - sb[i + 1]) * 0.5 * (sa[i] + sa[i + 1])
        total = ahead + behind
        p = ahead / total if total > 0.0 else 0.5
        shares[a] += p
        shares[b] += 1.0 - p
    for t in teams:  # a team without a figure is beaten by every team with one
        shares[t] += n - len(teams)
    return {t: v / (n - 1) for t, v in shares.items()}
