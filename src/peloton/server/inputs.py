"""Reading what a client sends: JSON and TOML text that cannot hurt the server, and
names the database can store.

Python's own parsers fail on hostile input with errors a handler does not expect
(``RecursionError`` on deeply nested brackets, ``ValueError`` on an integer of over
4,300 digits) and accept values no answer can carry (``NaN``, a lone surrogate that
no UTF-8 text holds). Here each becomes an :class:`InputError` saying what is wrong,
which the caller turns into its 4xx answer.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

from .limits import MAX_INT_DIGITS, MAX_JSON_DEPTH


class InputError(ValueError):
    """Text a client sent that the server does not read, and why. ``syntax``: the text
    is simply not valid JSON (or TOML), rather than over a limit."""

    def __init__(self, message: str, *, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise InputError(f"a number of {digits} digits (at most {MAX_INT_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise InputError(f"the number {text[:20]} is too large")
    return value


def _parse_constant(text: str) -> Any:
    raise InputError(f"{text} is not a JSON value")


def loads_json(text: str | bytes, what: str = "the request body") -> Any:
    """The JSON value of ``text``; :class:`InputError` for text that is not JSON (or
    not UTF-8), nests deeper than :data:`MAX_JSON_DEPTH`, holds an integer of more
    than :data:`MAX_INT_DIGITS` digits, ``NaN`` or an infinite number, or a string
    that is not text (a lone surrogate)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{what} is not UTF-8 text") from None
    try:
        value = json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except RecursionError:
        raise InputError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels") from None
    except InputError as exc:
        raise InputError(f"{what} is not accepted: {exc}") from None
    except ValueError as exc:  # JSONDecodeError
        raise InputError(f"{what} is not valid JSON: {exc}", syntax=True) from None
    check_value(value, what)
    return value


def loads_toml(text: str, what: str = "the text") -> dict[str, Any]:
    """The TOML document ``text``, with the limits of :func:`loads_json`."""
    try:
        value = tomllib.loads(text)
    except RecursionError:
        raise InputError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{what} is not valid TOML: {exc}", syntax=True) from None
    except ValueError as exc:  # an integer over Python's digit limit
        raise InputError(f"{what} is not accepted: {exc}") from None
    check_value(value, what)
    return value


def check_value(value: Any, what: str) -> None:
    """:class:`InputError` if a parsed value nests deeper than :data:`MAX_JSON_DEPTH`
    or holds a string (or key) that is not text (a lone surrogate)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_text(item, what)
        elif isinstance(item, dict | list):
            if depth > MAX_JSON_DEPTH:
                raise InputError(f"{what} nests deeper than {MAX_JSON_DEPTH} levels")
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_text(key, what)
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)


def _check_text(text: str, what: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(f"{what} holds a string that is not text (a lone surrogate)") from None


def name_problem(name: str, limit: int) -> str | None:
    """Why ``name`` (a player's name) cannot be kept, or ``None``: 1 to ``limit``
    printable characters once its spaces are squeezed (no NUL, no control character,
    no lone surrogate: what every database stores and every page shows)."""
    squeezed = " ".join(name.split())
    if not squeezed or len(squeezed) > limit:
        return f"must be 1 to {limit} characters"
    if not squeezed.isprintable():
        return "must be printable text (no control characters)"
    try:
        squeezed.encode("utf-8")
    except UnicodeEncodeError:
        return "must be text (it holds a lone surrogate)"
    return None
