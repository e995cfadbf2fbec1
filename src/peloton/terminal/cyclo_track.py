"""Cyclo's velodrome at the terminal: one lap unrolled, the track events' board.

Drawn from :func:`peloton.games.cyclo.snapshot`, like the road (:mod:`.cyclo_board`):
its ``track`` entry (lap, lanes, race distance, the lines with what they pay and who
crossed them, the keirin pacer) and each rider's distance. A distance d lies on loop
space ((d − 1) mod lap) + 1, so one lap of spaces shows every rider still racing: the
lap runs left to right from the start/finish line, wrapped into bands as wide as the
terminal, lane ``a`` (the inside) on top. A space is 5 characters: the first is where
a line lies (``┃``, in the colour of the next line there: sprint, elimination,
finish), then the rider standing on that lane written with the laps it has ridden
(``AS1²``: AS1, two laps ridden). The keirin pacer (``◆``) is marked under its space
while it rides. Around the lap: the laps to go and the next line, the riders on the
start line and on the run-out, the lines' lists, points, times and the eliminated.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from .cyclo_board import (
    LINE_GLYPH,
    Extras,
    dice_line,
    order_line,
    start_line,
    team_style,
    teams_panel,
)

#: One loop space: a boundary character (a line is drawn there) and four of content.
CELL = 5
#: The column of lane letters left of the lap.
MARGIN = 3
#: Loop spaces in alternate shades, so that each reads apart.
LOOP_STYLES = ("on #1f3550", "on #2a4566")
LINE_STYLES = {
    "sprint": "bold bright_green",
    "elimination": "bold bright_red",
    "finish": "bold bright_white",
    "start": "bold white",
}
PACER = "◆"
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
#: The events raced against the clock (CY-10.2 times), and those whose lines pay.
TIMED = ("pursuit", "team-pursuit", "team-sprint")
POINTS = ("tempo", "points")


def is_track(data: Mapping[str, Any]) -> bool:
    """Whether a snapshot is of a track event (the velodrome)."""
    return bool(data.get("track"))


def loop_space(distance: int, lap: int) -> int:
    """The loop space 1 … lap of a distance ≥ 1 (CY-1.6)."""
    return (distance - 1) % lap + 1


def laps_text(laps: int) -> str:
    """Laps ridden as a superscript (``²``)."""
    return str(laps).translate(SUPERSCRIPT)


def leader(data: Mapping[str, Any]) -> int:
    """The distance of the leader still on the loop (0 before anyone leaves the line)."""
    d = data["track"]["distance"]
    return max(
        (r["position"] for r in data["riders"] if r["position"] is not None and r["position"] <= d),
        default=0,
    )


def next_line(data: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The first line the leader has not crossed yet."""
    lead = leader(data)
    return next((line for line in data["track"]["lines"] if line["at"] >= lead), None)


def at_risk(data: Mapping[str, Any]) -> str | None:
    """The rider an elimination line would put out now (CY-11.5): the rearmost still
    racing, the higher lane of two level, while the next line is an elimination line."""
    nxt = next_line(data)
    if nxt is None or nxt["kind"] != "elimination" or data["is_over"]:
        return None
    d = data["track"]["distance"]
    racing = [
        r
        for r in data["riders"]
        if r["position"] is not None and r["position"] <= d and not r.get("out")
    ]
    if not racing:
        return None
    last = min(racing, key=lambda r: (r["position"], -ord(r["lane"] or "a")))
    return str(last["id"])


def line_words(line: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """``sprint 3 (lap 3): pays 5, 3, 2, 1``, ``elimination 2 (after 20): last rider out``."""
    track = data["track"]
    lines = track["lines"]
    at, lap = line["at"], track["lap"]
    where = f"lap {at // lap}" if at % lap == 0 else f"after {at}"
    if line["kind"] == "finish":
        name = f"finish ({where})"
    else:
        name = f"{line['kind']} {lines.index(line) + 1} ({where})"
    if line["kind"] == "elimination":
        return f"{name}: last rider out"
    if line["pays"]:
        return f"{name}: pays {', '.join(map(str, line['pays']))}"
    return name


def laps_of(distance: int, lap: int) -> str:
    """A race distance in laps: ``1 lap``, ``2 laps``, ``2½ laps``."""
    whole, rest = divmod(distance, lap)
    if rest:
        return f"{whole or ''}½ lap{'s' if whole else ''}"
    return f"{whole} lap{'s' if whole != 1 else ''}"


def laps_to_go(data: Mapping[str, Any]) -> str:
    """``3 laps to go``, ``1½ laps to go`` (rounded up to a half lap: the lap the leader
    is in counts, as on a lap board), ``final lap``, ``race over``."""
    if data["is_over"]:
        return "race over"
    track = data["track"]
    left = track["distance"] - leader(data)
    if left <= 0:
        return "the leader has finished"
    halves = -(-2 * left // track["lap"])
    if halves <= 2:
        return "final lap"
    return f"{halves // 2}{'½' if halves % 2 else ''} laps to go"


class Lap:
    """One lap of the velodrome with the riders on it, in bands as wide as the console."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        track = data["track"]
        self.data = data
        self.lap: int = track["lap"]
        self.width: int = track["width"]
        self.distance: int = track["distance"]
        pacer = track.get("pacer")
        self.pacer: int | None = pacer["distance"] if isinstance(pacer, Mapping) else pacer
        lead = leader(data)
        # The line drawn after each loop space: the next one to come there.
        self.lines: dict[int, Mapping[str, Any]] = {}
        for line in track["lines"]:
            space = loop_space(line["at"], self.lap)
            if space not in self.lines and line["at"] >= lead:
                self.lines[space] = line
        self.at: dict[tuple[int, int], list[Mapping[str, Any]]] = {}
        for rider in data["riders"]:
            d = rider["position"]
            if d is not None and 1 <= d <= self.distance and rider["lane"] is not None:
                key = (loop_space(d, self.lap), ord(rider["lane"]) - ord("a"))
                self.at.setdefault(key, []).append(rider)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        fits = max(5, (options.max_width - MARGIN - 1) // CELL)
        # Bands of even length: a lap of 20 on 80 columns is two straights of 10.
        per_band = -(-self.lap // -(-self.lap // fits))
        for low in range(1, self.lap + 1, per_band):
            yield from self.band(list(range(low, min(self.lap, low + per_band - 1) + 1)))

    def boundary(self, space: int) -> Text:
        """The character before a loop space: the start/finish line before space 1,
        a line's glyph where the previous space ends one."""
        before = self.lap if space == 1 else space - 1
        line = self.lines.get(before)
        if line is not None:
            return Text(LINE_GLYPH, LINE_STYLES.get(line["kind"], "bold"))
        return Text(LINE_GLYPH, LINE_STYLES["start"]) if space == 1 else Text(" ")

    def band(self, spaces: list[int]) -> Iterator[Text]:
        """The rows of one band: the lines' names, the numbers, the lanes, the pacer."""
        names = self._line_names(spaces)
        if names is not None:
            yield names
        numbers = Text(" " * MARGIN)
        for space in spaces:
            numbers.append_text(self.boundary(space))
            numbers.append(f"{space:>3} ", "bold" if space % 5 == 0 or space == 1 else "grey62")
        yield numbers
        for lane in range(self.width):
            row = Text(f" {chr(ord('a') + lane)} ", "grey62")
            for space in spaces:
                row.append_text(self.boundary(space))
                row.append_text(self._square(space, lane))
            yield row
        if self.pacer is not None and loop_space(self.pacer, self.lap) in spaces:
            mark = Text(" " * MARGIN)
            for space in spaces:
                here = space == loop_space(self.pacer, self.lap)
                mark.append(" ")
                mark.append(f"{PACER}pcr" if here else "    ", "bold yellow")
            mark.append(f"  keirin pacer at {self.pacer}: no rider may reach it", "yellow")
            yield mark

    def _square(self, space: int, lane: int) -> Text:
        style = LOOP_STYLES[space % 2]
        riders = self.at.get((space, lane))
        if not riders:
            return Text("  · ", f"grey50 {style}")
        if len(riders) > 1:  # riders of different worlds (a pursuit's two) share a square
            return Text(f"×{len(riders):<3}", f"bold {style}")
        rider = riders[0]
        laps = min(rider["position"], self.distance) // self.lap
        mark = " reverse" if rider["due"] else ""
        return Text(f"{rider['id']}{laps_text(laps)}", f"{team_style(rider['team'])}{mark} {style}")

    def _line_names(self, spaces: list[int]) -> Text | None:
        """Each line's kind over the boundary where it lies."""
        marks = []
        for i, space in enumerate(spaces):
            before = self.lap if space == 1 else space - 1
            line = self.lines.get(before)
            if line is not None:
                marks.append((i, line))
        if not marks:
            return None
        text = Text(" " * MARGIN)
        col = 0
        for i, line in marks:
            name = LINE_GLYPH + ("finish" if line["kind"] == "finish" else line["kind"])
            text.append(" " * max(0, i * CELL - col))
            text.append(name, LINE_STYLES.get(line["kind"], "bold"))
            col = max(col, i * CELL) + len(name)
        return text


def run_out_line(data: Mapping[str, Any]) -> Text | None:
    """The riders past the finish this round, on the run-out ``#k``."""
    d = data["track"]["distance"]
    past = sorted(
        (r for r in data["riders"] if r["position"] is not None and r["position"] > d),
        key=lambda r: (-r["position"], r["lane"] or ""),
    )
    if not past:
        return None
    text = Text("run-out: ", "bold")
    for i, rider in enumerate(past):
        text.append(
            ("  " if i else "") + f"{rider['id']} #{rider['position'] - d}",
            team_style(rider["team"]),
        )
    return text


def track_lists(data: Mapping[str, Any]) -> list[Text]:
    """The lines crossed so far and the next one, points, times, the eliminated and
    the finish line's list."""
    out: list[Text] = []
    nxt = next_line(data)
    for line in data["track"]["lines"]:
        if line["kind"] == "finish" or (not line["list"] and line is not nxt):
            continue
        text = Text(line_words(line, data) + " · ", LINE_STYLES.get(line["kind"], "bold"))
        text.append(", ".join(line["list"]) if line["list"] else "nobody yet")
        out.append(text)
    mode = data["mode"]
    if mode in POINTS:
        ranked = sorted(data["riders"], key=lambda r: (-r["points"], r["id"]))
        out.append(
            Text("points: " + ", ".join(f"{r['id']} {r['points']}" for r in ranked), "grey82")
        )
    risk = at_risk(data)
    if risk is not None:
        out.append(
            Text(f"last now: {risk} (out at the next elimination line if still last)", "red")
        )
    out_ids = list(data["result"].get("eliminated") or [])
    out_ids += [r["id"] for r in data["riders"] if r.get("out") and r["id"] not in out_ids]
    if out_ids:
        out.append(Text("eliminated: " + ", ".join(out_ids), "bold red"))
    if data["finish"]:
        text = Text("finish line: ", LINE_STYLES["finish"])
        parts = []
        for i, f in enumerate(data["finish"], start=1):
            time = f" {10 * f['round'] - f['past']} s" if mode in TIMED else ""
            parts.append(f"{i}. {f['rider']} #{f['past']}{time}")
        text.append("  ".join(parts))
        out.append(text)
    team_times = data["result"].get("team_times") or {}
    if mode in TIMED and team_times:
        out.append(
            Text("team times: " + ", ".join(f"{t} {s} s" for t, s in team_times.items()), "bold")
        )
    return out


def track_board(data: Mapping[str, Any], head: Text, seat: Any, extras: Extras) -> Group:
    """The whole board of a track event: head line, start line, lap, panels."""
    parts: list[RenderableType] = [head]
    if not data["is_over"]:
        lines = Text(laps_to_go(data), "bold")
        nxt = next_line(data)
        if nxt is not None:
            lines.append(" · next: " + line_words(nxt, data), LINE_STYLES.get(nxt["kind"], "bold"))
        parts.append(lines)
    waiting = start_line(data)
    if waiting is not None:
        parts.append(waiting)
    parts.append(Lap(data))
    past = run_out_line(data)
    if past is not None:
        parts.append(past)
    parts.append(teams_panel(data, seat))
    if not data["is_over"]:
        parts.append(order_line(data))
    roll = dice_line(data, extras.roller)
    if roll is not None:
        parts.append(roll)
    parts.extend(track_lists(data))
    return Group(*parts)


def track_legend() -> Group:
    """The marks of the velodrome's lap."""
    return Group(
        Text("Velodrome (track events)", "bold"),
        Text.assemble(
            " ",
            (LINE_GLYPH, LINE_STYLES["sprint"]),
            " sprint line   ",
            (LINE_GLYPH, LINE_STYLES["elimination"]),
            " elimination line   ",
            (LINE_GLYPH, LINE_STYLES["finish"]),
            " finish line (also the start line before space 1)",
        ),
        Text(
            "One lap, its spaces 1 … lap from the start/finish line, lane a (the inside) on top; "
            "a rider on its loop space with the laps it has ridden (AS1² = 2 laps). "
            f"{PACER}pcr: the keirin pacer, which no rider may reach while it rides."
        ),
    )
