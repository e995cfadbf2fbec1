"""The tutorial's lesson played through the real engine: every scripted move legal,
every claim of its texts true (the wind costs a row, MC-5.4; a wheel, MC-6.4, and a
relay, MC-6.5, beat a rider's own allowance; a gift, MC-7.1; an attack, MC-7.2; an
exhausted domestique, MC-7.4, refilled at a feed zone, MC-7.5; the medals and the
trophy, MC-8.3 and MC-8.4), and every other move refused with a reason."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.errors import IllegalMoveError, NotationError
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import tutorial
from peloton.games.mindcycling.tutorial import (
    OffLessonError,
    claim_problems,
    first_race,
    tutorial_course,
)

LESSON = first_race()
STEPS = range(len(LESSON.steps))


def step_id(index: int) -> str:
    return LESSON.steps[index].id


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_every_step_plays_through_the_engine_and_its_claims_hold(index: int) -> None:
    step = LESSON.steps[index]
    state, done, _ = LESSON.opening(index)
    for claim in step.before:
        assert claim_problems(state, claim) == [], (step.id, claim)
    while (expected := LESSON.expected(index, done)) is not None:
        assert state.current_rider == expected[:3], "the learner's move is the rider to play"
        state, done, turns = LESSON.play(index, done, expected)
        assert turns[0].move == expected and turns[0].by == "you"
        assert all(t.by != "you" for t in turns[1:])
    assert done == len(step.moves)
    assert state == LESSON.state_at(index, done)
    for claim in step.after_claims:
        assert claim_problems(state, claim) == [], (step.id, claim)


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_each_step_starts_on_the_learners_turn(index: int) -> None:
    """A step that continues the one before starts where it ended, with a move of the
    learner to make (or, at the end, the race over)."""
    state, done, turns = LESSON.opening(index)
    expected = LESSON.expected(index, done)
    if expected is None:
        assert state.is_over and index == len(LESSON.steps) - 1
    else:
        assert turns == [] and done == 0, "the learner opens every step"
        assert state.current_player == LESSON.learner
    if index and LESSON.steps[index].start is None:
        before = LESSON.state_at(index - 1, len(LESSON.steps[index - 1].moves))
        assert LESSON.start_of(index) == before


def test_the_lesson_ends_with_the_race_over_and_every_medal_awarded() -> None:
    """MC-8.3, MC-8.4: the last step shows a finished race, all four medals and the trophy."""
    state = LESSON.start_of(len(LESSON.steps) - 1)
    assert state.is_over
    result = state.result
    assert set(result.medals) == {"cyclist", "sprinter", "climber", "team"}
    assert result.trophy == LESSON.learner
    # Every mechanic of the brief has its step.
    ids = [s.id for s in LESSON.steps]
    for needed in ("wind", "wheel", "relay", "bottle", "attack", "tired", "mountain", "finish"):
        assert needed in ids


@pytest.mark.parametrize("index", [i for i in STEPS if LESSON.steps[i].moves], ids=step_id)
def test_every_other_move_is_refused_and_says_why(index: int) -> None:
    """Each legal move but the lesson's is refused as off the lesson, naming the move
    asked for; an illegal one with the engine's reason; nothing is played."""
    state, done, _ = LESSON.opening(index)
    expected = LESSON.expected(index, done)
    assert expected is not None
    others = [str(m) for m in state.legal_moves() if str(m) != expected]
    for text in others:
        with pytest.raises(OffLessonError, match=rf"but this step is about .*\({expected}\)"):
            LESSON.play(index, done, text)
    rider = state.current_rider
    assert rider is not None
    with pytest.raises(IllegalMoveError, match="cannot reach a1 from") as refused:
        LESSON.play(index, done, f"{rider}-a1")
    assert not isinstance(refused.value, OffLessonError)
    with pytest.raises(NotationError):
        LESSON.play(index, done, "AD1 to b9")
    assert LESSON.opening(index)[0] == state  # nothing was played


def test_a_move_position_that_is_not_the_learners_is_refused() -> None:
    with pytest.raises(ValueError, match="no move of yours at position 1"):
        LESSON.play(2, 1, "BD1-c8")  # the opponent's move, not the learner's
    with pytest.raises(ValueError, match="no move of yours"):
        LESSON.play(0, 5, "AD1-b9")


def test_a_false_claim_is_caught() -> None:
    """The claims check can fail: the wind step's rider does not have 7 rows."""
    state = LESSON.start_of(0)
    assert claim_problems(state, {"rider": "AD1", "allowance": 7}) == ["AD1: allowance is 6, not 7"]
    assert claim_problems(state, {"rider": "AD1", "farthest": 7}) == [
        "AD1: farthest is 6 rows, not 7"
    ]
    assert claim_problems(state, {"rider": "AD1", "can": ["wheel"]})
    assert claim_problems(state, {"rider": "AS1", "farthest": 5})  # not its turn
    assert claim_problems(state, {"rider": "AD1", "colour": "red"})
    assert claim_problems(state, {"medal": "sprinter", "holder": "AS1"})
    assert claim_problems(state, {"trophy": "A"})
    assert claim_problems(state, {"places": ["AD1"]})
    assert claim_problems(state, {"over": True})
    assert claim_problems(state, {"note": "nothing"})


def test_the_tutorial_course_is_not_a_bundled_course() -> None:
    """The lobby offers bundled courses only; the tutorial's course stays the lesson's."""
    assert "tutorial" not in mc.bundled_names()
    assert tutorial_course().name == "tutorial"


def test_the_package_examples_run() -> None:
    result = doctest.testmod(tutorial, raise_on_error=False, report=True)
    assert result.attempted >= 3 and result.failed == 0


RIDERS = ["AD1", "AS1", "AC1", "BD1", "BS1", "BC1", "CD1", "AD2"]
SQUARES = [f"{lane}{row}" for lane in "abcde" for row in range(0, 32)] + ["#"]
MOVE_TEXTS = st.one_of(
    st.builds(
        lambda r, sq, suffix: f"{r}-{sq}{suffix}",
        st.sampled_from(RIDERS),
        st.sampled_from(SQUARES),
        st.sampled_from(["", "!", "w", "r", "x"]),
    ),
    st.builds(lambda r, t: f"{r}>{t}", st.sampled_from(RIDERS), st.sampled_from(RIDERS)),
    st.builds(lambda r: f"{r}=", st.sampled_from(RIDERS)),
    st.text(max_size=12),
)


@settings(max_examples=300, deadline=None)
@given(index=st.sampled_from([i for i in STEPS if LESSON.steps[i].moves]), text=MOVE_TEXTS)
def test_any_text_is_played_only_if_it_is_the_lessons_move(index: int, text: str) -> None:
    """Whatever the learner sends, the lesson plays its own move or refuses with an
    engine error (a reason in words), and its positions never change."""
    before = LESSON.opening(index)[0]
    expected = LESSON.expected(index, 0)
    try:
        state, done, turns = LESSON.play(index, 0, text)
    except (NotationError, IllegalMoveError) as exc:
        assert str(exc)
    else:
        assert turns[0].move == expected == text.strip()
        assert state == LESSON.state_at(index, done)
    assert LESSON.opening(index)[0] == before
