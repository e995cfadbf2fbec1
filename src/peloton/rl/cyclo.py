"""Cyclo The Game as an environment: every move of the notation numbered for the
game's riders and course, dice and cards as chance steps, the result as placings.

Options are :func:`peloton.games.cyclo.from_options`'s: ``mode`` (a classic, a leg,
time trials, the track events), ``players``, ``teams``, ``course``, ``level``,
``events``, ``entries``, ``tokens``.

**Chance.** Rolls (``roll:2,5``) and card draws (``draw:moto``) are no agent's: the
environment draws each from its seeded RNG.

**Actions.** With the game's riders numbered ``0 .. R-1`` in start-line order
(``setup.riders``), ``P = finish + 10`` ride targets (positions ``0 .. finish``, then
the run-out squares ``#1 .. #9``) and the six token choices ``"", r, t, rr, rt, tt``:

* ``(rider * P + target) * 6 + tokens``: a ride (``AS1-56``, ``AH1-#4/rt``);
* then ``R * (R + 1)``: a swap, ``rider * (R + 1) + partner`` (partner ``R``:
  ride on, ``AS1~-``);
* then ``R * 2``: an answer, ``rider * 2 + (1 if yes)``;
* then ``R * (R + 1)``: a wheel, ``rider * (R + 1) + leader`` (``R``: decline);
* then ``1 + R + R * (R - 1) / 2``: a fall's picks: none, one rider, or a pair
  ``i < j`` in the order ``(0, 1), (0, 2) .. (R-2, R-1)``.

**Observation** (from ``state.view(seat)``): per rider (my team's first, then the
next seats' in turn), its position / finish, on the run-out, lane (one-hot of a, b, c, and d or beyond),
type (sprinter, climber, helper), own tokens / 5, skipping a turn, technical
problem, hunger / 3, finished, out, due to act; each team's tokens / 10 (me first);
the phase (swap, answer, roll, ride, wheel, draw, fall, over); the round / 100.

**Rewards**: the race's placing of the teams (``result.teams``): first 1, last -1,
evenly spaced (a lone team always gets 1).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from ..games.cyclo.riders import LANE_LETTERS
from .encoding import Encoding, Layout, one_hot, placing_rewards

TOKENS = ("", "r", "t", "rr", "rt", "tt")
RUNOUT = 9
PHASES = ("swap", "answer", "roll", "ride", "wheel", "draw", "fall", "over")
TYPES = {"sprinter": 0, "climber": 1, "helper": 2}
RIDER_FEATURES = 16


class CycloEncoding(Encoding):
    """Cyclo The Game made from ``from_options`` options."""

    game = "cyclo"

    def action_count(self, start: Any) -> int:
        setup = start.setup
        self.riders = tuple(setup.riders)
        self.index = {rid: i for i, rid in enumerate(self.riders)}
        self.finish: int = setup.finish
        r = len(self.riders)
        self.targets = self.finish + 1 + RUNOUT
        self.swap_base = r * self.targets * len(TOKENS)
        self.answer_base = self.swap_base + r * (r + 1)
        self.wheel_base = self.answer_base + 2 * r
        self.fall_base = self.wheel_base + r * (r + 1)
        self.pairs = {pair: i for i, pair in enumerate(combinations(range(r), 2))}
        return int(self.fall_base + 1 + r + len(self.pairs))

    def action_of(self, state: Any, move: Any) -> int:
        kind = type(move).__name__
        index, r = self.index, len(self.riders)
        if kind == "Ride":
            target = self.finish + move.target if move.runout else move.target
            return int(
                (index[move.rider] * self.targets + target) * len(TOKENS)
                + TOKENS.index(move.tokens)
            )
        if kind == "Swap":
            partner = r if move.partner is None else index[move.partner]
            return int(self.swap_base + index[move.rider] * (r + 1) + partner)
        if kind == "Answer":
            return int(self.answer_base + index[move.rider] * 2 + int(move.accept))
        if kind == "Wheel":
            leader = r if move.leader is None else index[move.leader]
            return int(self.wheel_base + index[move.rider] * (r + 1) + leader)
        if kind == "Fall":
            picks = sorted(index[p] for p in move.picks)
            if not picks:
                return int(self.fall_base)
            if len(picks) == 1:
                return int(self.fall_base + 1 + picks[0])
            return int(self.fall_base + 1 + r + self.pairs[(picks[0], picks[1])])
        raise ValueError(f"{move} is a chance move: the environment plays it")

    def make_layout(self, start: Any) -> Layout:
        riders, teams = len(start.setup.riders), len(start.players)
        return Layout(
            [
                (
                    "riders",
                    (riders, RIDER_FEATURES),
                    "per rider: position / finish, on the run-out, lane (a, b, c, d or beyond), type (sprinter, "
                    "climber, helper), tokens / 5, skip, technical, hunger / 3, "
                    "finished, out, due",
                ),
                ("team_tokens", (teams,), "each team's tokens / 10, me first"),
                ("phase", (len(PHASES),), "; ".join(PHASES)),
                ("round", (1,), "the round / 100"),
            ]
        )

    def observe(self, state: Any, seat: str) -> np.ndarray:
        view = self.seen(state, seat)
        out = self.layout.zeros()
        block = self.layout.block
        players = list(view.players)
        order = players[players.index(seat) :] + players[: players.index(seat)]
        ranked = sorted(self.riders, key=lambda rid: (order.index(rid[0]), self.index[rid]))
        rows = block(out, "riders")
        due = view.due
        for row, rid in zip(rows, ranked, strict=True):
            info = view.rider(rid)
            if info.position is not None:
                row[0] = min(1.0, info.position / self.finish)
                row[1] = info.position > self.finish
            if info.square is not None:
                one_hot(row[2:6], min(3, LANE_LETTERS.index(info.square[0])))
            one_hot(row[6:9], TYPES.get(info.type))
            row[9] = min(1.0, info.tokens / 5)
            row[10], row[11] = info.skip, info.technical
            row[12] = min(1.0, info.hunger / 3)
            row[13], row[14] = info.finished, info.out
            row[15] = rid == due
        tokens = view.team_tokens
        team_block = block(out, "team_tokens")
        for i, team in enumerate(order):
            team_block[i] = min(1.0, tokens.get(team, 0) / 10)
        one_hot(block(out, "phase"), PHASES.index(view.phase))
        block(out, "round")[0] = min(1.0, view.round / 100)
        return out

    def rewards(self, state: Any) -> dict[str, float]:
        return placing_rewards([[t] for t in state.result.teams], state.players)
