"""Bad input never crashes: typed errors that quote the input and say why, and the
state unchanged afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import peloton
from peloton.core import load_record
from peloton.games import mindtwist as mt

from .helpers import play


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dial",
        "dial:0",
        "dial:4",
        "Dial:1",
        "guess:?",
        "guess",
        "PASS",
        " pass",
        "dial:1 ",
        "d3",
    ],
)
def test_bad_notation(text: str) -> None:
    with pytest.raises(peloton.NotationError) as info:
        mt.parse_move(text)
    assert repr(text) in str(info.value)
    s = mt.new_game()
    with pytest.raises(peloton.NotationError):
        s.play(text)
    assert s == mt.new_game()


@pytest.mark.parametrize("thing", [None, 3, ("dial", 3), b"pass"])
def test_non_text_moves(thing: object) -> None:
    with pytest.raises(peloton.NotationError):
        mt.new_game().play(thing)  # type: ignore[arg-type]
    with pytest.raises(peloton.NotationError):
        mt.parse_move(thing)  # type: ignore[arg-type]


@pytest.mark.parametrize("move", ["guess:2", "pass"])
def test_out_of_turn_response_while_a_dial_is_due(move: str) -> None:
    """A legal-looking move in the wrong phase is an IllegalMoveError; nothing changes."""
    s = mt.new_game()
    with pytest.raises(peloton.IllegalMoveError, match="R must dial first") as info:
        s.play(move)
    assert move in str(info.value)
    assert s == mt.new_game()


def test_dial_while_a_guess_is_due() -> None:
    s = play(mt.new_game(), "dial:1")
    before = s.copy()
    with pytest.raises(peloton.IllegalMoveError, match="B must guess"):
        s.play("dial:2")
    assert s == before


def test_hidden_dial_is_never_a_move() -> None:
    s = mt.new_game()
    assert "dial:?" not in [str(m) for m in s.legal_moves()]
    with pytest.raises(peloton.IllegalMoveError, match=r"dial:\? is not a move"):
        s.play("dial:?")
    assert s == mt.new_game()


def test_no_chance_step() -> None:
    s = mt.new_game()
    assert not s.is_chance
    with pytest.raises(peloton.StateError):
        s.chance_move(peloton.core.Rng(1))


def test_unknown_viewer() -> None:
    with pytest.raises(peloton.StateError, match="'X'"):
        mt.new_game().view("X")


# ---------------------------------------------------------------- records


def good() -> dict[str, object]:
    s = play(mt.new_game(), "dial:3", "pass", "dial:2", "guess:1")
    return mt.Record.from_state(s).to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "mind-cycling"}, "not of 'mind-twist'"),
        ({"options": {"length": 0}}, "options are invalid"),
        ({"options": {"colour": "red"}}, "options are invalid"),
        ({"options": [30]}, "'options' must be an object"),
        ({"players": {"X": {}}}, "'players'"),
        ({"players": {"R": "Ann"}}, "'players'"),
        ({"start": 12}, "'start'"),
        ({"start": "R40 B0 R"}, "cannot start"),
        ({"moves": "dial:3"}, "wrong type"),
        ({"result": "G"}, "'result'"),
        ({"result": "R"}, "says R won"),
    ],
)
def test_corrupt_record_fields(change: dict[str, object], message: str) -> None:
    data = {**good(), **change}
    with pytest.raises(peloton.RecordError, match=message):
        mt.Record.from_dict(data)


def test_missing_moves_field() -> None:
    data = good()
    del data["moves"]
    with pytest.raises(peloton.RecordError, match="no 'moves'"):
        mt.Record.from_dict(data)


@pytest.mark.parametrize(
    ("moves", "index"),
    [
        (["dial:3", "dial:3"], 1),
        (["pass"], 0),
        (["dial:3", "pass", "dial:9"], 2),
        (["dial:3", 3], 1),
        (["dial:3", "pass", "dial:1", "guess:2", "guess:2"], 4),
    ],
)
def test_first_bad_move_has_its_index(moves: list[object], index: int) -> None:
    data = {**good(), "moves": moves}
    with pytest.raises(peloton.RecordError) as info:
        mt.Record.from_dict(data)
    assert info.value.index == index
    assert f"move {index}" in str(info.value)


def test_moves_after_the_end() -> None:
    s = mt.from_position("R29 B0 R")
    play(s, "dial:1", "pass")
    data = {**mt.Record.from_state(s).to_dict(), "moves": ["dial:1", "pass", "dial:1"]}
    with pytest.raises(peloton.RecordError, match="game is over") as info:
        mt.Record.from_dict(data)
    assert info.value.index == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "peloton-record/9", "game": "mind-twist"}', "unsupported record format"),
        ('{"format": "peloton-record/1"}', "no 'game'"),
    ],
)
def test_corrupt_json(text: str, message: str) -> None:
    with pytest.raises(peloton.RecordError, match=message):
        mt.Record.from_json(text)


def test_records_load_through_the_core_and_files(tmp_path: Path) -> None:
    record = mt.Record.from_dict(good())
    path = tmp_path / "game.json"
    record.save(path)
    again = load_record(path)
    assert isinstance(again, mt.Record) and again.replay() == record.replay()
    assert json.loads(path.read_text())["moves"] == record.moves
    with pytest.raises(peloton.RecordError, match="cannot read"):
        mt.Record.load(tmp_path / "missing.json")
