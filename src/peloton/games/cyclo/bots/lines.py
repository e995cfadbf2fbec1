"""What a move is worth at the lines, for the greedy bot: the points a ride would
take at the paying lines of a leg (green and red, CY-9.3) or of a tempo or points
race (CY-11.2), and the risk that it leaves its rider rearmost when an elimination
line falls (CY-11.5).

A line's list is ordered at the end of the round by the riders' squares (CY-8.2): a
rider crossing now ranks after the riders already listed and after this round's
crossers standing at or beyond its landing (those on its square took the lower
lanes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..board import SPRINT
from ..riders import rider_type
from ..rules import TOKEN_SPACES
from ..scoring import FINISH_POINTS, MOUNTAIN_POINTS, SPRINT_POINTS, paid
from ..track import ELIMINATION
from .race_model import SUMS, dice_at

if TYPE_CHECKING:
    from ..state import State

__all__ = ["elimination_risk", "line_points", "pays_at_lines", "ride_risk"]

#: The most tokens a rider spends in one ride (an attack, CY-4.3).
MOST_TOKENS = 2


def pays_at_lines(state: State) -> bool:
    """Whether lines pay points in this game (a leg, a tempo or points race)."""
    setup = state.setup
    return setup.mode.course_lines or bool(setup.finish_pays)


def line_points(state: State, rider: str, start: int, end: int) -> int:
    """The points ``rider`` would take moving from ``start`` to ``end``: each paying
    line crossed pays the place it would take on its list, and so does the finish
    line where it pays."""
    setup, position = state.setup, state.position
    track = setup.is_track
    total = 0
    for i, line in enumerate(setup.scoring):
        if (
            not start <= line.after < end
            or rider in position.lists[i]
            or rider in position.crossed[i]
        ):
            continue
        place = len(position.lists[i]) + sum(
            1 for r in position.crossed[i] if position.pos.get(r, 0) >= end
        )
        if track:
            total += paid(setup.pays[i], place)
        elif line.kind == SPRINT:
            total += paid(SPRINT_POINTS, place)
        else:
            assert line.category is not None
            total += paid(MOUNTAIN_POINTS[line.category], place)
    if start <= setup.finish < end:
        table = setup.finish_pays if track else FINISH_POINTS if setup.mode.course_lines else ()
        ahead = sum(1 for r in position.crossed[-1] if position.pos.get(r, 0) >= end)
        total += paid(table, len(position.finishers) + ahead)
    return total


def elimination_risk(state: State, rider: str, end: int) -> float:
    """The chance that ``rider``, landing on ``end``, is the rearmost racing rider at
    the end of a round in which an elimination line falls (CY-11.5); 0 in other modes.

    Safe when a rider whose turn is over stays behind it; else out unless a rider
    still to ride from behind passes it (each does with the chance its dice and up to
    two tokens take it beyond ``end``). A line falls this round when it has been
    crossed already, when this ride crosses it, or (half the time) when a rider still
    to ride might reach it."""
    setup, position = state.setup, state.position
    line = _next_elimination_line(state)
    if line is None:
        return 0.0
    racing = [
        r
        for r in position.racing(setup.riders)
        if r != rider and position.pos.get(r, 0) <= setup.finish
    ]
    if not racing:
        return 0.0
    behind = [r for r in racing if position.pos[r] < end]
    to_ride = [r for r in racing if r not in position.turn_over and r not in position.skip]
    if any(r not in to_ride for r in behind):
        return 0.0
    index, after = line
    if position.crossed[index] or end > after:
        falls = 1.0
    elif any(position.pos[r] + 18 + TOKEN_SPACES * MOST_TOKENS > after for r in to_ride):
        falls = 0.5
    else:
        return 0.0
    stays = 1.0
    for r in behind:
        stays *= _passes(state, r, end)
    return falls * stays


def ride_risk(state: State, rider: str) -> float:
    """The chance that ``rider``'s own ride (its roll, and up to two of its tokens)
    leaves it rearmost when an elimination line falls: :func:`elimination_risk` over
    the roll's outcomes."""
    setup, position = state.setup, state.position
    x = position.pos[rider]
    tokens = min(MOST_TOKENS, position.own.get(rider, 0)) if setup.pro else 0
    return sum(
        c * elimination_risk(state, rider, min(setup.cap, x + total + TOKEN_SPACES * tokens))
        for total, c in SUMS[dice_at(setup, x, rider_type(rider))]
    )


def _next_elimination_line(state: State) -> tuple[int, int] | None:
    """The index and the distance of the first elimination line nobody has crossed."""
    setup, position = state.setup, state.position
    for i, line in enumerate(setup.scoring):
        if line.kind == ELIMINATION and not position.lists[i]:
            return i, line.after
    return None


def _passes(state: State, rider: str, end: int) -> float:
    """The chance that ``rider`` ends its ride beyond ``end`` (room ignored)."""
    setup, position = state.setup, state.position
    x = position.pos[rider]
    tokens = min(MOST_TOKENS, position.own.get(rider, 0)) if setup.pro else 0
    need = end - x - TOKEN_SPACES * tokens
    return sum(c for total, c in SUMS[dice_at(setup, x, rider_type(rider))] if total > need)
