"""uvicorn's HTTP and WebSocket protocols with the limits uvicorn lacks (issue 11).

* :class:`HttpProtocol` (uvicorn's httptools protocol): a request's line, headers and
  body must all arrive within :data:`~.limits.REQUEST_SECONDS` of its first byte, and
  its line and headers within :data:`~.limits.MAX_HEAD_BYTES`; otherwise the server
  answers ``408`` (or ``431``) and closes the connection. uvicorn itself only times
  out idle keep-alive connections, so a client could hold a connection for ever by
  sending a request one byte at a time, or never finishing its headers.
* :class:`WebSocketProtocol` (uvicorn's default WebSocket protocol): gives the app a
  way to drop a connection at once (``scope["extensions"]["peloton.abort"]``), which
  ASGI has not: a close frame cannot reach a client that stopped reading (the socket's
  buffers are full), and the connection would stay open until that client reads.

Both are passed to uvicorn as classes (``http=`` and ``ws=``) by :mod:`.run`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import MAX_HEAD_BYTES, REQUEST_SECONDS

#: The key of the app's "drop this connection" callable in a WebSocket scope's extensions.
ABORT = "peloton.abort"


def _answer(status: bytes, text: str) -> bytes:
    body = text.encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
    )


TIMEOUT_ANSWER = _answer(
    b"408 Request Timeout",
    '{"error":{"code":"timeout","message":"the request did not arrive within '
    f'{REQUEST_SECONDS:g} s"}}}}',
)
TOO_LARGE_ANSWER = _answer(
    b"431 Request Header Fields Too Large",
    '{"error":{"code":"too_large","message":"the request line and headers are over '
    f'{MAX_HEAD_BYTES} bytes"}}}}',
)


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with a deadline for each request to arrive and a cap on
    the size of its head."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._in_head = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_clock()  # a connection that sends nothing at all is a request too

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is None:
            self._start_clock()
        if self._in_head:
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._refuse(TOO_LARGE_ANSWER)
                return
        super().data_received(data)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._start_clock()

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._stop_clock()

    def handle_websocket_upgrade(self) -> None:
        self._stop_clock()  # from here the WebSocket protocol owns the connection
        super().handle_websocket_upgrade()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Between requests uvicorn's keep-alive timeout applies, not this one.
        self._stop_clock()
        self._in_head = False

    def _start_clock(self) -> None:
        self._stop_clock()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _stop_clock(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        self._refuse(TIMEOUT_ANSWER)

    def _refuse(self, answer: bytes) -> None:
        self._stop_clock()
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            self.transport.write(answer)
        if cycle is not None:
            cycle.keep_alive = False
        self.transport.close()


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, letting the app abort its connection."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake was accepted; the app starts next
            scope.setdefault("extensions", {})[ABORT] = {"abort": self._abort}

    def _abort(self) -> None:
        # Also when already closing: close() waits to flush to a client that does not read.
        if self.transport is not None:
            self.transport.abort()
