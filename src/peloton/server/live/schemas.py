"""The client messages of docs/protocol.md as declared types: one model per ``type``.

Each model says what its fields hold (strict: no ``"3"`` for ``3``, no ``true`` for
``1``, no ``1.0`` for ``1``) and, in each field's ``description``, the rule an error answer states; unknown
fields are ignored, as the protocol allows. :data:`CLIENT_MESSAGE` reads any of them
from an already parsed JSON object, choosing the model by ``type``.

The models are pydantic dataclasses rather than ``BaseModel``: the server and its tests
build them positionally (``MoveMessage("AD1-b9", None)``), and the ``type`` field comes
last with its one value as default so that they still can.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from pydantic.dataclasses import dataclass

from ..errors import (
    BAD_CHAT,
    BAD_REQUEST,
    UNKNOWN_TYPE,
    ProtocolError,
    field_problem,
    shown,
)

#: Unknown fields ignored (a newer client may send more). Each field is strict on its
#: own (``Field(strict=True)``): a strict config would also want the dataclass itself
#: rather than the JSON object that fills it.
STRICT = ConfigDict(extra="ignore")


@dataclass(frozen=True, config=STRICT)
class Hello:
    """``hello``: act for the seat of ``token``, or watch when it is ``None``."""

    token: str | None = Field(default=None, strict=True, description="a string or null")
    type: Literal["hello"] = "hello"
    code: ClassVar[str] = BAD_REQUEST

    @field_validator("token")
    @classmethod
    def _no_empty_token(cls, token: str | None) -> str | None:
        # An empty token is a spectator's hello, as null is.
        return token or None


@dataclass(frozen=True, config=STRICT)
class MoveMessage:
    """``move``: play ``move`` (notation), optionally at move index ``index``."""

    move: str = Field(strict=True, description="the move's notation text")
    index: int | None = Field(default=None, strict=True, description="a whole number")
    type: Literal["move"] = "move"
    code: ClassVar[str] = BAD_REQUEST


@dataclass(frozen=True, config=STRICT)
class Ping:
    """``ping``: keep-alive."""

    type: Literal["ping"] = "ping"
    code: ClassVar[str] = BAD_REQUEST


@dataclass(frozen=True, config=STRICT)
class ChatPost:
    """``chat``: write ``text`` in the table's chat; a spectator may sign it ``name``
    (its content is checked by :mod:`.chat`)."""

    text: str = Field(strict=True, description="the message as a string")
    name: str | None = Field(default=None, strict=True, description="a string or null")
    type: Literal["chat"] = "chat"
    #: A malformed chat message is refused as every chat message is (:mod:`.chat`).
    code: ClassVar[str] = BAD_CHAT


@dataclass(frozen=True, config=STRICT)
class ChatMute:
    """``chat_mute``: a seated player mutes (``True``) or unmutes the spectators."""

    muted: bool = Field(strict=True, description="true or false")
    type: Literal["chat_mute"] = "chat_mute"
    code: ClassVar[str] = BAD_REQUEST


@dataclass(frozen=True, config=STRICT)
class ChatLog:
    """``chat_log``: send me the chat so far (and the mute setting)."""

    type: Literal["chat_log"] = "chat_log"
    code: ClassVar[str] = BAD_REQUEST


ClientMessage = Hello | MoveMessage | Ping | ChatPost | ChatMute | ChatLog

#: Each message type and its model, in the protocol's order.
MODELS: dict[str, type[ClientMessage]] = {
    "hello": Hello,
    "move": MoveMessage,
    "ping": Ping,
    "chat": ChatPost,
    "chat_mute": ChatMute,
    "chat_log": ChatLog,
}
CLIENT_TYPES = tuple(MODELS)

#: Any client message, chosen by its ``type`` (a tagged union: one model is tried).
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(
    Annotated[ClientMessage, Field(discriminator="type")]
)


def read_message(data: dict[str, Any]) -> ClientMessage:
    """The declared message of a parsed JSON object; :class:`ProtocolError`
    (``unknown_type``, or the model's code naming the field) if it is not one."""
    kind = data.get("type")
    # Checked before the model so that an unhashable or unknown ``type`` is answered
    # with the list of known ones, not with the union's own words.
    if not isinstance(kind, str) or kind not in MODELS:
        what = "has no 'type'" if kind is None else f"has unknown type {shown(kind)}"
        raise ProtocolError(UNKNOWN_TYPE, f"message {what}; known types: {', '.join(CLIENT_TYPES)}")
    try:
        return CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        model = MODELS[kind]
        problem = field_problem(exc)
        # The union puts the tag first in each error's path: the field comes after it.
        name = str(problem.path[1]) if len(problem.path) > 1 else "type"
        fields = model.__pydantic_fields__  # type: ignore[union-attr]
        info = fields.get(name)
        rule = info.description if info is not None and info.description else "valid"
        if problem.missing:
            text = f"{kind} {name!r} is missing: it must be {rule}"
        else:
            text = f"{kind} {name!r} must be {rule}, not {shown(problem.given)}"
        raise ProtocolError(model.code, text) from None
