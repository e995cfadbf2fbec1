"""The common record envelope (core/record.py): the header every record starts with
and the fields every game's record shares, read by declared models whose refusals are
RecordErrors naming the field (MC-10.3, CY-15.2: a move that is not text carries its
index)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.errors import RecordError
from peloton.core.record import (
    ChanceRecordEnvelope,
    RecordEnvelope,
    decode_record,
    read_envelope,
)

GOOD: dict[str, Any] = {"players": {"A": {"name": "Ada"}}, "start": None, "moves": ["a", "b"]}

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"moves": "a b"}, "record field 'moves' has the wrong type: it must be a list of move texts, not 'a b'"),
        ({"moves": ["a", 3]}, "record move 1 is not text: 3"),
        ({"start": 5}, "record 'start' must be a CYN or null, not 5"),
        ({"players": ["A"]}, "record 'players' must be an object mapping each team letter to an object, not ['A']"),
        ({"players": []}, "record 'players' must be an object"),
        ({"players": {"A": "Ada"}}, "record 'players' must be an object"),
        ({"seed": "7"}, "record 'seed' must be an integer or null, not '7'"),
        ({"seed": True}, "record 'seed' must be an integer or null, not True"),
    ],
)  # fmt: skip
def test_a_wrong_field_is_named_with_what_it_holds(change: dict[str, Any], words: str) -> None:
    with pytest.raises(RecordError) as info:
        read_envelope({**GOOD, **change}, ChanceRecordEnvelope, start="a CYN")
    assert words in str(info.value)


def test_a_move_that_is_not_text_carries_its_index() -> None:
    with pytest.raises(RecordError) as info:
        read_envelope({**GOOD, "moves": ["a", "b", None]}, RecordEnvelope)
    assert info.value.index == 2


def test_missing_moves_and_null_players() -> None:
    with pytest.raises(RecordError, match="record has no 'moves' field"):
        read_envelope({"players": None}, RecordEnvelope)
    envelope = read_envelope({"players": None, "moves": [], "colour": 1}, RecordEnvelope)
    assert envelope.players == {} and envelope.moves == [] and envelope.start is None


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[1]", "record must be a JSON object, not list"),
        ('{"format": "peloton-record/9", "game": "x"}', "unsupported record format 'peloton-record/9'"),
        ('{"game": "x"}', "unsupported record format None"),
        ('{"format": "peloton-record/1"}', "record has no 'game' name"),
        ('{"format": "peloton-record/1", "game": 7}', "record has no 'game' name"),
    ],
)  # fmt: skip
def test_the_header_is_checked_before_the_game_sees_the_record(text: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        decode_record(text)
    assert words in str(info.value)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={k: JSON_VALUES for k in ("players", "start", "moves", "seed", "result")},
    )
)
def test_any_envelope_reads_or_is_a_record_error(data: dict[str, Any]) -> None:
    json.dumps(data)  # a value a record file can hold
    try:
        envelope = read_envelope(data, ChanceRecordEnvelope)
    except RecordError as exc:
        assert "validation error" not in str(exc) and len(str(exc)) < 300
    else:
        assert envelope.moves == data["moves"]
        assert all(isinstance(m, str) for m in envelope.moves)


def test_the_rules_engine_plays_without_pydantic() -> None:
    """The rules engine has no third-party dependency: every game imports, plays and
    writes its record without loading pydantic, which comes only to read a record."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from peloton.core import registry\n"
        "from peloton.games import cyclo, mindcycling, mindtwist, pistard\n"
        "from peloton.core.rng import Rng\n"
        "for game in (cyclo, mindcycling, mindtwist, pistard):\n"
        "    state = game.from_options({})\n"
        "    rng = Rng(1)\n"
        "    for _ in range(5):\n"
        "        if state.is_over: break\n"
        "        moves = state.legal_moves()\n"
        "        state.play(state.chance_move(rng) if state.is_chance else moves[0])\n"
        "    game.Record.from_state(state).to_json()\n"
        "assert 'pydantic' not in sys.modules, 'the engine loaded pydantic'\n"
        "game.Record.from_json(game.Record.from_state(state).to_json())\n"
        "assert 'pydantic' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
