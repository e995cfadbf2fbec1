"""Share links of the course editors: a draft course carried whole in a link.

A link's token is the draft's JSON, compressed and written in URL-safe base64, then a
dot and a checksum (the first 16 hex digits of the SHA-256 of the compressed bytes).
The checksum is not a secret: it tells a link that was cut or changed by hand from a
course, so the page can say so instead of opening something else. Whatever a token
holds, the editor's check validates the course again before anything opens it, and
nothing is stored: a link works on every node and after every restart.

>>> token = seal({"name": "mine", "boards": ["A1", "B1"]})
>>> opened(token)
{'name': 'mine', 'boards': ['A1', 'B1']}
>>> opened(token[:-1] + ("0" if token[-1] != "0" else "1"))
Traceback (most recent call last):
...
peloton.server.inputs.InputError: the share link was changed or cut: its checksum does not match its course
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from typing import Any

from ..inputs import InputError, loads_json

#: The longest token read (a 200-row Mind Cycling course compresses to about 2 KB).
MAX_TOKEN = 16 * 1024
#: The most bytes a token's course may unpack to (a zip bomb stops here).
MAX_UNPACKED = 256 * 1024
CHECKSUM_DIGITS = 16


def _checksum(packed: bytes) -> str:
    return hashlib.sha256(packed).hexdigest()[:CHECKSUM_DIGITS]


def seal(draft: Any) -> str:
    """The share token of ``draft`` (JSON data)."""
    text = json.dumps(draft, separators=(",", ":"), ensure_ascii=False, sort_keys=False)
    packed = zlib.compress(text.encode("utf-8"), 9)
    body = base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")
    return f"{body}.{_checksum(packed)}"


def opened(token: Any) -> Any:
    """The draft a share token carries; :class:`InputError` saying what is wrong with a
    token that is not one (too long, cut, changed, not a course's data)."""
    if not isinstance(token, str) or not token:
        raise InputError("the share link holds no course")
    if len(token) > MAX_TOKEN:
        raise InputError(
            f"the share link is too long ({len(token)} characters, at most {MAX_TOKEN})"
        )
    body, dot, checksum = token.rpartition(".")
    if not dot or not body:
        raise InputError("the share link was cut: it has no checksum")
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise InputError("the share link was changed: its course is not readable") from None
    if checksum != _checksum(packed):
        raise InputError(
            "the share link was changed or cut: its checksum does not match its course"
        )
    unpack = zlib.decompressobj()
    try:
        raw = unpack.decompress(packed, MAX_UNPACKED)
    except zlib.error:
        raise InputError("the share link was changed: its course is not readable") from None
    if unpack.unconsumed_tail or not unpack.eof:
        raise InputError(f"the share link's course is over {MAX_UNPACKED // 1024} KB")
    return loads_json(raw, "the share link's course")
