"""The profile requests of docs/protocol.md ("Profiles and ratings") as declared types,
and the error codes their answers carry.

Each model holds the shape of a request (strict types, other keys ignored); what a
field must say is checked where it is used (:mod:`.profiles`: the name's rules, the
key's curve, the signature against the challenge), so an answer keeps its own code.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import BAD_REQUEST, ApiError, field_problem, shown

#: Error codes of profiles (docs/protocol.md, "Profiles and ratings").
BAD_NAME = "bad_name"
NAME_TAKEN = "name_taken"
BAD_KEY = "bad_key"
BAD_SIGNATURE = "bad_signature"
BAD_CHALLENGE = "bad_challenge"
NOT_SIGNED_IN = "not_signed_in"

JWK_SHAPE = 'a key is a JWK object {"kty": "EC", "crv": "P-256", "x", "y"}'


class ProfileRequest(BaseModel):
    """What every profile request shares: the profile's ``name`` (text; its rules are
    :func:`.profiles.checked_name`'s)."""

    model_config = ConfigDict(strict=True, extra="ignore")

    #: The answer to a request that is no JSON object at all.
    not_an_object: ClassVar[tuple[str, str]] = (BAD_NAME, "a name is text, not None")

    name: str


class SignIn(ProfileRequest):
    """``{"name", "challenge", "signature"}``: the challenge the server gave, signed.
    The signature is checked (and its form) only once the challenge holds."""

    not_an_object = (BAD_REQUEST, 'send {"name", "challenge", "signature"} (see docs/protocol.md)')

    challenge: str
    signature: Any = None


class Register(SignIn):
    """``{"name", "key", "challenge", "signature"}``: a new profile's public key (a
    JWK object, checked by :func:`.profiles.public_key`) and a signed challenge."""

    not_an_object = (BAD_KEY, JWK_SHAPE)

    key: dict[str, Any]


#: A profile request model.
R = TypeVar("R", bound=ProfileRequest)

#: The answer to each field of the wrong type: its code and the rule it breaks.
FIELD_ANSWERS: dict[str, tuple[str, str]] = {
    "name": (BAD_NAME, "a name is text"),
    "challenge": (BAD_CHALLENGE, "'challenge' is the challenge the server gave"),
    "key": (BAD_KEY, JWK_SHAPE),
}


def read_request(model: type[R], request: Any) -> R:
    """``request`` as a ``model``; ``400`` with the code of the first field that is
    wrong (the key first for a registration, as its answer names the key's form)."""
    if not isinstance(request, dict):
        code, message = model.not_an_object
        raise ApiError(400, code, message)
    try:
        return model.model_validate(request)
    except ValidationError as exc:
        fields = {str(e["loc"][0]) for e in exc.errors(include_url=False)}
        first = "key" if "key" in fields else str(field_problem(exc).path[0])
    code, rule = FIELD_ANSWERS[first]
    raise ApiError(400, code, f"{rule}, not {shown(request.get(first))}")
