"""The native core's scores and playouts: greedy move scores, random and greedy
playouts (drawing from Python's :class:`~peloton.core.rng.Rng` exactly as Python
would), and batches of random games."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from ....core.rng import Rng
from ..riders import DOMESTIQUE, SPRINTER
from .facts import GameFacts

__all__ = ["GamePlayouts"]

#: Moves a recorded greedy playout hands back per C call.
_RECORD_CHUNK = 4096


class GamePlayouts(GameFacts):
    """Scores and playouts on a :class:`~.facts.GameFacts`' C races."""

    def set_weights(self, weights: Any) -> Any:
        """The ``mc_weights`` of a :class:`~.move_scores.Weights` (this thread's copy)."""
        work = self.work
        if weights is work.weights_of:
            return work.weights
        w = work.weights
        for name in (
            "next_round", "train_trust", "finish", "medal", "bottle_round", "attack_bottle",
            "give", "give_range", "give_range_climber", "feed_next", "follower", "relay_room",
            "blocked_wheel",
        ):  # fmt: skip
            setattr(w, name, getattr(weights, name))
        order = dict(weights.setup_type)
        w.setup_d, w.setup_s, w.setup_c = (order.get(t, 0.0) for t in (DOMESTIQUE, SPRINTER, "C"))
        work.weights_of = weights
        return w

    def score_codes(self, r: Any, codes: Sequence[int], weights: Any) -> list[float]:
        """:func:`.move_scores.score_moves` of the move ints ``codes``, legal in ``r``."""
        n = len(codes)
        work = self.work
        moves = work.buf2
        moves[0:n] = codes
        self.lib.mc_score_moves(self.c, r, self.set_weights(weights), moves, n, work.scores)
        return self.ffi.unpack(work.scores, n)  # type: ignore[no-any-return]

    def random_playout(self, r: Any, rng: Rng, max_moves: int = 1 << 30) -> int:
        """Uniformly random moves (``rng.choice``) until the game is over; moves played.
        ``rng`` draws exactly as it would in Python and is left where Python leaves it."""
        work = self.work
        self._rng_in(rng, 0)
        played = self.lib.mc_random_playout(self.c, r, work.rng, work.buf, self.cap, max_moves)
        self._rng_out(rng, 0)
        if played < 0:
            raise RuntimeError("native move buffer too small")
        return int(played)

    def greedy_playout(
        self,
        r: Any,
        rngs: Sequence[Rng],
        weights: Any,
        *,
        policy: bool = True,
        tolerance: float = 1e-9,
        max_moves: int = 1 << 30,
        record: bool = False,
    ) -> list[int]:
        """Greedy moves until the game is over. ``policy``: as
        :func:`.playouts.greedy_move` (one ``rngs[0]`` draw per move); else as the
        greedy bot (``rngs`` one per team, drawn only between tied moves). The moves
        played, when ``record``."""
        work = self.work
        rng_of_team = work.rng_of_team
        if len(rngs) == 1:
            for t in range(len(self.teams)):
                rng_of_team[t] = 0
        else:
            for t in range(len(self.teams)):
                rng_of_team[t] = t
        for i, rng in enumerate(rngs):
            self._rng_in(rng, i)
        play = self.lib.mc_greedy_playout
        w = self.set_weights(weights)
        moves: list[int] = []
        if record:  # a chunk at a time: a game's length is not known in advance
            chunk = self.ffi.new("int32_t[]", _RECORD_CHUNK)
            count = 0
            while max_moves > 0 and not r.over:
                got = play(
                    self.c, r, w, work.rng, rng_of_team, policy, tolerance, work.buf,
                    self.cap, work.scores, chunk, min(max_moves, _RECORD_CHUNK),
                )  # fmt: skip
                if got < 0:
                    count = got
                    break
                moves += self.ffi.unpack(chunk, got)
                max_moves -= got
        else:
            count = play(
                self.c, r, w, work.rng, rng_of_team, policy, tolerance, work.buf,
                self.cap, work.scores, self.ffi.NULL, max_moves,
            )  # fmt: skip
        for i, rng in enumerate(rngs):
            self._rng_out(rng, i)
        if count < 0:
            raise RuntimeError("native move buffer too small")
        return moves

    def batch_random(self, r: Any, games: int, seed: int) -> dict[str, Any]:
        """``games`` random playouts from ``r`` (left unchanged), game ``i`` seeded
        ``seed + i`` (the C generator: not Python's streams); their totals."""
        stats = self.ffi.new("mc_stats *")
        buf = self.work.buf
        if self.lib.mc_batch_random(self.c, r, games, seed & 0xFFFFFFFF, buf, self.cap, stats) < 0:
            raise RuntimeError("native move buffer too small")
        teams = self.teams
        return {
            "games": stats.games,
            "moves": stats.moves,
            "rounds": stats.rounds,
            "trophies": {t: stats.trophies[i] for i, t in enumerate(teams)},
            "points": {t: stats.points[i] for i, t in enumerate(teams)},
            "medals": {t: stats.medals[i] for i, t in enumerate(teams)},
        }

    def _rng_in(self, rng: Rng, slot: int) -> None:
        """Copy ``rng``'s MT19937 words into the C generator ``slot``."""
        words = rng.getstate()[1]
        assert isinstance(words, tuple)
        g = self.work.rng[slot]
        self.ffi.memmove(g.mt, array("I", words[:624]), 624 * 4)
        g.index = words[624]

    def _rng_out(self, rng: Rng, slot: int) -> None:
        """Hand the C generator ``slot``'s words back to ``rng`` (as if it had drawn)."""
        state = rng.getstate()
        g = self.work.rng[slot]
        words = self.ffi.unpack(g.mt, 624)
        words.append(g.index)
        rng.setstate((state[0], tuple(words), state[2]))
