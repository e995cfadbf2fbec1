"""What the server answers when it refuses something: :class:`ApiError` over HTTP,
:class:`ProtocolError` over a WebSocket, the protocol's error codes (docs/protocol.md,
"Error codes"), and the one table that turns each engine error into its code.

The engines raise typed errors (:mod:`peloton.core.errors`); nothing here knows a
game. An error goes to its sender alone: the table is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..core.errors import (
    ConfigError,
    CourseError,
    IllegalMoveError,
    NotationError,
    PelotonError,
    RecordError,
    StateError,
)

# ---------------------------------------------------------------- codes

# WebSocket messages (docs/protocol.md, "Error codes").
BAD_JSON = "bad_json"
UNKNOWN_TYPE = "unknown_type"
TOO_LARGE = "too_large"
BAD_REQUEST = "bad_request"
HELLO_FIRST = "hello_first"
BAD_TOKEN = "bad_token"
SPECTATOR = "spectator"
NOT_YOUR_TURN = "not_your_turn"
STALE = "stale"
NOTATION = "notation"
ILLEGAL_MOVE = "illegal_move"
GAME_OVER = "game_over"
NOT_STARTED = "not_started"
NOT_FOUND = "not_found"
INTERNAL = "internal"
CHANCE_STEP = "chance_step"
# The table chat (:mod:`.live.chat`): a chat message refused (malformed, empty, too long),
# sent too fast, or written by a spectator while the players muted spectators.
BAD_CHAT = "bad_chat"
CHAT_FLOOD = "chat_flood"
CHAT_MUTED = "chat_muted"

# HTTP answers besides the shared ones above.
BAD_OPTIONS = "bad_options"
BAD_COURSE = "bad_course"
BAD_RECORD = "bad_record"
SEAT_TAKEN = "seat_taken"
NOT_HUMAN = "not_human"
#: A move from a seat the stand-in bot plays (its player left or ran out of time).
AWAY = "away"
#: 409: leaving a seat already left; taking back a seat its player plays.
ALREADY_LEFT = "already_left"
NOT_AWAY = "not_away"
#: 409: a rematch asked for before the game is over.
NOT_FINISHED = "not_finished"
#: 409: the file of a competition that stopped (something stored is wrong).
STOPPED = "stopped"
#: 429: a per-client limit (docs/protocol.md, "Limits"); 429 too: every worker busy.
RATE_LIMITED = "rate_limited"
BUSY = "busy"
#: 408: a request that did not arrive in time (answered by :mod:`.transport`).
TIMEOUT = "timeout"

#: Each engine error class and its code, looked up most specific class first (a
#: ``CourseError`` is a ``ConfigError`` too). A move can only raise the first three.
ENGINE_CODES: dict[type, str] = {
    NotationError: NOTATION,
    IllegalMoveError: ILLEGAL_MOVE,
    StateError: ILLEGAL_MOVE,  # a move whose effect depends on something hidden
    CourseError: BAD_COURSE,
    ConfigError: BAD_OPTIONS,
    RecordError: BAD_RECORD,
}


def engine_code(exc: PelotonError, default: str) -> str:
    """The protocol code of an engine error (``default`` for a class not in the table)."""
    for cls in type(exc).__mro__:
        code = ENGINE_CODES.get(cls)
        if code is not None:
            return code
    return default


# ---------------------------------------------------------------- the two answers


class ApiError(Exception):
    """An HTTP error answer: ``{"error": {"code", "message", ...extra}}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON answer."""
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


class ProtocolError(Exception):
    """A client message the server refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def bad_options(message: str) -> ApiError:
    """The 400 answer to a create request whose options are wrong."""
    return ApiError(400, BAD_OPTIONS, message)


def bad_course(message: str, problems: list[str] | None = None) -> ApiError:
    """The 400 answer to a create request whose course is wrong, with every problem."""
    return ApiError(400, BAD_COURSE, message, problems=problems or [message])


def move_error(exc: PelotonError) -> ProtocolError:
    """The answer to a move the engine refused (``notation`` or ``illegal_move``)."""
    code = engine_code(exc, ILLEGAL_MOVE)
    return ProtocolError(code if code == NOTATION else ILLEGAL_MOVE, str(exc))


def course_error_in(exc: BaseException) -> CourseError | None:
    """The :class:`CourseError` behind ``exc``: itself, or one it was raised while
    handling (a game may restate a course problem as an option's, e.g. riders that do
    not fit a course's start zone)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, CourseError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def create_error(exc: PelotonError, *, courses: bool) -> ApiError:
    """The answer to a create request the game refused. ``courses``: the game has
    courses (its ``course`` option), whose problems are ``bad_course`` with every
    problem listed; any other refusal is ``bad_options``."""
    course = course_error_in(exc) if courses else None
    if course is not None:
        return bad_course(str(exc), list(course.problems))
    return bad_options(str(exc))


# ---------------------------------------------------------------- declared models


@dataclass(frozen=True)
class FieldProblem:
    """The first thing a declared model (:mod:`.live.schemas`) refused: the ``path``
    to it (keys and list indexes), whether it is ``missing``, and the value ``given``."""

    path: tuple[str | int, ...]
    missing: bool
    given: Any


def field_problem(exc: ValidationError) -> FieldProblem:
    """The first problem of a pydantic error, for an answer that names the field in
    the protocol's words (never pydantic's own text, which shows its internals)."""
    first = exc.errors(include_url=False, include_context=False)[0]
    return FieldProblem(tuple(first["loc"]), first["type"] == "missing", first.get("input"))


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters: an error quotes what it was sent
    without echoing a whole message back."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"
