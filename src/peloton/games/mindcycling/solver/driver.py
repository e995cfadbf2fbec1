"""The solver's entry points: :func:`solve` (a course and team, or every team) and
:func:`solve_state` (a position), and the order a solve spends its time in.

A solve keeps its time limit on every path (the CLI, the web table's worker, a library
call): every long loop (the round walks, the row game's chains and combinations, the
dives) reads the clock (``clock``, :func:`time.monotonic` unless a test injects one)
and stops with :class:`.rows.TimeUp`; what was found until then is the answer:

1. **a lower bound at once** (:func:`static_lower_bound`, no search): whatever happens
   next, an answer cut short still says how many rounds no line can beat;
2. **greedy lines**, the **row game** raising the lower bound (:func:`_row_bound`),
   then the **dives** (:mod:`.dive`) for at most :data:`DIVE_SHARE` of the limit and
   the **beam** (:mod:`.beam`) for at most :data:`BEAM_SHARE`: the incumbent the
   proof prunes with;
3. **polish** (:func:`_polish`): the endings of the incumbent solved exactly, up to
   :data:`POLISH_SHARE` of the limit;
4. **the proof** (:mod:`.search`): iterative deepening on the rounds, first in the row
   game, then branch and bound on ``remaining``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ....core.errors import ConfigError
from ..course import Course
from ..riders import SOLO_COMPOSITION, canonical_composition
from ..start import from_mcn, new_solo
from ..state import State
from .beam import beam_lines
from .dive import DISCREPANCIES, dive_lines
from .lines import GREEDY_LINES, given_line, greedy_line, replay_line
from .lines import known_line as known_line_of
from .rows import RowGame, RowState, TimeUp
from .search import COMPOSITIONS, Score, Solution, Solver, position_key

#: The share of a time limit the dives may take (:mod:`.dive`; they stop sooner once
#: their line meets the lower bound). Most of it: given 30%, a minute's solve left
#: random course 9 at 6 rounds (the dives' 5-round line comes after 29 s of them),
#: `short` at (6, 12) and `solo` DDSSC at (12, 1); the beam, the polish and the proof,
#: which get what is left, lost nothing measurable by it.
DIVE_SHARE = 0.7
#: The share of a time limit the beam may take after the dives (:func:`_beam`).
BEAM_SHARE = 0.2
#: Discrepancies of the dives without a time limit.
UNTIMED_DISCREPANCIES = (0, 1, 2)
#: The share of a time limit the row game may take to raise the lower bound before
#: the dives (:func:`_row_bound`).
ROW_SHARE = 0.2
#: The share of the time left that phase 2 gives the row game (:func:`_rows_refute`)
#: before the real search looks for a smaller remaining.
ROW_REMAINING_SHARE = 0.5
#: The share of a time limit polishing the incumbent may take (after the dives).
POLISH_SHARE = 0.1


def static_lower_bound(solver: Solver, root: State) -> int:
    """A lower bound on the round the game ends in, from the bounds alone (no search,
    no time limit needed: a loop over at most the course's rows per round).

    In setup (MC-9.2) the riders will stand on the start zone's last row with their
    bottles when round 1 starts; :meth:`.bounds.Bounds.rounds_needed` holds for any
    round's start, round 1 included."""
    if root.round == 0:
        row = root.course.start_rows
        riders = [(rid[1], row, row) for rid in root.ids]
        return solver.bounds.rounds_needed(riders, 0, False)
    return root.round - 1 + solver.rounds_needed(root)


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
        left = until - solver.clock()
        if left <= 0 or solver.bound is None:
            return
        sub = solve_state(
            start,
            time_limit=left / (len(starts) - n),
            upper=solver.bound,
            polish=False,
            clock=solver.clock,
        )
        if sub.score is not None and sub.final is not None and sub.score < solver.bound:
            solver._offer(sub.final, [*line[:prefix], *sub.rounds])
            line = solver.best_line or line
            return _polish(solver, root, until) if solver.clock() < until else None


def _row_bound(
    solver: Solver, root: State, lower: Score, started: float, time_limit: float | None
) -> Score:
    """Raise the lower bound with the row game before the dives, for at most
    :data:`ROW_SHARE` of the limit: every round count ``r`` below the best line's that
    even the row game cannot play is ruled out (a relaxation, :mod:`.rows`). Where the
    row game refutes quickly, the dives then stop as soon as their line meets the bound.
    Cut short, the bound proven so far stands (and the row game's table is kept for
    the proof)."""
    if time_limit is None or solver.bound is None:
        return lower
    relaxed = solver.relaxed
    until = started + time_limit * ROW_SHARE
    if solver.deadline is not None:
        until = min(until, solver.deadline)
    done_rounds = 0 if root.round == 0 else root.round - 1
    if root.round == 0:  # every setup projects to the riders side by side (MC-9.2)
        row = root.course.start_rows
        start: RowState = (
            tuple(sorted((row, rid[1], rid[1] == "D") for rid in root.ids)),
            0,
        )
    else:
        start = RowGame.project(root)
    saved = relaxed.deadline
    relaxed.deadline = until
    r = lower[0]
    try:
        while r < solver.bound[0] and not relaxed.feasible(start, r - done_rounds):
            solver.log.append(
                f"no line in {r} rounds even in the row game ({relaxed.nodes:,} row nodes)"
            )
            r += 1
            lower = (r, 0)
    except TimeUp:
        pass
    finally:
        relaxed.deadline = saved
    return lower


def _rows_refute(solver: Solver, starts: set[RowState], budget: int, last_row: int) -> bool:
    """Phase 2's first question: is there no row-game line of ``budget`` rounds ending
    with every rider on ``last_row`` or beyond? True only when the row game refutes
    it (then no real line beats the incumbent, :mod:`.rows`). The row game gets at most
    :data:`ROW_REMAINING_SHARE` of the time left: where it has a line (on ``short``,
    6 rounds with every rider across, though the real game's best known leaves one
    on row 33), only the real search can settle the remaining, and it must have time
    for it. Where it runs out of its share, phase 2 stops asking it at every node
    (:attr:`.Solver.rows_in_improve`)."""
    relaxed = solver.relaxed
    saved = relaxed.deadline
    if solver.deadline is not None:
        now = solver.clock()
        relaxed.deadline = now + (solver.deadline - now) * ROW_REMAINING_SHARE
    try:
        return not any(relaxed.feasible(p, budget, last_row) for p in starts)
    except TimeUp:
        solver._check_time()  # the solve's own deadline passed: the proof stops here
        solver.rows_in_improve = False
        solver.log.append(
            f"the row game did not settle the remaining in its share ({relaxed.nodes:,} row nodes)"
        )
        return False
    finally:
        relaxed.deadline = saved


def _share_check(solver: Solver, share: float, time_limit: float | None) -> Callable[[], None]:
    """The clock check of a phase that may take ``share`` of the limit, counted from
    now (the phases before it may have had their shares): raises :class:`TimeUp` when
    that share or the solve's own deadline is spent."""
    clock = solver.clock
    until = None if time_limit is None else clock() + time_limit * share
    if solver.deadline is not None and until is not None:
        until = min(until, solver.deadline)
    calls = 0

    def check() -> None:
        nonlocal calls
        calls += 1
        if until is not None and not calls % 16 and clock() > until:
            raise TimeUp
        if not calls % 64:
            solver._check_time()  # the tick, and the solve's own deadline

    return check


def _dive(solver: Solver, root: State, lower: Score, time_limit: float | None) -> None:
    """Dives toward the lower bound (:func:`.dive.dive_lines`) for a better line, for at
    most :data:`DIVE_SHARE` of the limit (a few discrepancies only, without one)."""
    before = solver.bound
    expanded = dive_lines(
        solver,
        root,
        lower,
        _share_check(solver, DIVE_SHARE, time_limit),
        DISCREPANCIES if time_limit is not None else UNTIMED_DISCREPANCIES,
    )
    if solver.bound != before:
        solver.log.append(f"the dives ({expanded:,} rounds expanded) found {solver.bound}")


def _beam(solver: Solver, root: State, lower: Score, time_limit: float) -> None:
    """Beams of growing width (:func:`.beam.beam_lines`) after the dives, for at most
    :data:`BEAM_SHARE` of the limit: the beam ranks a round's ends by greedy playouts
    and tries the greedy bot's best moves, so it finds some lines the dives' few moves
    per rider miss (random course 1's 3 rounds)."""

    def done() -> bool:
        return solver.bound is not None and solver.bound <= lower

    before = solver.bound
    widest = beam_lines(
        root,
        solver.rounds_needed,
        position_key,
        _share_check(solver, BEAM_SHARE, time_limit),
        solver._offer,
        done,
    )
    if solver.bound != before:
        solver.log.append(f"the beam (widths up to {widest}) found {solver.bound}")


def solve_state(
    root: State,
    *,
    time_limit: float | None = None,
    upper: Score | None = None,
    tick: Callable[[], None] | None = None,
    polish: bool = True,
    known_line: list[str] | None = None,
    dive: bool = True,
    clock: Callable[[], float] = time.monotonic,
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
    started = clock()
    cpu_started = time.process_time()
    deadline = None if time_limit is None else started + time_limit
    solver = Solver(root, deadline, tick, clock)
    if known_line is not None:
        solver._offer(*given_line(root, known_line))
    team = root.teams["A"]
    in_setup = root.round == 0
    done_rounds = 0 if in_setup else root.round - 1  # rounds already behind the start
    h0 = max(1, static_lower_bound(solver, root))
    lower: Score = (h0, 0)

    # An upper bound: the best of a few greedy lines (better lines only from here).
    for seed in range(GREEDY_LINES):
        greedy_final, greedy_rounds = greedy_line(root, seed)
        solver._offer(greedy_final, greedy_rounds)
        if deadline is not None and clock() > deadline:
            break  # one line at least, even with no time at all
    lower = _row_bound(solver, root, lower, started, time_limit)
    h0 = lower[0]
    if dive and solver.bound is not None and solver.bound > lower:
        _dive(solver, root, lower, time_limit)
    if time_limit is not None and solver.bound is not None and solver.bound > lower:
        _beam(solver, root, lower, time_limit)
    if (
        polish
        and deadline is not None
        and time_limit is not None
        and solver.bound is not None
        and solver.bound > lower
    ):
        _polish(solver, root, min(deadline, clock() + time_limit * POLISH_SHARE))
    if upper is not None and solver.bound is not None and upper <= solver.bound:
        solver.best_line, solver.best_final = None, None
        solver.bound = upper
        solver.best_rounds, solver.best_rem = upper
    cap_rounds = solver.best_rounds

    starts: list[tuple[State, list[list[str]]]]
    proven = False
    try:
        starts = (
            [(solver.child(root, m), [m]) for _, m in solver.successors(root)]
            if in_setup
            else [(root.copy(), [])]
        )
        for s, _ in starts:
            s.history = []
        h = max(h0, min(solver.rounds_needed(s) for s, _ in starts) + done_rounds)
        lower = (h, 0)
        # Phase 1: the fewest rounds (every R below the incumbent's rounds).
        r_star = cap_rounds
        relaxed = solver.relaxed
        row_starts = {RowGame.project(s) for s, _ in starts}
        for r in range(h, cap_rounds):
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
        # The row game first: when no row-game line of r_star rounds ends with the
        # fifth rider beyond finish - best_rem, no real line beats the incumbent.
        target = solver.finish - solver.best_rem + 1
        if solver.best_rem > 0 and _rows_refute(solver, row_starts, r_star - done_rounds, target):
            solver.log.append(
                f"no line of {r_star} rounds with remaining below {solver.best_rem} even in the "
                f"row game ({relaxed.nodes:,} row nodes)"
            )
        elif solver.best_rem > 0:
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
        seconds=clock() - started,
        cpu_seconds=time.process_time() - cpu_started,
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
    clock: Callable[[], float] = time.monotonic,
) -> Solution:
    """The best solo score on ``course`` (see the module doc).

    ``start``: an MCN solo position to solve from instead of setup. ``any_team``: also
    search the compositions (each type once or twice). ``known_line``: a known line (move
    texts from the start, as in a record) to improve on; without one, a bundled course's
    shipped line for the team is the first incumbent (:mod:`.known`) unless
    ``from_scratch``. Raises :class:`ConfigError`
    (bad team, a non-solo position, a line that cannot be played to the end) or
    :class:`NotationError` (bad MCN). ``clock``: as :func:`solve_state`.
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
        return solve_state(root, time_limit=time_limit, known_line=known_line, clock=clock)
    if not any_team:
        return _solve_team(
            course, team, wind, relay_limit, time_limit, None, known_line, from_scratch, clock
        )
    started = clock()
    cpu = 0.0
    best: Solution | None = None
    nodes = round_nodes = row_nodes = 0
    log: list[str] = []
    lower: Score | None = None
    all_proven = True
    for comp in COMPOSITIONS:
        left = None if time_limit is None else max(0.0, time_limit - (clock() - started))
        upper = best.score if best is not None else None
        sol = _solve_team(course, comp, wind, relay_limit, left, upper, None, from_scratch, clock)
        cpu += sol.cpu_seconds
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
    best.seconds, best.cpu_seconds = clock() - started, cpu
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
    clock: Callable[[], float],
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
    sol = solve_state(root, time_limit=time_limit, upper=upper, known_line=known_line, clock=clock)
    if shipped is not None:
        sol.log.insert(0, f"started from the line shipped with the course ({shipped[0]})")
    return sol


def composition_of(text: str) -> str:
    """Validate a solo composition (five riders, each type once or twice)."""
    return canonical_composition(text, riders=5)
