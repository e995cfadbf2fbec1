"""Sign-in challenges that the server keeps nothing of (docs/protocol.md, "Profiles
and ratings"): a challenge carries the name it was given for and its expiry, sealed
with an HMAC of a server secret, so any node that knows the secret checks it, and no
number of challenges given to others can spoil one (issue 32, point 3). That it is
used once is :class:`~.profiles.Profiles`' to remember, until it expires.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
from dataclasses import dataclass
from typing import Any


def challenge_text(name: str, nonce: str) -> str:
    """The text a browser signs to prove ``name`` (the challenge makes it good once)."""
    return f"peloton sign-in\n{name}\n{nonce}"


def _b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _seal(secret: str, body: str) -> str:
    digest = hmac.new(secret.encode(), body.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return _b64e(digest.digest())


def challenge_token(secret: str, key: str, expires: float, nonce: str | None = None) -> str:
    """A challenge for the name whose :func:`name_key` is ``key``, good until
    ``expires`` (Unix seconds): ``expires.name.nonce.seal``, the name in base64url, the
    nonce random, the seal an HMAC-SHA256 of the rest with the server's ``secret``."""
    nonce = nonce or secrets.token_urlsafe(16)
    body = f"{math.ceil(expires)}.{_b64e(key.encode())}.{nonce}"
    return f"{body}.{_seal(secret, body)}"


@dataclass(frozen=True)
class Challenge:
    """A challenge the server gave: for which name (its key), until when, its nonce."""

    key: str
    expires: float
    nonce: str


def opened_challenge(secret: str, token: Any) -> Challenge | None:
    """What a challenge says, if the server sealed it with ``secret``; ``None`` for
    anything else (made up, altered, or sealed with another secret)."""
    if not isinstance(token, str) or len(token) > 512:
        return None
    parts = token.split(".")
    if len(parts) != 4:
        return None
    seal = _seal(secret, ".".join(parts[:3])).encode()
    if not hmac.compare_digest(seal, parts[3].encode("utf-8", "surrogatepass")):
        return None
    expires, name, nonce = parts[:3]  # sealed by the server: as it wrote them
    key = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
    return Challenge(key, float(expires), nonce)
