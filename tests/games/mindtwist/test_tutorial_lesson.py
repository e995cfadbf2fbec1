"""The Mind Twist lesson played through the real engine: what only this game knows.

Each mechanic the lesson names has its step: the learner dials in secret (MT-2.1,
MT-4.1), guesses wrong and right (MT-2.2), is challenged, sideswipes blue back to a
milestone (MT-3.1, MT-3.2), rides past a milestone that then saves it (MT-3.2), stands
safe on one (MT-3.1), bluffs and wins past the finish (MT-2.3). Blue's dial is never
shown to the learner before a wrong guess or a pass reveals it (MT-4.1, MT-4.2): not
in a snapshot, a move of the log, the move asked for, nor a step's text. The generic
checks (every step reached, every claim true, every other move refused) are
tests/core/test_lessons.py's.
"""

from __future__ import annotations

import doctest
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.errors import ConfigError, IllegalMoveError, NotationError
from peloton.core.lesson import YOU, claim_problems
from peloton.games import mindtwist as mt
from peloton.games.mindtwist import tutorial
from peloton.games.mindtwist.tutorial import claim_problems as game_claims
from peloton.games.mindtwist.tutorial import first_game, load_lesson
from peloton.server.games import bots_for

LESSON = first_game()
STEPS = range(len(LESSON.steps))
LEARNER, OPPONENT = "R", "B"


def step_id(index: int) -> str:
    return LESSON.steps[index].id


def step_index(name: str) -> int:
    return next(i for i, s in enumerate(LESSON.steps) if s.id == name)


def turns_of(index: int) -> list[dict[str, Any]]:
    """Every answered turn of step ``index`` with the full truth: who dialled, the
    dial, the answer and both spaces before and after it."""
    state = LESSON.start_of(index)
    found: list[dict[str, Any]] = []
    for move in LESSON.steps[index].moves:
        before = state.copy()
        state.play(move)
        if not state.dialled:  # the dial was answered
            found.append(
                {
                    "dialer": before.active_player,
                    "dial": before.dial,
                    "answer": move,
                    "before": dict(zip(mt.PLAYERS, before.spaces, strict=True)),
                    "after": dict(zip(mt.PLAYERS, state.spaces, strict=True)),
                }
            )
    return found


def shown_states(index: int) -> list[mt.State]:
    """Every position the page shows the learner in step ``index``: where the step
    waits for it and after each move played (each turn's snapshot)."""
    shown = []
    state = LESSON.start_of(index)
    shown.append(state.copy())
    for move in LESSON.steps[index].moves:
        state.play(move)
        shown.append(state.copy())
    return shown


def hidden_dial(state: mt.State) -> int | None:
    """Blue's dial while it awaits the learner's answer (hidden from the learner)."""
    if state.dialled and state.active_player == OPPONENT:
        return state.dial
    return None


# ---------------------------------------------------------------- the lesson's shape


def test_the_lesson_is_short_and_the_learner_is_red_in_the_first_seat() -> None:
    """8 to 12 steps, red (the first seat, who dials first, MT-2.1) is the learner and
    the real table it ends at is the board it taught, against one of the game's bots."""
    assert 8 <= len(LESSON.steps) <= 12
    start = LESSON.start_of(0)
    assert LESSON.learner == LEARNER == start.players[0] == start.active_player
    table = LESSON.table
    assert table["bot"] in bots_for("mind-twist")
    real = mt.from_options(table["options"])
    assert real.board == start.board and real.first == LEARNER


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_each_step_plays_and_the_learner_opens_it(index: int) -> None:
    """Every step waits for the learner (after blue's dial, if blue dials), plays to
    its end through the engine, and every claim of its texts holds."""
    step = LESSON.steps[index]
    state, done, turns = LESSON.opening(index)
    assert state.current_player == LEARNER
    assert all(t.by == OPPONENT and t.move == "dial:?" for t in turns)
    for claim in step.before:
        assert claim_problems(LESSON, state, claim) == [], (step.id, claim)
    while (expected := LESSON.expected(index, done)) is not None:
        state, done, turns = LESSON.play(index, done, expected)
        assert turns[0].by == YOU and turns[0].move == expected
    assert done == len(step.moves)
    for claim in step.after_claims:
        assert claim_problems(LESSON, state, claim) == [], (step.id, claim)
    if index + 1 < len(LESSON.steps) and LESSON.steps[index + 1].start is None:
        assert LESSON.start_of(index + 1) == state


def test_the_lesson_ends_with_red_past_the_finish() -> None:
    """MT-2.3: the last dial takes red past space 30, and red wins at once."""
    last = len(LESSON.steps) - 1
    (turn,) = turns_of(last)
    state = LESSON.end_of(last)
    assert state.is_over and state.result == LEARNER and state.end == "finish"
    assert turn["dialer"] == LEARNER and turn["before"]["R"] + turn["dial"] > state.board.length


# ---------------------------------------------------------------- every mechanic


def learner_turns() -> list[tuple[str, dict[str, Any]]]:
    return [(s.id, t) for i, s in enumerate(LESSON.steps) for t in turns_of(i)]


def test_the_learner_dials_in_secret() -> None:
    """MT-2.1, MT-4.1: in the first step red turns the dial and blue does not see it."""
    state = LESSON.start_of(0)
    state.play(LESSON.expected(0, 0) or "")
    assert mt.snapshot(state, OPPONENT)["dial"] is None
    assert mt.public_moves(state, OPPONENT) == ["dial:?"]
    assert mt.snapshot(state, LEARNER)["dial"] == 3


def test_the_learner_guesses_wrong_then_right() -> None:
    """MT-2.2: a wrong guess lets blue ride and dial again; a right one stops blue and
    hands red the dial."""
    guesses = [
        (name, t)
        for name, t in learner_turns()
        if t["dialer"] == OPPONENT and "guess" in t["answer"]
    ]
    wrong = [(n, t) for n, t in guesses if t["answer"] != f"guess:{t['dial']}"]
    right = [(n, t) for n, t in guesses if t["answer"] == f"guess:{t['dial']}"]
    assert [n for n, _ in wrong] == ["guess-wrong"] and [n for n, _ in right] == ["guess-right"]
    for _, t in wrong:
        assert t["after"]["B"] == t["before"]["B"] + t["dial"]
    assert LESSON.start_of(step_index("guess-right")).active_player == OPPONENT
    for _, t in right:
        assert t["after"] == t["before"]
    assert LESSON.end_of(step_index("guess-right")).active_player == LEARNER


def test_the_learner_is_challenged_wrong_and_right() -> None:
    """MT-2.2 from the dialler's side: blue's wrong guess keeps red dialling, its right
    one takes the dial from red."""
    challenged = {
        n: t for n, t in learner_turns() if t["dialer"] == LEARNER and n.startswith("challenged")
    }
    wrong, right = challenged["challenged-wrong"], challenged["challenged-right"]
    assert wrong["answer"] != f"guess:{wrong['dial']}"
    assert LESSON.end_of(step_index("challenged-wrong")).active_player == LEARNER
    assert right["answer"] == f"guess:{right['dial']}" and right["after"] == right["before"]
    assert LESSON.end_of(step_index("challenged-right")).active_player == OPPONENT


def test_the_learner_sideswipes_blue_back_to_a_milestone() -> None:
    """MT-3.1, MT-3.2: red lands on blue, who goes back to the milestone behind it."""
    (turn,) = turns_of(step_index("sideswipe"))
    board = LESSON.start_of(0).board
    assert turn["before"]["R"] + turn["dial"] == turn["before"]["B"]
    assert turn["after"]["B"] == board.fallback(turn["before"]["B"]) == 8
    assert turn["after"]["B"] in board.milestones


def test_the_learner_passes_a_milestone_that_then_saves_it() -> None:
    """MT-3.2: red rides past milestone 16; sideswiped next, it falls back to 16, not
    8, and stands there safe (MT-3.1)."""
    board = LESSON.start_of(0).board
    (passed,) = turns_of(step_index("milestone"))
    crossed = [m for m in board.milestones if passed["before"]["R"] < m < passed["after"]["R"]]
    assert crossed == [16]
    (swiped,) = turns_of(step_index("sideswiped"))
    assert swiped["dialer"] == OPPONENT and swiped["answer"] == "pass"
    assert swiped["before"]["B"] + swiped["dial"] == swiped["before"]["R"]
    assert swiped["after"]["R"] == 16 and board.is_protected(16)


def test_the_learner_bluffs() -> None:
    """The bluff: blue guesses the dial that would win at once (MT-2.3), red dialled
    another, so blue's guess is wrong and red dials again (MT-2.2)."""
    (turn,) = turns_of(step_index("bluff"))
    length = LESSON.start_of(0).board.length
    guess = int(turn["answer"].removeprefix("guess:"))
    assert turn["dialer"] == LEARNER and guess != turn["dial"]
    assert turn["before"]["R"] + guess >= length > turn["before"]["R"] + turn["dial"]
    assert LESSON.end_of(step_index("bluff")).active_player == LEARNER


def learner_moves(index: int) -> list[str]:
    """The moves of step ``index`` the learner plays."""
    state = LESSON.start_of(index)
    mine = []
    for move in LESSON.steps[index].moves:
        if state.current_player == LEARNER:
            mine.append(move)
        state.play(move)
    return mine


def test_every_step_asks_for_one_move() -> None:
    """One idea a step: each step asks one move of the learner."""
    assert [len(learner_moves(i)) for i in STEPS] == [1] * len(LESSON.steps)


# ---------------------------------------------------------------- hidden information


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_what_the_learner_sees_never_holds_blues_hidden_dial(index: int) -> None:
    """MT-4.1: while blue's dial awaits the learner's answer, the snapshot, the move
    asked for and the log are the same whatever blue dialled; the dial appears in them
    only once a wrong guess or a pass reveals it."""
    for state in shown_states(index):
        if hidden_dial(state) is None:
            continue
        seen = LESSON.snapshot(state)
        assert seen["dial"] is None and seen["moves"][-1] == "dial:?"
        for other in (1, 2, 3):
            assert LESSON.snapshot(supposing(state, other)) == seen, (step_id(index), other)
    opening, done, _ = LESSON.opening(index)
    expected = LESSON.expected(index, done)
    if hidden_dial(opening) is not None and expected is not None:
        asked = {LESSON.ask(supposing(opening, other), expected) for other in (1, 2, 3)}
        assert asked == {LESSON.ask(opening, expected)}


def supposing(state: mt.State, dial: int) -> mt.State:
    """``state`` with blue's hidden dial taken as ``dial`` instead."""
    supposed = state.view(LEARNER)
    supposed.suppose_dial(dial)
    return supposed


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_blues_dial_is_shown_as_hidden_in_the_log(index: int) -> None:
    """MT-4.2: every blue dial the learner sees played is ``dial:?``, said without its
    amount."""
    _, done, turns = LESSON.opening(index)
    while (expected := LESSON.expected(index, done)) is not None:
        _, done, more = LESSON.play(index, done, expected)
        turns += more
    for turn in turns:
        if turn.by == OPPONENT and turn.move.startswith("dial"):
            assert turn.move == "dial:?" and turn.describe == "Blue turns the dial in secret"
        if turn.by == YOU and turn.move.startswith("guess"):
            assert re.fullmatch(r"Red guesses [123]", turn.describe), turn.describe


TELLS = r"(dial(s|ed|led)?( was| is| of|:)? {n}\b|{n} (is|was) (the|its|blue's) dial)"


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_no_text_says_blues_dial_before_the_rules_reveal_it(index: int) -> None:
    """MT-4.1: a step's text, read while blue's dial is hidden, never names it; its
    ``after`` may, once the dial is revealed (a wrong guess or a pass), and never a
    dial guessed right, which stays secret."""
    step = LESSON.steps[index]
    opening = LESSON.opening(index)[0]
    hidden = hidden_dial(opening)
    if hidden is not None:
        assert not re.search(TELLS.format(n=hidden), step.text, re.IGNORECASE), step.id
    for turn in turns_of(index):
        if turn["dialer"] == OPPONENT and turn["answer"] == f"guess:{turn['dial']}":
            assert not re.search(TELLS.format(n=turn["dial"]), step.after, re.IGNORECASE)
            assert LESSON.snapshot(LESSON.end_of(index))["last_turn"]["dial"] is None


def test_the_tells_check_can_fail() -> None:
    for text in ("Blue dialled 2.", "Blue's dial was 2", "blue dials 2 now", "2 is Blue's dial"):
        assert re.search(TELLS.format(n=2), text, re.IGNORECASE), text
    assert not re.search(TELLS.format(n=2), "Turn the dial to 1, 2 or 3", re.IGNORECASE)


# ---------------------------------------------------------------- refusals and claims


def test_some_step_shows_a_refused_move_with_the_engines_reason() -> None:
    """MT-2.2: a guess before a dial, a dial while a guess is due and a move after the
    end are refused with the engine's reason, which the page shows the learner."""
    refused = [c for s in LESSON.steps for c in (*s.before, *s.after_claims) if "illegal" in c]
    assert len(refused) >= 2
    with pytest.raises(IllegalMoveError, match="R must dial first") as exc:
        LESSON.play(0, 0, "guess:2")
    assert "guess:2 is illegal" in str(exc.value)
    _, done, _ = LESSON.opening(step_index("guess-wrong"))
    with pytest.raises(IllegalMoveError, match="B has dialled; R must guess"):
        LESSON.play(step_index("guess-wrong"), done, "dial:1")
    assert LESSON.opening(0)[0] == LESSON.start_of(0)


def test_the_games_claims_check_milestones_and_can_fail() -> None:
    """MT-3.1, MT-3.2, through the game's own claims."""
    swiped = LESSON.end_of(step_index("sideswiped"))  # red on milestone 16
    assert game_claims(swiped, {"player": "R", "safe": True}) == []
    assert game_claims(swiped, {"player": "R", "safe": False}) == [
        "R on 16 is safe from a sideswipe"
    ]
    assert game_claims(swiped, {"player": "R", "falls_back_to": 8}) == [
        "R on 16 cannot be sideswiped: it falls back nowhere"
    ]
    assert game_claims(swiped, {"player": "B", "falls_back_to": 16}) == []
    assert game_claims(swiped, {"player": "B", "falls_back_to": 8}) == [
        "B on 17 falls back to 16, not 8"
    ]
    assert game_claims(swiped, {"player": "G", "safe": True})
    assert game_claims(swiped, {"player": "R"})
    assert game_claims(swiped, {"player": "R", "square": "a1"})
    assert claim_problems(LESSON, swiped, {"snapshot": "spaces.R", "is": 17}) == [
        "spaces.R is 16, not 17"
    ]


def test_a_lesson_with_a_learner_that_is_no_seat_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"learner \(key 'learner'\) is R or B, not 'A'"):
        load_lesson(
            'title = "x"\n[[steps]]\nid = "a"\ntitle = "a"\ntext = "a"\nstart = "R0 B0 R"\n'
        )
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_lesson("title = ")


def test_the_package_examples_run() -> None:
    result = doctest.testmod(tutorial, raise_on_error=False, report=True)
    assert result.attempted >= 3 and result.failed == 0


# ---------------------------------------------------------------- any text


MOVE_TEXTS = st.one_of(
    st.builds(
        lambda kind, n: f"{kind}:{n}",
        st.sampled_from(["dial", "guess", "Dial", "pass", "bet"]),
        st.sampled_from(["0", "1", "2", "3", "4", "?", "", " 2"]),
    ),
    st.sampled_from(["pass", "PASS", " pass", "dial:?", ""]),
    st.text(max_size=10),
)


@settings(max_examples=300, deadline=None)
@given(index=st.sampled_from(list(STEPS)), text=MOVE_TEXTS)
def test_any_text_is_played_only_if_it_is_the_lessons_move(index: int, text: str) -> None:
    """Whatever the learner sends, the lesson plays its own move or refuses it with an
    engine error saying why (MT-4.2 notation, MT-2.2 phases), and nothing changes."""
    before, done, _ = LESSON.opening(index)
    expected = LESSON.expected(index, done)
    try:
        state, now, turns = LESSON.play(index, done, text)
    except (NotationError, IllegalMoveError) as exc:
        assert str(exc)
    else:
        assert turns[0].move == expected == text
        assert state == LESSON.state_at(index, now)
    assert LESSON.opening(index)[0] == before


# ---------------------------------------------------------------- the tutorial page


@pytest.mark.parametrize("index", STEPS, ids=step_id)
def test_every_step_shows_on_the_tutorial_page(index: int) -> None:
    """The page's view of each step (GET and POST /api/tutorial/steps/{n}): the move
    asked for is among the snapshot's legal moves (so the table view's dial, guess or
    pass button lights it), and every turn comes with its position, blue's dial
    among them (replayed from the step's own moves, never from ``dial:?``)."""
    from peloton.server.http.tutorial import step_view

    state, done, turns = LESSON.opening(index)
    view = step_view(LESSON, index, state, done, turns)
    shown = list(view["turns"])
    while not view["finished"]:
        assert view["expect"] in view["snapshot"]["legal"]
        state, done, turns = LESSON.play(index, done, view["expect"])
        view = step_view(LESSON, index, state, done, turns)
        assert view["turns"][-1]["snapshot"] == view["snapshot"]
        shown += view["turns"]
    for turn in shown:
        if turn["move"] == "dial:?":  # MT-4.1: the position after blue's dial hides it
            assert turn["snapshot"]["dial"] is None and turn["snapshot"]["moves"][-1] == "dial:?"


def test_the_last_wrong_guess_is_said_as_a_win_not_another_dial() -> None:
    """MT-2.3: blue's wrong guess lets red ride past the finish, which ends the game:
    the log says red rides to the finish, not that it dials again."""
    last = len(LESSON.steps) - 1
    _, done, _ = LESSON.opening(last)
    _, _, turns = LESSON.play(last, done, LESSON.expected(last, done) or "")
    assert turns[-1].describe == "Blue guesses 2: wrong, the dial was 3; Red rides to the finish"
