"""Mind Twist at the terminal: the two paths with their milestones and tokens, whose
turn it is, the last turns as the viewer may see them, and the dial typed unseen.

Everything drawn comes from the state it is given, which the driver makes
``state.view(viewer)``: a dial the viewer has not seen is simply not there to draw.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from .games import FULL_VIEW, TerminalGame

#: Spaces drawn per line; longer paths are drawn in several bands.
BAND = 50
#: Turns listed under the board.
RECENT = 6
PATH_STYLES = {"R": "grey62", "B": "white"}
NAMES = {"R": "red", "B": "blue"}
MILESTONE, SPACE, START = "◆", "·", "○"

HELP = """\
How to play Mind Twist (MT-2)
  to dial      1, 2 or 3 (or dial:2): typed unseen, the other player cannot see it
  to respond   1-3 guess that dial (or guess:2, g2), 4 or pass (p) not to challenge
  m, moves     list the legal moves again    b, board  draw the board again
  ?, help      this help                     q, quit   save and leave
A correct guess stops the dialer and makes the guesser active; a wrong guess moves
the dialer, who dials again; a pass moves the dialer and the turn changes hands.
Landing on the other token sends it back to the milestone behind it (◆ protects).
A game that reaches 10 turns per space of the path (300 on 30 spaces) ends there:
the token further along wins; level, the player who did not start."""

_SHORT = re.compile(r"([dg])\s*:?\s*([1-3])")


class MindTwistTerminal(TerminalGame):
    """The terminal's drawing of Mind Twist."""

    title = "Mind Twist"
    help = HELP

    def order(self, state: Any, moves: Sequence[Any]) -> list[Any]:
        # A dial's number is the dial (1 is dial:1, 3 is dial:3): a bluff has no
        # strongest-looking move to put first, and a hidden dial must not be hinted at.
        return list(moves)

    def order_note(self, state: Any) -> str | None:
        return None

    def render(self, state: Any, players: Mapping[str, str], viewer: str | None) -> RenderableType:
        board = state.board
        lines: list[RenderableType] = []
        marks = " ".join(map(str, board.milestones)) or "none"
        head = Text(
            f"Mind Twist · finish {board.length} · milestones {marks} · {NAMES[state.first]} dials first",
            "bold",
        )
        if viewer is None:
            head.append(" · spectator's view", "grey50")
        elif viewer != FULL_VIEW:
            head.append(f" · seen by {viewer}", "grey50")
        lines.append(head)
        for low in range(0, board.length + 1, BAND):
            high = min(board.length, low + BAND - 1)
            lines.append(_scale(low, high))
            for player in state.players:
                lines.append(self._path(state, player, players, low, high))
        lines.append(self._status(state, players, viewer))
        lines.extend(self._recent(state, viewer))
        return Group(*lines)

    def _path(
        self, state: Any, player: str, players: Mapping[str, str], low: int, high: int
    ) -> Text:
        board = state.board
        here = state.space(player)
        line = Text(f"{NAMES[player]:<5}", self.seat_style(player))
        style = PATH_STYLES[player]
        for space in range(low, high + 1):
            if space == here:
                line.append(player, self.seat_style(player) + " reverse")
            elif space == board.length:
                line.append("|", "bold")
            elif space in board.milestones:
                line.append(MILESTONE, "bold yellow")
            elif space == 0:
                line.append(START, style)
            else:
                line.append(SPACE, style)
        if high == board.length:
            line.append(" FINISH", "bold")
        line.append(f"  {here:>3}  ")
        line.append_text(self.seat_text(player, players))
        return line

    def _status(self, state: Any, players: Mapping[str, str], viewer: str | None) -> Text:
        if state.is_over:
            text = Text("The race is over: ")
            text.append_text(self.seat_text(state.result, players))
            text.append(
                " wins"
                if state.end == "finish"
                else f" wins at the limit of {state.board.turn_limit} turns"
            )
            return text
        active = state.active_player
        other = "B" if active == "R" else "R"
        text = Text()
        text.append_text(self.seat_text(active, players))
        if state.phase == "dial":
            text.append(" is active and turns the dial (1-3)")
            return text
        text.append(" has dialled")
        if state.dial is not None:
            text.append(f" {state.dial}", "bold")
            text.append(" (only you see it)" if viewer == active else "")
        else:
            text.append(" (hidden)")
        text.append("; ")
        text.append_text(self.seat_text(other, players))
        text.append(" guesses or passes")
        return text

    def _recent(self, state: Any, viewer: str | None) -> list[Text]:
        turns = _turns(state, viewer)
        out = []
        first = max(0, len(turns) - RECENT)
        for number, turn in enumerate(turns[first:], start=first + 1):
            line = Text(f"  turn {number:>2}: ", "grey50")
            line.append(turn.dialer, self.seat_style(turn.dialer))
            line.append(f" {turn.dial}")
            if turn.response is not None:
                guesser = "B" if turn.dialer == "R" else "R"
                line.append(" · ")
                line.append(guesser, self.seat_style(guesser))
                line.append(f" {turn.response}")
                if turn.correct:
                    line.append(" (right: no move)", "bold")
                elif turn.response.kind == "guess":
                    line.append(" (wrong)")
            out.append(line)
        return out

    def describe(self, state: Any, players: Mapping[str, str]) -> Text:
        player = state.current_player or ""
        text = Text()
        text.append_text(self.seat_text(player, players))
        if state.phase == "dial":
            text.append(": turn the dial to 1, 2 or 3 (your input is not shown)")
        else:
            text.append(f": guess {state.active_player}'s dial, or pass")
        return text

    def secret(self, state: Any) -> bool:
        return bool(state.phase == "dial")

    def expand(self, state: Any, text: str) -> str:
        word = text.strip().lower()
        if word in ("p", "pass", "no"):
            return "pass"
        short = _SHORT.fullmatch(word)
        if short:
            return f"{'dial' if short.group(1) == 'd' else 'guess'}:{short.group(2)}"
        return word

    def outcome(self, state: Any, players: Mapping[str, str]) -> RenderableType:
        lines: list[RenderableType] = []
        if state.is_over:
            winner = state.result
            loser = "B" if winner == "R" else "R"
            lines.append(Text("Result", "bold underline"))
            line = self.seat_text(winner, players)
            line.append(f" wins, {state.space(winner) - state.space(loser)} spaces ahead of ")
            line.append_text(self.seat_text(loser, players))
            line.append(f" (on {state.space(loser)}), after {len(state.turns())} turns")
            if state.end == "limit":
                line.append(" (the turn limit: nobody reached the finish)")
            lines.append(line)
        else:
            lines.append(Text("The race is not finished", "bold underline"))
            lines.append(Text(f"position {state.position}"))
        return Group(*lines)


def _turns(state: Any, viewer: str | None) -> list[Any]:
    """The turns as ``viewer`` may see them; for :data:`FULL_VIEW` every dial, each
    taken from its dialer's own view."""
    if viewer != FULL_VIEW:
        return list(state.turns(viewer))
    seen = {player: state.turns(player) for player in state.players}
    return [seen[turn.dialer][i] for i, turn in enumerate(seen[state.players[0]])]


def _scale(low: int, high: int) -> Text:
    """Space numbers every five spaces above a band."""
    cells = [" "] * (high - low + 1)
    for space in range(low - low % 5, high + 1, 5):
        at = space - low
        if at < 0:
            continue
        label = str(space)
        if at + len(label) > len(cells):
            cells.extend(" " * (at + len(label) - len(cells)))
        cells[at : at + len(label)] = list(label)
    return Text(" " * 5 + "".join(cells), "grey50")
