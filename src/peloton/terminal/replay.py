"""Stepping through a Mind Cycling record: the generic :class:`.review.ReviewSession`
with its board and classification, and ``r`` for the next round."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console, RenderableType

from ..games.mindcycling import Record, State
from .games import TerminalGame
from .panel import render_classification, render_view
from .prompt import Ask
from .review import ReviewSession

REPLAY_HELP = "Enter next move · r next round · b back · N go to move N · e end · q quit"


def record_players(record: Record) -> dict[str, str]:
    """Team letter -> the name shown in the panel, from the record's ``players``."""
    out = {}
    for team in record.teams:
        player = record.players.get(team, {})
        out[team] = player.get("name") or player.get("controller") or ""
    return out


class _MindCyclingReplay(TerminalGame):
    """A Mind Cycling position and result as the replay draws them."""

    def render(
        self, state: State, players: Mapping[str, str], viewer: str | None
    ) -> RenderableType:
        # A record holds no secrets: every viewer sees the whole board.
        return render_view(state, players)

    def outcome(self, state: State, players: Mapping[str, str]) -> RenderableType:
        return render_classification(state, players)


class ReplaySession(ReviewSession):
    """A Mind Cycling record's positions (``record.states()``) shown one at a time."""

    help = REPLAY_HELP

    def __init__(self, record: Record, states: list[State], console: Console, ask: Ask) -> None:
        moves = [str(m) for m in record.moves]
        super().__init__(record, states, moves, _MindCyclingReplay(), console, ask)
        self.players: Mapping[str, str] = record_players(record)

    def target(self, command: str) -> int | None:
        """The position index a command leads to (``None`` if it is not a command);
        ``r`` is the first position of the next round."""
        if command in ("r", "round"):
            now = self.states[self.index].round
            for i in range(self.index + 1, self.last + 1):
                if self.states[i].round > now:
                    return i
            return self.last
        return super().target(command)
