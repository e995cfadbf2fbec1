"""Pistard at the terminal: the looping 4-lane track in its colours with the riders on
it, then each team's points, riders (lap and square, or out), and dice.

A track of up to :data:`OVAL_MAX` rows is drawn as a velodrome: the first half left to
right with the outer lane on top, the second half right to left below it with the
inner lane on top, so the two straights face each other across the infield. Longer
tracks are drawn in bands. Each square shows its colour; without colours, an empty
square shows its colour's letter (y g b r).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .games import SEAT_STYLES, TerminalGame

LANE_LETTERS = "abcd"
COLOUR_LETTERS = "ygbr"
COLOUR_NAMES = ("yellow", "green", "blue", "red")
SQUARE_STYLES = {"y": "on #7a6a00", "g": "on #1d5e2a", "b": "on #1f3a7a", "r": "on #7a1f1f"}
RIDER_STYLES = {
    "A": "bold bright_white",
    "B": "bold bright_cyan",
    "C": "bold bright_magenta",
    "D": "bold orange1",
}
CELL = 3
OVAL_MAX = 50
BAND = 20

HELP = """\
How to play Pistard (PI-2, PI-3)
  number       play the move with that number in the list
  A3=5         first move: give your rider A3 the die 5
  A3=5:c22     later: move A3 with a 5 to c22 (+c23: the bonus squares after it)
  5:c22        the same, for the rider due to move
  m, moves     list the legal moves again    b, board  draw the board again
  ?, help      this help                     q, quit   save and leave
Bonuses (optional): ending on its own colour with the square ahead free, a rider may
go on straight (colour, up to 2 squares); ending right behind a rider, one square
diagonally, then on diagonally over its own colour (shelter). The first player to
reach the target wins at once.
Board: each square in its colour (y g b r when colours are off); A3 is rider 3 of
team A, * marks the rider due to move; the start/finish line is before row 1."""

#: How the head line names each ``bonus`` option (PI-3.6).
BONUS_TEXT = {
    "both": "colour and shelter bonuses",
    "colour": "colour bonus only (house rule)",
    "shelter": "shelter bonus only (house rule)",
    "none": "no bonus (house rule)",
}


class PistardTerminal(TerminalGame):
    """The terminal's drawing of Pistard."""

    title = "Pistard"
    help = HELP

    def seat_style(self, player: str | None) -> str:
        return SEAT_STYLES.get(player or "", "bold")

    # ------------------------------------------------------------ the track

    def render(self, state: Any, players: Mapping[str, str], viewer: str | None) -> RenderableType:
        lines: list[RenderableType] = [self._head(state)]
        lines.extend(self._track(state))
        lines.append(self._teams(state, players))
        last = self._last_rolls(state)
        if last is not None:
            lines.append(last)
        return Group(*lines)

    def _head(self, state: Any) -> Text:
        where = "first move" if state.round == 1 else f"round {state.round}"
        if state.is_over:
            where = "race over"
        bonus = BONUS_TEXT.get(state.bonus, f"bonus {state.bonus}")
        text = Text(f"Pistard · {where} · track {state.length} rows · {bonus}", "bold")
        text.append(f" · first to {state.target} points wins", "bold")
        return text

    def _cell(self, state: Any, row: int, lane: int) -> Text:
        sq = (row - 1) * 4 + lane
        colour = state.layout.rows[row - 1][lane]
        style = SQUARE_STYLES[colour]
        rider = state.at.get(sq)
        if rider is None:
            return Text(f" {colour} ", f"grey50 {style}")
        mark = "*" if rider == state.due else " "
        return Text(f"{rider}{mark}", f"{RIDER_STYLES.get(rider[0], 'bold')} {style}")

    def _lane_line(self, state: Any, rows: list[int], lane: int) -> Text:
        line = Text(f" {LANE_LETTERS[lane]} ", "grey50")
        for row in rows:
            line.append_text(self._cell(state, row, lane))
        return line

    def _numbers(self, rows: list[int]) -> Text:
        line = Text("   ", "grey50")
        for row in rows:
            label = "S/F" if row == 1 else (str(row) if row % 5 == 0 else "")
            line.append(f"{label:<{CELL}}", "bold" if row == 1 else "grey50")
        return line

    def _track(self, state: Any) -> list[Text]:
        length = state.length
        if length <= OVAL_MAX:
            half = (length + 1) // 2
            out_rows = list(range(1, half + 1))
            back_rows = list(range(length, half, -1))
            lines = [self._numbers(out_rows)]
            lines += [self._lane_line(state, out_rows, lane) for lane in (3, 2, 1, 0)]
            lines.append(Text("   " + "─" * (CELL * half) + "  (infield)", "grey35"))
            lines += [self._lane_line(state, back_rows, lane) for lane in (0, 1, 2, 3)]
            lines.append(self._numbers(back_rows))
            return lines
        lines = []
        for low in range(1, length + 1, BAND):
            rows = list(range(low, min(length, low + BAND - 1) + 1))
            lines.append(self._numbers(rows))
            lines += [self._lane_line(state, rows, lane) for lane in (3, 2, 1, 0)]
        return lines

    # ------------------------------------------------------------ the teams

    def _teams(self, state: Any, players: Mapping[str, str]) -> Table:
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("team")
        table.add_column("pts", justify="right")
        table.add_column("riders (lap.square)")
        table.add_column("dice")
        for team in state.players:
            riders = Text()
            for rid in (r for r in state.riders if r[0] == team):
                if riders:
                    riders.append("  ")
                riders.append_text(self._rider_text(state, rid))
            table.add_row(
                self.seat_text(team, players),
                str(state.points[team]),
                riders,
                self._dice(state, team),
            )
        return table

    def _rider_text(self, state: Any, rid: str) -> Text:
        colour = COLOUR_NAMES[int(rid[1]) - 1]
        style = f"bold {colour}" + (" reverse" if rid == state.due else "")
        text = Text(rid, style)
        if rid in state.out:
            text.append(" out", "grey50 strike")
        else:
            square = state.square_of(rid)
            text.append(f" {state.lap_of(rid)}.{square}" if square else " start")
        return text

    def _dice(self, state: Any, team: str) -> str:
        if state.round == 1:
            rolled = state.first_rolls.get(team)
            if rolled is None:
                return "-"
            left = state.unassigned_dice(team)
            return f"{' '.join(map(str, rolled))} (left {' '.join(map(str, left)) or '-'})"
        dice = state.dice.get(team)
        if dice is None:
            return "-"
        return f"{' '.join(map(str, state.rolls[team]))} (left {' '.join(map(str, sorted(dice))) or '-'})"

    def _last_rolls(self, state: Any) -> Text | None:
        laps = sorted(state.laps.items())
        if not laps:
            return None
        return Text(
            "lap points taken: " + ", ".join(f"lap {lap}: {n}/3" for lap, n in laps), "grey50"
        )

    # ------------------------------------------------------------ turns

    def describe(self, state: Any, players: Mapping[str, str]) -> Text:
        team = state.current_player or ""
        text = self.seat_text(team, players)
        if state.round == 1:
            left = ", ".join(map(str, state.unassigned_dice(team)))
            text.append(f": give each rider a die (dice left {left}), e.g. RIDER=VALUE")
            return text
        rid = state.due
        square = state.square_of(rid)
        where = f"lap {state.lap_of(rid)}, {square}" if square else "behind the line"
        text.append(": ")
        text.append(rid, f"bold {COLOUR_NAMES[int(rid[1]) - 1]}")
        dice = ", ".join(map(str, sorted(state.dice[team])))
        text.append(f" ({COLOUR_NAMES[int(rid[1]) - 1]} base, {where}) moves; dice left {dice}")
        return text

    def expand(self, state: Any, text: str) -> str:
        word = text.strip()
        rid = state.due
        if rid is not None and word[:1].isdigit():
            return f"{rid}={word}"
        if len(word) >= 3 and word[2] == " " and state.round == 1:
            return f"{word[:2]}={word[3:].strip()}"  # "A3 5"
        return word

    def chance_text(self, state: Any, move: Any) -> Text:
        team = state.roller or "?"
        line = Text("  ")
        line.append(team, self.seat_style(team))
        line.append(f" rolls {' '.join(map(str, move.dice))}", "bold")
        line.append(f"   ({move})", "grey50")
        return line

    def outcome(self, state: Any, players: Mapping[str, str]) -> RenderableType:
        result = state.result
        lines: list[RenderableType] = []
        title = "Final standings" if state.is_over else "Standings (the race is not finished)"
        lines.append(Text(title, "bold underline"))
        for place, team in enumerate(result.places, start=1):
            line = Text(f"{place:>3}. ")
            line.append_text(self.seat_text(team, players))
            out = [r for r in result.eliminated if r[0] == team]
            line.append(f"  {result.points[team]:>2} pts  eliminated: {', '.join(out) or '-'}")
            lines.append(line)
        if result.winner is not None:
            line = Text("Winner: ", "bold")
            line.append_text(self.seat_text(result.winner, players))
            if result.reason and result.reason != "target":
                line.append(f" ({result.reason})")
            lines.append(line)
        return Group(*lines)
