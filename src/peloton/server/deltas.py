"""Deltas between two JSON values (docs/protocol.md, "Deltas"): what a live ``update``
carries instead of a whole snapshot, and what a replay carries for each move.

A delta is a list of changes. A change is ``[path, value]``: set the value at
``path`` (a list of object keys and list indexes from the root; an index equal to a
list's length appends to it; an empty path replaces the whole value), or ``[path]``:
remove that key of an object. Applied in order to the value before, with every
object and list on a path copied first (the value before is unchanged), they give
the value after.

:func:`diff` walks only what differs (an unchanged subtree is one ``==`` in C),
patches a list by index while it keeps its length or grows, and sends a list whole
when it shrank, or when most of it changed and either its values shifted or its parts
changed a lot. Measured on random games of the four bundled games
(``benchmarks/update_deltas.py``), a move's delta is 130 to 480 bytes where the
snapshot is 0.6 to 15 KB, and 2 to 9 times smaller than an RFC 7396 merge patch
(which replaces a changed list whole and cannot set a value to null). Values that
Python holds equal (``1`` and ``1.0``; ``true`` and ``1``) count as unchanged inside
a list or object that is equal as a whole: no game's snapshot swaps a boolean for a
number.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Path = list[str | int]
#: The items at a list's end that :func:`diff` walks one by one when the rest is equal.
_TAIL = 8
#: ``[path, value]`` (set) or ``[path]`` (remove a key).
Change = list[Any]


def diff(before: Any, after: Any) -> list[Change]:
    """The changes turning ``before`` into ``after`` (JSON values); ``[]`` when equal."""
    out: list[Change] = []
    if not _same(before, after):
        _diff(before, after, [], out)
    return out


def _same(a: Any, b: Any) -> bool:
    return a is b or (a == b and type(a) is type(b))


def _diff(before: Any, after: Any, path: Path, out: list[Change]) -> None:
    # Called only where ``before`` and ``after`` differ; an unchanged part is skipped
    # by its parent without a call (a move changes a few values of a big snapshot):
    # the test is :func:`_same`'s, written out.
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before:
            if key not in after:
                out.append([[*path, key]])
        for key, value in after.items():
            if key not in before:
                out.append([[*path, key], value])
            elif (old := before[key]) is not value and (
                old != value or type(old) is not type(value)
            ):
                _diff(old, value, [*path, key], out)
        return
    if isinstance(before, list) and isinstance(after, list) and len(after) >= len(before):
        inner: list[Change] = []
        kept = len(before)
        changed = values = 0
        # A list that grows by a few items at its end, or changes only there (the moves
        # so far, a dial revealed by the guess after it), is compared in C up to its
        # last few items: walking it in Python made a replay cost the square of its moves.
        start = (
            kept - _TAIL
            if kept > 2 * _TAIL and after[: kept - _TAIL] == before[: kept - _TAIL]
            else 0
        )
        for i in range(start, len(after)):
            value = after[i]
            if i < kept:
                old = before[i]
                if old is value or (old == value and type(old) is type(value)):
                    continue
                _diff(old, value, [*path, i], inner)
            else:
                inner.append([[*path, i], value])
            changed += 1
            values += not isinstance(value, dict | list)
        # Most of it changed, and either each change is a whole value (a list of values
        # that shifted) or the parts changed a lot: sent whole. A value or two changed
        # in most of its objects (the riders' flags after a move) stay patches.
        if changed > len(after) // 2 + 1 and (values == changed or len(inner) > 2 * changed):
            out.append([path, after])
        else:
            out.extend(inner)
        return
    out.append([path, after])


def apply(value: Any, changes: Iterable[Change]) -> Any:
    """``value`` after ``changes`` (a new value; ``value`` is unchanged). Raises
    :class:`DeltaError` for a change that does not fit ``value`` (a path through a
    missing key or past a list's end): the delta was made against another value."""
    root: Any = {"": value}
    copied: set[int] = set()

    def own(parent: Any, key: str | int) -> Any:
        child = parent[key]
        if id(child) not in copied:
            if isinstance(child, list):
                child = list(child)
            elif isinstance(child, dict):
                child = dict(child)
            else:
                raise DeltaError(f"the path goes through {child!r}, which is not a list or object")
            parent[key] = child
            copied.add(id(child))
        return child

    for change in changes:
        try:
            node = own(root, "") if change[0] else root
            path: Path = change[0] or [""]
            for key in path[:-1]:
                node = own(node, key)
            last = path[-1]
            if len(change) == 1:
                del node[last]
            elif isinstance(node, list) and last == len(node):
                node.append(change[1])
            else:
                node[last] = change[1]
        except (KeyError, IndexError, TypeError) as exc:
            raise DeltaError(f"the change {change!r} does not fit the value ({exc})") from None
    return root[""]


class DeltaError(ValueError):
    """A delta that does not fit the value it is applied to."""
