"""Every lesson every game ships, played through the real engine (issue 34: "each
lesson is data the game ships, checked against the engine by a test: every scripted
move legal, every step reachable"): each step is reached from the one before, waits
for the learner, plays the learner's moves and refuses any other, and every fact its
texts state (its claims) holds. A game's own lesson test adds what only it knows."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from peloton.core import registry
from peloton.core.errors import PelotonError
from peloton.core.lesson import CHANCE, YOU, Lesson, claim_problems
from peloton.core.offers import OffLessonError, Tutorial


def _tutorials() -> list[tuple[str, Tutorial]]:
    return [(name, t) for name in registry.names() if (t := registry.offer(name, "tutorial"))]


LESSONS = [
    pytest.param(game, lesson_id, load, id=f"{game}-{lesson_id}")
    for game, tutorial in _tutorials()
    for lesson_id, load in tutorial.lessons.items()
]


def _core_lesson(load: Any) -> Lesson:
    lesson = load()
    if not isinstance(lesson, Lesson):
        pytest.fail(f"{lesson!r} is not a peloton.core.lesson.Lesson")
    return lesson


def test_every_game_has_a_lesson() -> None:
    """Issue 34: a tutorial for every game."""
    assert {game for game, _ in _tutorials()} == set(registry.names())


@pytest.mark.parametrize(("game", "lesson_id", "load"), LESSONS)
def test_every_step_is_reached_and_every_claim_holds(game: str, lesson_id: str, load: Any) -> None:
    lesson = _core_lesson(load)
    for index, step in enumerate(lesson.steps):
        state, done, _ = lesson.opening(index)
        for claim in step.before:
            assert claim_problems(lesson, state, claim) == [], (step.id, claim)
        asked = 0
        while lesson.expected(index, done) is not None:
            assert lesson.learners_turn(state), step.id
            state, done, turns = lesson.play(index, done, lesson.expected(index, done) or "")
            assert turns[0].by == YOU
            assert all(t.by != YOU for t in turns[1:])
            asked += 1
        assert done == len(step.moves), f"{step.id}: {done} of {len(step.moves)} moves played"
        assert asked >= 1 or index == len(lesson.steps) - 1, f"{step.id} asks for no move"
        for claim in step.after_claims:
            assert claim_problems(lesson, state, claim) == [], (step.id, claim)
        assert lesson.snapshot(state)["game"] == game


@pytest.mark.parametrize(("game", "lesson_id", "load"), LESSONS)
def test_every_other_move_is_refused_with_a_reason(game: str, lesson_id: str, load: Any) -> None:
    """Each legal move but the lesson's is refused as off the lesson, naming the move
    asked for; nothing is played."""
    lesson = _core_lesson(load)
    for index, step in enumerate(lesson.steps):
        state, done, _ = lesson.opening(index)
        expected = lesson.expected(index, done)
        if expected is None:
            continue
        wanted = state.check(expected)
        others = [m for m in state.legal_moves() if m != wanted][:6]
        for move in others:
            with pytest.raises(OffLessonError, match="this step is about another one"):
                lesson.play(index, done, str(move))
        with pytest.raises(PelotonError):
            lesson.play(index, done, "not a move at all")
        assert lesson.opening(index)[0] == state, step.id


@pytest.mark.parametrize(("game", "lesson_id", "load"), LESSONS)
def test_the_lesson_has_its_texts_and_its_real_table(game: str, lesson_id: str, load: Any) -> None:
    lesson = _core_lesson(load)
    assert lesson.title
    assert lesson.learner in lesson.start_of(0).players
    assert len({s.id for s in lesson.steps}) == len(lesson.steps)
    for step in lesson.steps:
        assert step.title and step.text, step.id
    table = lesson.table
    assert isinstance(table.get("options"), dict) and isinstance(table.get("bot"), str), table
    spec_module = importlib.import_module(registry.package(game))
    spec_module.from_options(table["options"])  # a real table can be made of it


@pytest.mark.parametrize(("game", "lesson_id", "load"), LESSONS)
def test_the_other_seats_and_chance_are_played_for_the_learner(
    game: str, lesson_id: str, load: Any
) -> None:
    """Between two of the learner's moves, every turn is another seat's or chance's."""
    lesson = _core_lesson(load)
    for index in range(len(lesson.steps)):
        _, _, turns = lesson.opening(index)
        assert all(t.by != YOU for t in turns)
        assert all(t.by == CHANCE or t.by in lesson.start_of(0).players for t in turns)
