"""HTTP requests about a table held by another node of the cluster (issue 19).

A request under ``/api/tables/{id}/…`` (and the page ``/table/{id}``) that lands on a
node which does not hold table ``id`` is sent whole to the node that does (and a
competition's, ``/api/competitions/{id}[/file]`` and its page, to the node that
runs the competition), as one
broker request (method, path, query, headers, body, client address), and answered by
that node's own application; the answer (status, headers, body) comes back the same
way. A forwarded request carries the header :data:`FORWARDED`, so that it is never
forwarded again: the node it reaches answers it (or says the table moved).

So every table feature (joining, leaving, rematches, records, replays, chat) works
from any node without code of its own for the cluster.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import errors as e
from ..limits import MAX_RECORD_BYTES
from .broker import Broker, BrokerDown, BrokerError

log = logging.getLogger("peloton.server")

#: The header that marks a request forwarded by another node (its value: that node).
FORWARDED = "x-peloton-forwarded"
#: Seconds a node waits for the owner's answer (a replay may be built meanwhile).
FORWARD_SECONDS = 30.0
#: The paths about one table: its id is the first group.
TABLE_PATH = re.compile(r"^/(?:api/tables|table)/([^/]+)(?:/[^/]*)?$")
#: The paths about one competition (answered by the node that runs it).
COMPETITION_PATH = re.compile(r"^/(?:api/competitions|competitions)/([^/]+)(?:/file)?$")


def channel(node: str) -> str:
    """The channel on which ``node`` answers the HTTP requests forwarded to it."""
    return f"peloton:http:{node}"


def table_of_path(path: str) -> str | None:
    """The table a request's path is about, if any."""
    found = TABLE_PATH.match(path)
    return found.group(1) if found else None


def subject_of_path(path: str) -> tuple[str, str] | None:
    """What a request's path is about: ``("table", id)``, ``("competition", id)``, or
    ``None`` (a request any node answers)."""
    table_id = table_of_path(path)
    if table_id is not None:
        return "table", table_id
    found = COMPETITION_PATH.match(path)
    if found is not None and found.group(1) != "kinds":
        return "competition", found.group(1)
    return None


def _error(status: int, code: str, message: str) -> tuple[int, list[list[str]], bytes]:
    body = json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=True)
    return status, [["content-type", "application/json"]], body.encode()


class Forwarding:
    """ASGI middleware: answer here the requests for tables this node holds (or
    nobody holds: this node takes them), forward the others to their owner."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        subject = subject_of_path(scope["path"]) if scope["type"] == "http" else None
        # The node's cluster (:mod:`.node`), once its lifespan started it.
        cluster = getattr(scope["app"].state, "cluster", None) if subject else None
        if subject is None or cluster is None:
            await self.app(scope, receive, send)
            return
        kind, subject_id = subject
        forwarded = any(k == FORWARDED.encode() for k, _ in scope["headers"])
        try:
            if kind == "table":
                owner = await cluster.route(subject_id)
            else:
                owner = await cluster.route_competition(subject_id)
        except Exception:  # the database cannot say: answer with what this node has
            log.exception("%s %s: its node could not be found", kind, subject_id)
            owner = None
        if owner is None:
            await self.app(scope, receive, send)
            return
        if forwarded:
            status, headers, body = _error(
                503, e.BUSY, f"{kind} {subject_id} moved to another server: ask again"
            )
        else:
            status, headers, body = await self._forward(cluster.broker, owner, scope, receive)
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            }
        )
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _forward(
        broker: Broker, owner: str, scope: Scope, receive: Receive
    ) -> tuple[int, list[list[str]], bytes]:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return _error(400, e.BAD_REQUEST, "the client went away before its request")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_RECORD_BYTES:
                return _error(413, e.TOO_LARGE, f"request body over {MAX_RECORD_BYTES} bytes")
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        client = scope.get("client")
        request = {
            "method": scope["method"],
            "path": scope["path"],
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
            "body": base64.b64encode(b"".join(chunks)).decode(),
            "client": client[0] if client else "?",
        }
        try:
            data = await broker.request(channel(owner), orjson.dumps(request), FORWARD_SECONDS)
            answer = orjson.loads(data)
            return (
                int(answer["status"]),
                [[str(k), str(v)] for k, v in answer["headers"]],
                base64.b64decode(answer["body"]),
            )
        except (TimeoutError, BrokerDown) as exc:
            return _error(
                503, e.BUSY, f"the server of this table does not answer now ({exc}): ask again"
            )
        except (BrokerError, ValueError, KeyError, TypeError) as exc:
            return _error(502, e.INTERNAL, f"the server of this table failed to answer ({exc})")


async def answer(app: ASGIApp, node: str, data: bytes) -> bytes:
    """The answer of ``app`` (this node's application) to a request forwarded by
    another node; a :class:`ValueError` saying what is wrong with a malformed one."""
    try:
        request = orjson.loads(data)
        method, path, query = request["method"], request["path"], request["query"]
        headers = [
            (str(k).lower().encode("latin-1"), str(v).encode("latin-1"))
            for k, v in request["headers"]
            if str(k).lower() != FORWARDED
        ]
        body = base64.b64decode(request["body"], validate=True)
        client = str(request.get("client", "?"))
        if not (isinstance(method, str) and isinstance(path, str) and isinstance(query, str)):
            raise TypeError("method, path and query are strings")
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, UnicodeError) as exc:
        raise ValueError(f"a forwarded request must be the JSON a node sends ({exc})") from None
    if subject_of_path(path) is None:
        raise ValueError(f"only a table's or a competition's requests are forwarded, not {path!r}")
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode("latin-1"),
        "headers": [*headers, (FORWARDED.encode(), node.encode())],
        "client": (client, 0),
        "server": ("127.0.0.1", 0),
    }
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    status, out_headers, parts = 500, [], []

    async def send(message: Message) -> None:
        nonlocal status, out_headers
        if message["type"] == "http.response.start":
            status = message["status"]
            out_headers = [
                [k.decode("latin-1"), v.decode("latin-1")] for k, v in message.get("headers", [])
            ]
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    return orjson.dumps(
        {
            "status": status,
            "headers": out_headers,
            "body": base64.b64encode(b"".join(parts)).decode(),
        }
    )
