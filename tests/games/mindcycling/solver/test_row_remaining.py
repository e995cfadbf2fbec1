"""Phase 2's row game (MC-9.4: the fifth rider's remaining): it refutes what it can,
and where it cannot within its share of the time it hands the rest to the real search
instead of spending the whole solve."""

from __future__ import annotations

from pathlib import Path

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver.driver import ROW_REMAINING_SHARE, _rows_refute
from peloton.games.mindcycling.solver.rows import RowGame, RowState
from peloton.games.mindcycling.solver.search import Solver

PLAIN20 = mc.Course.from_dict(
    {"name": "plain20", "lanes": 5, "finish": 20, "sections": [[2, "plain"]]}
)


class SteadyClock:
    """A clock that moves one second a reading (no wall clock in tests)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_mc_9_4_a_refuted_remaining_is_refuted() -> None:
    """MC-6.6, MC-6.2, MC-9.3: a column of five in the plain cannot take four riders
    across in one round (each crossing relay closes its group), so no remaining at all
    is reachable in one round: phase 2's row game says so."""
    root = mc.new_solo(PLAIN20, "DDSSC")
    solver = Solver(root, None)
    column = RowGame.project(mc.from_mcn(PLAIN20, "3 AD1:c14+,AD2:c13+,AS1:c12,AS2:c11,AC1:c10"))
    assert _rows_refute(solver, {column}, 1, PLAIN20.finish - 3)
    assert not _rows_refute(solver, {column}, 2, PLAIN20.finish - 19)


def test_the_row_game_keeps_to_its_share_of_phase_2() -> None:
    """On ``short`` (MC-9.2: the riders side by side on row 5) the row game cannot
    settle within a few readings whether 6 rounds may end with every rider on row 32
    or beyond: it stops at its share of the time left, says so in the log, answers
    "not refuted" (the real search must decide) and gives its clock back."""
    course = mc.Course.load("short")
    root = mc.new_solo(course, "DDSSC")
    clock = SteadyClock()
    solver = Solver(root, 20.0, clock=clock)
    solver.relaxed.deadline = 20.0
    start: RowState = (tuple(sorted((course.start_rows, t, t == "D") for t in "DDSSC")), 0)
    assert not _rows_refute(solver, {start}, 6, 32)
    assert solver.relaxed.deadline == 20.0
    assert any("did not settle the remaining" in line for line in solver.log)
    # It stopped at its share of the time, well before the solve's deadline.
    assert clock.now < 20.0 * ROW_REMAINING_SHARE + 3
    # Too slow here to ask at every node of phase 2: the real search gets the time.
    assert not solver.rows_in_improve


def test_mc_9_4_phase_2_asks_the_row_game_at_every_node() -> None:
    """MC-9.4 from round 3 of the line shipped with ``short``: phase 2 finds the same
    smallest remaining with the row game asked at every node (a relaxation cuts only
    what the rules cannot do) and expands far fewer round starts."""
    line = Path(mc.__file__).resolve().parent / "courses" / "short-DDSSC.line.json"
    states = mc.Record.load(line).states()
    start = next(s for s in states if s.round == 3 and s.at_round_start)
    answers = []
    for ask in (True, False):
        solver = Solver(start, None)
        solver.rows_in_improve = ask
        solver.bound = (6, 13)
        solver.best_rounds, solver.best_rem = solver.bound
        solver.improve(start.copy(), 4, [])
        answers.append((solver.bound, solver.round_nodes))
    (asked, asked_nodes), (plain, plain_nodes) = answers
    assert asked == plain == (6, 10)
    assert asked_nodes * 10 < plain_nodes
