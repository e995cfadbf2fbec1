"""Mind Twist as an environment: seven actions, a small feature vector, the dial kept
secret.

**Actions** (``Discrete(7)``): ``0-2`` ``dial:1`` to ``dial:3`` (the active player),
``3-5`` ``guess:1`` to ``guess:3``, ``6`` ``pass`` (the other player).

**Observation** (17 values, all from ``state.view(seat)``, "me" the observing seat):
``spaces`` my and the other's token (space / length); ``protected`` whether each token
stands on the start or a milestone; ``fallback`` how far each token would fall back
(/ length); ``roles`` [my token is the one moving, I am to act]; ``phase`` [dial,
guess]; ``my_dial`` one-hot of the dial I turned while it awaits the answer (zeros
otherwise: the other player's unrevealed dial is never in a view, so never here);
``their_dials`` the share of 1, 2 and 3 among the other's dials revealed so far;
``turns`` the turns played / the board's turn limit.

**Rewards**: 1 to the winner, -1 to the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import Encoding, Layout, one_hot, placing_rewards

KINDS = {"dial": 0, "guess": 3, "pass": 6}


class MindTwistEncoding(Encoding):
    """Mind Twist (options as :func:`peloton.games.mindtwist.from_options` takes them)."""

    game = "mind-twist"

    def action_count(self, start: Any) -> int:
        return 7

    def action_of(self, state: Any, move: Any) -> int:
        return KINDS[move.kind] + (move.amount - 1 if move.amount else 0)

    def make_layout(self, start: Any) -> Layout:
        return Layout(
            [
                ("spaces", (2,), "my token's space, the other's (space / length)"),
                ("protected", (2,), "1 when that token stands on the start or a milestone"),
                ("fallback", (2,), "how far that token would fall back (/ length)"),
                ("roles", (2,), "[my token is the one moving, I am to act]"),
                ("phase", (2,), "[dial, guess] one-hot"),
                ("my_dial", (3,), "the dial I turned, awaiting an answer (one-hot)"),
                ("their_dials", (3,), "share of 1, 2, 3 among the other's revealed dials"),
                ("turns", (1,), "turns played / turn limit"),
            ]
        )

    def observe(self, state: Any, seat: str) -> np.ndarray:
        view = self.seen(state, seat)
        board = view.board
        other = "B" if seat == "R" else "R"
        out = self.layout.zeros()
        block = self.layout.block
        length = board.length
        mine, theirs = view.space(seat), view.space(other)
        block(out, "spaces")[:] = (mine / length, theirs / length)
        block(out, "protected")[:] = (board.is_protected(mine), board.is_protected(theirs))
        block(out, "fallback")[:] = (
            (mine - board.fallback(mine)) / length if mine < length else 0.0,
            (theirs - board.fallback(theirs)) / length if theirs < length else 0.0,
        )
        if not view.is_over:
            block(out, "roles")[:] = (view.active_player == seat, view.current_player == seat)
            one_hot(block(out, "phase"), 1 if view.phase == "guess" else 0)
        if view.dial is not None:
            # Only the dialer's view holds the pending dial (MT-4.1).
            one_hot(block(out, "my_dial"), view.dial - 1)
        turns = view.turns(seat)
        seen = [t.dial.amount for t in turns if t.dialer == other and t.dial.amount]
        if seen:
            block(out, "their_dials")[:] = [seen.count(n) / len(seen) for n in (1, 2, 3)]
        block(out, "turns")[0] = min(1.0, len(turns) / board.turn_limit)
        return out

    def rewards(self, state: Any) -> dict[str, float]:
        winner = state.result
        return placing_rewards([[winner], [p for p in state.players if p != winner]], state.players)
