"""Profile names (issue 18, item 5), a property: whatever text is offered, a name is
either refused with ``bad_name`` or kept as it is, and a kept name has nothing a page
must escape or an address must quote, and one spelling per profile whatever its case."""

from __future__ import annotations

import html
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st

from peloton.server.errors import ApiError
from peloton.server.storage.profiles import NAME_MAX, NAME_MIN, checked_name, name_key


@given(st.text(max_size=40))
def test_a_name_is_refused_or_safe_everywhere(text: str) -> None:
    try:
        name = checked_name(text)
    except ApiError as exc:
        assert exc.status == 400 and exc.code == "bad_name" and exc.message
        return
    assert name == text and NAME_MIN <= len(name) <= NAME_MAX
    assert html.escape(name) == name and name.isprintable() and " " not in name
    assert quote(name, safe="-_.") == quote(name, safe="-_.~")  # no reserved characters
    assert name_key(name) == name_key(name.upper()) == name_key(name.lower())


@given(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.-]{1,23}", fullmatch=True))
def test_every_plain_name_is_kept(text: str) -> None:
    assert checked_name(text) == text
