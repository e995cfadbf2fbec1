"""The human prompt: numbers, notation, shorthands, setup input, errors and commands."""

from __future__ import annotations

import pytest

from peloton import IllegalMoveError, NotationError
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.move_scores import best_moves, score_moves
from peloton.terminal.prompt import (
    KIND_ORDER,
    QuitGame,
    describe_turn,
    human_turn,
    interpret,
    ordered_moves,
    setup_listing,
)

from .helpers import EXAMPLE_MCN, Recorder, Script


@pytest.fixture
def race() -> mc.State:
    return mc.from_mcn("standard", EXAMPLE_MCN)


@pytest.fixture
def setup() -> mc.State:
    return mc.new_game("short", mc.default_teams(2, 3))


def test_numbered_moves_are_every_legal_move_strongest_first(race: mc.State) -> None:
    numbered = ordered_moves(race)
    assert sorted(map(str, numbered)) == sorted(map(str, race.legal_moves()))
    # The greedy bot's choice heads the list, and the scores never rise down it.
    scores = score_moves(race, numbered)
    assert scores == sorted(scores, reverse=True)
    assert numbered[0] in best_moves(race)
    # Among moves scored alike, MC-7.1's give comes first (it does not end the turn).
    ties = [m.kind for m, s in zip(numbered, scores, strict=True) if s == scores[0]]
    assert ties == sorted(ties, key=lambda k: KIND_ORDER[k])
    assert interpret(race, "1", numbered) == numbered[0]
    assert interpret(race, str(len(numbered)), numbered) == numbered[-1]


def test_notation_and_shorthands(race: mc.State) -> None:
    numbered = ordered_moves(race)
    assert str(interpret(race, "BD1-d19", numbered)) == "BD1-d19"
    assert str(interpret(race, "d19", numbered)) == "BD1-d19"
    assert str(interpret(race, "  d22! ", numbered)) == "BD1-d22!"
    assert str(interpret(race, "BD1>BS1", numbered)) == "BD1>BS1"


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("0", NotationError, "there is no move number 0; choose 1 to"),
        ("999", NotationError, "there is no move number 999"),
        ("hello", NotationError, "'hello' is not a Mind Cycling move"),
        ("bd1-d19", NotationError, "is not a Mind Cycling move"),
        ("AD1-c13", IllegalMoveError, "it is BD1's turn, not AD1's (out of turn)"),
        ("d20", IllegalMoveError, "BD1 cannot reach d20"),
        ("BD1-d23!", IllegalMoveError, "BD1 cannot reach d23"),
    ],
)
def test_bad_input_raises_the_engine_error(
    race: mc.State, text: str, error: type, message: str
) -> None:
    before = race.copy()
    with pytest.raises(error) as info:
        interpret(race, text, ordered_moves(race))
    assert message in str(info.value)
    assert race == before  # validating never touches the real game


def test_setup_input_forms_mc_3_1(setup: mc.State) -> None:
    assert str(interpret(setup, "AD1@c5", [])) == "AD1@c5"
    assert str(interpret(setup, "AS1 b4", [])) == "AS1@b4"
    # A bare square places the first unplaced rider.
    assert str(interpret(setup, "e5", [])) == "AD1@e5"
    with pytest.raises(NotationError, match="in setup, type RIDER@SQUARE"):
        interpret(setup, "3", [])
    with pytest.raises(IllegalMoveError, match="AD1@c9 is illegal"):
        interpret(setup, "c9", [])  # row 9 is not in the start zone


def test_setup_listing_groups_riders_and_squares_mc_3_2(setup: mc.State) -> None:
    setup.play("AD1@c3")
    setup.play("BD1@a5")
    out = Recorder()
    out.console.print(setup_listing(setup))
    assert "Unplaced: AS1 AC1" in out.text
    # c2 and c4 touch AD1 (same lane, adjacent row): not allowed for team A (MC-3.2).
    assert "a4 b4 d4 e4" in out.text and "a2 b2 d2 e2" in out.text
    assert "a5" not in out.text.split("Allowed squares")[1].split("\n")[0]


def test_describe_turn_names_the_assessment_mc_4_2(race: mc.State) -> None:
    text = describe_turn(race).plain
    assert text.startswith("BD1 to play: domestique in the plain, allowance 6, against the wind")
    assert text.endswith("holds a bottle and may attack (+3, MC-7.2)")
    race.play("BD1-d14")
    # MC-4.4: BS1, linked to BD1, plays at once; the assessment still says sheltered.
    assert describe_turn(race).plain == (
        "BS1 to play: sprinter in the plain, allowance 5, sheltered behind BD1"
    )


def test_human_turn_repeats_the_prompt_after_errors(race: mc.State) -> None:
    out = Recorder()
    ask = Script(["", "xyz", "AD1-c13", "42424", "d19"])
    move = human_turn(race, out.console, ask, redraw=lambda: None)
    assert str(move) == "BD1-d19"
    assert len(ask.prompts) == 5 and len(set(ask.prompts)) == 1
    assert ask.prompts[0].startswith("BD1 (1-")
    errors = [line for line in out.text.splitlines() if line.startswith("✗")]
    assert len(errors) == 3
    assert "'xyz' is not a Mind Cycling move" in errors[0]
    assert "AD1-c13 is illegal: it is BD1's turn" in errors[1]
    assert "no move number 42424" in errors[2]


def test_human_turn_commands(race: mc.State) -> None:
    out = Recorder()
    drawn: list[int] = []
    ask = Script(["?", "m", "board", "q"])
    with pytest.raises(QuitGame):
        human_turn(race, out.console, ask, redraw=lambda: drawn.append(1))
    assert "How to play a turn" in out.text
    assert drawn == [1]
    # The moves were listed three times: at first, after `m` and after `board`.
    assert out.text.count(f" 1 {ordered_moves(race)[0]} ") == 3
    assert out.text.count("Strongest-looking first") == 3


def test_end_of_input_propagates(race: mc.State) -> None:
    with pytest.raises(EOFError):
        human_turn(race, Recorder().console, Script([]), redraw=lambda: None)
