"""Shared helpers of the Cyclo scenario tests: positions in CYN, moves as text.

Course ``flemish-4`` (CY-18): A1 = 1-30 (start 1-6, event 20); C1 = 31-60 (sprint after
45, events 38, 52); F2 = 61-90 (slope 63-70 dark 65, 68; mountain 3 after 70; end
71-74; cobbles 75-84 dark 77, 80, 83; end 85-90; events 67, 73, 81); E1 = 91-120 (last
km 101-120; events 95, 108).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from peloton.games import cyclo as cy


def at(text: str, mode: str = "classic", **options: Any) -> cy.State:
    """The state of a CYN (course flemish-4 unless given)."""
    options.setdefault("course", "flemish-4")
    return cy.from_cyn(text, mode, **options)


def texts(moves: Iterable[object]) -> set[str]:
    """The notation of some moves."""
    return {str(m) for m in moves}


def legal(state: cy.State) -> set[str]:
    """The legal moves now, as texts."""
    return texts(state.legal_moves())


def play(state: cy.State, *moves: str) -> cy.State:
    """Play moves in order (each must be legal); the state."""
    for move in moves:
        state.play(move)
    return state


def square(state: cy.State, rider: str) -> str | None:
    """Where a rider stands, e.g. ``a74``."""
    return state.rider(rider).square


def unchanged(
    state: cy.State, move: object, error: type[Exception], match: str | None = None
) -> None:
    """``move`` raises ``error`` (quoting it when text) and leaves ``state`` as it was."""
    before = state.copy()
    with pytest.raises(error, match=match) as info:
        state.play(move)  # type: ignore[arg-type]
    if isinstance(move, str):
        assert repr(move) in str(info.value)
    assert state == before and state.history == before.history
    assert legal(state) == legal(before) and state.current_player == before.current_player
