"""The editors' share links (server/work/share_links.py): a draft carried whole in a
link comes back as it went; a link that was cut, changed by hand, or built to hurt
(too long, a zip bomb, not a course's JSON) is named as such and opens nothing."""

from __future__ import annotations

import base64
import hashlib
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from peloton.server.inputs import InputError
from peloton.server.work.share_links import MAX_TOKEN, MAX_UNPACKED, opened, seal

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


def forged(raw: bytes) -> str:
    """A token with a right checksum around any bytes (what a hand-made link can do)."""
    packed = zlib.compress(raw)
    body = base64.urlsafe_b64encode(packed).decode().rstrip("=")
    return f"{body}.{hashlib.sha256(packed).hexdigest()[:16]}"


@given(JSON)
def test_a_draft_comes_back_as_it_went(draft: object) -> None:
    assert opened(seal(draft)) == draft


@given(st.integers(0, 200), st.characters(codec="ascii"))
def test_a_changed_character_is_named(at: int, char: str) -> None:
    token = seal({"name": "mine", "boards": ["A1", "B1", "C2"]})
    at %= len(token)
    changed = token[:at] + char + token[at + 1 :]
    if changed == token:
        return
    with pytest.raises(InputError, match="share link"):
        opened(changed)


@pytest.mark.parametrize(
    ("token", "message"),
    [
        ("", "holds no course"),
        (None, "holds no course"),
        ("abc", "was cut: it has no checksum"),
        (".0123456789abcdef", "was cut: it has no checksum"),
        ("x" * (MAX_TOKEN + 1), "is too long"),
        (forged(b"[" * 5000 + b"]" * 5000), "nests deeper"),
        (forged(b"not json"), "not valid JSON"),
        (forged(b" " * (MAX_UNPACKED + 1)), "is over 256 KB"),
    ],
)
def test_a_bad_link_is_named_and_opens_nothing(token: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        opened(token)
