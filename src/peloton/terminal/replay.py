"""Stepping through a game record: Enter for the next move, ``r`` for the next round,
``b`` to go back, a number to jump to that move, ``q`` to leave."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console
from rich.text import Text

from ..games.mindcycling import Record, State
from .panel import render_classification, render_view
from .prompt import Ask

REPLAY_HELP = "Enter next move · r next round · b back · N go to move N · e end · q quit"


def record_players(record: Record) -> dict[str, str]:
    """Team letter -> the name shown in the panel, from the record's ``players``."""
    out = {}
    for team in record.teams:
        player = record.players.get(team, {})
        out[team] = player.get("name") or player.get("controller") or ""
    return out


class ReplaySession:
    """A record's positions (``record.states()``) shown one at a time."""

    def __init__(self, record: Record, states: list[State], console: Console, ask: Ask) -> None:
        self.record = record
        self.states = states
        self.console = console
        self.ask = ask
        self.players: Mapping[str, str] = record_players(record)
        self.index = 0  # how many moves have been played in the shown position

    @property
    def last(self) -> int:
        """The index of the final position (the number of moves)."""
        return len(self.states) - 1

    def show(self) -> None:
        """Print the position after ``index`` moves, the last and the next move."""
        state = self.states[self.index]
        self.console.print(render_view(state, self.players))
        info = Text(f"move {self.index}/{self.last}", "bold")
        if self.index:
            info.append(f"   played: {self.record.moves[self.index - 1]}")
        if self.index < self.last:
            info.append(f"   next: {self.record.moves[self.index]}")
        else:
            info.append("   end of the record")
        self.console.print(info)
        if self.index == self.last:
            self.console.print(render_classification(state, self.players))

    def run(self) -> int:
        """Interactive stepping; returns the exit code (0)."""
        self.console.print(REPLAY_HELP)
        self.show()
        while True:
            try:
                line = self.ask("replay > ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return 0  # leaving a replay loses nothing
            if line in ("q", "quit", "exit"):
                return 0
            if line in ("?", "h", "help"):
                self.console.print(REPLAY_HELP)
                continue
            target = self.target(line)
            if target is None:
                self.console.print(Text(f"✗ {line!r} is not a replay command. {REPLAY_HELP}", "bold red"))
                continue
            if target == self.index and line == "":
                self.console.print("End of the record (b: back, q: quit).")
                continue
            self.index = target
            self.show()

    def target(self, command: str) -> int | None:
        """The position index a command leads to (``None`` if it is not a command)."""
        if command in ("", "n", "next"):
            return min(self.index + 1, self.last)
        if command in ("b", "back"):
            return max(self.index - 1, 0)
        if command in ("e", "end"):
            return self.last
        if command in ("r", "round"):
            now = self.states[self.index].round
            for i in range(self.index + 1, self.last + 1):
                if self.states[i].round > now:
                    return i
            return self.last
        if command.isdigit():
            return min(int(command), self.last)
        return None

    def show_end(self) -> None:
        """Print the final position and result (``--to-end``)."""
        self.index = self.last
        self.show()
