"""Exact solo solver (MC-9): the best score ``(rounds, remaining)`` with proof.

The search runs on whole rounds. A node is a position at the start of a round; its
successors are every distinct position at the start of the next round (or the end of
the game), found by a depth-first walk through the round's turns that plays the
engine's own :meth:`State.legal_moves` / :meth:`State.play`, so the rules are exactly
the engine's. Setup (MC-9.2) is one more such "round" before round 1.

Phase 1 is iterative deepening on the round count (IDA*): is there a line whose
fourth rider crosses within ``R`` rounds? ``R`` starts at an admissible lower bound
and grows until a line is found; the best line known (greedy lines, the beam of
:mod:`.beam`, its endings solved exactly: :mod:`.driver`) gives an upper bound, so
when every ``R`` below the incumbent's rounds fails, its rounds are optimal. Each ``R`` is first tried in the **row game**
(:mod:`.rows`), the race with the lanes relaxed away: when even the row game has no
line in ``R`` rounds the real game has none, and the real search is skipped; the row
game also prunes every round-start node of the real search. Phase 2 is branch and
bound over the lines of exactly ``R*`` rounds, minimising ``remaining``.

Soundness of the pruning:

* **Round bound** (:meth:`.bounds.Bounds.rounds_needed`): a relaxation that only
  ever overestimates progress. The current round is bounded from its own assessment
  (:func:`.bounds.round_reach`: the allowances, links, train places and groups
  actually in play); every later round by :meth:`.bounds.Bounds.step`, where a rider
  anywhere in its interval ``[low, high]`` of possible rows ends at most at the best
  of its own legs (no wind, no fatigue, +3 for an attack in its own section) and a
  train: a relay lands one row ahead of its group's head, which is a rider ``k`` rows
  ahead in the rider's column plus one row per relay, ``k`` (the rider's train place
  is then at least ``k + 1``, so only while ``k <= relay_limit``, MC-6.5; otherwise a
  rider only wheels, behind its leader, MC-6.4), that rider riding at most the best
  allowance of the team's types in its own row's section; no train passes the
  furthest normal move of any rider plus the relays. The furthest rider has nobody
  one row ahead, so it rides against the wind (MC-5.4) and on no train: the front
  gains about 9 rows a round, not 10. A team with no bottle at all stays dry until a
  domestique may pass a feed zone's row: meanwhile nobody attacks and the domestiques
  ride tired (MC-7.2, 7.4, 7.5). A sprinter in the mountain rides no train (MC-6.3
  b), so its reach there is its own 3 rows: the bound sees the sprinters' climb. The
  maximum is taken over the whole interval, so the bound holds although the reach is
  not monotone in the row.
* **Row game** (:mod:`.rows`): every real round, seen without lanes, is a round of
  the row game, so no real line is shorter than the row game's best.
* **Remaining bound**: a line with ``remaining < m`` ends with four riders across
  and the fifth beyond row ``finish - m``, so every rider must get beyond that row
  in the rounds left: the round bound with that goal (``last_row``) prunes phase 2.
* **Transposition table**: keyed by the riders' (type, square, bottle) — riders of the
  same type are interchangeable (the turn order depends on squares only, MC-4.3) —
  which with the round phase (start of a round) is everything the future depends on
  in the solo game (medals do not score). It stores the most rounds a position was
  searched with; a position met again with no more rounds cannot do better.
* **Within a round** the walk merges transpositions (same squares, bottles, riders
  done, groups and rider to play) and keeps one line per distinct end position. With
  the native engine it runs in C (:mod:`.native_walk`) and prunes by the same round
  bound as ``keep``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..notation import Move
from ..state import State
from . import native_walk
from .bounds import Bounded, may_end_this_round, round_reach
from .rows import RowGame, RowSearch, TimeUp
from .stay import lift_lows

#: --any-team: each type once or twice, five riders (MC-9.1).
COMPOSITIONS = ("DDSSC", "DDSCC", "DSSCC")

Score = tuple[int, int]
Key = tuple[Any, ...]


@dataclass
class Solution:
    """What :func:`solve` found."""

    team: str
    score: Score | None  # the best line's score (None: no line found at all)
    rounds: list[list[str]]  # the best line: setup placements first (if searched), then each round
    final: State | None  # the state at the end of the best line
    proven: bool  # whether ``score`` is proven optimal
    lower_bound: Score  # the best score proven impossible to beat
    nodes: int = 0  # positions played (one per move played in the search)
    round_nodes: int = 0  # round-start positions expanded
    row_nodes: int = 0  # partial rounds combined in the row game (:mod:`.rows`)
    seconds: float = 0.0  # wall time
    cpu_seconds: float = 0.0  # CPU time of this process (time.process_time)
    setup_searched: bool = True
    first_round: int = 1  # the round the search started in
    log: list[str] = field(default_factory=list)

    def labelled_rounds(self) -> list[tuple[str, list[str]]]:
        """The best line as (``setup`` / ``round N``, moves)."""
        out = []
        n = self.first_round
        for i, moves in enumerate(self.rounds):
            if self.setup_searched and i == 0:
                out.append(("setup", moves))
            else:
                out.append((f"round {n}", moves))
                n += 1
        return out

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary: the score, whether it is proven, the proven lower bound,
        the line round by round and the search's figures (what the web table shows)."""
        return {
            "team": self.team,
            "score": list(self.score) if self.score is not None else None,
            "proven": self.proven,
            "lower_bound": list(self.lower_bound),
            "rounds": [{"label": label, "moves": moves} for label, moves in self.labelled_rounds()],
            "nodes": self.nodes,
            "row_nodes": self.row_nodes,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }


def _riders(state: State) -> list[Bounded]:
    return [(rid[1], sq >> 5, sq >> 5) for rid, sq in state.race.square_of.items()]


def position_key(state: State) -> Key:
    """Transposition key of a round-start position: riders as (type, square, bottle)."""
    bottles = state.race.bottles
    return tuple(sorted((rid[1], sq, rid in bottles) for rid, sq in state.race.square_of.items()))


def _turn_key(state: State) -> Key:
    """Everything the rest of a round depends on, mid-round (or mid-setup)."""
    race = state.race
    groups = race.groups
    return (
        frozenset(race.square_of.items()),
        frozenset(race.bottles),
        len(race.finished),
        race.current,
        race.gave,
        frozenset(race.done),
        frozenset((rid, tuple(groups[gi])) for rid, gi in race.group_of.items()),
    )


def walk_round(
    state: State,
    moves: Callable[[State], Iterable[Move]],
    keep: Callable[[State], bool] | None,
    step: Callable[[], None],
) -> Iterator[tuple[Key, State, list[str]]]:
    """Every distinct position at the end of the round (or setup) of ``state``, with
    its key (:func:`position_key`, ``("over", key)`` for a finished game) and one line
    of moves to it: a depth-first walk through the round's turns trying ``moves`` of
    each position (the engine's own moves, or a few of them), playing each with the
    engine. Mid-round positions equal in everything the rest of the round depends on
    (:func:`_turn_key`) are walked once; one ``keep`` rejects (a mid-round position
    that provably cannot lead to a line that counts) is not walked on. ``step`` is
    called after every move played (the clock: it may raise :class:`.rows.TimeUp`)."""
    start_round = state.round
    seen: set[Key] = set()
    ends: set[Key] = set()
    path: list[str] = []

    def walk(st: State) -> Iterator[tuple[Key, State, list[str]]]:
        for move in moves(st):
            child = st.copy()
            child.play(move)
            step()
            over = child.is_over or child.round != start_round
            if not over and keep is not None and not keep(child):
                continue
            path.append(str(move))
            if over:
                key = ("over", position_key(child)) if child.is_over else position_key(child)
                if key not in ends:
                    ends.add(key)
                    yield key, child, path.copy()
            else:
                tk = _turn_key(child)
                if tk not in seen:
                    seen.add(tk)
                    yield from walk(child)
            path.pop()

    yield from walk(state)


class Solver:
    """One solve of one starting position (see :func:`solve`)."""

    def __init__(
        self,
        root: State,
        deadline: float | None,
        tick: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.root = root
        self.course = root.course
        self.finish = root.course.finish
        types = "".join(rid[1] for rid in root.ids)
        #: The round bound (in C when the native engine is active: the same answers).
        self.bounds = native_walk.bounds_for(root.course, root.relay_limit, types)
        #: The row game (lanes relaxed away): a stronger bound at each round's start.
        self.relaxed = RowSearch(
            RowGame(root.course, root.relay_limit), types, deadline, clock, self.bounds
        )
        self.deadline = deadline
        #: The clock the deadline is read on (tests inject one that runs fast).
        self.clock = clock
        self.nodes = 0
        self.round_nodes = 0
        self.tt1: dict[Key, int] = {}
        self.tt2: dict[Key, int] = {}
        self.bound: Score | None = None  # the score a new line must beat
        self.best_rounds = 0
        self.best_rem = 0
        self.best_line: list[list[str]] | None = None
        self.best_final: State | None = None
        self._tick = tick
        self.log: list[str] = []
        #: Whether phase 2 asks the row game at every node: not once the row game ran
        #: out of its share on phase 2's first question (on a long course it would
        #: then spend the real search's time on the same question).
        self.rows_in_improve = True

    # ------------------------------------------------------------ rounds

    def _check_time(self) -> None:
        if self.deadline is not None and self.clock() > self.deadline:
            raise TimeUp
        if self._tick is not None:
            self._tick()

    def successors(
        self,
        state: State,
        keep: Callable[[State], bool] | None = None,
        order: Callable[[State], Any] | None = None,
        budget: tuple[int, int | None] | None = None,
        end_order: Callable[[native_walk.End], Any] | None = None,
    ) -> list[tuple[Any, list[str]]]:
        """Every distinct position after this round (or setup), as ``(order(position),
        one line to it)`` sorted by ``order``; :meth:`child` rebuilds a position (only
        the lines are kept, to save memory).

        ``keep`` (optional) is asked after every move of the round: a mid-round
        position it rejects is provably unable to lead to a line that counts, and its
        continuations are not searched. With the native engine the walk runs in C
        (:mod:`.native_walk`), which does not call ``keep`` but prunes by the round
        bound itself: ``budget`` = ``(rounds, last_row)`` keeps what
        ``rounds_needed(position, last_row) <= rounds`` would (and drops the
        round-end positions that have no round left, as :meth:`feasible` and
        :meth:`improve` would at once), and orders its ends by ``end_order``, the same
        order as ``order`` read from what C hands back (:class:`.native_walk.End`)."""
        if native_walk.available() and (keep is None or budget is not None):
            rounds, last_row = budget if budget is not None else (0, None)

            def later(riders: list[Bounded], crossed: int, dry: bool, ends_now: bool) -> int:
                return self.bounds.rounds_needed(riders, crossed, dry, last_row, ends_now)

            bounds = self.bounds  # its own tables in C when it is the native one (bounds_for)
            table = bounds.table if isinstance(bounds, native_walk.NativeBounds) else None
            ends = native_walk.round_ends(
                state,
                rounds,
                later if budget is not None else None,
                self._check_time,
                last_row,
                # The later rounds' bound in C (bound.c): `later`'s answers, no callback.
                table if budget is not None else None,
            )
            self.nodes += ends.nodes
            found = [
                (end_order(end) if end_order is not None else 0, end.line) for end in ends.ends
            ]
            found.sort(key=lambda om: om[0])
            return found
        return self.python_successors(state, keep, order)

    def python_successors(
        self,
        state: State,
        keep: Callable[[State], bool] | None = None,
        order: Callable[[State], Any] | None = None,
    ) -> list[tuple[Any, list[str]]]:
        """:meth:`successors` on the Python engine, ``keep`` asked after every move."""

        def step() -> None:
            self.nodes += 1
            if not self.nodes & 63:  # often: a loaded machine may give little CPU
                self._check_time()

        root = state.copy()
        root.history = []
        found = [
            (order(child) if order is not None else 0, line)
            for _, child, line in walk_round(root, State.legal_moves, keep, step)
        ]
        found.sort(key=lambda om: om[0])
        return found

    @staticmethod
    def child(state: State, moves: list[str]) -> State:
        """The position after playing ``moves`` (one round's line) from ``state``."""
        child = state.copy()
        child.history = []
        for move in moves:
            child.play(move)
        return child

    def rounds_needed(self, state: State, last_row: int | None = None) -> int:
        """A lower bound on the rounds left (the current one included), at a round's
        start or mid-round: this round from its own assessment, later ones relaxed.
        With ``last_row``: until the game ends with every rider on ``last_row`` or
        beyond (:meth:`Bounds.rounds_needed`)."""
        if state.is_over:
            return 0
        after = self._after_round(state)
        dry = self.dry_after_round(state, after)
        crossed = len(state.race.finished)
        # The feed rows a domestique passes this round count from its row; from the
        # next round on, a rider that surely moves is off it (MC-5.3).
        return 1 + self.bounds.rounds_needed(
            lift_lows(state, after), crossed, dry, last_row, may_end_this_round(state, last_row)
        )

    def row_feasible(self, state: State, budget: int, last_row: int | None = None) -> bool:
        """Whether the row game (a relaxation, :mod:`.rows`) has a line from this
        round-start position within ``budget`` rounds (with every rider on ``last_row``
        or beyond at the end): when it has none, neither has the real game."""
        return self.relaxed.feasible(RowGame.project(state), budget, last_row)

    def dry_after_round(self, state: State, after: list[Bounded]) -> bool:
        """Whether the team surely holds no bottle at the end of this round: it holds
        none now and no domestique still to ride may pass a feed zone's row (MC-7.5)."""
        # A rider that has ridden stands still in ``after`` (low == high).
        return not state.race.bottles and not self.bounds.may_refill(after)

    def _after_round(self, state: State) -> list[Bounded]:
        """Upper bounds on the riders' rows at the end of this round."""
        return round_reach(state, self.bounds.relay_limit)

    # ------------------------------------------------------------ phase 1

    def feasible(self, state: State, budget: int, line: list[list[str]]) -> bool:
        """Is there a line ending the game within ``budget`` more rounds? (IDA* step)"""
        if state.is_over:
            self._offer(state, line)
            return True
        # The clock at every node: a round may have a million ends, each a short walk
        # that never reaches the walk's own reading (every 256 positions).
        self._check_time()
        if budget <= 0 or self.rounds_needed(state) > budget:
            return False
        key = position_key(state)
        if self.tt1.get(key, -1) >= budget:
            return False
        if not self.row_feasible(state, budget):
            self.tt1[key] = budget
            return False
        self.round_nodes += 1
        succ = self.successors(
            state,
            lambda st: self.rounds_needed(st) <= budget,
            lambda st: (self.rounds_needed(st), -sum(r for _, _, r in _riders(st))),
            (budget, None),
            lambda end: (end.needed, -sum(sq >> 5 for _, sq, _ in end.road)),
        )
        for _, moves in succ:
            line.append(moves)
            if self.feasible(self.child(state, moves), budget - 1, line):
                return True
            line.pop()
        self.tt1[key] = budget
        return False

    # ------------------------------------------------------------ phase 2

    def improve(self, state: State, budget: int, line: list[list[str]]) -> None:
        """Search every line ending within ``budget`` rounds for a smaller ``remaining``."""
        if state.is_over:
            self._offer(state, line)
            return
        self._check_time()  # at every node, as in feasible
        # A smaller remaining: the rider left on the road ends beyond finish - best_rem,
        # and the four others across, so every rider must get there in time.
        goal = self.finish - self.best_rem + 1
        if budget <= 0 or self.rounds_needed(state, goal) > budget:
            return
        key = position_key(state)
        if self.tt2.get(key, -1) >= budget:
            return
        # The row game too, as in phase 1: no row-game line with every rider that far,
        # no real one.
        if self.rows_in_improve and not self.row_feasible(state, budget, goal):
            self.tt2[key] = budget
            return
        self.round_nodes += 1

        def keep(st: State) -> bool:
            return self.rounds_needed(st, goal) <= budget

        # Lines that keep the last rider close first: a small incumbent prunes more.
        succ = self.successors(
            state,
            keep,
            lambda st: (st.solo_score or (0, 0), -min((r for _, _, r in _riders(st)), default=0)),
            (budget, goal),
            lambda end: (
                self._end_score(state, end),
                -min((sq >> 5 for _, sq, _ in end.road), default=0),
            ),
        )
        for _, moves in succ:
            line.append(moves)
            self.improve(self.child(state, moves), budget - 1, line)
            line.pop()
            if self.best_rem == 0:
                break
        self.tt2[key] = budget

    def _end_score(self, state: State, end: native_walk.End) -> Score:
        """``solo_score or (0, 0)`` of a round's end walked from ``state`` (MC-9.4: a
        game ends in the round it started, with the furthest rider's distance left)."""
        if not end.over:
            return (0, 0)
        return (state.round, max((self.finish - (sq >> 5) for _, sq, _ in end.road), default=0))

    def _offer(self, state: State, line: list[list[str]]) -> None:
        score = state.solo_score
        assert score is not None
        if self.bound is None or score < self.bound:
            self.bound = score
            self.best_rounds, self.best_rem = score
            self.best_line = [m.copy() for m in line]
            self.best_final = state

    def best_score(self) -> Score | None:
        if self.best_final is None:
            return None
        return self.best_final.solo_score
