"""core.record: any record is opened by its header, then by its game."""

from __future__ import annotations

import json

import pytest

import peloton
from peloton.core import RECORD_FORMAT, load_record, registry
from peloton.games import mindcycling as mc


def mind_cycling_record() -> str:
    s = mc.from_mcn("short", "2 AC1:c10,AD1:c11+,AS1:c9,BC1:b6,BD1:d7+,BS1:e8 / - / -")
    for _ in range(5):
        s.play(s.legal_moves()[0])
    return mc.Record.from_state(s).to_json()


def test_format_constant() -> None:
    assert RECORD_FORMAT == "peloton-record/1"


def test_load_record_dispatches_to_mind_cycling(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """load_record reads text or a path and hands the record to its game."""
    text = mind_cycling_record()
    rec = load_record(text)
    assert isinstance(rec, mc.Record)
    assert rec.to_json() == text
    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    assert load_record(path).to_json() == text
    assert load_record(path).replay() == mc.Record.from_json(text).replay()


def test_load_record_dispatches_to_registered_game() -> None:
    """A registered game's loader receives the decoded object."""
    registry.register(registry.GameInfo("test-echo", "Echo", lambda data: ("echo", data["n"])))
    try:
        assert load_record(json.dumps({"format": RECORD_FORMAT, "game": "test-echo", "n": 3})) == (
            "echo",
            3,
        )
    finally:
        registry._GAMES.pop("test-echo", None)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("nope", ["JSON"]),
        ("[]", ["object"]),
        ('{"game": "mind-cycling"}', ["format"]),
        ('{"format": "peloton-record/0", "game": "mind-cycling"}', ["peloton-record/0"]),
        ('{"format": "peloton-record/1"}', ["game"]),
        ('{"format": "peloton-record/1", "game": 3}', ["game"]),
        ('{"format": "peloton-record/1", "game": "chess"}', ["'chess'"]),
    ],
)
def test_load_record_rejects_bad_headers(text: str, words: list[str]) -> None:
    """Bad JSON, a wrong format or an unknown game raise RecordError (a ValueError)."""
    with pytest.raises(peloton.RecordError) as info:
        load_record(text)
    for w in words:
        assert w in str(info.value)
    assert isinstance(info.value, ValueError)


def test_load_record_missing_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(peloton.RecordError, match="missing"):
        load_record(tmp_path / "missing.json")
