"""What ``peloton solve`` prints: the solo solver's line round by round, its score,
whether it is proven and the search's figures."""

from __future__ import annotations

from rich.console import Console

from ..games.mindcycling.solver import Solution


def print_solution(console: Console, title: str, solution: Solution, any_team: bool) -> None:
    """Print ``solution`` under ``title`` (the course and what was solved)."""

    def out(text: str) -> None:
        console.print(text, markup=False, soft_wrap=True)

    out(title)
    for entry in solution.log:
        out(f"  {entry}")
    if solution.score is None:
        out("no line found")
    else:
        if any_team:
            out(f"best team: {solution.team}")
        for label, moves in solution.labelled_rounds():
            out(f"{label + ':':<10}{' '.join(moves)}")
        rounds, remaining = solution.score
        out(f"score: ({rounds}, {remaining}) -- {rounds} rounds, remaining {remaining}")
    if solution.proven:
        out("proven optimal")
    else:
        lb = solution.lower_bound
        out(f"NOT proven optimal (time limit reached); proven lower bound: ({lb[0]}, {lb[1]})")
    out(
        f"nodes: {solution.nodes:,} ({solution.round_nodes:,} round starts; {solution.row_nodes:,} in the row game), "
        f"{solution.nodes_per_second:,.0f} nodes/s, time {solution.seconds:.2f} s "
        f"({solution.cpu_seconds:.2f} s of CPU)"
    )
