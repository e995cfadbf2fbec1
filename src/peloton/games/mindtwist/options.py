"""Mind Twist to the game-package contract (docs/games.md): a game from JSON options,
the options described, and the public move list (MT-4.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import OPTIONS, board_from_options
from .state import State

__all__ = ["OPTIONS", "board_from_options", "from_options", "public_moves"]


def from_options(options: Mapping[str, Any] | None = None) -> State:
    """A new game from JSON options (see :data:`OPTIONS`); missing ones take their
    defaults."""
    return State(board_from_options(options))


def public_moves(state: State, viewer: str | None = None) -> list[str]:
    """The moves played so far as ``viewer`` may see them: the other player's dials
    not revealed by a wrong guess or a pass are ``dial:?`` (MT-4.2)."""
    return [str(move) for move in state.public_history(viewer)]
