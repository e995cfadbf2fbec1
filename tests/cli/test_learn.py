"""``peloton learn GAME``: the web tutorial's lessons at the terminal (issue 34,
point 1). Each lesson is played to its end by typing the moves it asks for; a refused
move is explained with the engine's reason and nothing is played; the end offers the
real game against bots, which ``--play`` starts."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from peloton.cli import app
from peloton.core import registry
from peloton.core.lesson import Lesson

runner = CliRunner()


def lessons() -> list[tuple[str, str, Lesson]]:
    found = []
    for game in registry.names():
        if tutorial := registry.offer(game, "tutorial"):
            found += [(game, name, load()) for name, load in tutorial.lessons.items()]
    return found


def typed(lesson: Lesson, first: int = 0) -> str:
    """The learner's moves of every step from ``first`` on, one a line."""
    lines = []
    for index in range(first, len(lesson.steps)):
        _, done, _ = lesson.opening(index)
        while (want := lesson.expected(index, done)) is not None:
            lines.append(want)
            done = lesson.play(index, done, want)[1]
    return "\n".join(lines) + "\n"


def learn(*args: str, keys: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["learn", *args], input=keys, env={"COLUMNS": "120"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("game", "name", "lesson"), [pytest.param(*x, id=f"{x[0]}-{x[1]}") for x in lessons()]
)
def test_each_lesson_is_played_to_its_end(game: str, name: str, lesson: Lesson) -> None:
    code, out, err = learn(game, "--lesson", name, "--no-play", keys=typed(lesson))
    assert (code, err) == (0, ""), out[-2000:]
    for number, step in enumerate(lesson.steps, 1):
        assert f"Step {number} of {len(lesson.steps)}: {step.title}" in out
    assert "You have finished the lesson." in out
    assert f"peloton play {game} --seats human," in out


def test_a_refused_move_is_explained_and_nothing_is_played() -> None:
    """MC-4.1: a domestique rides 6 rows into the wind, so 7 is refused with the
    engine's reason; a legal move off the lesson is named as such; the step goes on."""
    keys = "AD1-b10\nAD1-b8\nhint\nq\n"
    code, out, err = learn("mind-cycling", keys=keys)
    assert (code, err) == (0, "")
    assert "Not quite:" in out and "Try the move asked for." in out
    assert "Nice idea, but not now: AD1-b8 is a legal move" in out
    assert "Type AD1-b9" in out
    assert "Step 2 of" not in out  # nothing was played: the learner left in step 1


def test_a_later_step_and_the_real_game_at_the_end() -> None:
    """``--step`` starts there; ``--play`` starts the lesson's real game against bots
    (Mind Cycling's: a human and two easy bots), whose first prompt is the board's."""
    lesson = dict(((g, n), les) for g, n, les in lessons())[("mind-cycling", "first")]
    last = len(lesson.steps)
    keys = typed(lesson, last - 1) + "q\n"
    code, out, err = learn("mind-cycling", "--step", str(last), "--play", keys=keys)
    assert (code, err) == (0, ""), out[-1500:]
    assert f"Step {last} of {last}" in out and "Step 1 of" not in out
    assert "peloton play mind-cycling --seats human,easy,easy" in out
    assert out.count("FINISH") >= 2  # the lesson's board, then the real game's


@pytest.mark.parametrize(
    ("args", "message", "code"),
    [
        (["chess"], "no lesson for 'chess': the games with one are", 1),
        (["mind-cycling", "--lesson", "pro"], "mind-cycling has no lesson 'pro'", 2),
        (["mind-cycling", "--step", "99"], "the lesson has 12 steps, not 99", 2),
    ],
)
def test_bad_arguments_are_one_line_errors(args: list[str], message: str, code: int) -> None:
    got, _, err = learn(*args, keys="")
    assert got == code
    assert message in err and err.count("\n") == 1
