"""Exact solo solver (MC-9): the best score ``(rounds, remaining)`` with proof.

The search runs on whole rounds. A node is a position at the start of a round; its
successors are every distinct position at the start of the next round (or the end of
the game), found by a depth-first walk through the round's turns that plays the
engine's own :meth:`State.legal_moves` / :meth:`State.play`, so the rules are exactly
the engine's. Setup (MC-9.2) is one more such "round" before round 1.

Phase 1 is iterative deepening on the round count (IDA*): is there a line whose
fourth rider crosses within ``R`` rounds? ``R`` starts at an admissible lower bound
and grows until a line is found; the best of a few greedy playouts gives an upper
bound (with a time limit, half of it first goes to improving that line by solving
its endings exactly, :func:`_polish`), so when every ``R`` below the incumbent's
rounds fails, its rounds are optimal. Each ``R`` is first tried in the **row game**
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
  done, groups and rider to play) and keeps one line per distinct end position.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ....core.errors import ConfigError
from ..course import Course
from ..riders import SOLO_COMPOSITION, canonical_composition
from ..start import from_mcn, new_solo
from ..state import State
from .bounds import Bounded, Bounds, round_reach
from .lines import GREEDY_LINES, given_line, greedy_line, replay_line
from .lines import known_line as known_line_of
from .rows import RowGame, RowSearch, TimeUp

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
    seconds: float = 0.0
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


class Solver:
    """One solve of one starting position (see :func:`solve`)."""

    def __init__(
        self, root: State, deadline: float | None, tick: Callable[[], None] | None = None
    ) -> None:
        self.root = root
        self.course = root.course
        self.finish = root.course.finish
        types = "".join(rid[1] for rid in root.ids)
        self.bounds = Bounds(root.course, root.relay_limit, types)
        #: The row game (lanes relaxed away): a stronger bound at each round's start.
        self.relaxed = RowSearch(RowGame(root.course, root.relay_limit), types, deadline)
        self.deadline = deadline
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

    # ------------------------------------------------------------ rounds

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise TimeUp
        if self._tick is not None:
            self._tick()

    def successors(
        self,
        state: State,
        keep: Callable[[State], bool] | None = None,
        order: Callable[[State], Any] | None = None,
    ) -> list[tuple[Any, list[str]]]:
        """Every distinct position after this round (or setup), as ``(order(position),
        one line to it)`` sorted by ``order``; :meth:`child` rebuilds a position (only
        the lines are kept, to save memory).

        ``keep`` (optional) is asked after every move of the round: a mid-round
        position it rejects is provably unable to lead to a line that counts, and its
        continuations are not searched."""
        start_round = state.round
        seen: set[Key] = set()
        out: dict[Key, tuple[Any, list[str]]] = {}
        path: list[str] = []

        def walk(st: State) -> None:
            for move in st.legal_moves():
                child = st.copy()
                child.play(move)
                self.nodes += 1
                if not self.nodes & 1023:
                    self._check_time()
                if (
                    keep is not None
                    and not child.is_over
                    and child.round == start_round
                    and not keep(child)
                ):
                    continue
                path.append(str(move))
                if child.is_over or child.round != start_round:
                    key = (
                        position_key(child) if not child.is_over else ("over", position_key(child))
                    )
                    if key not in out:
                        out[key] = (order(child) if order is not None else 0, path.copy())
                else:
                    tk = _turn_key(child)
                    if tk not in seen:
                        seen.add(tk)
                        walk(child)
                path.pop()

        root = state.copy()
        root.history = []
        walk(root)
        found = list(out.values())
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
        return 1 + self.bounds.rounds_needed(after, len(state.race.finished), dry, last_row)

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
        if budget <= 0 or self.rounds_needed(state) > budget:
            return False
        key = position_key(state)
        if self.tt1.get(key, -1) >= budget:
            return False
        if not self.relaxed.feasible(RowGame.project(state), budget):
            self.tt1[key] = budget
            return False
        self.round_nodes += 1
        succ = self.successors(
            state,
            lambda st: self.rounds_needed(st) <= budget,
            lambda st: (self.rounds_needed(st), -sum(r for _, _, r in _riders(st))),
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
        # A smaller remaining: the rider left on the road ends beyond finish - best_rem,
        # and the four others across, so every rider must get there in time.
        if budget <= 0 or self.rounds_needed(state, self.finish - self.best_rem + 1) > budget:
            return
        key = position_key(state)
        if self.tt2.get(key, -1) >= budget:
            return
        self.round_nodes += 1

        def keep(st: State) -> bool:
            return self.rounds_needed(st, self.finish - self.best_rem + 1) <= budget

        # Lines that keep the last rider close first: a small incumbent prunes more.
        succ = self.successors(
            state,
            keep,
            lambda st: (st.solo_score or (0, 0), -min((r for _, _, r in _riders(st)), default=0)),
        )
        for _, moves in succ:
            line.append(moves)
            self.improve(self.child(state, moves), budget - 1, line)
            line.pop()
            if self.best_rem == 0:
                break
        self.tt2[key] = budget

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


def _polish(solver: Solver, root: State, until: float) -> None:
    """Improve the solver's line by solving its endings: from the start of each of its
    rounds, latest first, a sub-solve looks only for a better ending (a large
    neighbourhood search; the time left is shared out among the endings still to try).
    A better ending replaces the line's tail."""
    line = solver.best_line
    if line is None:
        return
    state = root.copy()
    state.history = []
    starts: list[tuple[int, State]] = []  # (rounds of the line before it, position)
    for i, moves in enumerate(line):
        for move in moves:
            state.play(move)
        if not state.is_over and state.at_round_start and i + 1 < len(line):
            starts.append((i + 1, state.copy()))
    for n, (prefix, start) in enumerate(reversed(starts)):
        left = until - time.monotonic()
        if left <= 0 or solver.bound is None:
            return
        sub = solve_state(
            start, time_limit=left / (len(starts) - n), upper=solver.bound, polish=False
        )
        if sub.score is not None and sub.final is not None and sub.score < solver.bound:
            solver._offer(sub.final, [*line[:prefix], *sub.rounds])
            line = solver.best_line or line
            return _polish(solver, root, until) if time.monotonic() < until else None


def solve_state(
    root: State,
    *,
    time_limit: float | None = None,
    upper: Score | None = None,
    tick: Callable[[], None] | None = None,
    polish: bool = True,
    known_line: list[str] | None = None,
) -> Solution:
    """Solve a solo position: in setup (placements searched) or at a round's start.

    ``upper``: a score already achieved elsewhere (``--any-team``): lines no better
    than it are not searched for, and the result may then have no line.
    ``polish``: with a time limit, spend up to half of it improving the first line
    found by solving its endings exactly (:func:`_polish`) before the proof.
    ``known_line``: a line already known (move texts from ``root``, say a record's), to
    start from when it beats the greedy lines.
    """
    if not root.solo:
        raise ConfigError("the solver plays the solo version only (one team of five riders)")
    if root.is_over:
        raise ConfigError("the position is already over: nothing to solve")
    if root.round != 0 and not root.at_round_start:
        raise ConfigError("the solver starts from setup or the start of a round")
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    solver = Solver(root, deadline, tick)
    if known_line is not None:
        solver._offer(*given_line(root, known_line))
    team = root.teams["A"]
    in_setup = root.round == 0
    done_rounds = 0 if in_setup else root.round - 1  # rounds already behind the start

    # An upper bound: the best of a few greedy lines (better lines only from here).
    for seed in range(GREEDY_LINES):
        greedy_final, greedy_rounds = greedy_line(root, seed)
        solver._offer(greedy_final, greedy_rounds)
        if deadline is not None and time.monotonic() > deadline:
            break  # one line at least, even with no time at all
    if polish and deadline is not None and time_limit is not None:
        _polish(solver, root, started + time_limit / 2)
    if upper is not None and solver.bound is not None and upper <= solver.bound:
        solver.best_line, solver.best_final = None, None
        solver.bound = upper
        solver.best_rounds, solver.best_rem = upper
    cap_rounds = solver.best_rounds

    starts: list[tuple[State, list[list[str]]]]
    lower: Score = (1, 0)
    proven = False
    try:
        starts = (
            [(solver.child(root, m), [m]) for _, m in solver.successors(root)]
            if in_setup
            else [(root.copy(), [])]
        )
        for s, _ in starts:
            s.history = []
        h = min(solver.rounds_needed(s) for s, _ in starts) + done_rounds
        lower = (max(1, h), 0)
        # Phase 1: the fewest rounds (every R below the incumbent's rounds).
        r_star = cap_rounds
        relaxed = solver.relaxed
        row_starts = {RowGame.project(s) for s, _ in starts}
        for r in range(max(1, h), cap_rounds):
            # The row game first: when even it has no line in r rounds, neither has the
            # real game, and the (much larger) real search is skipped.
            if not any(relaxed.feasible(p, r - done_rounds) for p in row_starts):
                lower = (r + 1, 0)
                solver.log.append(
                    f"no line in {r} rounds even in the row game ({relaxed.nodes:,} row nodes)"
                )
                continue
            found = False
            for s, pre in starts:
                line = [m.copy() for m in pre]
                if solver.feasible(s, r - done_rounds, line):
                    found = True
                    break
            if found:
                r_star = r
                break
            lower = (r + 1, 0)
            solver.log.append(f"no line in {r} rounds ({solver.nodes:,} nodes)")
        lower = (r_star, 0)
        # Phase 2: the smallest remaining among the lines of r_star rounds.
        if solver.best_rem > 0:
            for s, pre in starts:
                line = [m.copy() for m in pre]
                solver.improve(s, r_star - done_rounds, line)
                if solver.best_rem == 0:
                    break
        proven = True
        lower = (r_star, solver.best_rem)
    except TimeUp:
        pass
    score = solver.best_score()
    line = solver.best_line or []
    final: State | None = None
    if score is not None:
        final = replay_line(root, line)
        if final.solo_score != score:  # the engine itself must agree with the search
            raise AssertionError(f"the line replays to {final.solo_score}, not {score}")
    return Solution(
        team=team,
        score=score,
        rounds=line,
        final=final,
        proven=proven,
        lower_bound=lower if not proven or score is None else score,
        nodes=solver.nodes,
        round_nodes=solver.round_nodes,
        row_nodes=solver.relaxed.nodes,
        seconds=time.monotonic() - started,
        setup_searched=in_setup,
        first_round=max(1, root.round),
        log=solver.log,
    )


def solve(
    course: Course,
    team: str = SOLO_COMPOSITION,
    *,
    start: str | None = None,
    any_team: bool = False,
    wind: str = "front",
    relay_limit: int = 3,
    time_limit: float | None = None,
    known_line: list[str] | None = None,
    from_scratch: bool = False,
) -> Solution:
    """The best solo score on ``course`` (see the module doc).

    ``start``: an MCN solo position to solve from instead of setup. ``any_team``: also
    search the compositions (each type once or twice). ``known_line``: a known line (move
    texts from the start, as in a record) to improve on; without one, a bundled course's
    shipped line for the team is the first incumbent (:mod:`.known`) unless
    ``from_scratch``. Raises :class:`ConfigError`
    (bad team, a non-solo position, a line that cannot be played to the end) or
    :class:`NotationError` (bad MCN).
    """
    if any_team and known_line is not None:
        raise ConfigError("a given line fixes the team; it cannot go with --any-team")
    if start is not None:
        if any_team:
            raise ConfigError(
                "--any-team searches the setup; it cannot start from a given position"
            )
        root = from_mcn(course, start, wind=wind, relay_limit=relay_limit)
        if not root.solo:
            raise ConfigError(
                f"the position {start!r} has {len(root.teams)} teams; the solver plays solo games only"
            )
        return solve_state(root, time_limit=time_limit, known_line=known_line)
    if not any_team:
        return _solve_team(
            course, team, wind, relay_limit, time_limit, None, known_line, from_scratch
        )
    started = time.monotonic()
    best: Solution | None = None
    nodes = round_nodes = row_nodes = 0
    log: list[str] = []
    lower: Score | None = None
    all_proven = True
    for comp in COMPOSITIONS:
        left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
        upper = best.score if best is not None else None
        sol = _solve_team(course, comp, wind, relay_limit, left, upper, None, from_scratch)
        nodes += sol.nodes
        row_nodes += sol.row_nodes
        round_nodes += sol.round_nodes
        log.extend(f"{comp}: {line}" for line in sol.log)
        all_proven = all_proven and sol.proven
        lower = sol.lower_bound if lower is None else min(lower, sol.lower_bound)
        if sol.score is not None and (best is None or best.score is None or sol.score < best.score):
            best = sol
    assert best is not None and lower is not None
    best.proven = all_proven
    best.lower_bound = best.score if all_proven and best.score is not None else lower
    best.nodes, best.round_nodes, best.row_nodes, best.log = nodes, round_nodes, row_nodes, log
    best.seconds = time.monotonic() - started
    return best


def _solve_team(
    course: Course,
    team: str,
    wind: str,
    relay_limit: int,
    time_limit: float | None,
    upper: Score | None,
    known_line: list[str] | None,
    from_scratch: bool,
) -> Solution:
    """:func:`solve_state` from one team's setup, starting from the given line or else
    from the line shipped with a bundled course (unless ``from_scratch``)."""
    root = new_solo(course, team, wind=wind, relay_limit=relay_limit)
    shipped = (
        None
        if known_line is not None or from_scratch
        else known_line_of(course, team, wind, relay_limit)
    )
    if shipped is not None:
        known_line = shipped[1]
    sol = solve_state(root, time_limit=time_limit, upper=upper, known_line=known_line)
    if shipped is not None:
        sol.log.insert(0, f"started from the line shipped with the course ({shipped[0]})")
    return sol


def composition_of(text: str) -> str:
    """Validate a solo composition (five riders, each type once or twice)."""
    return canonical_composition(text, riders=5)
