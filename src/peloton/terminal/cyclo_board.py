"""Cyclo The Game's board at the terminal: the course as a strip of spaces, and the
panels under it (teams and riders, the round's order, dice, card, line lists).

Everything is drawn from :func:`peloton.games.cyclo.snapshot`, the public JSON of a
position, so the terminal shows exactly what a web client is sent. The course runs
left to right, wrapped into bands that fit the terminal's width. A space is a column
of 4 characters: the first is where a line between two spaces is drawn (``┃``), the
other three show one lane each row, lane ``a`` (the riders' left) on top. Only the
stretch that matters is drawn: from the last rider to the first and as far as the
rider due may ride; a long empty stretch between two groups is summed up in one line.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from ..games.cyclo.terrain import TERRAIN

#: One space: a boundary character (a line is drawn there) and three of content.
CELL = 4
#: The column of lane letters left of the strip.
MARGIN = 3
#: The fewest spaces a band holds, however narrow the terminal.
MIN_BAND = 8
#: The run-out's pseudo type (its squares past the finish line).
RUN_OUT = "run-out"

#: Track types by colour (the background of their squares) and name.
TYPE_STYLES = {
    "start": "on #3a3a3a",
    "flat": "on #34503a",
    "climb": "on #8a4a10",
    "top": "on #7a6400",
    "cobbles": "on #54447c",
    "slope": "on #7c2f6c",
    "end": "on #2c5454",
    "lastkm": "on #1f3a80",
    "track": "on #5a3a20",
    RUN_OUT: "on #202020",
}
TYPE_NAMES = {"lastkm": "last km"}
#: Teams' colours (riders, seats): readable on every track colour.
TEAM_STYLES = {
    "A": "bold bright_red",
    "B": "bold bright_cyan",
    "C": "bold bright_green",
    "D": "bold bright_yellow",
    "E": "bold bright_magenta",
    "F": "bold bright_white",
}
LINE_STYLES = {
    "sprint": "bold bright_green",
    "mountain": "bold bright_red",
    "finish": "bold bright_white",
}
LINE_GLYPH = "┃"
DARK, EVENT, EMPTY = "▪", "?", "·"
DICE_FACES = "⚀⚁⚂⚃⚄⚅"


def team_style(team: str) -> str:
    """The Rich style of a team's riders and seat."""
    return TEAM_STYLES.get(team, "bold")


def type_name(kind: str) -> str:
    """A track type in words (``lastkm`` is the last km)."""
    return TYPE_NAMES.get(kind, kind)


def line_name(line: Mapping[str, Any]) -> str:
    """``sprint``, ``mountain 3`` or ``finish``."""
    if line["kind"] == "mountain":
        return f"mountain {line['category']}"
    return str(line["kind"])


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Extras:
    """What the board shows beyond the snapshot: who rolled the last dice and who drew
    the last card (read from the moves), and the furthest square the rider due may aim
    at (so that the strip reaches it)."""

    roller: str | None = None
    drawer: str | None = None
    reach: int | None = None


class Strip:
    """The course strip of a snapshot, drawn in bands as wide as the console."""

    def __init__(self, data: Mapping[str, Any], extras: Extras = Extras()) -> None:
        self.data = data
        course = data["course"]
        self.spaces: list[Mapping[str, Any]] = course["spaces"]
        self.finish: int = course["length"]
        self.cap: int = self.finish + course["run_out"]
        self.lines = {line["after"]: line for line in course["lines"]}
        self.extras = extras
        self.at: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
        for rider in data["riders"]:
            if rider["position"] and rider["lane"] is not None:
                key = (rider["position"], ord(rider["lane"]) - ord("a"))
                self.at.setdefault(key, []).append(rider)

    # ------------------------------------------------------------ the spaces

    def kind(self, pos: int) -> str:
        """The track type of a position (the run-out past the finish)."""
        return str(self.spaces[pos - 1]["type"]) if pos <= self.finish else RUN_OUT

    def width(self, pos: int) -> int:
        """The lanes of a position (the run-out's: as many as riders stand there)."""
        if pos <= self.finish:
            return int(self.spaces[pos - 1]["width"])
        return 1 + max((lane for (p, lane) in self.at if p == pos), default=0)

    def dark(self, pos: int) -> bool:
        return pos <= self.finish and bool(self.spaces[pos - 1]["dark"])

    def event(self, pos: int) -> bool:
        return (
            pos <= self.finish and bool(self.spaces[pos - 1]["event"]) and bool(self.data["events"])
        )

    def number(self, pos: int) -> str:
        """A position as a player types it: ``56``, or ``#4`` on the run-out."""
        return str(pos) if pos <= self.finish else f"#{pos - self.finish}"

    # ------------------------------------------------------------ the window

    def stretches(self, per_band: int) -> list[range]:
        """The stretches of course to draw, in order; the gaps between them are summed
        up. Each reaches from a little before its last rider to a little past its
        first, and at least a band's width."""
        marks = sorted(
            {pos for (pos, _) in self.at} | ({self.extras.reach} if self.extras.reach else set())
        )
        if not marks:  # nobody on the course: the start, or the finish once riders are in
            marks = [self.finish] if self.data["finish"] else [1]
        low = 1 if any(r["position"] == 0 for r in self.data["riders"]) else max(1, marks[0] - 1)
        high = min(self.cap, max(marks[-1] + 2, low + per_band - 1))
        if marks == [self.finish]:
            low = max(1, self.cap - per_band + 1)
        cuts = [low, *marks, high]
        out: list[range] = []
        start = low
        for a, b in pairwise(cuts):
            if b - a > per_band:  # a band of empty road: keep two spaces each side
                out.append(range(start, a + 3))
                start = b - 2
        # The last band is drawn whole: more of the road ahead.
        bands = -(-(high - start + 1) // per_band)
        out.append(range(start, min(self.cap, start + bands * per_band - 1) + 1))
        return [r for r in out if len(r)]

    def summary(self, first: int, last: int) -> Text:
        """A stretch left out, in one line: its ground, dark squares, events, lines."""
        runs: list[str] = []
        pos = first
        while pos <= last:
            kind, end = self.kind(pos), pos
            while end + 1 <= last and self.kind(end + 1) == kind:
                end += 1
            runs.append(
                f"{type_name(kind)} {pos}-{end}" if end > pos else f"{type_name(kind)} {pos}"
            )
            pos = end + 1
        parts = [", ".join(runs)]
        darks = [str(p) for p in range(first, last + 1) if self.dark(p)]
        events = [str(p) for p in range(first, last + 1) if self.event(p)]
        lines = [
            f"{line_name(self.lines[p])} after {p}"
            for p in range(first, last + 1)
            if p in self.lines
        ]
        if darks:
            parts.append("dark " + " ".join(darks))
        if events:
            parts.append("events " + " ".join(events))
        parts += lines
        return Text(f"   ⋯ {first}-{last}: " + " · ".join(parts) + " ⋯", "grey62")

    # ------------------------------------------------------------ drawing

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        per_band = max(MIN_BAND, (options.max_width - MARGIN - 1) // CELL)
        stretches = self.stretches(per_band)
        for i, stretch in enumerate(stretches):
            if i:
                yield self.summary(stretches[i - 1][-1] + 1, stretch[0] - 1)
            for low in range(stretch[0], stretch[-1] + 1, per_band):
                yield from self.band(list(range(low, min(stretch[-1], low + per_band - 1) + 1)))

    def boundary(self, pos: int) -> Text:
        """The character left of a space: a line's glyph when a line lies after the
        space before it."""
        line = self.lines.get(pos - 1)
        if line is None:
            return Text(" ")
        return Text(LINE_GLYPH, LINE_STYLES.get(line["kind"], "bold"))

    def band(self, positions: list[int]) -> Iterator[Text]:
        """The rows of one band: line names, numbers, lanes, ground, marks."""
        if any(p - 1 in self.lines for p in positions):
            yield self._line_names(positions)
        numbers = Text(" " * MARGIN)
        for pos in positions:
            numbers.append_text(self.boundary(pos))
            numbers.append(
                f"{self.number(pos):>3}", "bold" if pos % 5 == 0 or pos > self.finish else "grey62"
            )
        yield numbers
        for lane in range(max(self.width(p) for p in positions)):
            row = Text(f" {chr(ord('a') + lane)} ", "grey62")
            for pos in positions:
                row.append_text(self.boundary(pos))
                row.append_text(self._square(pos, lane))
            yield row
        yield self._ground(positions)
        if any(self.dark(p) or self.event(p) for p in positions):
            marks = Text(" " * MARGIN)
            for pos in positions:
                mark = (DARK if self.dark(pos) else "") + (EVENT if self.event(pos) else "")
                marks.append(" ")
                marks.append(f"{mark:^3}", "bold")
            yield marks

    def _square(self, pos: int, lane: int) -> Text:
        style = TYPE_STYLES.get(self.kind(pos), "")
        riders = self.at.get((pos, lane))
        if riders:
            if len(riders) > 1:  # riders of different worlds (time trials) share a square
                return Text(f"×{len(riders):<2}", f"bold {style}")
            rider = riders[0]
            mark = " reverse" if rider["due"] else ""
            return Text(f"{rider['id']:<3}", f"{team_style(rider['team'])}{mark} {style}")
        if pos > self.finish:
            return Text("   ", style)
        if lane >= self.width(pos):
            return Text("   ")
        return Text(f" {DARK if self.dark(pos) else EMPTY} ", f"grey70 {style}")

    def _line_names(self, positions: list[int]) -> Text:
        cells = [" "] * (len(positions) * CELL)
        styles: list[tuple[int, int, str]] = []
        starts = [i for i, p in enumerate(positions) if p - 1 in self.lines]
        for n, i in enumerate(starts):
            line = self.lines[positions[i] - 1]
            room = (starts[n + 1] if n + 1 < len(starts) else len(positions)) * CELL - i * CELL
            name = (LINE_GLYPH + line_name(line))[:room]
            cells[i * CELL : i * CELL + len(name)] = list(name)
            styles.append((i * CELL, i * CELL + len(name), LINE_STYLES.get(line["kind"], "bold")))
        text = Text(" " * MARGIN + "".join(cells).rstrip())
        for a, b, style in styles:
            text.stylize(style, MARGIN + a, MARGIN + b)
        return text

    def _ground(self, positions: list[int]) -> Text:
        """The track types under the lanes, each run named where it begins."""
        text = Text(" " * MARGIN)
        i = 0
        while i < len(positions):
            kind = self.kind(positions[i])
            j = i
            while j + 1 < len(positions) and self.kind(positions[j + 1]) == kind:
                j += 1
            room = (j - i + 1) * CELL
            name = type_name(kind)[: room - 1]
            text.append(" ")
            text.append(f"{name:<{room - 1}}", f"bold {TYPE_STYLES.get(kind, '')}")
            i = j + 1
        return text


# ---------------------------------------------------------------- panels


def rider_cell(
    rider: Mapping[str, Any], data: Mapping[str, Any], places: Mapping[str, tuple[int, int]]
) -> Text:
    """One rider in the teams panel: square, own tokens, flags, points (or, once it has
    finished, its place in the result, its run-out square and its time), highlighted
    while due."""
    rid = rider["id"]
    if rid in places:
        place, past = places[rid]
        text = Text(f"{rid} {ordinal(place)} #{past}", team_style(rider["team"]))
        time = data["result"]["times"].get(rid)
        if time is not None:
            text.append(f" {time} s")
    else:
        where = rider["square"] or ("out" if rider.get("out") else "-")
        text = Text(f"{rid}", team_style(rider["team"]) + (" reverse" if rider["due"] else ""))
        text.append(f" {where}", "dim" if rider["turn_over"] else "")
        if rider["tokens"]:
            text.append(f" *{rider['tokens']}")
        flags = ("s" if rider["skip"] else "") + ("x" if rider["technical"] else "")
        flags += f"h{rider['hunger']}" if rider["hunger"] else ""
        if flags:
            text.append(f" {flags}", "bold yellow")
    if data["mode"] == "leg":
        text.append(f" +{rider['points']} ^{rider['mountain']}", "grey70")
    return text


def teams_panel(data: Mapping[str, Any], seat: Any) -> Table:
    """A row a team: its seat, team tokens and riders (S1, C1, H1, H2)."""
    # A finisher's place is its place in the result (by time in a time trial).
    ranked = {rider: i for i, rider in enumerate(data["result"]["places"], start=1)}
    places = {f["rider"]: (ranked[f["rider"]], f["past"]) for f in data["finish"]}
    slots = sorted(
        {r["id"][1:] for r in data["riders"]}, key=lambda s: "SCH".index(s[0]) * 10 + int(s[1:])
    )
    table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column("team")
    table.add_column("tokens", justify="right")
    for slot in slots:
        table.add_column(slot)
    by_id = {r["id"]: r for r in data["riders"]}
    for team in data["players"]:
        cells: list[RenderableType] = [seat(team), str(data["team_tokens"].get(team, 0))]
        for slot in slots:
            rider = by_id.get(team + slot)
            cells.append(rider_cell(rider, data, places) if rider else Text("-", "dim"))
        table.add_row(*cells)
    return table


def order_line(data: Mapping[str, Any]) -> Text:
    """The round's order: riders whose turn is over marked ✓, the rider due ▶."""
    by_id = {r["id"]: r for r in data["riders"]}
    text = Text(f"round {data['round']} order: ", "bold")
    for i, rid in enumerate(data["order"]):
        rider = by_id[rid]
        if i:
            text.append(" ")
        if rider["due"]:
            text.append(f"▶{rid}", team_style(rid[0]) + " reverse")
        elif rider["turn_over"]:
            text.append(f"{rid}✓", "dim")
        else:
            text.append(rid, team_style(rid[0]))
    return text


def dice_line(data: Mapping[str, Any], roller: str | None) -> Text | None:
    """The dice just rolled (or the last roll), with the roller."""
    dice = data["dice"]
    if not dice:
        return None
    fresh = data["phase"] == "ride"
    text = Text("dice: " if fresh else "last roll: ", "bold")
    text.append(" ".join(DICE_FACES[d - 1] for d in dice) + "  ", "bold")
    text.append(" ".join(map(str, dice)) + f" = {sum(dice)}")
    if roller:
        text.append(f" ({roller}'s roll)", team_style(roller[0]))
    return text


def card_line(data: Mapping[str, Any], drawer: str | None) -> Text | None:
    """The last card drawn, its effect at this level, and the cards left."""
    if not data["events"]:
        return None
    left = sum(data["cards_left"].values())
    total = sum(card["count"] for card in data["deck"].values())
    card = data["card"]
    if card is None:  # none drawn in this game (a position may say some were before it)
        drawn = "none drawn yet, " if left == total else ""
        return Text(f"event cards: {drawn}{left} of {total} left", "grey70")
    info = data["deck"][card]
    text = Text("last card: ", "bold")
    text.append(f"{info['name']} ({card})", "bold magenta")
    text.append(f": {info['effect']}")
    if drawer:
        text.append(" · drawn by ")
        text.append(drawer, team_style(drawer[0]))
    text.append(f" · {left} of {total} cards left", "grey70")
    return text


def lists_lines(data: Mapping[str, Any]) -> list[Text]:
    """The lists of the scoring lines (a leg), the finish list, the jerseys' points."""
    out = []
    scoring = [
        line for line in data["course"]["lines"] if line["scores"] and line["kind"] != "finish"
    ]
    for line, listed in zip(scoring, data["lines"], strict=False):
        text = Text(
            f"{line_name(line)} after {line['after']}: ", LINE_STYLES.get(line["kind"], "bold")
        )
        text.append(", ".join(listed) if listed else "nobody yet")
        out.append(text)
    if data["finish"]:
        text = Text("finish line: ", LINE_STYLES["finish"])
        text.append(
            "  ".join(
                f"{i}. {f['rider']} #{f['past']}" for i, f in enumerate(data["finish"], start=1)
            )
        )
        if data["result"]["times"]:
            text.append("  (in the order they crossed; times rank them)", "grey70")
        out.append(text)
    if data["mode"] == "leg":
        for key, name in (("points", "green (points)"), ("mountain", "red (mountain)")):
            best = sorted((r for r in data["riders"] if r[key]), key=lambda r: -r[key])[:5]
            if best:
                out.append(
                    Text(f"{name}: " + ", ".join(f"{r['id']} {r[key]}" for r in best), "grey82")
                )
    return out


def start_line(data: Mapping[str, Any]) -> Text | None:
    """The riders still on the start line, in lane order."""
    waiting = sorted(
        (r for r in data["riders"] if r["position"] == 0), key=lambda r: r["square"][0]
    )
    if not waiting:
        return None
    text = Text("on the start line (0): ", "bold")
    for i, rider in enumerate(waiting):
        if i:
            text.append(" ")
        text.append(rider["id"], team_style(rider["team"]) + (" reverse" if rider["due"] else ""))
    return text


def board(data: Mapping[str, Any], head: Text, seat: Any, extras: Extras = Extras()) -> Group:
    """The whole board: head line, start line, strip, panels."""
    parts: list[RenderableType] = [head]
    waiting = start_line(data)
    if waiting is not None:
        parts.append(waiting)
    parts.append(Strip(data, extras))
    parts.append(teams_panel(data, seat))
    if not data["is_over"]:
        parts.append(order_line(data))
    for line in (dice_line(data, extras.roller), card_line(data, extras.drawer)):
        if line is not None:
            parts.append(line)
    parts.extend(lists_lines(data))
    return Group(*parts)


# ---------------------------------------------------------------- legend


def legend() -> Group:
    """The board legend: every track type in its colour with its dice, token panel and
    what a rider may do there, then the marks."""
    table = Table(
        box=None, padding=(0, 1), pad_edge=False, title="Board legend", title_justify="left"
    )
    for column in ("ground", "dice", "tokens S/C/H", "wheel, swap", "hold back", "dark square"):
        table.add_column(column)
    for name, terrain in TERRAIN.items():
        if name == "track":
            continue  # the velodrome is not drawn here (track events come later)
        dice = (
            f"{terrain.dice}, sprinter {terrain.sprinter_dice}"
            if terrain.sprinter_dice != terrain.dice
            else str(terrain.dice)
        )
        if terrain.climber_bonus:
            dice += f", climber +{terrain.climber_bonus}"
        table.add_row(
            Text(f" {type_name(name):<8}", f"bold {TYPE_STYLES[name]}"),
            dice,
            "/".join(map(str, terrain.panels)),
            _yes(terrain.wheel and terrain.swap),
            _yes(terrain.hold_back),
            f"back {terrain.dark_back}" if terrain.dark_back else "-",
        )
    marks = [
        Text.assemble(
            (f" {RUN_OUT:<8}", f"bold {TYPE_STYLES[RUN_OUT]}"),
            "  past the finish line: #1 … #9, room for everyone",
        ),
        Text.assemble((f" {DARK} ", "bold"), " dark square: a move ending there is sent back"),
        Text.assemble((f" {EVENT} ", "bold"), " event space: a rider stopping there draws a card"),
        Text.assemble(
            " ",
            (LINE_GLYPH, LINE_STYLES["sprint"]),
            " sprint line   ",
            (LINE_GLYPH, LINE_STYLES["mountain"]),
            " mountain line (category 3, 2, 1, HC)   ",
            (LINE_GLYPH, LINE_STYLES["finish"]),
            " finish line",
        ),
        Text(
            "Riders: team letter, type (S sprinter, C climber, H helper) and number, in the team's colour; the "
            "rider due is highlighted (▶ in the order line, ✓ a turn over)."
        ),
        Text(
            "Teams panel: square, *n own tokens, flags s (loses its next turn), x (technical problem: one die "
            "less, no token), h2 (hunger: rides left with 1 die); in a leg +green ^red points; a finisher's "
            "place, run-out square and time."
        ),
    ]
    return Group(table, *marks)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
