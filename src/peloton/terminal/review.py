"""Stepping through the record of any game: Enter for the next move, ``b`` to go back,
a number to jump to that move, ``e`` for the end, ``q`` to leave. (Mind Cycling's
replay, with its rounds, is :mod:`.replay`.)

A record file is the full record, so the replay shows everything, as a spectator
would see it once the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.text import Text

from .games import FULL_VIEW, TerminalGame
from .prompt import Ask

REVIEW_HELP = "Enter next move · b back · N go to move N · e end · q quit"


def players_of(record: Any) -> dict[str, str]:
    """Seat -> the name shown, from the record's ``players``."""
    out = {}
    for seat, player in (getattr(record, "players", None) or {}).items():
        out[seat] = player.get("name") or player.get("controller") or player.get("kind") or ""
    return out


class ReviewSession:
    """A record's positions (``record.states()``) shown one at a time, drawn by the
    game's :class:`TerminalGame`."""

    #: The commands, printed on start, on ``?`` and after a wrong one.
    help = REVIEW_HELP

    def __init__(
        self,
        record: Any,
        states: list[Any],
        moves: list[str],
        game: TerminalGame,
        console: Console,
        ask: Ask,
    ) -> None:
        self.record = record
        self.states = states
        self.moves = moves
        self.game = game
        self.console = console
        self.ask = ask
        self.players: Mapping[str, str] = players_of(record)
        self.index = 0

    @property
    def last(self) -> int:
        """The index of the final position (the number of moves)."""
        return len(self.states) - 1

    def show(self) -> None:
        """Print the position after ``index`` moves, the last and the next move."""
        state = self.states[self.index]
        self.console.print(self.game.render(state, self.players, FULL_VIEW))
        info = Text(f"move {self.index}/{self.last}", "bold")
        if self.index:
            info.append(f"   played: {self.moves[self.index - 1]}")
        if self.index < self.last:
            info.append(f"   next: {self.moves[self.index]}")
        else:
            info.append("   end of the record")
        self.console.print(info)
        if self.index == self.last:
            self.console.print(self.game.outcome(state, self.players))

    def run(self) -> int:
        """Interactive stepping; returns the exit code (0)."""
        self.console.print(self.help)
        self.show()
        while True:
            try:
                line = self.ask("replay > ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return 0  # leaving a replay loses nothing
            if line in ("q", "quit", "exit"):
                return 0
            if line in ("?", "h", "help"):
                self.console.print(self.help)
                continue
            target = self.target(line)
            if target is None:
                self.console.print(
                    Text(f"✗ {line!r} is not a replay command. {self.help}", "bold red")
                )
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
        if command.isdigit():
            return min(int(command), self.last)
        return None

    def show_end(self) -> None:
        """Print the final position and result (``--to-end``)."""
        self.index = self.last
        self.show()
