"""The client messages' declared models (server/live/schemas.py) read what
docs/protocol.md allows and refuse the rest with a protocol code, never another
exception, naming the field in the protocol's words."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.server import errors
from peloton.server.errors import ProtocolError
from peloton.server.live import messages as p
from peloton.server.live.schemas import CLIENT_TYPES, MODELS

#: Every code a client message can be refused with before any table sees it.
PARSE_CODES = {errors.BAD_JSON, errors.TOO_LARGE, errors.UNKNOWN_TYPE, errors.BAD_REQUEST}
PARSE_CODES.add(errors.BAD_CHAT)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)

#: A JSON object shaped like a message: a known type (mostly) and fields of any value
#: under the names the models read.
MESSAGE_LIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(CLIENT_TYPES) | JSON_VALUES},
    optional={
        name: JSON_VALUES for name in ("token", "move", "index", "text", "name", "muted", "extra")
    },
)


def parse_or_refuse(value: Any) -> p.ClientMessage | ProtocolError:
    """What the server makes of ``value`` sent as a message's JSON text."""
    try:
        return p.parse_message(json.dumps(value))
    except ProtocolError as exc:
        return exc


@settings(max_examples=400, deadline=None)
@given(JSON_VALUES | MESSAGE_LIKE)
def test_any_json_value_is_a_message_or_a_protocol_error(value: Any) -> None:
    outcome = parse_or_refuse(value)
    if isinstance(outcome, ProtocolError):
        assert outcome.code in PARSE_CODES
        # The answer is a sentence of ours, not pydantic's dump of its internals.
        assert "pydantic" not in outcome.message and "validation error" not in outcome.message
        assert len(outcome.message) < 300
    else:
        assert isinstance(value, dict) and value["type"] == outcome.type


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.builds(p.Hello, st.none() | st.text(min_size=1, max_size=30)),
        st.builds(p.MoveMessage, st.text(max_size=30), st.none() | st.integers()),
        st.builds(p.Ping),
        st.builds(p.ChatPost, st.text(max_size=60), st.none() | st.text(max_size=20)),
        st.builds(p.ChatMute, st.booleans()),
        st.builds(p.ChatLog),
    )
)
def test_a_message_written_from_its_model_reads_back_the_same(message: p.ClientMessage) -> None:
    text = json.dumps(dataclasses.asdict(message))
    assert p.parse_message(text) == message
    assert p.parse_message(text.encode()) == message


#: Every well-formed message the server's tests send (tests/server, tests/cluster).
SENT_BY_TESTS = [
    {"type": "hello", "token": "c0ffee"},
    {"type": "hello", "token": None},
    {"type": "hello"},
    {"type": "move", "move": "AD1@a1", "index": 5},
    {"type": "move", "move": "A1=6", "index": 0},
    {"type": "move", "move": "A1=1:a1"},
    {"type": "ping"},
    {"type": "chat", "text": "hello", "name": "Eddy"},
    {"type": "chat", "text": "hi"},
    {"type": "chat", "text": "lone \ud800surrogate"},
    {"type": "chat", "text": "hi", "name": "Spectator  1"},
    {"type": "chat_mute", "muted": True},
    {"type": "chat_mute", "muted": False},
    {"type": "chat_log"},
]


@pytest.mark.parametrize("sent", SENT_BY_TESTS)
def test_every_message_the_tests_send_parses_into_its_model(sent: dict[str, Any]) -> None:
    message = p.parse_message(json.dumps(sent))
    assert isinstance(message, MODELS[sent["type"]])
    fields = {k: v for k, v in sent.items() if k != "type"}
    for name, value in fields.items():
        assert getattr(message, name) == value


@pytest.mark.parametrize(
    ("sent", "code", "words"),
    [
        ({"type": "move"}, "bad_request", "move 'move' is missing: it must be the move's notation"),
        ({"type": "move", "move": 12}, "bad_request", "move 'move' must be the move's notation text, not 12"),
        ({"type": "move", "move": "a", "index": "0"}, "bad_request", "'index' must be a whole number, not '0'"),
        ({"type": "move", "move": "a", "index": True}, "bad_request", "'index' must be a whole number, not True"),
        ({"type": "move", "move": "a", "index": 1.0}, "bad_request", "'index' must be a whole number, not 1.0"),
        ({"type": "hello", "token": 5}, "bad_request", "hello 'token' must be a string or null, not 5"),
        ({"type": "chat", "text": ["hi"]}, "bad_chat", "chat 'text' must be the message as a string"),
        ({"type": "chat", "text": "hi", "name": 7}, "bad_chat", "chat 'name' must be a string or null"),
        ({"type": "chat_mute", "muted": 1}, "bad_request", "chat_mute 'muted' must be true or false, not 1"),
        ({"type": "chat_mute", "muted": "yes"}, "bad_request", "'muted' must be true or false, not 'yes'"),
        ({"type": 7}, "unknown_type", "unknown type 7; known types: hello, move"),
        ({"type": ["move"]}, "unknown_type", "unknown type ['move']"),
        ({"kind": "move"}, "unknown_type", "has no 'type'"),
    ],
)  # fmt: skip
def test_a_refusal_names_the_field_and_what_it_was_given(
    sent: dict[str, Any], code: str, words: str
) -> None:
    refused = parse_or_refuse(sent)
    assert isinstance(refused, ProtocolError)
    assert refused.code == code and words in refused.message, refused.message


def test_an_empty_token_is_a_spectators_hello_and_unknown_fields_are_ignored() -> None:
    assert p.parse_message('{"type": "hello", "token": ""}') == p.Hello(None)
    assert p.parse_message('{"type": "ping", "sent": 12}') == p.Ping()


def test_a_long_value_is_quoted_short() -> None:
    refused = parse_or_refuse({"type": "move", "move": "a", "index": "9" * 3000})
    assert isinstance(refused, ProtocolError) and len(refused.message) < 200
