"""``peloton solve --time-limit`` keeps its limit as a whole command: the solver gets
the limit less what the command has already spent (Python's start-up and imports when
run as the command) and a margin for printing and exiting. No wall clock is read: the
command's clock is replaced."""

from __future__ import annotations

import pytest

from peloton.cli import clock as cli_clock
from peloton.cli import main
from peloton.cli import solve as cli_solve
from peloton.games.mindcycling import solver


class StoppedClock:
    """A clock that only moves when told."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_the_process_age_is_read_from_the_system() -> None:
    """On Linux the process's start is known: it is before now, and ages only grow."""
    first = cli_clock.process_age()
    assert first is not None and first >= 0
    second = cli_clock.process_age()
    assert second is not None and second >= first


def test_the_budget_counts_what_the_command_has_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = StoppedClock(100.0)
    monkeypatch.setattr(cli_clock, "_now", clock)
    monkeypatch.setattr(cli_clock, "process_age", lambda: 7.0)
    cli_clock.start(whole_process=True)  # run as the command: 7 s of start-up behind it
    assert cli_clock.elapsed() == 7.0
    assert cli_solve.solve_budget(10.0) == 10.0 - 7.0 - cli_solve.SOLVE_MARGIN
    assert cli_solve.solve_budget(None) is None
    # Started too late for its limit: the solver still gets a moment for a first line.
    assert cli_solve.solve_budget(5.0) == cli_solve.SOLVE_LEAST
    cli_clock.start(whole_process=False)  # main called with arguments: from the call
    clock.now += 2.0
    assert cli_solve.solve_budget(10.0) == 10.0 - 2.0 - cli_solve.SOLVE_MARGIN


def test_the_command_hands_the_solver_its_budget(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_clock, "_now", StoppedClock(50.0))
    asked: list[float | None] = []
    real = solver.solve

    def spy(*args: object, **kwargs: object) -> solver.Solution:
        asked.append(kwargs["time_limit"])  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "solve", spy)
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--course", "short", "--from-scratch", "--time-limit", "1"])
    assert exc.value.code == 0
    assert asked == [1 - cli_solve.SOLVE_MARGIN]
    assert "NOT proven optimal" in capsys.readouterr().out
