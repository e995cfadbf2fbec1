"""WebSocket messages of docs/protocol.md: parsing client messages, building server ones.

Parsing never raises anything but :class:`~..errors.ProtocolError`, whose ``code`` is
one of the protocol's error codes (:mod:`..errors`); the caller sends it back to the
offending client only.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from ..errors import BAD_JSON, TOO_LARGE, ProtocolError
from .schemas import (
    CLIENT_TYPES,
    ChatLog,
    ChatMute,
    ChatPost,
    ClientMessage,
    Hello,
    MoveMessage,
    Ping,
    read_message,
)

__all__ = [
    "CLIENT_TYPES",
    "MAX_MESSAGE_BYTES",
    "PONG",
    "ChatLog",
    "ChatMute",
    "ChatPost",
    "ClientMessage",
    "Hello",
    "MoveMessage",
    "Ping",
    "dumps",
    "error",
    "parse_message",
]

MAX_MESSAGE_BYTES = 4096


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def parse_message(raw: str | bytes | None) -> ClientMessage:
    """A client message from a WebSocket frame's payload: its declared model
    (:mod:`.schemas`), once the frame is known to be small JSON text holding an object."""
    if raw is None:
        raise ProtocolError(BAD_JSON, "empty message: send a JSON object with a 'type'")
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    # The size limit comes first: at 4096 bytes no integer reaches Python's digit limit
    # and json's own recursion guard (caught below) bounds the nesting, so the model
    # only ever reads a small, already parsed value.
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
    return read_message(data)


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON text of a server message (orjson: a snapshot encodes about ten
    times faster than with the standard library, and every move sends one)."""
    text: str = orjson.dumps(message).decode()
    return text


def error(code: str, message: str) -> str:
    """An ``error`` message."""
    return dumps({"type": "error", "code": code, "message": message})


PONG = dumps({"type": "pong"})
