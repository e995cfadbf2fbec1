"""Proofs from scratch (no shipped line): on random courses where the bounds or the row
game rule out one round fewer than the best line found, the solve proves that line optimal (MC-9.4).
The solver's clock is a counter (each reading a tenth of a millisecond), so the test
does not depend on the machine's speed."""

from __future__ import annotations

import pytest

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import solve
from peloton.games.mindcycling.solver.driver import static_lower_bound
from peloton.games.mindcycling.solver.examples import random_course
from peloton.games.mindcycling.solver.search import Solver


class CountingClock:
    """Each reading a fixed step later than the last."""

    def __init__(self, step: float = 1e-4) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("seed", [4, 5, 8])
def test_random_courses_are_proven_from_scratch(seed: int) -> None:
    course = random_course(seed)
    sol = solve(course, "DDSSC", time_limit=60, from_scratch=True, clock=CountingClock())
    assert sol.proven and sol.score == (4, 0) and sol.lower_bound == (4, 0)
    # 3 rounds were ruled out before the dives searched (MC-9.3: the fourth rider cannot
    # be across in 3 rounds), by the round bound at setup (the train's front, MC-6.5)
    # or else by the row game (the lanes relaxed away).
    root = mc.new_solo(course, "DDSSC")
    if static_lower_bound(Solver(root, None), root) < 4:
        assert sol.log[0].startswith("no line in 3 rounds even in the row game")
    assert sol.final is not None
    record = mc.Record.from_json(mc.Record.from_state(sol.final).to_json())
    assert record.replay().solo_score == (4, 0)
