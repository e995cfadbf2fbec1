"""WebSocket messages of docs/protocol.md: parsing client messages, building server ones.

Parsing never raises anything but :class:`~..errors.ProtocolError`, whose ``code`` is
one of the protocol's error codes (:mod:`..errors`); the caller sends it back to the
offending client only.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from ..errors import BAD_CHAT, BAD_JSON, BAD_REQUEST, TOO_LARGE, UNKNOWN_TYPE, ProtocolError

MAX_MESSAGE_BYTES = 4096
CLIENT_TYPES = ("hello", "move", "ping", "chat", "chat_mute", "chat_log")


@dataclass(frozen=True)
class Hello:
    """``hello``: act for the seat of ``token``, or watch when it is ``None``."""

    token: str | None


@dataclass(frozen=True)
class MoveMessage:
    """``move``: play ``move`` (notation), optionally at move index ``index``."""

    move: str
    index: int | None


@dataclass(frozen=True)
class Ping:
    """``ping``: keep-alive."""


@dataclass(frozen=True)
class ChatPost:
    """``chat``: write ``text`` in the table's chat; a spectator may sign it ``name``
    (its content is checked by :mod:`.chat`)."""

    text: str
    name: str | None


@dataclass(frozen=True)
class ChatMute:
    """``chat_mute``: a seated player mutes (``True``) or unmutes the spectators."""

    muted: bool


@dataclass(frozen=True)
class ChatLog:
    """``chat_log``: send me the chat so far (and the mute setting)."""


ClientMessage = Hello | MoveMessage | Ping | ChatPost | ChatMute | ChatLog


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def parse_message(raw: str | bytes | None) -> ClientMessage:
    """A client message from a WebSocket frame's payload."""
    if raw is None:
        raise ProtocolError(BAD_JSON, "empty message: send a JSON object with a 'type'")
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            TOO_LARGE, f"message of {size} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes"
        )
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(BAD_JSON, "binary message is not UTF-8 JSON text") from None
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ProtocolError(BAD_JSON, f"message {_quote(raw)} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError(BAD_JSON, f"message {_quote(raw)} is not a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        what = "has no 'type'" if kind is None else f"has unknown type {kind!r}"
        raise ProtocolError(UNKNOWN_TYPE, f"message {what}; known types: {', '.join(CLIENT_TYPES)}")
    if kind == "hello":
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            raise ProtocolError(
                BAD_REQUEST, f"hello 'token' must be a string or null, not {token!r}"
            )
        return Hello(token or None)
    if kind == "move":
        move = data.get("move")
        if not isinstance(move, str):
            raise ProtocolError(
                BAD_REQUEST, f"move 'move' must be the move's notation text, not {move!r}"
            )
        index = data.get("index")
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise ProtocolError(BAD_REQUEST, f"move 'index' must be a whole number, not {index!r}")
        return MoveMessage(move, index)
    if kind == "chat":
        text, name = data.get("text"), data.get("name")
        if not isinstance(text, str):
            raise ProtocolError(
                BAD_CHAT, f"chat 'text' must be the message as a string, not {_quote(repr(text))}"
            )
        if name is not None and not isinstance(name, str):
            raise ProtocolError(
                BAD_CHAT, f"chat 'name' must be a string or null, not {_quote(repr(name))}"
            )
        return ChatPost(text, name)
    if kind == "chat_mute":
        muted = data.get("muted")
        if not isinstance(muted, bool):
            raise ProtocolError(
                BAD_REQUEST, f"chat_mute 'muted' must be true or false, not {_quote(repr(muted))}"
            )
        return ChatMute(muted)
    if kind == "chat_log":
        return ChatLog()
    return Ping()


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON text of a server message (orjson: a snapshot encodes about ten
    times faster than with the standard library, and every move sends one)."""
    text: str = orjson.dumps(message).decode()
    return text


def error(code: str, message: str) -> str:
    """An ``error`` message."""
    return dumps({"type": "error", "code": code, "message": message})


PONG = dumps({"type": "pong"})
