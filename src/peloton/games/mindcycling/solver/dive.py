"""Line search by bounded dives over whole rounds: lines that meet the lower bound.

A proof closes only when a line meets the proven lower bound, so the solver needs the
best lines it can get. The beam (:mod:`.beam`) ranks positions by greedy playouts and
misses lines that wait a round to build a train, or keep a sprinter out of the
mountain until a relay lifts it over. A dive searches toward a **target**: a line
whose fourth rider crosses within ``R`` rounds (MC-9.3), ``R`` from the lower bound up:

* **depth first over rounds**, every round-start position expanded only if the round
  bound (:meth:`.search.Solver.rounds_needed`, sound) says the game may still end in
  the rounds left; the bound is asked again after every move of a round, so a dead
  branch stops mid-round. The moves are restricted (below), so a dive finds real
  lines (every move is the engine's own) but proves nothing;
* **restricted moves** (:func:`choices`): for the rider to play, every wheel, relay,
  gift and crossing, the furthest normal move (and attack, when it goes further) in
  the lane nearest the rider's, then in the three nearest (:data:`LANES`), the moves
  ending on the square behind or in front of a rider that has ridden (a link for
  next round's train, MC-6.1), and those stopping on the last row before a section
  where its type is slower (a sprinter waiting at the foot of the mountain to be
  relayed over it, MC-2.1, MC-6.3 b);
* **ordering**: the positions at the end of a round by the round bound, then by a
  greedy playout's score from there (:func:`.beam.playout_score`, in the native
  core when it is active), then by the rows covered. A playout that beats the best
  line is itself a line, and is offered;
* **limited discrepancy**: the first-ranked position of every round costs nothing,
  the ``i``-th costs ``i`` (a setup: five per unit); dives with 0, 1, 2, …
  discrepancies allowed follow one another, each a little wider than the last;
* **the fifth rider's remaining** (MC-9.4): once a line of ``R`` rounds exists, the
  dives look for lines of ``R`` rounds whose fifth rider ends nearer the line (the
  round bound with a ``last_row``).

Every line found goes to ``offer`` at once (anytime); ``check`` is called at every
move and raises :class:`.rows.TimeUp` when the time is up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from .. import native
from ..notation import ATTACK, FINISH, GIVE, MOVE, RELAY, STAY, WHEEL, Move
from ..riders import STEPS
from ..state import State
from .beam import playout_score
from .lines import greedy_line
from .rows import TimeUp
from .search import Score, Solver, position_key, walk_round

#: Discrepancies allowed by the successive dives (the ``i``-th ranked position of a
#: round costs ``i``).
DISCREPANCIES = (0, 1, 2, 3, 4, 6, 8, 11, 15, 20, 27, 36)
#: Positions at the end of a round kept per round-start position (ranked).
KEEP = 12
#: Positions at the end of a round valued by a greedy playout (the best by the bound
#: and the rows covered).
PLAYOUTS = 10**6
#: The same in the pure-Python engine, where a playout costs some thirty times more.
PYTHON_PLAYOUTS = 24
#: Lanes of the furthest row tried, the nearest to the rider's (:func:`choices`), by
#: the successive passes: one lane first (a small space, searched through in seconds
#: on a short course), then three.
LANES = (1, 3)
#: Setups per discrepancy (the setup decides most, and playouts rank it worst).
SETUP_SHARE = 5
#: Round-start positions whose ranked round ends (moves only) are cached before the
#: cache is cleared.
CACHE = 20_000


def choices(state: State, lanes: int = 3) -> list[Move]:
    """The few moves a dive tries for the rider to play now (see the module doc): of
    the furthest moves, those in the ``lanes`` lanes nearest the rider's; in setup
    every placement."""
    moves = state.legal_moves()
    if state.round == 0 or len(moves) <= 2:
        return moves
    race = state.race
    course = state.course
    codes = course.codes
    at, done, dl = race.rider_at, race.done, race.shelter
    rid = race.current
    assert rid is not None
    steps = STEPS[rid[1]]
    sect = course.section_by_row
    finish = course.finish
    picked: list[Move] = []
    best: dict[tuple[str, int], tuple[int, Move]] = {}  # (kind, lane) -> furthest
    links: list[tuple[int, Move]] = []
    waits: dict[int, Move] = {}
    crossing: Move | None = None
    for move in moves:
        kind = move[0]
        if kind in (WHEEL, RELAY, GIVE, STAY):
            picked.append(move)
            continue
        if move[2] == FINISH:
            if crossing is None or kind == MOVE:  # a normal crossing keeps the bottle
                crossing = move
            continue
        code = codes[move[2]]  # type: ignore[index]
        row, lane = code >> 5, code & 31
        k = (kind, lane)
        if k not in best or best[k][0] < row:
            best[k] = (row, move)
        ahead = at.get(code + 32 + dl)
        behind = at.get(code - 32 - dl)
        if (ahead is not None and ahead in done) or (behind is not None and behind in done):
            links.append((row, move))
        if (
            kind == MOVE
            and row + 1 < finish
            and steps[sect[row + 1]] < steps[sect[row]]
            and (lane not in waits)
        ):
            waits[lane] = move
    here = race.square_of[rid] & 31
    kept: list[Move] = []
    normal = -1  # the furthest row of a normal move
    for kind in (MOVE, ATTACK):
        ends = [(row, lane, move) for (k, lane), (row, move) in best.items() if k == kind]
        if not ends:
            continue
        top = max(row for row, _, _ in ends)
        if kind == ATTACK and top <= normal:
            break  # an attack no further than a normal move only throws a bottle away
        normal = top
        nearest = sorted((e for e in ends if e[0] == top), key=lambda e: (abs(e[1] - here), e[1]))
        kept += [move for _, _, move in nearest[:lanes]]
    if crossing is not None:
        # Crossing, or one of the furthest moves on the road (a rider left there may
        # found the group the others relay across behind, MC-6.5, MC-6.6).
        return [crossing, *picked, *kept]
    picked += kept
    links.sort(key=lambda rm: -rm[0])
    for _, move in links[:3]:
        if move not in picked:
            picked.append(move)
    for move in waits.values():
        if move not in picked:
            picked.append(move)
    return picked


def _progress(state: State) -> tuple[int, int]:
    """Rows covered by the four leading riders (crossed riders count the finish) and
    the fifth's row."""
    race = state.race
    finish = state.course.finish
    rows = sorted((sq >> 5 for sq in race.square_of.values()), reverse=True)
    rows = [finish] * len(race.finished) + rows
    return sum(rows[:4]), (rows[4] if len(rows) > 4 else finish)


class Dive:
    """Dives from ``root`` (setup or a round's start) for ``solver`` (its bound, its
    incumbent and its ``_offer``); ``check`` raises :class:`TimeUp` when time is up."""

    def __init__(self, solver: Solver, root: State, check: Callable[[], None]) -> None:
        self.solver = solver
        self.root = root.copy()
        self.root.history = []
        self.check = check
        self.done_rounds = 0 if root.round == 0 else root.round - 1
        self.finish = root.course.finish
        self._cache: dict[tuple[Any, ...], list[tuple[Any, list[str]]]] = {}
        self._failed: dict[tuple[Any, int | None], tuple[int, int]] = {}
        self.expanded = 0
        #: The lanes of the furthest row tried (:func:`choices`) in this pass.
        self.lanes = LANES[0]
        #: The score a line must beat to end the current dive.
        self.goal: Score = (0, 0)

    # ------------------------------------------------------------ one round

    def round_ends(
        self, state: State, budget: int, last_row: int | None
    ) -> list[tuple[Any, list[str]]]:
        """The ranked positions at the end of this round (or setup) reached by
        :func:`choices`, each ``(rank, the round's moves)`` (:meth:`.Solver.child`
        rebuilds the position: the cache keeps only the moves), keeping those from
        which the round bound lets the game end within ``budget`` rounds (this one
        included). Cached per position and budget."""
        # The riders' own ids: the moves cached are theirs (position_key would merge
        # two domestiques swapped, whose moves differ).
        race = state.race
        key = (tuple(sorted(race.square_of.items())), frozenset(race.bottles), budget, last_row)
        found = self._cache.get(key)
        if found is not None:
            return found
        solver = self.solver
        in_setup = state.round == 0

        def keep(st: State) -> bool:
            if in_setup:
                return True
            return solver.rounds_needed(st, last_row) <= budget

        out = {
            k: (child, line)
            for k, child, line in walk_round(
                state, lambda st: choices(st, self.lanes), keep, self.check
            )
        }
        left = budget - (0 if in_setup else 1)
        rescored = self._rank(list(out.values()), left, last_row)
        result = [(rank, moves) for rank, _, moves in rescored[:KEEP]]
        if len(self._cache) > CACHE:
            self._cache.clear()
        self._cache[key] = result
        return result

    def _rank(
        self, out: list[tuple[State, list[str]]], left: int, last_row: int | None
    ) -> list[tuple[Any, State, list[str]]]:
        """The round's ends worth diving into, best first: the finished lines by score,
        then up to :data:`KEEP` positions from which the round bound lets the game end
        within ``left`` more rounds, ranked by that bound, a greedy playout's score and
        the rows covered.

        The bound is the costly part on a long course (a millisecond or more a
        position, where a native playout costs a tenth of that), so the positions are
        first ranked by their playouts and the bound is asked only of the best, until
        :data:`KEEP` pass it."""
        solver = self.solver
        over: list[tuple[Any, State, list[str]]] = []
        cheap: list[tuple[Any, State, list[str]]] = []
        for child, moves in out:
            if child.is_over:
                over.append(((0, child.solo_score or (0, 0)), child, moves))
                continue
            top4, fifth = _progress(child)
            cheap.append(((-top4, -fifth), child, moves))
        cheap.sort(key=lambda e: e[0])
        head = cheap[: PLAYOUTS if native.available() else PYTHON_PLAYOUTS]
        scored: list[tuple[Any, State, list[str]]] = []
        for rank, child, moves in head:
            self.check()
            scored.append(((playout_score(child, 0), *rank), child, moves))
        scored.sort(key=lambda e: e[0])
        kept: list[tuple[Any, State, list[str]]] = []
        for rank, child, moves in scored:
            if len(kept) >= KEEP:
                break
            self.check()
            need = solver.rounds_needed(child, last_row)
            if need <= left:
                kept.append(((1, need, *rank), child, moves))
        kept.sort(key=lambda e: e[0])
        over.sort(key=lambda e: e[0])
        return over + kept

    # ------------------------------------------------------------ the dive

    def dive(
        self,
        state: State,
        budget: int,
        discrepancies: int,
        line: list[list[str]],
        last_row: int | None,
    ) -> bool:
        """Depth first toward a line scoring below :attr:`goal` within ``budget`` rounds
        (setup costs none), spending at most ``discrepancies``; whether one was found."""
        solver = self.solver
        in_setup = state.round == 0
        if not in_setup and (budget <= 0 or solver.rounds_needed(state, last_row) > budget):
            return False
        key = (position_key(state) if not in_setup else "setup", last_row)
        failed = self._failed.get(key)
        if failed is not None and failed[0] >= budget and failed[1] >= discrepancies:
            return False
        self.expanded += 1
        ends = self.round_ends(state, budget, last_row)
        left = budget if in_setup else budget - 1
        for i, (rank, moves) in enumerate(ends):
            cost = i // SETUP_SHARE if in_setup else i
            if cost > discrepancies:
                break
            child = solver.child(state, moves)
            line.append(moves)
            if child.is_over:
                solver._offer(child, line)
            else:
                if len(rank) > 2 and (solver.bound is None or rank[2] < solver.bound):
                    self._offer_playout(child, line)
                if not self.hit():
                    self.dive(child, left, discrepancies - cost, line, last_row)
            line.pop()
            if self.hit():
                return True
        self._failed[key] = (budget, discrepancies)
        return False

    def hit(self) -> bool:
        """Whether the incumbent now scores below the goal."""
        bound = self.solver.bound
        return bound is not None and bound < self.goal

    def _offer_playout(self, child: State, line: list[list[str]]) -> None:
        """A greedy playout from ``child`` that beats the incumbent is a line: played in
        Python for its moves and offered."""
        final, rounds = greedy_line(child, 0)
        self.solver._offer(final, [*line, *rounds])

    def search(self, lower: Score, discrepancies: tuple[int, ...] = DISCREPANCIES) -> None:
        """Dives of growing discrepancy: for each, every round count from ``lower`` up
        to the incumbent's, then a smaller remaining at the incumbent's rounds. Stops
        when the incumbent meets ``lower`` with nothing left on the road, or raises
        :class:`TimeUp`."""
        for lanes in LANES:
            self.lanes = lanes
            self._cache.clear()
            for d in discrepancies:
                if self._pass(lower, d):
                    return

    def _pass(self, lower: Score, d: int) -> bool:
        """One dive of ``d`` discrepancies for each round count, then for a smaller
        remaining; whether the incumbent now meets ``lower``."""
        solver = self.solver
        target = lower[0]
        while solver.bound is None or target < solver.bound[0]:
            self._failed.clear()
            self.goal = (target + 1, 0)
            if self.dive(self.root, target - self.done_rounds, d, [], None):
                break
            target += 1
        while solver.bound is not None and solver.bound[1] > 0:
            bound = solver.bound
            self._failed.clear()
            self.goal = bound
            last_row = self.finish - bound[1] + 1
            if not self.dive(self.root, bound[0] - self.done_rounds, d, [], last_row):
                break
        return solver.bound is not None and solver.bound <= lower


def dive_lines(
    solver: Solver,
    root: State,
    lower: Score,
    check: Callable[[], None],
    discrepancies: tuple[int, ...] = DISCREPANCIES,
) -> int:
    """Run :meth:`Dive.search` until it is done or ``check`` raises :class:`TimeUp`;
    the round-start positions expanded."""
    dive = Dive(solver, root, check)
    with contextlib.suppress(TimeUp):
        dive.search(lower, discrepancies)
    return dive.expanded
