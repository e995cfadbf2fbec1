"""How the terminal shows Mind Cycling to the generic drivers (``peloton learn``, a
research environment's ``render``): the board with its side panel. Mind Cycling's own
table (:mod:`.play`) draws the same board with its own prompt."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType

from .games import TerminalGame
from .panel import render_view


class MindCyclingTerminal(TerminalGame):
    """Mind Cycling's board and panel."""

    title = "Mind Cycling"

    def render(self, state: Any, players: Mapping[str, str], viewer: str | None) -> RenderableType:
        """The board around the riders, the panel of medals and bottles beside it."""
        return render_view(state, players)
