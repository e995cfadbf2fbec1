"""How the terminal shows each game: one :class:`TerminalGame` per game name.

The generic driver (:mod:`.table`), the move prompt (:mod:`.turn`) and the replay
(:mod:`.review`) know no game; they ask the game's :class:`TerminalGame` to draw a
position, say whose turn it is, order the legal moves and put them in words, and
whether the move to type is a secret that must not be echoed. Games without a
dedicated one get the base class, which draws the game's JSON snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..core import registry
from ..core.errors import ConfigError
from ..core.protocol import CHANCE

#: Styles for seats by their name (Mind Cycling's teams keep :data:`.board.TEAM_STYLES`).
SEAT_STYLES = {
    "A": "bold bright_red",
    "B": "bold bright_blue",
    "C": "bold bright_green",
    "D": "bold bright_yellow",
    "R": "bold bright_red",
}

#: The ``viewer`` given to :meth:`TerminalGame.render` for a full state (bots only at the
#: table, a finished game's record): everything may be drawn.
FULL_VIEW = "*"

MOVE_HELP = """\
How to play a turn
  number       play the move with that number in the list
  notation     type the move itself, as listed
  m, moves     list the legal moves again    b, board  draw the board again
  ?, help      this help                     q, quit   save and leave"""


#: How :meth:`TerminalGame.order` numbers the moves, said under the list.
ORDER_NOTE = "Strongest-looking first (as the greedy bot scores them)."


def game_package(name: str) -> ModuleType:
    """The package of the game called ``name`` (its ``from_options``, ``Record``,
    ``public_moves`` ...); :class:`ConfigError` for an unknown game."""
    return import_module(registry.package(name))


class TerminalGame:
    """The terminal's knowledge of one game; subclasses draw real boards."""

    title = "game"
    help: RenderableType = MOVE_HELP

    def seat_style(self, player: str | None) -> str:
        """The Rich style of a seat's name."""
        return SEAT_STYLES.get(player or "", "bold")

    def seat_text(self, player: str, players: Mapping[str, str]) -> Text:
        """``R (human)`` in the seat's colour."""
        who = players.get(player)
        return Text(f"{player} ({who})" if who else player, self.seat_style(player))

    def render(self, state: Any, players: Mapping[str, str], viewer: str | None) -> RenderableType:
        """The position as ``viewer`` sees it (``state`` is already that view;
        ``viewer`` is :data:`FULL_VIEW` for the full state, ``None`` for a spectator)."""
        package = game_package(state.game)
        data = package.snapshot(state, viewer)
        table = Table(title=self.title, show_header=False, box=None)
        for key, value in data.items():
            if key != "legal":
                table.add_row(key, str(value))
        return table

    def describe(self, state: Any, players: Mapping[str, str]) -> Text:
        """One line: whose turn it is and what they must do."""
        player = state.current_player or ""
        text = Text("to play: ")
        text.append_text(self.seat_text(player, players))
        return text

    def order(self, state: Any, moves: Sequence[Any]) -> list[Any]:
        """The legal moves to number, in display (and numbering) order: by default the
        strongest-looking first, as the game's own move scoring (the greedy bot's)
        rates them, ties in the engine's order. A game may leave some out (its
        :meth:`hint` says how to type them): any legal move typed in notation is
        still taken."""
        score = registry.get(state.game).heuristics.get("score_moves")
        if score is None or len(moves) < 2:
            return list(moves)
        scores = score(state, list(moves))
        ranked = sorted(range(len(moves)), key=lambda i: -scores[i])
        return [moves[i] for i in ranked]

    def order_note(self, state: Any) -> str | None:
        """A line under the numbered moves saying how they are ordered, if they are."""
        if registry.get(state.game).heuristics.get("score_moves") is None:
            return None
        return ORDER_NOTE

    def label(self, state: Any, move: Any) -> str | Text:
        """How a numbered move reads in the list (default: its notation)."""
        return str(move)

    def hint(self, state: Any) -> RenderableType | None:
        """A line under the numbered moves (how to type those not numbered), if any."""
        return None

    def aftermath(self, state: Any, move: str) -> str | Text:
        """Words after a move in the log, once played (``state`` is the position just
        after it): where it took the rider, say. Default: nothing."""
        return ""

    def interrupts(self, state: Any) -> bool:
        """Whether the step now asked for is a decision out of the run of turns (a
        rival's answer to a proposal, say). At a shared keyboard the player is then
        called to it with a "pass the keyboard" step, and the keyboard is handed back
        after. Games with hidden information hand over at every change of player."""
        return False

    def from_position(self, text: str, options: Mapping[str, Any]) -> Any:
        """The game from a position written ``text`` in its notation (``peloton play
        --start``, ``peloton moves``); :class:`ConfigError` if the terminal cannot."""
        raise ConfigError(f"{self.title} cannot start from a position at the terminal")

    def step(self, state: Any) -> str:
        """What the game waits for, in a few plain words (``peloton moves``)."""
        return f"{state.current_player} to play"

    def secret(self, state: Any) -> bool:
        """Whether the move now asked for is a secret (typed unseen, hot-seat hand-over)."""
        return False

    def expand(self, state: Any, text: str) -> str:
        """Shorthands a player may type, turned into notation."""
        return text

    def chance_text(self, state: Any, move: Any) -> Text:
        """The line printed when the dice are rolled."""
        return Text(f"  {CHANCE:<10} {move}", "bold magenta")

    def outcome(self, state: Any, players: Mapping[str, str]) -> RenderableType:
        """The result (final, or the standing of an unfinished game)."""
        head = "Result" if state.is_over else "The game is not finished"
        return Group(Text(head, "bold underline"), Text(str(state.result)))


_ADAPTERS = {
    "cyclo": "peloton.terminal.cyclo:CycloTerminal",
    "mind-cycling": "peloton.terminal.mindcycling:MindCyclingTerminal",
    "mind-twist": "peloton.terminal.mindtwist:MindTwistTerminal",
    "pistard": "peloton.terminal.pistard:PistardTerminal",
}


def terminal_game(name: str) -> TerminalGame:
    """The :class:`TerminalGame` of the game called ``name`` (the base one if it has
    no dedicated drawing)."""
    path = _ADAPTERS.get(name)
    if path is None:
        return TerminalGame()
    module, _, attr = path.partition(":")
    made: TerminalGame = getattr(import_module(module), attr)()
    return made
