"""Cyclo's two lessons played through the real engine: what only Cyclo knows of them.
Every lesson of every game is also played by tests/core/test_lessons.py (each step
reached, each scripted move legal, each claim true, every other move refused).

Starter: the ground sets the dice (CY-1.1, CY-4.2), no wheel in Starter (CY-2.3), an
event card drawn in a classic (CY-7.1, CY-7.2), room (CY-4.5), a dark square (CY-4.6),
the finish and places (CY-8.3, CY-8.4). Pro: own and team tokens (CY-2.4, CY-4.3),
holding back (CY-4.4), a swap (CY-6), the wheel (CY-5), hunger (CY-7.4), a time
trial's clock (CY-10.2)."""

from __future__ import annotations

import doctest
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.errors import ConfigError, IllegalMoveError, NotationError
from peloton.core.lesson import YOU, Lesson
from peloton.core.lesson import claim_problems as lesson_claim_problems
from peloton.core.offers import OffLessonError
from peloton.games import cyclo as cy
from peloton.games.cyclo import tutorial
from peloton.games.cyclo.notation import Draw, Ride, Swap, Wheel
from peloton.games.cyclo.tutorial import (
    TUTORIAL,
    claim_problems,
    lesson_position,
    pro_lesson,
    starter_lesson,
)
from peloton.server.games import bots_for

STARTER = starter_lesson()
PRO = pro_lesson()
LESSONS = {"starter": STARTER, "pro": PRO}


def _played(lesson: Lesson) -> list[tuple[int, Any, Any, str]]:
    """Every move of the lesson in play order: (step index, state before, move, by)."""
    out = []
    for index, step in enumerate(lesson.steps):
        state = lesson.start_of(index)
        for text in step.moves:
            move = state.check(text)
            by = YOU if lesson.learners_turn(state) else str(state.current_player)
            out.append((index, state.copy(), move, by))
            state.play(move)
    return out


def _learners(lesson: Lesson) -> list[tuple[int, Any, Any]]:
    return [(i, before, move) for i, before, move, by in _played(lesson) if by == YOU]


def test_the_tutorial_offers_starter_first_then_pro() -> None:
    assert list(TUTORIAL.lessons) == ["starter", "pro"]
    assert TUTORIAL.lessons["starter"]() is STARTER and TUTORIAL.lessons["pro"]() is PRO


@pytest.mark.parametrize("name", LESSONS)
def test_the_lesson_is_a_short_lesson_for_the_first_seat(name: str) -> None:
    """8-12 steps, the learner in the first seat (the web page seats it there at the
    end), a real table against one of the game's bots."""
    lesson = LESSONS[name]
    assert 8 <= len(lesson.steps) <= 12
    assert lesson.learner == lesson.start_of(0).players[0] == "A"
    assert lesson.table["bot"] in bots_for("cyclo")
    table = cy.from_options(lesson.table["options"])
    assert table.players[0] == "A" and not table.is_over
    assert table.setup.level == name  # CY-2.3: the table plays the lesson's level


@pytest.mark.parametrize("name", LESSONS)
def test_every_step_waits_for_the_learner_and_ends_where_its_moves_lead(name: str) -> None:
    lesson = LESSONS[name]
    for index, step in enumerate(lesson.steps):
        state, done, _ = lesson.opening(index)
        if not step.moves:
            assert index == len(lesson.steps) - 1 and state.is_over
            continue
        assert lesson.learners_turn(state), step.id
        while (expected := lesson.expected(index, done)) is not None:
            state, done, turns = lesson.play(index, done, expected)
            assert turns[0].by == YOU and turns[0].move == expected
        assert state == lesson.end_of(index)
        for claim in step.after_claims:
            assert lesson_claim_problems(lesson, state, claim) == [], (step.id, claim)


def test_starter_the_ground_sets_the_dice() -> None:
    """CY-1.1, CY-4.2: from flat 2 dice, from a slope 1, a sprinter in the last km 3;
    the learner rolls each of them in the lesson."""
    dice = set()
    for _, before, move in _learners(STARTER):
        assert isinstance(move, Ride)
        terrain = before.rider(move.rider)
        rolled = len(before.position.last_roll)
        dice.add((before.setup.course.kinds[terrain.position], terrain.type, rolled))
    assert ("flat", "climber", 2) in dice
    assert ("slope", "climber", 1) in dice
    assert ("lastkm", "sprinter", 3) in dice
    assert ("lastkm", "climber", 2) in dice


def test_starter_has_no_wheel_hold_back_or_token() -> None:
    """CY-2.3: in Starter every ride is the full total, nobody follows a wheel and no
    token is spent: each learner's ride is the only legal move."""
    for _, before, move, _ in _played(STARTER):
        assert not isinstance(move, Wheel | Swap)
        if isinstance(move, Ride):
            assert move.tokens == ""
            assert [str(m) for m in before.legal_moves()] == [str(move)]


def test_starter_draws_an_event_card_in_a_classic() -> None:
    """CY-7.2: a ride ending on an event space draws; the television motorbike takes
    the drawer 4 further (CY-7.4)."""
    draws = [(i, before, move) for i, before, move, _ in _played(STARTER) if isinstance(move, Draw)]
    assert draws and all(before.setup.mode.name == "classic" for _, before, _ in draws)
    index, before, move = draws[0]
    assert move.card == "moto" and before.due == "AS1"
    assert STARTER.end_of(index).rider("AS1").square == "a56"  # 52 + 4


def test_starter_ends_with_the_race_over_and_team_a_first() -> None:
    """CY-8.3, CY-8.4: the furthest past the line wins; teams rank by their best rider."""
    state = STARTER.start_of(len(STARTER.steps) - 1)
    result = state.result
    assert state.is_over and result.winner == "AS1" and result.winner_team == "A"
    assert list(result.places) == ["AS1", "AC1", "BC1", "BS1"]


def test_pro_shows_every_mechanic_of_the_brief() -> None:
    """An own token (CY-4.3), a team token, holding back (CY-4.4), a swap of places
    (CY-6.3), the wheel (CY-5.2), all played by the learner."""
    rides = [(b, m) for _, b, m in _learners(PRO) if isinstance(m, Ride)]
    assert any("r" in m.tokens for _, m in rides)
    assert any("t" in m.tokens for _, m in rides)
    held = [
        m
        for b, m in rides
        if any(
            isinstance(o, Ride) and o.tokens == m.tokens and o.target > m.target and not o.runout
            for o in b.legal_moves()
        )
        and not m.runout
    ]
    assert held, "a ride stopping short of a legal longer one with the same tokens"
    assert any(isinstance(m, Swap) and m.partner for _, _, m in _learners(PRO))
    assert any(isinstance(m, Wheel) and m.leader for _, _, m in _learners(PRO))


def test_pro_tokens_are_spent_from_the_rider_and_from_the_team() -> None:
    """CY-2.4, CY-4.3: r spends the rider's own token, tt two of the team's."""
    spent = [(b, m) for _, b, m in _learners(PRO) if isinstance(m, Ride) and m.tokens]
    assert {m.tokens for _, m in spent} >= {"r", "tt"}
    for before, move in spent:
        after = before.copy()
        after.play(move)
        own, team = move.tokens.count("r"), move.tokens.count("t")
        assert after.rider(move.rider).tokens == before.rider(move.rider).tokens - own
        assert after.team_tokens["A"] == before.team_tokens["A"] - team


def test_pro_hunger_costs_a_token() -> None:
    """CY-7.4: in Pro the hunger knock takes one own token (Starter's takes a die)."""
    draws = [(b, m) for _, b, m, _ in _played(PRO) if isinstance(m, Draw)]
    before, move = next((b, m) for b, m in draws if m.card == "hunger")
    after = before.copy()
    after.play(move)
    assert after.rider(before.due).tokens == before.rider(before.due).tokens - 1
    assert after.rider(before.due).hunger == 0  # no dice lost in Pro


def test_pro_reads_a_time_trials_clock() -> None:
    """CY-10.2: 10 seconds a round less a second a square past the line; the time
    trial step is an itt of its own, after the classic's steps (CY-2.6: AS1 and BS1
    share a square, each in its own world)."""
    modes = [PRO.start_of(i).setup.mode.name for i in range(len(PRO.steps))]
    assert modes[0] == "classic" and modes[-1] == "itt"
    trial = next(i for i, mode in enumerate(modes) if mode == "itt")
    start = PRO.start_of(trial)
    assert start.rider("AS1").square == start.rider("BS1").square == "a8"
    result = PRO.end_of(trial).result
    assert result.times == {"AS1": 10 * 2 - 9, "BS1": 10 * 3 - 4}
    assert result.winner == "AS1"


def test_a_steps_start_may_change_the_options() -> None:
    options = {"mode": "classic", "level": "pro", "course": "flemish-4"}
    state = lesson_position("mode=itt course=prologue | 2 AS1:a8*1 / A*1", options)
    assert state.setup.mode.name == "itt" and state.setup.course.name == "prologue"
    assert lesson_position("4 AS1:a40", {"level": "starter"}).setup.level == "starter"
    with pytest.raises(ConfigError, match="no Cyclo option 'colour'"):
        lesson_position("colour=red | 2 AS1:a8", options)
    with pytest.raises(ConfigError, match="must be name=value, not 'itt'"):
        lesson_position("itt | 2 AS1:a8", options)
    with pytest.raises(NotationError):
        lesson_position("mode=itt | not a position", options)


def test_a_false_claim_is_caught() -> None:
    state = STARTER.start_of(0)
    assert claim_problems(state, {"rider": "AC1", "dice": 2}) == []
    assert claim_problems(state, {"rider": "AC1", "dice": 3}) == ["AC1: dice is 2, not 3"]
    assert claim_problems(state, {"rider": "AC1", "terrain": "slope"})
    assert claim_problems(state, {"rider": "AC1", "colour": "red"})
    assert claim_problems(state, {"rider": "AC1"})
    assert claim_problems(state, {"rider": "XX1", "square": "a1"})
    assert claim_problems(state, {"winner": "AS1"})
    assert claim_problems(state, {"over": True})
    assert claim_problems(state, {"places": ["AS1"]})
    assert claim_problems(state, {"times": {"AS1": 11}})
    assert claim_problems(state, {"team": "A", "team_tokens": 1})
    assert claim_problems(state, {"note": "nothing"})
    assert claim_problems(state, {"team": "A"})
    done = STARTER.start_of(len(STARTER.steps) - 1)
    assert claim_problems(done, {"rider": "AS1", "dice": 3}) == ["AS1 is not racing: no dice"]


def test_the_package_examples_run() -> None:
    result = doctest.testmod(tutorial, raise_on_error=False, report=True)
    assert result.attempted >= 3 and result.failed == 0


RIDERS = ["AS1", "AC1", "AH1", "BS1", "BC1", "BH1", "CS1"]
TARGETS = [str(k) for k in (8, 44, 46, 49, 50, 52, 59, 60, 65, 81, 105, 114)] + ["#4", "#9"]
MOVE_TEXTS = st.one_of(
    st.builds(
        lambda r, t, tok: f"{r}-{t}{tok}",
        st.sampled_from(RIDERS),
        st.sampled_from(TARGETS),
        st.sampled_from(["", "/r", "/t", "/rr", "/rt", "/tt"]),
    ),
    st.builds(lambda r, p: f"{r}~{p}", st.sampled_from(RIDERS), st.sampled_from([*RIDERS, "-"])),
    st.builds(lambda r, a: f"{r}~{a}", st.sampled_from(RIDERS), st.sampled_from(["yes", "no"])),
    st.builds(lambda r, p: f"{r}>{p}", st.sampled_from(RIDERS), st.sampled_from([*RIDERS, "-"])),
    st.sampled_from(["roll:2,4", "roll:3", "draw:moto", "fall:-"]),
    st.text(max_size=12),
)
ASKING = [
    (name, index)
    for name, lesson in LESSONS.items()
    for index, step in enumerate(lesson.steps)
    if step.moves
]


@settings(max_examples=300, deadline=None)
@given(where=st.sampled_from(ASKING), text=MOVE_TEXTS)
def test_any_text_is_played_only_if_it_is_the_lessons_move(
    where: tuple[str, int], text: str
) -> None:
    """Whatever the learner sends, the lesson plays its own move or refuses with an
    error saying why (the engine's reason, or that the step asks for another move),
    and its positions never change."""
    name, index = where
    lesson = LESSONS[name]
    before, done, _ = lesson.opening(index)
    expected = lesson.expected(index, done)
    try:
        state, later, turns = lesson.play(index, done, text)
    except (NotationError, IllegalMoveError) as exc:  # OffLessonError is an IllegalMoveError
        assert str(exc)
        if isinstance(exc, OffLessonError):
            assert f"({expected})" in str(exc)
    else:
        assert turns[0].move == expected == text
        assert state == lesson.state_at(index, later)
    assert lesson.opening(index)[0] == before
