"""Bad input: every error is typed, subclasses ValueError, quotes the input, says why,
and leaves the state unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.core import (
    ConfigError,
    CourseError,
    IllegalMoveError,
    NotationError,
    RecordError,
    StateError,
)
from peloton.core import load_record as load_any_record
from peloton.core.rng import Rng
from peloton.games import pistard as pi

from .helpers import at, play, position

BAD_MOVES = [
    "",
    " ",
    "A3",
    "A3=",
    "A3=0",
    "A3=7",
    "A3=5:",
    "A3=5:c",
    "A3=5:c0",
    "A3=5:c022",
    "A3=5:e22",
    "A3=5:C22",
    "A3=5:c22+",
    "A3=5:c22++c23",
    "A3=5:c22+c23+c24+c25+c26",
    "A3=5:--",
    "A3=5:-+c22",
    "a3=5",
    "E1=5",
    "A5=5",
    "A0=5",
    "A3 =5",
    "A3=5 ",
    " A3=5",
    "A3=5\n",
    "roll",
    "roll:",
    "roll:0",
    "roll:7",
    "roll:1,2,3,4,5",
    "roll:6,1",
    "roll:1,,2",
    "roll 1,2",
    "Roll:1",
    "A3-c22",
]


@pytest.mark.parametrize("text", BAD_MOVES)
def test_bad_move_text(text: str) -> None:
    with pytest.raises(NotationError) as info:
        pi.parse_move(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_non_text_move() -> None:
    state = pi.new_game(2)
    with pytest.raises(NotationError):
        state.play(42)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        pi.parse_move(None)  # type: ignore[arg-type]


def unchanged(state: pi.State, move: str, error: type[Exception], match: str | None = None) -> None:
    """``move`` raises ``error`` (quoting it) and leaves ``state`` as it was."""
    before = state.copy()
    with pytest.raises(error, match=match) as info:
        state.play(move)
    assert repr(move) in str(info.value)
    assert state == before and state.history == before.history


def test_dice_not_rolled() -> None:
    state = pi.new_game(2)
    unchanged(state, "A1=6", IllegalMoveError, "must roll first")
    s = at("A1:1.b10,B1:1.a2")
    unchanged(s, "A1=1:b11", IllegalMoveError, "must roll first")


def test_wrong_number_of_dice() -> None:
    unchanged(pi.new_game(2), "roll:1,2,3", IllegalMoveError, "rolls 4 dice")
    unchanged(at("A1:1.b10,B1:1.a2"), "roll:1,2", IllegalMoveError, "rolls 1 dice")


def test_roll_when_none_is_due() -> None:
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:1,2,3,4")
    unchanged(state, "roll:1,2,3,4", IllegalMoveError, "no roll is due")


def test_out_of_turn() -> None:
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:1,2,3,4")
    unchanged(state, "B1=1", IllegalMoveError, "player A's turn")
    s = play(at("A1:1.b10,A2:1.a5,B1:1.a8"), "roll:1,2")
    unchanged(s, "A2=1:a6", IllegalMoveError, "A1 is due")
    unchanged(s, "B1=1:a9", IllegalMoveError, "player A's turn")


def test_illegal_moves() -> None:
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:1,2,3,4")
    unchanged(state, "A1=6", IllegalMoveError, "no unassigned 6")
    unchanged(state, "A1=1:a1", IllegalMoveError, "first move")
    play(state, "A1=1")
    unchanged(state, "A1=2", IllegalMoveError, "already has a die")
    s = play(at("A1:1.b10,B1:1.a2", bonus="none"), "roll:2")
    unchanged(s, "A1=3:b13", IllegalMoveError, "no unused 3")
    unchanged(s, "A1=2:b13", IllegalMoveError, "may go to")
    unchanged(s, "A1=2:b12+b13", IllegalMoveError)
    unchanged(s, "A1=2:-", IllegalMoveError)
    unchanged(s, "A1=2", IllegalMoveError, "end square")


def test_after_the_end() -> None:
    state = play(at("A1:1.b39,B1:1.c5", rest=" / A=11"), "roll:2", "A1=2:b1")
    assert state.is_over
    unchanged(state, "roll:1", IllegalMoveError, "over")
    with pytest.raises(StateError):
        state.chance_move(Rng(1))


def test_chance_move_when_no_roll_due() -> None:
    state = play(pi.new_game(2), "roll:1,2,3,4", "roll:1,2,3,4")
    with pytest.raises(StateError):
        state.chance_move(Rng(1))


# ---------------------------------------------------------------- positions

BAD_POSITIONS = [
    ("", "must start"),
    ("1 A1:1.a1,B1:1.a2", "from 2"),
    ("2 A1:1.a1", "teams A, B"),
    ("2 A1:1.a1,A2:out,A3:out,A4:out,C1:1.a2,C2:out,C3:out,C4:out", "teams A, B"),
    ("2 A1:1.a1,B1:1.a2", "does not say where"),
    (position("A1:1.a1,B1:1.a1"), "both on a1"),
    (position("A1:1.a41,B1:1.a1"), "not on the track"),
    (position("A1:1.e1,B1:1.a1"), "must look like"),
    (position("A1:0.a1,B1:1.a2"), "must look like"),
    (position("A1:1.a1,B1:1.a2") + " / A=x", "TEAM=POINTS"),
    (position("A1:1.a1,B1:1.a2") + " / C=1", "team C"),
    (position("A1:1.a1,B1:1.a2") + " / A=1,A=2", "twice"),
    (position("A1:1.a1,B1:1.a2") + " / - / 1=2", "LAP=N"),
    (position("A1:1.a1,B1:1.a2") + " / - / 2=4", "LAP=N"),
    (position("A1:1.a1,B1:1.a2") + " / - / - / E", "team letter"),
    (position("A1:1.a1,B1:1.a2") + " / - / - / A,A", "twice"),
    (position("A1:1.a1,B1:1.a2") + " / - / - / - / x", "at most 4"),
    (position("A1:1.a1,B1:1.a2") + " / A=12", "target"),
    (position(""), "no rider left"),
]


@pytest.mark.parametrize(("text", "why"), BAD_POSITIONS)
def test_bad_positions(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        pi.from_position(text)


def test_position_mid_round() -> None:
    state = at("A1:1.b10,B1:1.a2")
    state.play("roll:1")
    with pytest.raises(StateError):
        pi.to_position(state)


# ---------------------------------------------------------------- layouts and options


def test_bad_layout_lists_every_problem() -> None:
    with pytest.raises(pi.LayoutError) as info:
        pi.Layout.from_dict(
            {"name": "bad", "length": 30, "rows": ["ygbr"] * 10 + ["ygb", "ygbx", 7], "lanes": 4}
        )
    problems = info.value.problems
    assert any("unknown key" in p for p in problems)
    assert any("'length' is 30" in p for p in problems)
    assert any("13 rows" in p for p in problems)
    assert sum("row 1" in p and "colour letters" in p for p in problems) == 3
    assert len(problems) == 6
    assert isinstance(info.value, CourseError) and str(info.value).startswith(
        "invalid layout 'bad': "
    )


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"rows": "ygbr"},
        {"rows": ["ygbr"] * 10},
        {"rows": ["ygbr"] * 500},
        {"name": "", "rows": ["ygbr"] * 40},
        {"rows": ["ygbr"] * 40, "length": "40"},
        [1, 2],
    ],
)
def test_bad_layouts(data: object) -> None:
    with pytest.raises(CourseError) as info:
        pi.Layout.from_dict(data)  # type: ignore[arg-type]
    assert info.value.problems


def test_bad_layout_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("rows = [")
    with pytest.raises(CourseError, match="not valid TOML"):
        pi.Layout.load(str(bad))
    with pytest.raises(CourseError, match="cannot read"):
        pi.Layout.from_file(tmp_path / "missing.json")
    with pytest.raises(CourseError, match="no bundled layout"):
        pi.Layout.load("nowhere")


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": "2"}, "players"),
        ({"players": True}, "players"),
        ({"bonus": "wind"}, "bonus"),
        ({"target": 0}, "target must be a whole number of points from 1 to 36, not 0"),
        ({"target": 2.5}, "target"),
        ({"length": 19}, "length must be 20 to 120 rows"),
        ({"length": 121}, "length must be 20 to 120 rows"),
        ({"length": 10**9}, "length must be 20 to 120 rows"),
        ({"target": 37}, "target must be a whole number of points from 1 to 36, not 37"),
        ({"target": 10**9}, "target"),
        ({"layout": {"rows": ["ygbr"] * 121}}, "the track must have 20 to 120 rows, not 121"),
        ({"layout": {"rows": ["ygbr"] * 10}}, "invalid layout"),
        ({"length": "40"}, "length"),
        ({"layout": 3}, "layout"),
        ({"layout": "nowhere"}, "layout"),
        ({"layout": {"rows": ["ygbr"] * 30}, "length": 40}, "length"),
        ({"speed": 3}, "speed"),
    ],
)
def test_bad_options(options: dict[str, object], name: str) -> None:
    with pytest.raises(ConfigError, match=name):
        pi.from_options(options)


# ---------------------------------------------------------------- records


def played_record() -> dict[str, object]:
    state = play(pi.new_game(2, seed=5), "roll:1,2,3,4", "roll:2,3,4,5", "A1=4", "A2=3")
    return pi.Record.from_state(state).to_dict()


def test_corrupt_records() -> None:
    good = played_record()
    assert pi.load_record(good).replay().history[-1] == pi.parse_move("A2=3")
    bad_move = {**good, "moves": [*good["moves"][:3], "A1=6"]}  # type: ignore[misc]
    with pytest.raises(RecordError) as info:
        pi.load_record(bad_move)
    assert info.value.index == 3 and "'A1=6'" in str(info.value)
    garbled = {**good, "moves": [*good["moves"][:1], "roll:9"]}  # type: ignore[misc]
    with pytest.raises(RecordError) as info:
        pi.load_record(garbled)
    assert info.value.index == 1
    for broken, why in [
        ({**good, "moves": "roll:1"}, "moves"),
        ({**good, "moves": [1]}, "not text"),
        ({k: v for k, v in good.items() if k != "options"}, "options"),
        ({**good, "options": {"players": 9}}, "players"),
        ({**good, "options": {"layout": {"rows": ["x"]}}}, "layout"),
        ({**good, "options": {"layout": 5}}, "layout"),
        ({**good, "seed": "x"}, "seed"),
        ({**good, "players": []}, "players"),
        ({**good, "game": "mind-cycling"}, "not of 'pistard'"),
    ]:
        with pytest.raises(RecordError, match=why):
            pi.load_record(broken)


def test_records_through_the_core_loader(tmp_path: Path) -> None:
    good = played_record()
    record = load_any_record(json.dumps(good))
    assert isinstance(record, pi.Record)
    with pytest.raises(RecordError):
        load_any_record(json.dumps({**good, "format": "other"}))
    with pytest.raises(RecordError, match="cannot read"):
        pi.Record.load(tmp_path / "missing.json")
