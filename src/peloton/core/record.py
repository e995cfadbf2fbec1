"""Game records: JSON documents holding everything needed to replay a game exactly.

Every record is one JSON object with at least ``format`` (``"peloton-record/1"``) and
``game``; the rest belongs to the game. :func:`load_record` checks those two fields
and hands the object to the game's own loader, so any record can be opened without
knowing its game in advance.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import registry
from .errors import RecordError

RECORD_FORMAT = "peloton-record/1"


def decode_record(text: str) -> dict[str, Any]:
    """Parse record text into a dict, checking the JSON and the format header."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"record must be a JSON object, not {type(data).__name__}")
    fmt = data.get("format")
    if fmt != RECORD_FORMAT:
        raise RecordError(f"unsupported record format {fmt!r} (expected {RECORD_FORMAT!r})")
    if not isinstance(data.get("game"), str):
        raise RecordError("record has no 'game' name")
    return data


def load_record(source: str | Path) -> Any:
    """Load a record of any registered game from JSON text or a file path."""
    if isinstance(source, Path):
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read record {str(source)!r}: {exc}") from None
    else:
        text = source
    data = decode_record(text)
    try:
        info = registry.get(data["game"])
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    return info.load_record(data)


def require(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``data[key]`` if present and of ``kind``; otherwise a :class:`RecordError`."""
    if key not in data:
        raise RecordError(f"record has no {key!r} field")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"record field {key!r} has the wrong type: {value!r}")
    return value
