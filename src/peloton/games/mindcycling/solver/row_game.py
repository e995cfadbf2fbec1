"""The row game's round: Mind Cycling's solo race with the lanes taken away, a relaxation
(the search over its rounds is :mod:`.rows`).

A position of the row game is only each rider's ``(row, type, bottle)`` (and how many
riders have crossed). A round of the row game allows everything a round of the real
game allows, and more, so its best score is a lower bound on the real game's
(:meth:`.rows.RowSearch.feasible`):

* **links** (MC-6.1): a rider may be linked to any rider one row ahead, each rider
  having at most one follower and one leader (in the real game, the rider on its
  shelter square). A rider with a rider one row ahead is always linked: a link adds
  shelter and a train to follow, and the turn order no longer matters once no square
  can be blocked. What a link could take away, a relay right for a rider further
  back in a longer train (MC-6.5), is given back: the real train may start at any
  rider of the chain that rode on its own legs, so a rider may relay when its place
  counted from the founder of its leader's group allows it.
* **moves**: a normal move or an attack of any length within the allowance (MC-5.2,
  MC-7.2), a wheel right behind the rider's leader unless that leader relayed, a
  relay one row ahead of the leader's group (MC-6.3 to 6.6), or a stay at any time.
  Nothing blocks: no rider and no rock ever stands in the way, every target square is
  free.
* **bottles** (MC-7): a rider holding a bottle at the assessment that does not attack
  may give it to any rider behind it that ends the round without one, or that
  crosses the line with it (the real gift goes to the rider directly behind, and may
  be passed on down a column); a domestique without a bottle may take one when its
  normal move or attack passes a feed zone's row (in the real game its path may also
  miss the feed square).

A real round maps to a row-game round between the row projections of its start and
end positions; ``tests/games/mindcycling/solver`` checks this on many real rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import product

from ..course import Course
from ..riders import OWN_SECTIONS, STEPS
from ..rules import SOLO_TARGET
from ..state import State
from .row_forms import RowRider, RowState, maximal_matchings, pareto

#: The open group a rider of a chain may follow, its leader's: (head row, the leader's
#: row, whether the leader relayed, the chain index of the rider that founded it by a
#: normal move).
Group = tuple[int, int, bool, int]
#: What one round does to the riders of a chain, in chain order: per rider (end row,
#: bottle after its own move, gave its bottle away).
Outcome = tuple[tuple[int, bool, bool], ...]


class TimeUp(Exception):
    """The time limit of a solve ran out (in the row game or the real search)."""


class Reached(Exception):
    """A round's combination found a position that ends the game in time."""


#: Steps of a long loop between two looks at the clock.
CHECK_EVERY = 256


def _no_check() -> None:
    """No time limit."""


@dataclass
class RowGame:
    """The row game of one course and relay limit."""

    course: Course
    relay_limit: int = 3
    finish: int = field(init=False)
    sections: list[str] = field(init=False)
    feed_rows: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        #: Called every :data:`CHECK_EVERY` steps of the long loops (a solve's clock:
        #: it raises :class:`TimeUp` once the time is up).
        self.check: Callable[[], None] = _no_check
        self._steps = 0
        self._outcomes: dict[tuple[RowRider, ...], list[tuple[tuple[int, bool, bool], ...]]] = {}
        self._reach: dict[tuple[RowRider, ...], tuple[int, ...]] = {}
        self._ends: dict[tuple[RowRider, ...], list[tuple[int, int]]] = {}
        self._options: dict[
            tuple[int, RowRider, Group | None], list[tuple[int, bool, bool, Group | None]]
        ] = {}
        self.finish = self.course.finish
        self.sections = [*self.course.section_by_row[: self.finish]]
        self.feed_rows = frozenset(self.course.codes[name] >> 5 for name in self.course.feed)

    # ------------------------------------------------------------ positions

    @staticmethod
    def project(state: State) -> RowState:
        """The row-game position of a real position (at a round's start)."""
        race = state.race
        riders = tuple(
            sorted(((sq >> 5), rid[1], rid in race.bottles) for rid, sq in race.square_of.items())
        )
        return riders, len(race.finished)

    def step(self) -> None:
        """One step of a long loop: every :data:`CHECK_EVERY` steps, the clock."""
        self._steps += 1
        if not self._steps % CHECK_EVERY:
            self.check()

    # ------------------------------------------------------------ one round

    def chains(self, riders: tuple[RowRider, ...]) -> Iterator[list[list[int]]]:
        """Every maximal way of linking riders to riders one row ahead (each rider at
        most one leader and one follower), as chains of rider indices, front first."""
        by_row: dict[int, list[int]] = {}
        for i, (row, _, _) in enumerate(riders):
            by_row.setdefault(row, []).append(i)
        rows = sorted(by_row)
        # For each row, the possible maps from its riders to the riders one row ahead.
        choices: list[list[dict[int, int]]] = []
        for row in rows:
            ahead = by_row.get(row + 1, [])
            choices.append(maximal_matchings(by_row[row], ahead))
        seen: set[tuple[tuple[RowRider, ...], ...]] = set()
        for picks in product(*choices):
            self.step()
            leader: dict[int, int] = {}
            for m in picks:
                leader.update(m)
            follower = {x: y for y, x in leader.items()}
            out = []
            for i in range(len(riders)):
                if i in leader:
                    continue
                chain = [i]
                while chain[-1] in follower:
                    chain.append(follower[chain[-1]])
                out.append(chain)
            shape = tuple(sorted(tuple(riders[i] for i in chain) for chain in out))
            if shape not in seen:
                seen.add(shape)
                yield out

    def chain_outcomes(
        self, riders: tuple[RowRider, ...], chain: list[int]
    ) -> list[tuple[tuple[int, bool, bool], ...]]:
        """Every outcome of one chain's turns: per rider ``(end row, bottle after its
        own move, gave its bottle away)``, in chain order."""
        key = tuple(riders[i] for i in chain)
        found = self._outcomes.get(key)
        if found is None:
            found = self._outcomes[key] = self._chain_outcomes(key)
        return found

    def chain_reach(self, riders: tuple[RowRider, ...], chain: list[int]) -> tuple[int, ...]:
        """The furthest row each rider of a chain may end on (in chain order): the best
        of its options behind every group its leader may leave it (a rider may always
        stay, so every way a front part of the chain rides goes on to a whole round)."""
        key = tuple(riders[i] for i in chain)
        found = self._reach.get(key)
        if found is None:
            groups: set[Group | None] = {None}
            best = []
            for j, rider in enumerate(key):
                opts = [o for g in groups for o in self.options(j, rider, g)]
                best.append(max(end for end, _, _, _ in opts))
                groups = {after for _, _, _, after in opts}
            found = self._reach[key] = tuple(best)
        return found

    def options(
        self, i: int, rider: RowRider, group: Group | None
    ) -> list[tuple[int, bool, bool, Group | None]]:
        """:meth:`rider_options`, remembered."""
        key = (i, rider, group)
        found = self._options.get(key)
        if found is None:
            found = self._options[key] = self.rider_options(i, rider, group)
        return found

    def rider_options(
        self, i: int, rider: RowRider, group: Group | None
    ) -> list[tuple[int, bool, bool, Group | None]]:
        """Every way the ``i``-th rider of a chain may ride, behind its leader's open
        ``group`` (None: none to follow): ``(end row, bottle after its own move, gave its
        bottle away, the open group it leaves to its follower)``. A rider that crosses
        ends on the finish row."""
        finish = self.finish
        row, t, bottle = rider
        sect = self.sections[row]
        tired = t == "D" and not bottle
        windy = i == 0  # the front of a chain has nobody one row ahead linked to it
        allowance = STEPS[t][sect] - windy - tired
        feed_rows = self.feed_rows

        def fed(end: int) -> bool:
            return any(row < f <= end for f in feed_rows)

        out: list[tuple[int, bool, bool, Group | None]] = []
        for give in (False, True) if bottle else (False,):
            holds = bottle and not give
            # Stay (anything blocked in the real game).
            out.append((row, holds, give, None))
            # Normal moves: a new open group, founded by rider i.
            for d in range(1, allowance + 1):
                end = row + d
                if end >= finish:
                    out.append((finish, False, give, None))  # crossing closes the group
                    break
                out.append((end, holds, give, (end, end, False, i)))
                if not holds and t == "D" and fed(end):
                    out.append((end, True, give, (end, end, False, i)))
            # Wheel and relay behind the leader's open group.
            if group is not None and not tired and not (t == "S" and sect == "mountain"):
                head, x_row, x_relayed, founder = group
                # MC-6.4: behind the leader, unless it relayed (the old head is there).
                if not x_relayed and x_row - 1 > row:
                    out.append((x_row - 1, holds, give, (head, x_row - 1, False, founder)))
                # MC-6.5: the real train may start at any rider of the chain that rode
                # on its own legs (a link the row game adds may not exist), so the place
                # counted from the group's founder is the smallest the rider can have:
                # the relaxation allows the relay when that one does.
                if i - founder <= self.relay_limit:
                    end = head + 1
                    if end >= finish:
                        out.append((finish, False, give, None))
                    else:
                        out.append((end, holds, give, (end, end, True, founder)))
        # Attack: the bottle is thrown away; the group is closed.
        if bottle and sect in OWN_SECTIONS[t]:
            for d in range(1, allowance + 4):
                end = row + d
                if end >= finish:
                    out.append((finish, False, False, None))
                    break
                out.append((end, False, False, None))
                if t == "D" and fed(end):
                    out.append((end, True, False, None))
        return out

    def _chain_outcomes(
        self, chain: tuple[RowRider, ...]
    ) -> list[tuple[tuple[int, bool, bool], ...]]:
        # The outcomes of the riders from i on depend only on the group they may
        # follow: built once per (i, group), shared by every way of reaching it.
        memo: dict[tuple[int, Group | None], list[tuple[tuple[int, bool, bool], ...]]] = {}
        options = self.rider_options
        n = len(chain)

        def suffix(i: int, group: Group | None) -> list[tuple[tuple[int, bool, bool], ...]]:
            if i == n:
                return [()]
            got = memo.get((i, group))
            if got is None:
                self.step()
                out: set[tuple[tuple[int, bool, bool], ...]] = set()
                for end, holds, give, after in options(i, chain[i], group):
                    head = ((end, holds, give),)
                    out.update([head + rest for rest in suffix(i + 1, after)])
                got = memo[(i, group)] = list(out)
            return got

        return sorted(suffix(0, None))

    def can_end(self, position: RowState, last_row: int | None = None) -> bool:
        """Can the game end within this round of the row game: four riders across (MC-9.3)
        and, with ``last_row``, every rider left on the road on that row or beyond?

        The same rounds as :meth:`chain_outcomes` combined, summarised: bottles do not
        matter any more, and what counts of a chain is only how many of its riders cross
        and the lowest row one left on the road ends on, both the more the better, so
        each chain keeps only its Pareto-best pairs (:meth:`chain_ends`)."""
        riders, crossed = position
        if crossed >= SOLO_TARGET:
            return last_row is None or all(r >= last_row for r, _, _ in riders)
        low = -1 if last_row is None else last_row
        for chains in self.chains(riders):
            best: list[tuple[int, int]] = [(crossed, self.finish)]
            for chain in chains:
                ends = self.chain_ends(tuple(riders[i] for i in chain))
                best = pareto((k1 + k2, min(m1, m2)) for k1, m1 in best for k2, m2 in ends)
            if any(k >= SOLO_TARGET and m >= low for k, m in best):
                return True
        return False

    def chain_ends(self, chain: tuple[RowRider, ...]) -> list[tuple[int, int]]:
        """The Pareto-best ``(riders across, lowest row of one left on the road)`` of a
        chain's round (the finish row when none is left), by the rider-by-rider
        recursion of :meth:`chain_outcomes` memoised on the group a rider follows."""
        found = self._ends.get(chain)
        if found is not None:
            return found
        finish = self.finish
        memo: dict[tuple[int, Group | None], list[tuple[int, int]]] = {}

        def suffix(i: int, group: Group | None) -> list[tuple[int, int]]:
            if i == len(chain):
                return [(0, finish)]
            got = memo.get((i, group))
            if got is None:
                self.step()
                pairs = set()
                for end, _, _, after in self.rider_options(i, chain[i], group):
                    across = end >= finish
                    for k, m in suffix(i + 1, after):
                        pairs.add((k + across, m if across else min(m, end)))
                got = memo[(i, group)] = pareto(pairs)
            return got

        found = self._ends[chain] = suffix(0, None)
        return found

    def allows(self, before: RowState, after: RowState) -> bool:
        """Whether one round of the row game can lead from ``before`` to ``after``.

        Only chain outcomes whose riders end on rows that ``after`` has for their type
        are combined, so this is cheap even on an open road."""
        riders, crossed = before
        wanted = {(row, t) for row, t, _ in after[0]}
        finish = self.finish
        for chains in self.chains(riders):
            per_chain = [
                [
                    o
                    for o in self.chain_outcomes(riders, chain)
                    if all(
                        end >= finish or (end, riders[i][1]) in wanted
                        for i, (end, _, _) in zip(chain, o, strict=True)
                    )
                ]
                for chain in chains
            ]
            order = [i for chain in chains for i in chain]
            for combo in product(*per_chain):
                self.step()
                moved = [o for outcome in combo for o in outcome]
                if after in set(self.settle(riders, crossed, order, moved)):
                    return True
        return False

    def settle(
        self,
        riders: tuple[RowRider, ...],
        crossed: int,
        order: list[int],
        moved: list[tuple[int, bool, bool]],
    ) -> Iterator[RowState]:
        """The end positions of one combination of moves: every way of handing the given
        bottles to riders behind their givers that end without one (or that cross)."""
        finish = self.finish
        ends: list[tuple[int, str, bool]] = []
        start_rows: list[int] = []
        givers: list[int] = []
        for j, (idx, (end, holds, gave)) in enumerate(zip(order, moved, strict=True)):
            row, t, _ = riders[idx]
            ends.append((end, t, holds))
            start_rows.append(row)
            if gave:
                givers.append(j)
        n_crossed = crossed + sum(1 for end, _, _ in ends if end >= finish)

        def receivers(g: int, taken: frozenset[int]) -> list[int]:
            grow = start_rows[g]
            return [
                j
                for j, (end, _, holds) in enumerate(ends)
                # A rider that crosses later in the round may take a gift too: it leaves
                # the road with the bottle, which is then simply lost.
                if j != g and j not in taken and not holds and (start_rows[j] < grow or end < grow)
            ]

        def assign(k: int, taken: frozenset[int]) -> Iterator[frozenset[int]]:
            self.step()
            if k == len(givers):
                yield taken
                return
            for j in receivers(givers[k], taken):
                yield from assign(k + 1, taken | {j})

        for taken in assign(0, frozenset()):
            road = tuple(
                sorted(
                    (end, t, holds or j in taken)
                    for j, (end, t, holds) in enumerate(ends)
                    if end < finish
                )
            )
            yield road, n_crossed
