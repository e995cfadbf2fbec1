"""The row game's search: iterative deepening on its rounds (:class:`RowSearch`), a lower
bound for the real game, the round itself being :mod:`.row_game`'s.

Whatever the row game cannot play within ``R`` rounds (or with the fifth rider on a
given row), the real game cannot either: a real round maps to a row-game round
between the row projections of its start and end positions.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..rules import SOLO_TARGET
from . import native_walk
from .bounds import Bounded, Bounds

# Re-exported: the row game's round and positions are named from here.
from .row_forms import RowRider as RowRider
from .row_forms import RowState as RowState
from .row_forms import undominated as undominated
from .row_game import Group, Reached
from .row_game import RowGame as RowGame
from .row_game import TimeUp as TimeUp


class RowSearch:
    """Iterative deepening on the row game's rounds (a lower bound for the real game).

    The pruning uses :class:`~.bounds.Bounds` (admissible for the row
    game too: its relaxation assumes every bottle and every train the row game could
    offer) with each round's exact reach from its chains of links: ``bounds`` when
    given (the real search's, so that both share one memo), else the fastest engine's
    (:func:`.native_walk.bounds_for`: most of the row game's time is spent there)."""

    def __init__(
        self,
        game: RowGame,
        types: str,
        deadline: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        bounds: Bounds | None = None,
    ) -> None:
        self.game = game
        if bounds is None:
            bounds = native_walk.bounds_for(game.course, game.relay_limit, types)
        self.bounds = bounds
        self.deadline = deadline
        self.clock = clock
        game.check = self._check_time
        self.nodes = 0
        self.tt: dict[RowState, int] = {}
        #: The same for each ``last_row`` asked (the remaining's bound, phase 2).
        self.tt_rem: dict[int, dict[RowState, int]] = {}
        #: Asked of every new position a round's combination finds; True stops the
        #: round (:meth:`_ends_next_round`).
        self._stop: Callable[[RowState], bool] | None = None
        #: The fewest rounds a position was found to have a line within, per goal
        #: (``last_row``, None for the rounds alone).
        self.won: dict[int | None, dict[RowState, int]] = {}

    def _check_time(self) -> None:
        if self.deadline is not None and self.clock() > self.deadline:
            raise TimeUp

    def rounds_needed(
        self, intervals: list[Bounded], crossed: int, dry: bool = False, last_row: int | None = None
    ) -> int:
        return self.bounds.rounds_needed(intervals, crossed, dry, last_row)

    def _reach(self, riders: tuple[RowRider, ...], chains: list[list[int]]) -> dict[int, int]:
        reach: dict[int, int] = {}
        for chain in chains:
            reach.update(zip(chain, self.game.chain_reach(riders, chain), strict=True))
        return reach

    def successors(
        self, position: RowState, budget: int, last_row: int | None = None
    ) -> set[RowState]:
        """The positions after one round from which ``budget - 1`` more rounds may still
        suffice by the bounds (those with four riders across included); with
        ``last_row``, to end with every rider on that row or beyond."""
        riders, crossed = position
        game = self.game
        found: set[RowState] = set()
        for chains in game.chains(riders):
            reach = self._reach(riders, chains)
            intervals = [(t, row, reach[i]) for i, (row, t, _) in enumerate(riders)]
            # Dry (see Bounds.advance): no bottle now and none to take this round.
            dry = not any(bottle for _, _, bottle in riders) and not self.bounds.may_refill(
                intervals
            )
            if 1 + self.rounds_needed(intervals, crossed, dry, last_row) > budget:
                continue
            # Chains holding the furthest-reaching riders first: they prune most.
            ordered = sorted(chains, key=lambda chain: -max(reach[i] for i in chain))
            self._combine(riders, crossed, budget, ordered, intervals, dry, found, last_row)
        return found

    def _combine(
        self,
        riders: tuple[RowRider, ...],
        crossed: int,
        budget: int,
        chains: list[list[int]],
        intervals: list[Bounded],
        dry: bool,
        found: set[RowState],
        last_row: int | None = None,
    ) -> None:
        """Add to ``found`` the end positions of every way the chains may ride, rider by
        rider (each chain front first, :meth:`RowGame.rider_options`), pruning as soon
        as the bounds miss ``budget`` with the riders placed so far on their end rows
        and the others anywhere up to their reach: a long chain's outcomes are never
        all listed."""
        order = [i for chain in chains for i in chain]
        seq = [(j, i) for chain in chains for j, i in enumerate(chain)]
        options = self.game.options
        settle = self.game.settle
        stop = self._stop
        needed: dict[tuple[Bounded, ...], int] = {}
        moved: list[tuple[int, bool, bool]] = []
        # Two ways of riding (a normal move and a relay to one row, say) may leave every
        # rider on the same row with the same bottles: settled once.
        settled: set[tuple[tuple[int, bool, bool], ...]] = set()

        def rec(k: int, group: Group | None, cur: list[Bounded]) -> None:
            if k == len(seq):
                ways = tuple(moved)
                if ways not in settled:
                    settled.add(ways)
                    for ending in settle(riders, crossed, order, moved):
                        if ending not in found:
                            found.add(ending)
                            if stop is not None and stop(ending):
                                raise Reached
                return
            self.nodes += 1
            if not self.nodes & 63:
                self._check_time()
            j, i = seq[k]
            rider = riders[i]
            t = rider[1]
            for end, holds, give, after in options(j, rider, group if j else None):
                trial = cur.copy()
                trial[i] = (t, end, end)
                # The bounds read the rows only: the ways that differ only in bottles
                # are checked once.
                key = tuple(trial)
                n = needed.get(key)
                if n is None:
                    n = needed[key] = self.rounds_needed(trial, crossed, dry, last_row)
                if 1 + n > budget:
                    continue
                moved.append((end, holds, give))
                rec(k + 1, after, trial)
                moved.pop()

        rec(0, None, intervals)

    def candidates(
        self, position: RowState, budget: int, last_row: int | None = None
    ) -> list[RowState]:
        """The positions after one round from which ``budget - 1`` more rounds may still
        suffice by the bounds, without those a position with more bottles dominates,
        the furthest first; with ``last_row``, the team's rearmost rider furthest first
        (:func:`_compact_first`)."""
        return sorted(
            (
                s
                for s in undominated(self.successors(position, budget, last_row), self.game.step)
                if s[1] >= SOLO_TARGET
                or self.rounds_needed(
                    [(t, r, r) for r, t, _ in s[0]], s[1], not any(b for _, _, b in s[0]), last_row
                )
                <= budget - 1
            ),
            key=_furthest_first if last_row is None else _compact_first,
        )

    def feasible(self, position: RowState, budget: int, last_row: int | None = None) -> bool:
        """Can four riders be across within ``budget`` more rounds of the row game?
        With ``last_row``: and every rider left on the road on that row or beyond when
        the game ends (a score's ``remaining`` of at most ``finish - last_row``)."""
        if position[1] >= SOLO_TARGET:
            return last_row is None or all(r >= last_row for r, _, _ in position[0])
        if budget <= 0:
            return False
        if self.refuted(position, budget, last_row):
            return False
        if self.found(position, budget, last_row):
            return True
        tt = self.tt if last_row is None else self.tt_rem.setdefault(last_row, {})
        if budget == 1:  # the last round: only whether it can end the game counts
            self.nodes += 1
            ok = self.game.can_end(position, last_row)
        elif budget == 2:
            ok = self._ends_next_round(position, last_row)
        else:
            ok = any(
                self.feasible(s, budget - 1, last_row)
                for s in self.candidates(position, budget, last_row)
            )
        if ok:
            won = self.won.setdefault(last_row, {})
            won[position] = min(budget, won.get(position, budget))
        else:
            tt[position] = budget
        return ok

    def _ends_next_round(self, position: RowState, last_row: int | None) -> bool:
        """Whether some position after this round can end the game in the next one: each
        is asked as soon as the round's combination finds it (:meth:`RowGame.can_end` is
        cheap), so a line stops the round's enumeration at once."""
        tt = self.tt if last_row is None else self.tt_rem.setdefault(last_row, {})

        def ends(after: RowState) -> bool:
            if after[1] >= SOLO_TARGET:
                return last_row is None or all(r >= last_row for r, _, _ in after[0])
            if self.refuted(after, 1, last_row):
                return False
            self.nodes += 1
            if self.game.can_end(after, last_row):
                return True
            tt[after] = 1
            return False

        self._stop = ends
        try:
            self.successors(position, 2, last_row)
        except Reached:
            return True
        finally:
            self._stop = None
        return False

    def refuted(self, position: RowState, budget: int, last_row: int | None) -> bool:
        """Whether ``position`` is known to have no line within ``budget`` rounds for the
        goal ``last_row``: one was refuted with as many rounds or more for the same goal
        or a looser one (no ``last_row``, or a lower one). A line that ends with every
        rider on a row ends with every rider on any lower row too, and a line within
        fewer rounds is one within more."""
        if self.tt.get(position, -1) >= budget:
            return True
        if last_row is None:
            return False
        return any(
            row <= last_row and tt.get(position, -1) >= budget for row, tt in self.tt_rem.items()
        )

    def found(self, position: RowState, budget: int, last_row: int | None) -> bool:
        """Whether ``position`` is known to have a line within ``budget`` rounds for the
        goal ``last_row``: one was found within as many rounds or fewer for the same goal
        or a stricter one (a higher ``last_row``)."""
        for row, won in self.won.items():
            if (last_row is None or (row is not None and row >= last_row)) and won.get(
                position, budget + 1
            ) <= budget:
                return True
        return False


def _furthest_first(position: RowState) -> tuple[int, int]:
    """Most riders across first, then the most rows covered."""
    riders, crossed = position
    return -crossed, -sum(r for r, _, _ in riders)


def _compact_first(position: RowState) -> tuple[int, int, int]:
    """For a ``last_row`` goal, the rearmost rider furthest first: every rider must end
    on that row or beyond (MC-9.4), and a team that leaves one behind early rarely
    catches it up, for a rider far behind the others has nobody to follow (MC-6.1).
    Only the order changes, never what is searched: on ``short`` the row game's line
    of 6 rounds with every rider on row 32 or beyond comes first this way."""
    riders, crossed = position
    return -crossed, -min((r for r, _, _ in riders), default=0), -sum(r for r, _, _ in riders)
