"""Mind Cycling as an environment: every move of a team's riders numbered, the road as
planes, the result as placings (or the solo challenge's rounds).

Options are :func:`peloton.games.mindcycling.from_options`'s (``players`` teams, 1
being the solo challenge; ``riders``, ``course``, ``wind``, ``relay_limit``), and
``solo=True`` as a shorthand for ``players=1``.

**Actions** (``Discrete(riders * B)``). A seat only ever moves its own team's riders,
so an action names one of them by its slot ``k`` (the team's ids in order: ``D1 D2 S1
S2 C1 C2``, as many as the team has) and what it does. With ``S = rows * lanes``
road squares (``rows`` = the course's finish row, square ``(row - 1) * lanes +
lane``), ``T`` riders per team and ``B = S + 4 * (S + 1) + T + 1``, action
``k * B + i`` is, for ``i``:

* ``0 .. S-1``: place rider ``k`` on square ``i`` (setup, ``AD1@c8``);
* ``S + j * (S + 1) + q`` for ``j`` = 0 ride, 1 attack, 2 wheel, 3 relay: to square
  ``q``, or across the finish line for ``q = S`` (``AD1-c9``, ``AS1-c20!``,
  ``AC1-c8w``, ``AD2-c11r``, ``AD1-#``);
* ``5 * S + 4 + t``: give the bottle to teammate slot ``t`` (``AD1>AS1``);
* ``B - 1``: stay (``BC1=``).

**Observation** (from ``state.view(seat)``): 13 planes of ``rows x lanes`` then
features. Planes: my domestiques, sprinters, climbers; the other teams' domestiques,
sprinters, climbers; riders holding a bottle; the rider to move; rocks; feed squares;
sprint rows; mountain rows; start-zone rows. Features: the wind (front, left, right);
setup under way; the round (/ 100); which of my riders have finished and which are
still to place (by slot); the share of every finisher that is mine; my share of the
points scored; the medals my team holds (sprinter, climber, cyclist, team); the slot
of the rider to move when it is mine.

**Rewards**: with teams, the trophy winner places first and the other teams follow by
points (ties share their places); first gets 1, last -1, evenly spaced. The solo
challenge (MC-9) rewards fewer rounds: ``1 - 2 * clip((rounds - 10) / 30, 0, 1)``,
1 for a finish in 10 rounds or fewer, -1 from 40.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .encoding import Encoding, Layout, one_hot, placing_rewards

PLACE, MOVE, ATTACK, WHEEL, RELAY, GIVE, STAY = "@", "-", "!", "w", "r", ">", "="
#: The four ways a rider rides to a square, in the order of the action blocks.
RIDES = (MOVE, ATTACK, WHEEL, RELAY)
WINDS = ("front", "left", "right")
MEDALS = ("sprinter", "climber", "cyclist", "team")
PLANES = (
    "my domestiques",
    "my sprinters",
    "my climbers",
    "other domestiques",
    "other sprinters",
    "other climbers",
    "bottles",
    "rider to move",
    "rocks",
    "feed squares",
    "sprint rows",
    "mountain rows",
    "start zone",
)
TYPE_PLANE = {"D": 0, "S": 1, "C": 2}


class MindCyclingEncoding(Encoding):
    """Mind Cycling made from ``from_options`` options (and ``solo=True``)."""

    game = "mind-cycling"

    def __init__(self, options: Mapping[str, Any]) -> None:
        options = dict(options)
        if options.pop("solo", False):
            options["players"] = 1
        super().__init__(options)

    def action_count(self, start: Any) -> int:
        course = start.course
        self.lanes = course.lanes
        self.rows = course.finish
        self.squares = self.rows * self.lanes
        self.team_size = max(len(c) for c in start.teams.values())
        self.block_size = self.squares + 4 * (self.squares + 1) + self.team_size + 1
        # Each rider's slot in its team (the team's ids in order).
        self.slot = {rid: k for t in start.teams for k, rid in enumerate(_team_ids(start, t))}
        self.square_index = {
            name: (row - 1) * self.lanes + lane
            for name in course.codes
            for row, lane in [course.row_lane(name)]
        }
        return len(self.slot) and self.team_size * self.block_size

    def action_of(self, state: Any, move: Any) -> int:
        kind, rider, square, target = move
        base = self.slot[rider] * self.block_size
        if kind == PLACE:
            return int(base + self.square_index[square])
        if kind == GIVE:
            return int(base + 5 * self.squares + 4 + self.slot[target])
        if kind == STAY:
            return int(base + self.block_size - 1)
        q = self.squares if square == "#" else self.square_index[square]
        return int(base + self.squares + RIDES.index(kind) * (self.squares + 1) + q)

    def make_layout(self, start: Any) -> Layout:
        rows, lanes = start.course.finish, start.course.lanes
        size = max(len(c) for c in start.teams.values())
        self._static = self._static_planes(start)
        return Layout(
            [
                ("planes", (len(PLANES), rows, lanes), "; ".join(PLANES)),
                ("wind", (3,), "front, left, right (one-hot)"),
                ("setup", (1,), "1 while the riders are being placed"),
                ("round", (1,), "the round / 100"),
                ("finished", (size,), "my riders that have finished, by slot"),
                ("unplaced", (size,), "my riders still to place, by slot"),
                ("finishers", (1,), "the share of every finisher that is mine"),
                ("points", (1,), "my share of the points scored"),
                ("medals", (4,), "sprinter, climber, cyclist, team: held by my team"),
                ("to_move", (size,), "the slot of the rider to move, when it is mine"),
            ]
        )

    def _static_planes(self, start: Any) -> np.ndarray:
        """Rocks, feed squares and the sections: the same all game."""
        course = start.course
        planes = np.zeros((5, course.finish, course.lanes), dtype=np.float32)
        for name in course.rocks:
            row, lane = course.row_lane(name)
            planes[0, row - 1, lane] = 1.0
        for name in course.feed:
            row, lane = course.row_lane(name)
            planes[1, row - 1, lane] = 1.0
        for row in range(1, course.finish):
            section = course.section_of(row)
            if section == "sprint":
                planes[2, row - 1] = 1.0
            elif section == "mountain":
                planes[3, row - 1] = 1.0
            elif row <= course.start_rows:
                planes[4, row - 1] = 1.0
        return planes

    def observe(self, state: Any, seat: str) -> np.ndarray:
        view = self.seen(state, seat)
        course = view.course
        out = self.layout.zeros()
        block = self.layout.block
        planes = block(out, "planes")
        planes[8:] = self._static
        current = view.current_rider
        for rider in view.riders():
            if rider.square is None:
                continue
            row, lane = course.row_lane(rider.square)
            mine = rider.team == seat
            planes[TYPE_PLANE[rider.type] + (0 if mine else 3), row - 1, lane] = 1.0
            if rider.has_bottle:
                planes[6, row - 1, lane] = 1.0
            if rider.id == current:
                planes[7, row - 1, lane] = 1.0
        one_hot(block(out, "wind"), WINDS.index(view.wind))
        block(out, "setup")[0] = view.in_setup
        block(out, "round")[0] = min(1.0, view.round / 100)
        result = view.result
        finished = block(out, "finished")
        mine_done = 0
        for rid in result.places:
            if rid[0] == seat:
                finished[self.slot[rid]] = 1.0
                mine_done += 1
        if result.places:
            block(out, "finishers")[0] = mine_done / len(result.places)
        unplaced = block(out, "unplaced")
        for rid in view.unplaced(seat):
            unplaced[self.slot[rid]] = 1.0
        total = sum(result.points.values())
        if total:
            block(out, "points")[0] = result.points.get(seat, 0) / total
        medals = block(out, "medals")
        for i, key in enumerate(MEDALS):
            holder = result.medals.get(key)
            if holder is not None and holder[0] == seat:
                medals[i] = 1.0
        if current is not None and current[0] == seat:
            block(out, "to_move")[self.slot[current]] = 1.0
        return out

    def rewards(self, state: Any) -> dict[str, float]:
        players = state.players
        result = state.result
        if state.solo:
            rounds = result.solo_score[0] if result.solo_score else state.round
            return {players[0]: 1.0 - 2.0 * min(1.0, max(0.0, (rounds - 10) / 30))}
        rest = sorted((t for t in players if t != result.trophy), key=lambda t: -result.points[t])
        order: list[list[str]] = [[result.trophy]]
        for team in rest:
            if len(order) > 1 and result.points[order[-1][0]] == result.points[team]:
                order[-1].append(team)
            else:
                order.append([team])
        return placing_rewards(order, players)


def _team_ids(state: Any, team: str) -> list[str]:
    """The ids of ``team``'s riders in slot order (domestiques, sprinters, climbers)."""
    from ..games.mindcycling.riders import team_rider_ids

    composition = "".join(sorted(state.teams[team], key="DSC".index))
    return team_rider_ids(team, composition)
