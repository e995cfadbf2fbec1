"""Pistard as an environment: the dice are chance steps the environment rolls, every
ride numbered relative to the rider, the result as placings.

Options are :func:`peloton.games.pistard.from_options`'s (``players`` 2 to 4,
``length``, ``layout``, ``bonus``, ``target``).

**Chance.** Each roll (``roll:3,5,5,6``) is a chance step: no agent acts, the
environment draws it from its seeded RNG (``reset(seed=...)``), so a seed replays the
same dice for the same actions.

**Actions** (``Discrete(4 * 3372)``). A seat moves only its own four riders; action
``k * 3372 + i`` is about rider slot ``k`` (``A1`` .. ``A4``), and for ``i``:

* ``0 .. 5``: the first move's assignment of a die ``i + 1`` (``A3=5``);
* ``6 .. 11``: use a die ``i - 5`` and stay (``A3=5:-``: no free square ahead);
* ``12 + ((v * (v - 1) / 2 + s - 1) * 4 + lane) * 40 + b``: use a die ``v`` to end
  ``s`` rows ahead of the rider (``1 <= s <= v``; fewer than ``v`` when the longest
  free path is shorter) in ``lane`` (0 is ``a``), then the bonus squares coded by
  ``b``: each bonus square is one row further, its lane moved by -1, 0 or +1 from the
  square before; ``b`` is 0 for none, ``1 + d`` for one, ``4 + 3 * d1 + d2`` for two,
  ``13 + 9 * d1 + 3 * d2 + d3`` for three (``d`` = lane change + 1). So
  ``A3=5:c22+c23`` is the die 5 ending on c22 then one bonus square straight ahead.

Rides are numbered from where the rider stands, so the same action means "the same
ride" wherever the rider is; one state never gives two legal moves the same number.

**Observation** (from ``state.view(seat)``): 6 planes of ``length x 4`` (my riders,
the other riders, the four colours of the squares), then per rider (mine first, then
the next seats' in turn order) its progress (distance / three laps), whether it is on
the track, behind the start line, eliminated; each seat's points / target (me first);
my dice in hand and my first-move roll (how many of each value / 4); the round / 100;
the first move under way; the slot of my rider due.

**Rewards**: the placing of PI-4.3 (points, then who scored last): first 1, last -1,
evenly spaced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import IllegalMoveError
from .encoding import Encoding, Layout, placing_rewards

LANES = 4
RIDERS = 4
#: Bonus squares after a ride's end: one shelter square and two colour squares.
MAX_BONUS = 3
BONUS_CODES = 1 + 3 + 9 + 27
#: (die value, rows ridden) pairs with 1 <= rows <= value <= 6.
PAIRS = 21
BLOCK = 12 + PAIRS * LANES * BONUS_CODES
#: The bonus code's offset for each number of bonus squares.
BONUS_BASE = (0, 1, 4, 13)


class PistardEncoding(Encoding):
    """Pistard made from ``from_options`` options."""

    game = "pistard"

    def action_count(self, start: Any) -> int:
        self.length = start.length
        return RIDERS * BLOCK

    def action_of(self, state: Any, move: Any) -> int:
        kind, rider, value, path, _ = move
        base = (int(rider[1:]) - 1) * BLOCK
        if kind == "assign":
            return int(base + value - 1)
        if not path:
            return int(base + 6 + value - 1)
        codes = state.layout.codes
        length = self.length
        end = codes[path[0]]
        row, lane = end // LANES + 1, end % LANES
        steps = (row - 1 - state.dist[rider]) % length + 1
        if not 1 <= steps <= value:
            raise IllegalMoveError(f"{move} ends {steps} rows ahead with a die {value}")
        bonus = 0
        for name in path[1:]:
            code = codes[name]
            next_row, next_lane = code // LANES + 1, code % LANES
            change = next_lane - lane
            if next_row != row % length + 1 or abs(change) > 1:
                raise IllegalMoveError(f"{move}: bonus square {name} is not one row ahead")
            bonus = bonus * 3 + change + 1
            row, lane = next_row, next_lane
        bonus += BONUS_BASE[len(path) - 1]
        pair = value * (value - 1) // 2 + steps - 1
        return int(base + 12 + ((pair * LANES) + end % LANES) * BONUS_CODES + bonus)

    def make_layout(self, start: Any) -> Layout:
        length = start.length
        self.riders = len(start.players) * RIDERS
        colours = np.zeros((LANES, length, LANES), dtype=np.float32)
        for code, colour in enumerate(start.layout.colour):
            colours[colour, code // LANES, code % LANES] = 1.0
        self._colours = colours
        return Layout(
            [
                (
                    "planes",
                    (6, length, LANES),
                    "my riders; other riders; yellow, green, blue, red squares",
                ),
                ("riders", (self.riders, 4), "per rider: progress, on track, behind the line, out"),
                ("points", (len(start.players),), "each seat's points / target, me first"),
                ("dice", (6,), "my dice in hand: how many of each value / 4"),
                ("first_roll", (6,), "my first-move roll: how many of each value / 4"),
                ("round", (1,), "the round / 100"),
                ("first_move", (1,), "1 during the first move"),
                ("due", (RIDERS,), "the slot of my rider due"),
            ]
        )

    def observe(self, state: Any, seat: str) -> np.ndarray:
        view = self.seen(state, seat)
        out = self.layout.zeros()
        block = self.layout.block
        planes = block(out, "planes")
        planes[2:] = self._colours
        players = list(view.players)
        order = players[players.index(seat) :] + players[: players.index(seat)]
        riders = block(out, "riders")
        layout, length = view.layout, self.length
        out_riders = set(view.out)
        for t, team in enumerate(order):
            for k in range(RIDERS):
                rider = f"{team}{k + 1}"
                dist, lane = view.dist[rider], view.lane[rider]
                row = riders[t * RIDERS + k]
                row[0] = min(1.0, dist / (3 * length))
                if rider in out_riders:
                    row[3] = 1.0
                elif lane < 0:
                    row[2] = 1.0
                else:
                    row[1] = 1.0
                    code = layout.square_at(dist, lane)
                    planes[0 if team == seat else 1, code // LANES, lane] = 1.0
        points = block(out, "points")
        for t, team in enumerate(order):
            points[t] = min(1.0, view.points[team] / view.target)
        dice = block(out, "dice")
        for value in view.dice.get(seat, ()):
            dice[value - 1] += 0.25
        first = block(out, "first_roll")
        for value in view.first_rolls.get(seat, ()):
            first[value - 1] += 0.25
        block(out, "round")[0] = min(1.0, view.round / 100)
        block(out, "first_move")[0] = view.round == 1 and not view.is_over
        due = view.due
        if due is not None and due[0] == seat:
            block(out, "due")[int(due[1:]) - 1] = 1.0
        return out

    def rewards(self, state: Any) -> dict[str, float]:
        return placing_rewards([[p] for p in state.result.places], state.players)
