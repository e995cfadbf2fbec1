"""Track events on the velodrome (CY-1.6, CY-11): each event's race distance, where
its rides roll 3 dice, its lines and what they pay, as one table of facts.

A distance d ≥ 1 lies on loop space ((d − 1) mod lap) + 1; riders of one world whose
distances fall on one loop space share its lanes (CY-19.1). The start line (0) and
the run-out (D + 1 … D + 9) are no loop spaces. Lines lie after k·half or k·lap; the
last one is the finish line (after D).

>>> from peloton.games.cyclo.modes import MODES
>>> facts = track_facts(MODES["points"].track, lap=20, riders=4)
>>> facts.distance, [line.after for line in facts.lines], facts.finish_pays
(120, [20, 40, 60, 80, 100], (15, 9, 6, 3))
>>> facts.pays[2], track_facts(MODES["scratch"].track, lap=20, riders=2).three_dice_from
((10, 6, 4, 2), 40)
>>> track_facts(MODES["elimination"].track, lap=20, riders=5).distance, loop_space(25, 20)
(40, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

from .course import CourseLine
from .modes import TrackPlan

#: Kinds of track lines: a sprint pays points; an elimination line puts a rider out.
SPRINT, ELIMINATION, FINISH = "sprint", "elimination", "finish"
#: CY-11.2: the points race's 3rd sprint pays double and the 6th (the finish line)
#: triple (docs/cyclo.md, the engine's decisions): line number -> factor, for a plan
#: whose lines are ``multiplied``.
POINTS_RACE_FACTORS = {3: 2, 6: 3}
#: CY-11.4: the keirin pacer moves this far at the start of each round.
PACER_STEP = 7
#: CY-2.1: an elimination race needs this many riders.
ELIMINATION_RIDERS = 3


@dataclass(frozen=True, slots=True)
class TrackFacts:
    """What a track event fixes on a velodrome of ``lap`` spaces (CY-11.2)."""

    #: D, the race distance: the finish line lies after it.
    distance: int
    #: A ride starting at this distance or beyond rolls 3 dice (``None``: never).
    three_dice_from: int | None
    #: The scoring lines before the finish (LINES numbers them from 1), kind
    #: ``sprint`` or ``elimination``, in race order.
    lines: tuple[CourseLine, ...]
    #: Points of each line's first riders (empty: it pays nothing).
    pays: tuple[tuple[int, ...], ...]
    #: Points of the finish line's first riders (empty: it pays none).
    finish_pays: tuple[int, ...]


def loop_space(distance: int, lap: int) -> int:
    """The loop space of a distance d ≥ 1: ((d − 1) mod lap) + 1 (CY-1.6)."""
    return (distance - 1) % lap + 1


def track_facts(plan: TrackPlan, *, lap: int, riders: int) -> TrackFacts:
    """The facts of the track event planned as ``plan`` (its mode's ``track``) on a
    velodrome of ``lap`` spaces with ``riders`` riders (the elimination race's
    distance depends on them)."""
    half = lap // 2
    # the elimination race: lines 1 … n−2 eliminate, line n−1 is the finish
    halves = plan.half_laps if plan.half_laps is not None else max(riders - 1, 1)
    three = None if plan.three_dice_from is None else plan.three_dice_from * half
    if not plan.line_every:
        return TrackFacts(halves * half, three, (), (), ())
    count = halves // plan.line_every  # the lines, the finish the last of them
    factors = POINTS_RACE_FACTORS if plan.multiplied else {}
    tables = tuple(tuple(n * factors.get(k, 1) for n in plan.pays) for k in range(1, count + 1))
    lines = tuple(_line(k * plan.line_every * half, plan.line_kind) for k in range(1, count))
    finish = tables[-1] if plan.finish_pays else ()
    return TrackFacts(halves * half, three, lines, tables[:-1], finish)


def _line(after: int, kind: str) -> CourseLine:
    return CourseLine(after, kind, None, "")
