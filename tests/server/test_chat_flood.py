"""The chat a flood cannot wipe, and messages that cannot be blank (issue 32, point 4).

The issue: the chat's limit of 5 messages in 10 s was a connection's, so 45 spectator
connections from one address kept 225 messages in 3 s and wiped a table's 300 kept
messages. Now an address also has one allowance at each table
(:attr:`~peloton.server.limits.Limits.chat_per_client` messages a window, every seat
and connection of it together). And a message of invisible characters only (zero-width
spaces and joiners, byte order marks, tag characters, direction marks) was kept and
shown blank: invisible format characters are dropped, and a message with nothing
visible is refused.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.server.errors import ProtocolError
from peloton.server.limits import Limits
from peloton.server.live import chat
from peloton.server.live.chat import CHAT_RATE, CHAT_RATE_SECONDS

from .helpers import TIMEOUT, create
from .hostile_support import ArgServer, running, ws_from
from .test_chat import stored

PER_CLIENT = Limits().chat_per_client
#: Spectator connections the flooding address opens (each within its own 5 a window).
FLOODERS = 6


@pytest.fixture(scope="module")
def guarded(db_url: str) -> Iterator[ArgServer]:
    """A server with its default per-client limits."""
    with running(db_url) as srv:
        yield srv


class Client:
    """A table's WebSocket from one address, greeted as a spectator."""

    def __init__(self, server: ArgServer, table: str, address: str) -> None:
        self.ws = ws_from(server, table, address=address)
        self.send({"type": "hello", "token": None})
        self.until("welcome")

    def send(self, message: Any) -> None:
        self.ws.send(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        found: dict[str, Any] = json.loads(self.ws.recv(timeout=TIMEOUT))
        return found

    def until(self, kind: str) -> dict[str, Any]:
        while (message := self.recv())["type"] != kind:
            pass
        return message

    def answers(self, texts: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
        """Send ``texts``; which of them came back as kept messages, and the errors
        (an error goes to its sender alone; every kept message to everyone)."""
        for text in texts:
            self.send({"type": "chat", "text": text})
        kept: list[str] = []
        errors: list[dict[str, Any]] = []
        while len(kept) + len(errors) < len(texts):
            message = self.recv()
            if message["type"] == "error":
                errors.append(message)
            elif message["type"] == "chat" and message["message"]["text"] in texts:
                kept.append(message["message"]["text"])
        return kept, errors

    def say(self, text: str) -> dict[str, Any]:
        """Send one message; the kept message or the error it got."""
        self.send({"type": "chat", "text": text})
        while True:
            message = self.recv()
            if message["type"] == "error" or message["type"] == "chat":
                return message

    def close(self) -> None:
        self.ws.close()


def _table(server: ArgServer) -> str:
    with server.from_address("127.0.0.1") as http:
        return create(http, game="mind-twist", seats=["human", "human"])


def test_many_connections_of_one_address_share_one_allowance(
    guarded: ArgServer, db_url: str
) -> None:
    """Issue 32, point 4: one address reconnecting as many spectators gets
    ``chat_per_client`` messages a window at a table, not 5 a connection; another
    address writes as before."""
    assert PER_CLIENT is not None and PER_CLIENT < FLOODERS * CHAT_RATE
    table = _table(guarded)
    flooders = [Client(guarded, table, "127.0.0.2") for _ in range(FLOODERS)]
    kept: list[str] = []
    refused: list[dict[str, Any]] = []
    try:
        for n, client in enumerate(flooders):
            got, errors = client.answers([f"flood {n}.{i}" for i in range(CHAT_RATE)])
            kept += got
            refused += errors
    finally:
        for client in flooders:
            client.close()
    # The sends take far less than a window; were they slower, more would be kept,
    # never more than the allowance of the windows they took.
    assert len(kept) == PER_CLIENT, f"one address kept {len(kept)} messages at once"
    assert refused and all(e["code"] == "chat_flood" for e in refused), refused
    assert "from one address" in refused[0]["message"], refused[0]
    assert f"{CHAT_RATE_SECONDS:g} s" in refused[0]["message"], refused[0]
    # Another address is not affected.
    other = Client(guarded, table, "127.0.0.3")
    answer = other.say("still room for me")
    other.close()
    assert answer["type"] == "chat", answer
    assert stored(db_url, table) == [*kept, "still room for me"]


INVISIBLE_ONLY = [
    "\u200b\u200c\u200d\ufeff",
    "\U000e0041\U000e0062\U000e007f",  # tag characters
    "\u200e",  # left-to-right mark
    " \u2060\u00ad \u200b ",  # word joiner, soft hyphen, spaces
    "\u3164",  # Hangul filler: a letter that shows nothing
]


@pytest.mark.parametrize("text", INVISIBLE_ONLY)
def test_a_message_of_invisible_characters_only_is_refused(
    guarded: ArgServer, db_url: str, text: str
) -> None:
    table = _table(guarded)
    client = Client(guarded, table, "127.0.0.4")
    try:
        answer = client.say(text)
        assert answer["type"] == "error" and answer["code"] == "bad_chat", answer
        assert "nothing visible" in answer["message"], answer
        assert client.say("visible")["type"] == "chat"  # the connection still works
    finally:
        client.close()
    assert stored(db_url, table) == ["visible"]


def test_invisible_characters_inside_a_message_are_dropped(guarded: ArgServer) -> None:
    client = Client(guarded, _table(guarded), "127.0.0.5")
    try:
        answer = client.say("he\u200bl\u200dlo\U000e0020 there\ufeff\u200e!")
        assert answer["type"] == "chat", answer
        assert answer["message"]["text"] == "hello there!"
    finally:
        client.close()


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf" or 0xE0000 <= ord(ch) <= 0xE007F


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=st.characters(categories=["Cf", "Zs", "Ll", "Mn", "Lo"]), max_size=40)
    | st.text(alphabet="a \u200b\u200c\u200d\ufeff\u200e\u2060\U000e0041\u3164\u0301", max_size=20)
)
def test_a_kept_message_holds_no_invisible_format_character(text: str) -> None:
    """Whatever is sent, what is kept holds no format character (category Cf) nor tag
    character, and is not blank; what is refused had nothing else."""
    try:
        kept = chat.checked_text(text)
    except ProtocolError as exc:
        assert exc.code == "bad_chat" and "nothing visible" in exc.message
        assert all(_invisible(c) or c.isspace() or c == "\u3164" for c in text), text
        return
    assert not any(_invisible(c) for c in kept)
    assert kept.strip() == kept != ""
    assert chat.clean_text(kept) == kept
