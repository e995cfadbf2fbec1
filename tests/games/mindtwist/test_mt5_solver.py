"""MT-5: the exact solver: values, optimal strategies, equilibrium checks and an
independent solution of small boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import peloton
from peloton.games import mindtwist as mt
from peloton.games.mindtwist.solver import solution_for
from peloton.games.mindtwist.solver.matrix_game import conceded, guaranteed, solve_matrix_game

#: How far a solved value may be from its stage game's value (value iteration stops
#: when no value moves by more than 1e-12; stage games are solved to ~1e-15).
TOL = 1e-9


@pytest.fixture(scope="module")
def default() -> mt.Solution:
    return mt.solve()


def test_mt_5_values_are_probabilities(default: mt.Solution) -> None:
    """MT-5: every value is the active player's win probability."""
    assert default.states == 900
    for row in default.values:
        assert all(0.0 <= v <= 1.0 for v in row)
    assert default.residual < default.tolerance == 1e-12
    assert 0 < default.iterations < 1000


def test_mt_5_strategies_are_probability_vectors(default: mt.Solution) -> None:
    for a, o in itertools.product(range(30), repeat=2):
        for mix, size in ((default.dials[a][o], 3), (default.responses[a][o], 4)):
            assert len(mix) == size and all(p >= 0.0 for p in mix)
            assert abs(sum(mix) - 1.0) < 1e-12


def test_mt_5_blue_first_is_red_first_with_colours_swapped(default: mt.Solution) -> None:
    """MT-2.1 option ``first``: when blue starts, blue has red-first's chance and
    strategies, position by position (the solver's states are (active, other))."""
    blue_first = mt.from_options({"first": "B"})
    assert (
        default.win_chance(blue_first, "B")
        == default.value("R0 B0 R")
        == pytest.approx(0.5268763366, abs=1e-9)
    )
    assert default.dial_strategy(blue_first) == default.dial_strategy("R0 B0 R")
    blue_first.play("dial:3")
    assert default.guess_strategy(blue_first.view("R")) == default.guess_strategy("R0 B0 R")
    for red, blue in [(3, 7), (12, 9), (25, 27)]:
        assert default.value((red, blue, "B")) == default.value((blue, red, "R"))


def test_mt_5_every_stage_is_an_equilibrium(default: mt.Solution) -> None:
    """MT-5: at every state the value is the stage game's value, and neither role can
    gain more than the tolerance by any pure deviation from its strategy."""
    for a, o in itertools.product(range(30), repeat=2):
        stage = default.stage(a, o)
        v = default.values[a][o]
        assert abs(solve_matrix_game(stage).value - v) < TOL
        assert guaranteed(stage, default.dials[a][o]) >= v - TOL
        assert conceded(stage, default.responses[a][o]) <= v + TOL


def test_mt_5_red_chance_from_the_start(default: mt.Solution) -> None:
    """The figure the docs quote: red (active first) wins 52.69% under optimal play."""
    start = mt.new_game()
    assert default.value(start) == pytest.approx(0.5268763366, abs=1e-9)
    assert default.value("R0 B0 R") == default.value((0, 0, "R")) == default.value(start)
    assert default.win_chance(start, "R") + default.win_chance(start, "B") == pytest.approx(1.0)
    assert default.win_chance("R0 B0 R", "B") == pytest.approx(1 - default.value(start))
    # At the start nobody dials 1 and the challenger mostly passes.
    dial = default.dial_strategy(start)
    assert list(dial) == ["dial:1", "dial:2", "dial:3"] and dial["dial:1"] == 0.0
    guess = default.guess_strategy(start)
    assert list(guess) == ["guess:1", "guess:2", "guess:3", "pass"] and guess["pass"] > 0.5


def test_mt_5_colour_symmetry_and_views(default: mt.Solution) -> None:
    """The rules treat both colours alike; a view is valued like the full state."""
    assert default.value("R5 B7 R") == default.value("R7 B5 B")
    s = mt.from_position("R12 B9 B")
    s.play("dial:2")
    assert default.value(s.view("R")) == default.value(s) == default.value("R12 B9 B")
    s.play("pass")
    assert default.value(s) == default.values[12][11]


def test_mt_5_finished_and_near_finish(default: mt.Solution) -> None:
    s = mt.from_position("R29 B0 R")
    # Any dial finishes: only a correct guess stops red, so the value is high.
    assert default.value(s) > 0.9
    s.play("dial:1")
    s.play("pass")
    assert default.value(s) == 1.0 and default.win_chance(s, "R") == 1.0


def test_mt_5_solutions_are_cached_and_checked() -> None:
    assert mt.solve() is mt.solve(30, (8, 16, 24)) is solution_for(mt.new_game())
    small = mt.solve(10, [3, 6])
    assert small.board == mt.Board(10, (3, 6)) and small.states == 100
    with pytest.raises(peloton.ConfigError):
        mt.solve(10, (12,))
    with pytest.raises(ValueError, match="not on a path"):
        small.value("R12 B0 R")


def test_mt_5_strategies_guarantee_the_values() -> None:
    """The certificate: with the solver's strategies a player wins at least
    (value - 1e-12) from every state whatever the opponent does (never-ending games
    counted as losses), so the values are proven to about 1e-12."""
    solution = mt.solve(16, (5, 10))
    proof = mt.certify(solution)
    assert proof.gap < 1e-11 and proof.outside < 1e-11
    low, high = proof.bounds(0, 0)
    assert low <= solution.value("R0 B0 R") + 1e-12 and solution.value("R0 B0 R") <= high + 1e-12
    assert high - low < 1e-11


# ------------------------------------------------- an independent solution, small boards


def _supports(m: int, n: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [
        (rows, cols)
        for k in range(1, min(m, n) + 1)
        for rows in itertools.combinations(range(m), k)
        for cols in itertools.combinations(range(n), k)
    ]


def _equalise(payoff: np.ndarray, rows: tuple[int, ...], cols: tuple[int, ...]) -> float | None:
    """The value if both players equalising on these supports is an equilibrium."""
    m, n = payoff.shape
    k = len(rows)
    sub = payoff[np.ix_(rows, cols)]
    eq = np.zeros((k + 1, k + 1))
    eq[:k, k] = -1.0
    eq[k, :k] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    eq[:k, :k] = sub.T
    if abs(np.linalg.det(eq)) < 1e-12:
        return None
    sol_x = np.linalg.solve(eq, rhs)
    eq[:k, :k] = sub
    if abs(np.linalg.det(eq)) < 1e-12:
        return None
    sol_y = np.linalg.solve(eq, rhs)
    x, y, v = np.zeros(m), np.zeros(n), sol_x[k]
    x[list(rows)], y[list(cols)] = sol_x[:k], sol_y[:k]
    if (x < -1e-12).any() or (y < -1e-12).any():
        return None
    if (x @ payoff >= v - 1e-9).all() and (payoff @ y <= v + 1e-9).all():
        return float(v)
    return None


def _support_enumeration(
    payoff: np.ndarray, hint: list[tuple[tuple[int, ...], tuple[int, ...]]] | None = None
) -> float:
    """The value of a matrix game by Shapley–Snow support enumeration: some optimal
    strategy pair has square supports on which both players equalise. ``hint`` holds
    the supports that worked last time for this state (tried first, then updated)."""
    candidates = (hint or []) + _supports(*payoff.shape)
    for rows, cols in candidates:
        v = _equalise(payoff, rows, cols)
        if v is not None:
            if hint is not None:
                hint[:] = [(rows, cols)]
            return v
    raise AssertionError("no equilibrium found")


def _independent_values(length: int, milestones: tuple[int, ...]) -> np.ndarray:
    """MT-2/MT-3 written again from the spec, iterated with another stage solver."""

    def back(space: int) -> int:
        return max([m for m in milestones if m < space], default=0)

    v = np.full((length, length), 0.5)
    hints: dict[tuple[int, int], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
    for _ in range(2000):
        new = v.copy()
        for a, o in itertools.product(range(length), repeat=2):
            table = np.empty((3, 4))
            for d in (1, 2, 3):
                to = a + d
                if to >= length:
                    wrong = passed = 1.0
                else:
                    other = back(o) if to == o and o != 0 and o not in milestones else o
                    wrong, passed = v[to, other], 1.0 - v[other, to]
                table[d - 1] = [wrong, wrong, wrong, passed]
                table[d - 1, d - 1] = 1.0 - v[o, a]
            new[a, o] = _support_enumeration(table, hints.setdefault((a, o), []))
        done = np.abs(new - v).max() < 1e-13
        v = new  # Jacobi sweeps, unlike the solver's Gauss–Seidel
        if done:
            break
    return v


@pytest.mark.parametrize(("length", "milestones"), [(4, ()), (6, (3,)), (7, (2, 5))])
def test_mt_5_agrees_with_an_independent_solution(length: int, milestones: tuple[int, ...]) -> None:
    solution = mt.solve(length, milestones)
    expected = _independent_values(length, milestones)
    assert np.abs(np.array(solution.values) - expected).max() < 1e-8


def test_mt_5_simplex_against_support_enumeration() -> None:
    """The hand-written simplex agrees with support enumeration on random games,
    degenerate ones (repeated and constant payoffs) included."""
    rnd = np.random.default_rng(7)
    tables = [rnd.random((3, 4)) for _ in range(300)]
    tables += [rnd.integers(0, 3, (3, 4)).astype(float) for _ in range(200)]
    tables += [np.full((3, 4), 0.25), np.eye(3, 4)]
    for table in tables:
        game = solve_matrix_game(table.tolist())
        assert game.value == pytest.approx(_support_enumeration(table), abs=1e-9)
        assert guaranteed(table.tolist(), game.rows) >= game.value - 1e-9
        assert conceded(table.tolist(), game.columns) <= game.value + 1e-9
    with pytest.raises(ValueError):
        solve_matrix_game([])
