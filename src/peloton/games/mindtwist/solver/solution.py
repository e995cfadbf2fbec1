"""The exact solution of Mind Twist under optimal play (MT-5).

Between dials the game is a zero-sum stochastic game. Both paths are alike and the
rules treat both players the same, so a state is ``(a, o)``: the active player's space
and the other's, whichever colour is active. Its value ``V[a][o]`` is the active
player's chance to win. Each state is a 3×4 matrix game: the dialer picks 1-3, the
challenger guesses 1-3 or passes, and the dialer then gets (MT-2.2, MT-2.3, MT-3):

* correct guess: ``1 - V[o][a]`` (nobody moves, the challenger becomes active);
* wrong guess: 1 if the dial reaches the finish, else ``V[a'][o']`` (dials again);
* pass: 1 if the dial reaches the finish, else ``1 - V[o'][a']``;

where ``(a', o')`` are the spaces after the move, a sideswipe included. Value
iteration solves every stage game with the exact simplex of :mod:`.matrix_game`,
in place (Gauss–Seidel, states nearest the finish first, since values flow back from
the finish), until no value moves by more than the tolerance. The last sweep's
stage solutions give both roles' optimal mixed strategies.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..board import DEFAULT_LENGTH, DEFAULT_MILESTONES, FINISHED, Board
from ..notation import DIALS, PLAYERS, RESPONSES, parse_position
from ..state import State
from .matrix_game import solve_matrix_game

#: Value iteration stops when a sweep changes no value by more than this.
TOLERANCE = 1e-12
#: A sweep limit that a board of :data:`~..board.MAX_LENGTH` never reaches in practice.
MAX_SWEEPS = 100_000

#: A state's three moves: ``(space after, opponent's space after)`` for dials 1-3
#: (``FINISHED`` as the first when the dial reaches the finish).
Moves = tuple[tuple[int, int], tuple[int, int], tuple[int, int]]
#: A stationary policy: probabilities from ``(active space, other space)``.
Policy = Callable[[int, int], Sequence[float]]
#: Where a question is asked: a state (its position between dials), MT-4.3 position
#: text, or ``(red space, blue space, active player)``.
Where = State | str | tuple[int, int, str]


@dataclass(frozen=True)
class Solution:
    """Values and optimal strategies of every state of one board."""

    board: Board
    #: ``values[a][o]``: the active player's chance to win, on ``a``, the other on ``o``.
    values: tuple[tuple[float, ...], ...]
    #: ``dials[a][o]``: the dialer's optimal probabilities of dial 1, 2, 3.
    dials: tuple[tuple[tuple[float, ...], ...], ...]
    #: ``responses[a][o]``: the challenger's optimal probabilities of guess 1-3, pass.
    responses: tuple[tuple[tuple[float, ...], ...], ...]
    #: Sweeps of value iteration until the largest change fell below ``tolerance``.
    iterations: int
    #: The convergence tolerance (largest change of any value in the last sweep).
    tolerance: float
    #: The largest change of any value in the last sweep.
    residual: float
    #: Wall-clock seconds the solve took.
    seconds: float

    @property
    def states(self) -> int:
        """How many states ``(active space, other space)`` were solved (per colour)."""
        return self.board.length**2

    def locate(self, where: Where) -> tuple[int, int]:
        """``(active space, other space)`` of a state, position text or tuple."""
        if isinstance(where, State):
            red, blue, active = where.red, where.blue, where.active_player
        elif isinstance(where, str):
            red, blue, active = parse_position(where)
        else:
            red, blue, active = where
        a, o = (red, blue) if active == PLAYERS[0] else (blue, red)
        length = self.board.length
        if not (0 <= a < length and 0 <= o < length):
            raise ValueError(f"spaces {red}, {blue} are not on a path of length {length}")
        return a, o

    def value(self, where: Where) -> float:
        """The active player's chance to win from ``where`` under optimal play (before
        the dial: a state in its guess phase is valued as before its dial)."""
        if isinstance(where, State) and where.is_over:
            return 1.0 if where.result == where.active_player else 0.0
        a, o = self.locate(where)
        return self.values[a][o]

    def win_chance(self, where: Where, player: str) -> float:
        """``player``'s chance to win from ``where`` under optimal play."""
        if isinstance(where, State):
            active = where.active_player
        elif isinstance(where, str):
            active = parse_position(where)[2]
        else:
            active = where[2]
        v = self.value(where)
        return v if player == active else 1.0 - v

    def dial_strategy(self, where: Where) -> dict[str, float]:
        """The dialer's optimal mixed strategy: ``{"dial:1": p1, ...}``."""
        a, o = self.locate(where)
        return {str(m): p for m, p in zip(DIALS, self.dials[a][o], strict=True)}

    def guess_strategy(self, where: Where) -> dict[str, float]:
        """The challenger's optimal mixed strategy: ``{"guess:1": q1, ..., "pass": q}``."""
        a, o = self.locate(where)
        return {str(m): p for m, p in zip(RESPONSES, self.responses[a][o], strict=True)}

    def stage(self, a: int, o: int) -> list[list[float]]:
        """The 3×4 stage game at ``(a, o)`` with the solved values: the dialer's
        chance to win for each dial (rows) and response (columns)."""
        return _stage(self.values, stage_moves(self.board)[a][o], a, o)

    def unfinished(self, turns: int) -> float:
        """The chance that a game between two players following these optimal strategies
        has not finished after ``turns`` answered dials from the usual start (both
        tokens on 0): how far the turn limit (:attr:`Board.turn_limit`), which the
        solve leaves out, is from mattering. Spaces that mass moves through, turn by
        turn, from the start."""
        moves = stage_moves(self.board)
        mass: dict[tuple[int, int], float] = {(0, 0): 1.0}
        for _ in range(turns):
            after: dict[tuple[int, int], float] = {}
            for (a, o), m in mass.items():
                x, y = self.dials[a][o], self.responses[a][o]
                for d in range(3):
                    if x[d] == 0.0:
                        continue
                    to, other = moves[a][o][d]
                    # A right guess hands the dial over; a wrong one moves the dialer,
                    # who dials again; a pass moves it and hands the dial over.
                    steps = [((o, a), y[d])]
                    if to != FINISHED:
                        steps += [((to, other), 1.0 - y[d] - y[3]), ((other, to), y[3])]
                    for state, p in steps:
                        if p > 0.0:
                            after[state] = after.get(state, 0.0) + m * x[d] * p
            mass = after
        return sum(mass.values())

    def against(
        self, dial: Policy, response: Policy, tolerance: float = TOLERANCE
    ) -> tuple[float, float]:
        """The optimal player's chance to win from the start against an opponent who
        dials by ``dial(a, o)`` and answers by ``response(a, o)`` (probability vectors,
        ``a`` the active player's space): ``(moving first, moving second)``, i.e.
        ``(as red, as blue)`` with the default ``first``. Exact up to
        ``tolerance`` (a linear system solved by iteration), for comparing with play."""
        length = self.board.length
        moves = stage_moves(self.board)
        # mine[a][o]: the optimal player wins, it is active on a; theirs[a][o]: the
        # opponent is active on a, the optimal player on o.
        mine = [[0.5] * length for _ in range(length)]
        theirs = [[0.5] * length for _ in range(length)]
        for _ in range(MAX_SWEEPS):
            change = 0.0
            for a in range(length - 1, -1, -1):
                for o in range(length - 1, -1, -1):
                    x: Sequence[float] = self.dials[a][o]
                    y: Sequence[float] = response(a, o)
                    v = _expect(x, y, moves[a][o], a, o, mine, theirs, 1.0)
                    change = max(change, abs(v - mine[a][o]))
                    mine[a][o] = v
                    x, y = dial(a, o), self.responses[a][o]
                    v = _expect(x, y, moves[a][o], a, o, theirs, mine, 0.0)
                    change = max(change, abs(v - theirs[a][o]))
                    theirs[a][o] = v
            if change < tolerance:
                break
        return mine[0][0], theirs[0][0]


def _expect(
    x: Sequence[float],
    y: Sequence[float],
    moves: Moves,
    a: int,
    o: int,
    same: list[list[float]],
    swapped: list[list[float]],
    finish: float,
) -> float:
    """The chance of the fixed player when dials are drawn by ``x`` and responses by
    ``y``; ``same`` holds its chances while this dialer stays active, ``swapped`` once
    the other player is active, ``finish`` is its chance when the dialer finishes."""
    total = 0.0
    for d in range(3):
        if x[d] == 0.0:
            continue
        to, other = moves[d]
        correct = swapped[o][a]
        if to == FINISHED:
            wrong = passed = finish
        else:
            wrong, passed = same[to][other], swapped[other][to]
        row = correct * y[d] + wrong * (1.0 - y[d] - y[3]) + passed * y[3]
        total += x[d] * row
    return total


def _stage(values: Sequence[Sequence[float]], moves: Moves, a: int, o: int) -> list[list[float]]:
    correct = 1.0 - values[o][a]
    rows = []
    for d in range(3):
        to, other = moves[d]
        if to == FINISHED:
            wrong = passed = 1.0
        else:
            wrong, passed = values[to][other], 1.0 - values[other][to]
        row = [wrong, wrong, wrong, passed]
        row[d] = correct
        rows.append(row)
    return rows


@lru_cache(maxsize=16)
def stage_moves(board: Board) -> tuple[tuple[Moves, ...], ...]:
    """Every state's moves, computed once per board."""
    n = board.length
    return tuple(
        tuple(
            (board.advance(a, o, 1), board.advance(a, o, 2), board.advance(a, o, 3))
            for o in range(n)
        )
        for a in range(n)
    )


def sweep_order(length: int) -> list[tuple[int, int]]:
    """States nearest the finish first: values flow back from it."""
    return sorted(
        ((a, o) for a in range(length) for o in range(length)),
        key=lambda s: (-(s[0] + s[1]), -s[0]),
    )


def compute(board: Board, tolerance: float = TOLERANCE) -> Solution:
    """Solve ``board`` afresh (uncached; :func:`solve` caches): value iteration until
    no value moves by ``tolerance``, then each state's optimal strategies."""
    started = time.perf_counter()
    n = board.length
    moves = stage_moves(board)
    values = [[0.5] * n for _ in range(n)]
    order = sweep_order(n)
    sweeps, change = 0, 1.0
    while change >= tolerance and sweeps < MAX_SWEEPS:
        sweeps += 1
        change = 0.0
        for a, o in order:
            v = solve_matrix_game(_stage(values, moves[a][o], a, o)).value
            change = max(change, abs(v - values[a][o]))
            values[a][o] = v
    dials: list[list[tuple[float, ...]]] = [[()] * n for _ in range(n)]
    responses: list[list[tuple[float, ...]]] = [[()] * n for _ in range(n)]
    for a, o in order:
        game = solve_matrix_game(_stage(values, moves[a][o], a, o))
        dials[a][o], responses[a][o] = game.rows, game.columns
    return Solution(
        board=board,
        values=tuple(tuple(row) for row in values),
        dials=tuple(tuple(row) for row in dials),
        responses=tuple(tuple(row) for row in responses),
        iterations=sweeps,
        tolerance=tolerance,
        residual=change,
        seconds=time.perf_counter() - started,
    )


_solve = lru_cache(maxsize=16)(compute)


def solve(
    length: int = DEFAULT_LENGTH,
    milestones: Sequence[int] = DEFAULT_MILESTONES,
    tolerance: float = TOLERANCE,
) -> Solution:
    """The solution of the board (:class:`ConfigError` for impossible options), cached
    per ``(length, milestones, tolerance)``."""
    return _solve(Board(length, tuple(milestones)), tolerance)


def solution_for(state: State) -> Solution:
    """The (cached) solution of ``state``'s board."""
    return _solve(state.board, TOLERANCE)
