"""Profile requests (server/storage/profile_requests.py) are declared models: a
request of the wrong shape is answered with the code of the field it gets wrong
(docs/protocol.md, "Profiles and ratings"), never with another exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.server.errors import ApiError
from peloton.server.storage.profile_requests import (
    ProfileRequest,
    Register,
    SignIn,
    read_request,
)

KEY = {"kty": "EC", "crv": "P-256", "x": "x", "y": "y"}


@pytest.mark.parametrize(
    ("model", "request_", "code", "words"),
    [
        (ProfileRequest, "Ada", "bad_name", "a name is text, not None"),
        (ProfileRequest, {"name": 5}, "bad_name", "a name is text, not 5"),
        (SignIn, [1], "bad_request", 'send {"name", "challenge", "signature"}'),
        (SignIn, {"name": "Ada"}, "bad_challenge", "'challenge' is the challenge the server gave, not None"),
        (SignIn, {"name": "Ada", "challenge": 3}, "bad_challenge", "the server gave, not 3"),
        (Register, None, "bad_key", "a key is a JWK object"),
        (Register, {"name": 3, "key": "k", "challenge": "c"}, "bad_key", "a key is a JWK object"),
        (Register, {"name": 3, "key": KEY, "challenge": "c"}, "bad_name", "a name is text, not 3"),
    ],
)  # fmt: skip
def test_a_malformed_profile_request_is_answered_with_its_fields_code(
    model: Any, request_: Any, code: str, words: str
) -> None:
    with pytest.raises(ApiError) as info:
        read_request(model, request_)
    assert info.value.status == 400 and info.value.code == code
    assert words in info.value.message, info.value.message


def test_a_well_formed_request_keeps_what_later_checks_read() -> None:
    asked = read_request(Register, {"name": "Ada", "key": KEY, "challenge": "c", "signature": 4})
    assert (asked.name, asked.key, asked.challenge, asked.signature) == ("Ada", KEY, "c", 4)


VALUES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.lists(st.integers(), max_size=2)
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([ProfileRequest, SignIn, Register]),
    VALUES
    | st.fixed_dictionaries(
        {},
        optional={
            k: VALUES | st.dictionaries(st.text(max_size=3), VALUES, max_size=2)
            for k in ("name", "challenge", "key", "signature")
        },
    ),
)
def test_any_request_reads_or_is_a_400(model: Any, request_: Any) -> None:
    try:
        read_request(model, request_)
    except ApiError as exc:
        assert exc.status == 400 and "validation error" not in exc.message
