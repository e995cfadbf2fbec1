"""Replays (docs/protocol.md, "Replays"): a game's moves sent once, with the viewer's
first snapshot and, for each move, the *changes* that turn the snapshot before it
into the snapshot after it. The client steps through them.

A whole snapshot per position (the first protocol) repeated everything that did not
change, and a game's snapshot may hold the moves so far: a replay grew with the
square of the game's length (issue 11: 173 MB for 6,000 moves). Changes grow with
the game: about 130 to 500 bytes a move for the bundled games.

The changes are those of :mod:`..deltas` (a live ``update`` carries the same). A
replay's snapshots have no legal moves (``legal`` is ``[]``):
nobody plays in a replay.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import Any

from ..deltas import Change, apply
from ..deltas import diff as changes

__all__ = ["Change", "ReplayCache", "apply", "changes", "replay", "snapshots"]


def replay(
    game: str,
    moves: list[str],
    snapshots: Iterable[dict[str, Any]],
    extra: dict[str, Any],
    move_lists: tuple[str, ...] = ("legal",),
) -> dict[str, Any]:
    """A replay answer: the ``moves`` once, the first of ``snapshots`` (one per position,
    the first before any move) and the changes between each two; ``extra`` adds the
    options and players. The snapshots' lists of the moves at hand (``move_lists``, the
    game's ``MOVE_LISTS``) are empty: a replay is watched, not played."""
    first: dict[str, Any] | None = None
    before: dict[str, Any] | None = None
    steps: list[list[Change]] = []
    for snap in snapshots:
        snap = {**snap, **{key: [] for key in move_lists if key in snap}}
        if before is None:
            first = snap
        else:
            steps.append(changes(before, snap))
        before = snap
    return {"game": game, "moves": moves, "snapshot": first, "changes": steps, **extra}


def snapshots(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Every snapshot of a replay answer, the first before any move (what a client
    does with it, step by step)."""
    out = [answer["snapshot"]]
    for steps in answer["changes"]:
        out.append(apply(out[-1], steps))
    return out


class ReplayCache:
    """The replays answered lately, as JSON bytes, within ``budget`` bytes: a table page
    loads its table's replay on every visit, and a finished game's never changes."""

    def __init__(self, budget: int = 32 << 20) -> None:
        self.budget = budget
        self._size = 0
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, key: Hashable) -> bytes | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: Hashable, answer: bytes) -> None:
        if len(answer) > self.budget // 4 or key in self._kept:
            return
        self._kept[key] = answer
        self._size += len(answer)
        while self._size > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped)
