"""Exact solo solver (MC-9): the best score ``(rounds, remaining)`` with proof.

The search runs on whole rounds. A node is a position at the start of a round; its
successors are every distinct position at the start of the next round (or the end of
the game), found by a depth-first walk through the round's turns that plays the
engine's own :meth:`State.legal_moves` / :meth:`State.play`, so the rules are exactly
the engine's. Setup (MC-9.2) is one more such "round" before round 1.

Phase 1 is iterative deepening on the round count (IDA*): is there a line whose
fourth rider crosses within ``R`` rounds? ``R`` starts at an admissible lower bound
and grows until a line is found; a greedy playout gives an upper bound, so when every
``R`` below the greedy line's rounds fails, that line's rounds are optimal. Phase 2
is branch and bound over the lines of exactly ``R*`` rounds, minimising ``remaining``.

Soundness of the pruning:

* **Round bound** (:meth:`Bounds.rounds_needed`): a relaxation that only ever
  overestimates progress. In one round a rider at row ``r`` ends at most at
  ``max(own(r), lead + relays)`` where ``own(r)`` is the best allowance of its type
  over the rows up to ``r`` (never less wind, never fatigue) plus 3 for an attack in
  its own section, ``lead`` the furthest any rider's *normal* move can end (a group
  that others may join is never an attack's, MC-7.3) and ``relays`` the most relays a
  group can take (``relay_limit``, and fewer than the riders on the road). A
  sprinter standing where every row to the finish is mountain never rides a train
  again (MC-6.3 b; riders never go back), so only its own reach counts. A wheel
  ends behind its group's rear, so below ``lead``; every relay puts the rider one row
  ahead of its group's head (MC-6.5), so a head never passes ``lead + relays``. Both
  maps are non-decreasing in the rows (prefix maxima), so iterating them on upper
  bounds gives upper bounds after any number of rounds.
* **Remaining bound**: the rider left on the road at the end is one of the riders on
  the road now, and it ends at most at its relaxed reach, so ``remaining`` is at
  least the smallest ``finish - reach`` over them.
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

from ..core.errors import ConfigError
from ..games import mindcycling as mc
from ..games.mindcycling.riders import OWN_SECTIONS, STEPS

#: MC-9.3: the solo game ends in the round the fourth rider crosses.
TARGET = 4
#: Greedy lines (one per seed) played for the first upper bound: on ``solo`` the
#: greedy bot's score varies from (17, 2) to (15, 0) with its tie-breaking seed.
GREEDY_LINES = 16
#: --any-team: each type once or twice, five riders (MC-9.1).
COMPOSITIONS = ("DDSSC", "DDSCC", "DSSCC")

Score = tuple[int, int]
#: A rider in the bounds: (type, the row it stands on now, an upper bound on its row).
Bounded = tuple[str, int, int]
Key = tuple[Any, ...]


class TimeUp(Exception):
    """The time limit ran out."""


@dataclass
class Solution:
    """What :func:`solve` found."""

    team: str
    score: Score | None  # the best line's score (None: no line found at all)
    rounds: list[list[str]]  # the best line: setup placements first (if searched), then each round
    final: mc.State | None  # the state at the end of the best line
    proven: bool  # whether ``score`` is proven optimal
    lower_bound: Score  # the best score proven impossible to beat
    nodes: int = 0  # positions played (one per move played in the search)
    round_nodes: int = 0  # round-start positions expanded
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
            "seconds": round(self.seconds, 3),
        }


class Bounds:
    """Admissible bounds on the rounds and the remaining distance (see the module doc).

    A rider is bounded as ``(type, low, high)``: it stands now at row ``low`` or
    beyond (riders never go back) and at most at row ``high``."""

    def __init__(self, course: mc.Course, relay_limit: int) -> None:
        finish = course.finish
        self.finish = finish
        self.relay_limit = relay_limit
        sect = course.section_by_row
        top = finish + 12  # rows beyond the line only ever compare as "crossed"
        self.own: dict[str, list[int]] = {}
        self.lead: dict[str, list[int]] = {}
        #: From this row on a rider of the type can never take a wheel or a relay again:
        #: every later row is mountain for a sprinter (MC-6.3 b). ``top`` if no such row.
        self.alone_from: dict[str, int] = {}
        for t in "DSC":
            own, lead = [], []
            best_own = best_lead = 0
            alone = top
            for r in range(top):
                s = sect[r] if r < len(sect) else "plain"
                a = STEPS[t][s]
                best_lead = max(best_lead, r + a)
                best_own = max(best_own, r + a + (3 if s in OWN_SECTIONS[t] else 0))
                own.append(min(best_own, top - 1))
                lead.append(min(best_lead, top - 1))
            for r in range(min(finish, len(sect)) - 1, -1, -1):
                if t != "S" or sect[r] != "mountain":
                    break
                alone = r
            self.own[t], self.lead[t] = own, lead
            self.alone_from[t] = alone

    def reach(self, t: str, low: int, high: int, front: int) -> int:
        """The furthest row a rider bounded by ``(t, low, high)`` may end a round on."""
        own = self.own[t][high]
        return own if low >= self.alone_from[t] else max(own, front)

    def step(self, riders: list[Bounded]) -> list[Bounded]:
        """Upper bounds on the riders' rows after one more round."""
        finish = self.finish
        road = [(t, high) for t, _, high in riders if high < finish]
        if not road:
            return riders
        lead = max(self.lead[t][r] for t, r in road)
        front = lead + min(self.relay_limit, len(road) - 1)
        return [
            (t, low, high) if high >= finish else (t, low, self.reach(t, low, high, front))
            for t, low, high in riders
        ]

    def rounds_needed(self, riders: list[Bounded], crossed: int) -> int:
        """A lower bound on the rounds (this one included) until the fourth rider crosses."""
        finish = self.finish
        need = TARGET - crossed
        n = 0
        while sum(1 for _, _, r in riders if r >= finish) < need:
            riders = self.step(riders)
            n += 1
        return n

    def remaining_at_least(self, riders: list[Bounded], rounds: int) -> int:
        """A lower bound on ``remaining`` at the end of a line of ``rounds`` more rounds."""
        if not riders:
            return 0
        for _ in range(rounds):
            riders = self.step(riders)
        return max(0, min(self.finish - r for _, _, r in riders))


def _riders(state: mc.State) -> list[Bounded]:
    return [(rid[1], sq >> 5, sq >> 5) for rid, sq in state.pos.items()]


def position_key(state: mc.State) -> Key:
    """Transposition key of a round-start position: riders as (type, square, bottle)."""
    bottles = state.bottles
    return tuple(sorted((rid[1], sq, rid in bottles) for rid, sq in state.pos.items()))


def _turn_key(state: mc.State) -> Key:
    """Everything the rest of a round depends on, mid-round (or mid-setup)."""
    groups = state._groups
    return (
        frozenset(state.pos.items()),
        frozenset(state.bottles),
        len(state.finished),
        state.current,
        state._gave,
        frozenset(state._done),
        frozenset((rid, tuple(groups[gi])) for rid, gi in state._group_of.items()),
    )


class Solver:
    """One solve of one starting position (see :func:`solve`)."""

    def __init__(self, root: mc.State, deadline: float | None, tick: Callable[[], None] | None = None) -> None:
        self.root = root
        self.course = root.course
        self.finish = root.course.finish
        self.bounds = Bounds(root.course, root.relay_limit)
        self.deadline = deadline
        self.nodes = 0
        self.round_nodes = 0
        self.tt1: dict[Key, int] = {}
        self.tt2: dict[Key, int] = {}
        self.bound: Score | None = None  # the score a new line must beat
        self.best_rounds = 0
        self.best_rem = 0
        self.best_line: list[list[str]] | None = None
        self.best_final: mc.State | None = None
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
        state: mc.State,
        keep: Callable[[mc.State], bool] | None = None,
        order: Callable[[mc.State], Any] | None = None,
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

        def walk(st: mc.State) -> None:
            for move in st.legal_moves():
                child = st.copy()
                child.play(move)
                self.nodes += 1
                if not self.nodes & 1023:
                    self._check_time()
                if keep is not None and not child.over and child.round == start_round and not keep(child):
                    continue
                path.append(str(move))
                if child.over or child.round != start_round:
                    key = position_key(child) if not child.over else ("over", position_key(child))
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
    def child(state: mc.State, moves: list[str]) -> mc.State:
        """The position after playing ``moves`` (one round's line) from ``state``."""
        child = state.copy()
        child.history = []
        for move in moves:
            child.play(move)
        return child

    def rounds_needed(self, state: mc.State) -> int:
        if state.over:
            return 0
        return self.bounds.rounds_needed(_riders(state), len(state.finished))

    def _after_round(self, state: mc.State) -> list[Bounded]:
        """Mid-round: upper bounds on the riders' rows at the end of this round.

        A rider that has moved keeps its row; one still to move ends at most at its
        own reach or one row ahead of a group head per relay still possible, where a
        head is an open group's head now or the end of a pending rider's normal move.
        """
        b = self.bounds
        done = state._done
        pending = [(rid[1], sq >> 5) for rid, sq in state.pos.items() if rid not in done]
        fixed = [(rid[1], sq >> 5, sq >> 5) for rid, sq in state.pos.items() if rid in done]
        if not pending:
            return fixed
        lead = max(b.lead[t][r] for t, r in pending)
        for g in state._groups:
            if not g[3] and g[0] >> 5 > lead:
                lead = g[0] >> 5
        front = lead + min(b.relay_limit, len(pending))
        return fixed + [(t, r, b.reach(t, r, r, front)) for t, r in pending]

    def mid_rounds(self, state: mc.State) -> int:
        """A lower bound on the rounds left (this one included), mid-round."""
        after = self._after_round(state)
        return 1 + self.bounds.rounds_needed(after, len(state.finished))

    # ------------------------------------------------------------ phase 1

    def feasible(self, state: mc.State, budget: int, line: list[list[str]]) -> bool:
        """Is there a line ending the game within ``budget`` more rounds? (IDA* step)"""
        if state.over:
            self._offer(state, line)
            return True
        if budget <= 0 or self.rounds_needed(state) > budget:
            return False
        key = position_key(state)
        if self.tt1.get(key, -1) >= budget:
            return False
        self.round_nodes += 1
        succ = self.successors(
            state,
            lambda st: self.mid_rounds(st) <= budget,
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

    def improve(self, state: mc.State, budget: int, line: list[list[str]]) -> None:
        """Search every line ending within ``budget`` rounds for a smaller ``remaining``."""
        if state.over:
            self._offer(state, line)
            return
        if budget <= 0 or self.rounds_needed(state) > budget:
            return
        if self.bounds.remaining_at_least(_riders(state), budget) >= self.best_rem:
            return
        key = position_key(state)
        if self.tt2.get(key, -1) >= budget:
            return
        self.round_nodes += 1

        def keep(st: mc.State) -> bool:
            if self.mid_rounds(st) > budget:
                return False
            after = self._after_round(st)
            return self.bounds.remaining_at_least(after, budget - 1) < self.best_rem

        # Lines that keep the last rider close first: a small incumbent prunes more.
        succ = self.successors(
            state, keep, lambda st: (st.solo_score or (0, 0), -min((r for _, _, r in _riders(st)), default=0))
        )
        for _, moves in succ:
            line.append(moves)
            self.improve(self.child(state, moves), budget - 1, line)
            line.pop()
            if self.best_rem == 0:
                break
        self.tt2[key] = budget

    def _offer(self, state: mc.State, line: list[list[str]]) -> None:
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


def _greedy_line(root: mc.State, seed: int = 0) -> tuple[mc.State, list[list[str]]]:
    """A first line from the greedy bot: an upper bound to start from."""
    from ..bots import make_bot

    bot = make_bot("greedy", seed)
    state = root.copy()
    state.history = []
    rounds: list[list[str]] = []
    current = state.round
    moves: list[str] = []
    while not state.over:
        move = bot.choose(state)
        state.play(move)
        moves.append(str(move))
        if state.round != current or state.over:
            rounds.append(moves)
            moves = []
            current = state.round
    return state, rounds


def replay_line(root: mc.State, rounds: list[list[str]]) -> mc.State:
    """Play a line (moves grouped by round) from ``root`` through the engine."""
    state = root.copy()
    for moves in rounds:
        for move in moves:
            state.play(move)
    return state


def solve_state(
    root: mc.State,
    *,
    time_limit: float | None = None,
    upper: Score | None = None,
    tick: Callable[[], None] | None = None,
) -> Solution:
    """Solve a solo position: in setup (placements searched) or at a round's start.

    ``upper``: a score already achieved elsewhere (``--any-team``): lines no better
    than it are not searched for, and the result may then have no line.
    """
    if not root.solo:
        raise ConfigError("the solver plays the solo version only (one team of five riders)")
    if root.over:
        raise ConfigError("the position is already over: nothing to solve")
    if root.round != 0 and not root.at_round_start:
        raise ConfigError("the solver starts from setup or the start of a round")
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    solver = Solver(root, deadline, tick)
    team = root.teams["A"]
    in_setup = root.round == 0
    done_rounds = 0 if in_setup else root.round - 1  # rounds already behind the start

    # An upper bound: the best of a few greedy lines (better lines only from here).
    for seed in range(GREEDY_LINES):
        greedy_final, greedy_rounds = _greedy_line(root, seed)
        solver._offer(greedy_final, greedy_rounds)
        if deadline is not None and time.monotonic() > deadline:
            break  # one line at least, even with no time at all
    if upper is not None and solver.bound is not None and upper <= solver.bound:
        solver.best_line, solver.best_final = None, None
        solver.bound = upper
        solver.best_rounds, solver.best_rem = upper
    cap_rounds = solver.best_rounds

    starts: list[tuple[mc.State, list[list[str]]]]
    lower: Score = (1, 0)
    proven = False
    try:
        starts = [(solver.child(root, m), [m]) for _, m in solver.successors(root)] if in_setup else [(root.copy(), [])]
        for s, _ in starts:
            s.history = []
        h = min(solver.rounds_needed(s) for s, _ in starts) + done_rounds
        lower = (max(1, h), 0)
        # Phase 1: the fewest rounds (every R below the incumbent's rounds).
        r_star = cap_rounds
        for r in range(max(1, h), cap_rounds):
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
    final: mc.State | None = None
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
        seconds=time.monotonic() - started,
        setup_searched=in_setup,
        first_round=max(1, root.round),
        log=solver.log,
    )


def solve(
    course: mc.Course,
    team: str = mc.SOLO_COMPOSITION,
    *,
    start: str | None = None,
    any_team: bool = False,
    wind: str = "front",
    relay_limit: int = 3,
    time_limit: float | None = None,
) -> Solution:
    """The best solo score on ``course`` (see the module doc).

    ``start``: an MCN solo position to solve from instead of setup. ``any_team``: also
    search the compositions (each type once or twice). Raises :class:`ConfigError`
    (bad team, a non-solo position) or :class:`NotationError` (bad MCN).
    """
    if start is not None:
        if any_team:
            raise ConfigError("--any-team searches the setup; it cannot start from a given position")
        root = mc.from_mcn(course, start, wind=wind, relay_limit=relay_limit)
        if not root.solo:
            raise ConfigError(f"the position {start!r} has {len(root.teams)} teams; the solver plays solo games only")
        return solve_state(root, time_limit=time_limit)
    if not any_team:
        return solve_state(mc.new_solo(course, team, wind=wind, relay_limit=relay_limit), time_limit=time_limit)
    started = time.monotonic()
    best: Solution | None = None
    nodes = round_nodes = 0
    log: list[str] = []
    lower: Score | None = None
    all_proven = True
    for comp in COMPOSITIONS:
        left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
        upper = best.score if best is not None else None
        sol = solve_state(mc.new_solo(course, comp, wind=wind, relay_limit=relay_limit), time_limit=left, upper=upper)
        nodes += sol.nodes
        round_nodes += sol.round_nodes
        log.extend(f"{comp}: {line}" for line in sol.log)
        all_proven = all_proven and sol.proven
        lower = sol.lower_bound if lower is None else min(lower, sol.lower_bound)
        if sol.score is not None and (best is None or best.score is None or sol.score < best.score):
            best = sol
    assert best is not None and lower is not None
    best.proven = all_proven
    best.lower_bound = best.score if all_proven and best.score is not None else lower
    best.nodes, best.round_nodes, best.log = nodes, round_nodes, log
    best.seconds = time.monotonic() - started
    return best


def composition_of(text: str) -> str:
    """Validate a solo composition (five riders, each type once or twice)."""
    from ..games.mindcycling.riders import canonical_composition

    return canonical_composition(text, riders=5)
