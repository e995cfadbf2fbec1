"""Pistard's first lesson played through the real engine: what only Pistard knows of
it. The generic checks (every step reached, every scripted move legal, every claim
true, every other move refused) are tests/core/test_lessons.py's; here each mechanic
the lesson teaches is shown to happen where its step says (the dice rolled and given
out, PI-2.1/PI-2.2; the race order and a turn's roll, PI-3.1/PI-3.2; a colour bonus,
PI-3.4; a shelter bonus, PI-3.5; lap points, PI-4.2; an elimination, PI-4.1; the win
at the target, PI-4.3), each of the learner's moves can be entered from the table's
controls, and any text the learner sends is played only if it is the lesson's move."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.errors import ConfigError, IllegalMoveError, NotationError
from peloton.core.lesson import CHANCE, YOU
from peloton.games import pistard as pi
from peloton.games.pistard import tutorial
from peloton.games.pistard.notation import Move
from peloton.games.pistard.snapshot import snapshot
from peloton.games.pistard.track import COLOURS
from peloton.games.pistard.tutorial import (
    OffLessonError,
    claim_problems,
    first_race,
    load_lesson,
    position,
)
from peloton.server.games import bots_for

LESSON = first_race()
STEPS = range(len(LESSON.steps))
INDEX = {step.id: i for i, step in enumerate(LESSON.steps)}


def step_id(index: int) -> str:
    return LESSON.steps[index].id


def learners_moves(index: int) -> list[tuple[pi.State, Move]]:
    """Each move the step asks of the learner, with the position it is asked in."""
    state, done, _ = LESSON.opening(index)
    asked = []
    while (expected := LESSON.expected(index, done)) is not None:
        asked.append((state.copy(), state.check(expected)))
        state, done, _ = LESSON.play(index, done, expected)
    return asked


def played(index: int) -> tuple[pi.State, list[str]]:
    """The end of step ``index`` and the moves played in it, by whom."""
    state, done, turns = LESSON.opening(index)
    while (expected := LESSON.expected(index, done)) is not None:
        state, done, more = LESSON.play(index, done, expected)
        turns += more
    return state, [f"{t.by} {t.move}" for t in turns]


# ---------------------------------------------------------------- the mechanics


def test_the_dice_are_rolled_then_given_out_and_the_big_ones_enter_first() -> None:
    """PI-2.1: each player rolls four dice (chance, played for the learner); PI-2.2:
    one die to each rider, then the riders enter highest dice first, the bigger total
    first among equal dice (A's 17 against B's 15), each as far as its die."""
    state, _, turns = LESSON.opening(INDEX["dice"])
    assert [(t.by, t.move) for t in turns] == [(CHANCE, "roll:2,4,5,6"), (CHANCE, "roll:1,3,5,6")]
    assert state.round == 1 and state.current_player == "A"
    first = [m for _, m in learners_moves(INDEX["dice"]) + learners_moves(INDEX["first-move"])]
    assert [m.kind for m in first] == ["assign"] * 4
    entered = LESSON.end_of(INDEX["first-move"])
    assert entered.round == 2
    assert entered.first_move_order()[:2] == ["A1", "B1"]  # both sixes, A's total first
    assert {r: entered.dist[r] for r in ("A1", "B1", "A2", "B4")} == {
        "A1": 6,
        "B1": 6,
        "A2": 5,
        "B4": 1,
    }


def test_a_turn_starts_with_the_roll_of_its_first_rider_furthest_first() -> None:
    """PI-3.1: the furthest rider moves first, the inner lane first on a level; PI-3.2:
    the player rolls one die per rider when its first rider is due."""
    state, _, turns = LESSON.opening(INDEX["race-order"])
    assert state.order == ["A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4"]
    assert [t.by for t in turns] == [CHANCE] and state.rolls == {"A": (3, 4, 5, 6)}
    _, moves = played(INDEX["race-order"])
    assert moves == ["chance roll:3,4,5,6", "you A1=6:c12", "chance roll:2,3,4,5", "B B1=5:d11"]


def test_the_colour_step_earns_a_double_colour_bonus() -> None:
    """PI-3.4: A2's die ends on its base colour and rides on straight ahead, twice
    because the first bonus square is its colour too."""
    ((state, move),) = learners_moves(INDEX["colour"])
    green = COLOURS.index(pi.base_colour_name(move.rider))
    end, *bonus = move.path
    assert state.dist[move.rider] + move.value == int(end[1:])  # the die's exact rows
    assert [sq[0] for sq in bonus] == [end[0]] * 2  # straight ahead, same lane
    layout = state.layout
    assert [layout.colour[layout.codes[sq]] for sq in (end, bonus[0])] == [green, green]


def test_the_shelter_step_earns_a_shelter_bonus() -> None:
    """PI-3.5: A3's die ends right behind a rider, and it slips one square diagonally."""
    ((state, move),) = learners_moves(INDEX["shelter"])
    end, slip = move.path
    assert state.rider_at(f"{end[0]}{int(end[1:]) + 1}") == "A2"  # directly behind A2
    assert int(slip[1:]) == int(end[1:]) + 1 and abs(ord(slip[0]) - ord(end[0])) == 1
    assert state.check(f"{move.rider}={move.value}:{end}")  # the bonus is a choice


def test_a_lap_is_completed_and_the_first_across_score() -> None:
    """PI-4.2: the first rider across the line into lap 2 scores 3, the second 2."""
    index = INDEX["lap-points"]
    before = LESSON.start_of(index)
    state, moves = played(index)
    assert before.points == {"A": 0, "B": 0} and before.lap_of("A2") == 1
    assert moves[1] == "you A2=5:b2" and state.lap_of("A2") == 2
    assert state.points == {"A": 3, "B": 2} and state.laps == {2: 2}


def test_a_rider_caught_a_lap_behind_is_eliminated() -> None:
    """PI-4.1: the learner's move puts the leader 40 rows (a lap) ahead of B4, which
    leaves the race; team B rolls one die fewer."""
    index = INDEX["elimination"]
    before = LESSON.start_of(index)
    assert before.length - (before.dist["A1"] - before.dist["B4"]) == 2
    state, moves = played(index)
    assert state.out == ["B4"] and state.dist["A1"] - state.dist["B4"] >= state.length
    assert moves[2] == "chance roll:2,4,6" and state.rolls["B"] == (2, 4, 6)


def test_the_learner_wins_at_the_target_in_the_middle_of_the_round() -> None:
    """PI-4.3: the move that brings team A to 12 ends the game at once: B1, due
    next, never moves; the final position is the lesson's last step."""
    index = INDEX["target"]
    state, moves = played(index)
    assert moves == ["chance roll:2,4,5", "you A1=4:c2"]
    result = state.result
    assert result.over and result.winner == "A" and result.reason == "target"
    assert result.points == {"A": 12, "B": 9} and "B1" not in state.moved
    assert LESSON.start_of(len(LESSON.steps) - 1) == state
    assert not LESSON.steps[-1].moves


def test_the_lesson_teaches_one_idea_a_step_in_about_five_minutes() -> None:
    """8 to 12 steps; reading every text at 200 words a minute and 5 s a move."""
    assert 8 <= len(LESSON.steps) <= 12
    words = sum(len(f"{s.text} {s.after}".split()) for s in LESSON.steps)
    moves = sum(len(learners_moves(i)) for i in STEPS)
    minutes = words / 200 + moves * 5 / 60
    assert 3.5 <= minutes <= 7, (words, moves)


# ---------------------------------------------------------------- the table and the page


def test_the_lesson_ends_at_a_real_table_against_a_bot_of_the_game() -> None:
    table = LESSON.table
    assert table["bot"] in bots_for("pistard")
    state = pi.from_options(table["options"])
    assert state.players[0] == LESSON.learner  # the page seats the learner first
    assert (state.length, state.target) == (20, 6)


@pytest.mark.parametrize("index", [i for i in STEPS if LESSON.steps[i].moves], ids=step_id)
def test_each_move_of_the_learner_can_be_entered_from_the_table(index: int) -> None:
    """The table's controls (web/js/pistard.js) offer a first move's die as a button
    and a ride as its die, then the lit square it ends on: a click there must send
    the lesson's move alone (no choice of bonus squares left), and the text names
    the square (and the die, unless it is the only one left)."""
    text = LESSON.steps[index].text
    for state, move in learners_moves(index):
        parts = snapshot(state, LESSON.learner)["legal_moves"]
        assert str(move) in [p["text"] for p in parts]
        if move.kind == "assign":
            assert f"{move.value} to {move.rider}" in text
            continue
        same_click = [p["text"] for p in parts if p["die"] == move.value and p["end"] == move.end]
        assert same_click == [str(move)]
        assert move.end in text
        if len(set(state.dice["A"])) > 1:
            assert f"the {move.value}" in text


# ---------------------------------------------------------------- claims and bad input


def test_a_false_claim_is_caught() -> None:
    """The game's claims can fail, and say what is untrue."""
    state = LESSON.start_of(INDEX["colour"])
    assert claim_problems(state, {"rider": "A2", "square": "b10"}) == [
        "A2: square is 'a5', not 'b10'"
    ]
    assert claim_problems(state, {"rider": "A2", "colour": "red"})
    assert claim_problems(state, {"rider": "B1", "due": True})
    assert claim_problems(state, {"rider": "A1", "lap": 2})
    assert claim_problems(state, {"rider": "B4", "eliminated": True})
    assert claim_problems(state, {"rider": "A5", "square": "a1"})
    assert claim_problems(state, {"rider": "A1", "wind": True})
    assert claim_problems(state, {"track": "b8", "colour": "red"}) == ["b8 is green, not red"]
    assert claim_problems(state, {"track": "e8", "colour": "red"})
    assert claim_problems(state, {"track": "b8"})
    assert claim_problems(state, {"note": "nothing"})


def test_a_step_position_must_have_the_lessons_players() -> None:
    with pytest.raises(ConfigError, match="has 3 teams, the lesson's options 2"):
        position(
            "2 A1:1.a1,A2:1.b1,A3:1.c1,A4:1.d1,B1:1.a2,B2:1.b2,B3:1.c2,B4:1.d2,"
            "C1:1.a3,C2:1.b3,C3:1.c3,C4:1.d3",
            {"players": 2},
        )


def test_a_lesson_with_a_move_the_engine_refuses_names_the_step() -> None:
    text = 'title = "x"\n[[steps]]\nid = "a"\ntitle = "A"\ntext = "t"\nsetup = ["A1=6"]\n'
    with pytest.raises(ConfigError, match=r"step 1 \(a\), setup move 1: 'A1=6'.*must roll"):
        load_lesson(text)


def test_the_package_examples_run() -> None:
    result = doctest.testmod(tutorial, raise_on_error=False, report=True)
    assert result.attempted >= 4 and result.failed == 0


# ---------------------------------------------------------------- any text at all

RIDERS = ["A1", "A2", "A3", "A4", "B1", "B4", "C1"]
SQUARES = [f"{lane}{row}" for lane in "abcde" for row in range(0, 42)]
MOVE_TEXTS = st.one_of(
    st.builds(lambda r, v: f"{r}={v}", st.sampled_from(RIDERS), st.integers(0, 7)),
    st.builds(
        lambda r, v, path: f"{r}={v}:{'+'.join(path) or '-'}",
        st.sampled_from(RIDERS),
        st.integers(1, 6),
        st.lists(st.sampled_from(SQUARES), max_size=3),
    ),
    st.builds(
        lambda dice: "roll:" + ",".join(map(str, sorted(dice))),
        st.lists(st.integers(1, 6), min_size=1, max_size=4),
    ),
    st.text(max_size=12),
)
ASKING = [i for i in STEPS if LESSON.steps[i].moves]


@settings(max_examples=300, deadline=None)
@given(index=st.sampled_from(ASKING), text=MOVE_TEXTS)
def test_any_text_is_played_only_if_it_is_the_lessons_move(index: int, text: str) -> None:
    """Whatever the learner sends, the lesson plays its own move or refuses with an
    engine error (a reason in words), and its positions never change."""
    before, done, _ = LESSON.opening(index)
    expected = LESSON.expected(index, done)
    try:
        state, after, turns = LESSON.play(index, done, text)
    except (NotationError, IllegalMoveError, OffLessonError) as exc:
        assert str(exc)
    else:
        assert turns[0].by == YOU and turns[0].move == expected == text
        assert state == LESSON.state_at(index, after)
    assert LESSON.opening(index)[0] == before
