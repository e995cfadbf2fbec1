"""The Mind Cycling road drawn with Rich: a vertical road, finish line at the top.

Each road row is one line: the row number, the section tab, then one 5-character
cell per lane. A rider's cell reads ``~AD1+``: a wind mark (``~`` rides against the
wind this round, an arrow points at the rider it is linked to in a train), the rider
id in its team's colour, and ``+`` when it holds a bottle. The whole standard road is
66 rows, taller than a terminal, so during play only a window of rows around the
riders is drawn, with the finish line always on top.
"""

from __future__ import annotations

from rich.text import Text

from ..games.mindcycling import Course, State
from ..games.mindcycling.course import LANE_LETTERS

TEAM_STYLES = {
    "A": "bold bright_red",
    "B": "bold bright_blue",
    "C": "bold bright_green",
    "D": "bold bright_yellow",
    "E": "bold bright_magenta",
    "F": "bold bright_cyan",
    "G": "bold white",
}
# Sections take the colour of the helmet of the type that rules them (MC-2.1, MC-7.2):
# plain for domestiques (blue), sprint for sprinters (green), mountain for climbers
# (yellow); the start zone is neutral.
SECTION_STYLES = {"start": "grey50", "plain": "blue", "sprint": "green", "mountain": "yellow"}
#: The wind mark of a sheltered rider points at its shelter square (MC-5.5, MC-6.1).
LINK_MARKS = {"front": "↑", "left": "↖", "right": "↗"}
WIND_MARK = "~"
BOTTLE_MARK = "+"
CELL = 5
#: Rows shown above the furthest rider: a domestique's attack reaches 7 + 3 (MC-7.2).
AHEAD = 10
LABEL = 10

LEGEND = (
    f"this round: {WIND_MARK} in the wind, ↑↖↗ sheltered (link)   {BOTTLE_MARK} bottle  F feed  ^^^ rock\n"
    "o may go there (! by attacking only)  reverse: to play  dim: has moved"
)


def visible_rows(course: Course, state: State | None, full: bool = False) -> tuple[int, int]:
    """The ``(low, high)`` road rows to draw: all of them, or a window around the riders."""
    last = course.finish - 1
    if full or state is None:
        return 1, last
    if state.in_setup:  # only the start zone matters while riders are placed
        return 1, min(last, course.start_rows + 3)
    rows = [course.row_lane(r.square)[0] for r in state.riders() if r.square is not None]
    if not rows:  # setup has not started, or everyone has crossed
        return max(1, last - AHEAD), last
    low = max(1, min(rows) - 1)
    high = min(last, max(max(rows) + AHEAD, course.start_rows + 1))
    return low, high


def render_board(
    course: Course,
    state: State | None = None,
    *,
    full: bool = False,
    marks: dict[str, str] | None = None,
) -> Text:
    """The road of ``course`` with the riders of ``state`` (none: the empty course).

    ``marks`` maps free square names to a one-character glyph drawn there instead of
    the road dot (where the rider to play may go, or where a rider may be placed).
    """
    marks = marks or {}
    low, high = visible_rows(course, state, full)
    occupants = _occupants(state)
    tabs = dict(course.sections)
    width = course.lanes * (CELL + 1) - 1
    lines: list[Text] = []

    header = Text(" " * (4 + LABEL))
    header.append(" ")
    header.append(" ".join(f"{LANE_LETTERS[i]:^{CELL}}" for i in range(course.lanes)), "bold")
    lines.append(header)
    finish = Text(f"{course.finish:>3} ")
    finish.append(f"{'FINISH':<{LABEL}}", "bold")
    finish.append("╔" + "═" * width + "╗", "bold")
    lines.append(finish)
    if high < course.finish - 1:
        lines.append(_elision(course, high + 1, course.finish - 1))

    for row in range(high, low - 1, -1):
        kind = course.section_of(row)
        style = SECTION_STYLES[kind]
        line = Text(f"{row:>3} ")
        if row in tabs:
            line.append(f"{kind.upper():<{LABEL - 1}}▸", f"bold {style}")
        elif row == course.start_rows:
            line.append(f"{'start':<{LABEL}}", style)
        elif row == low and _label_row(course, row) < low:
            # The section's tab is below the window: still say where we are.
            line.append(f"({kind})".ljust(LABEL), style)
        else:
            line.append(" " * LABEL)
        line.append("┃", style)
        for lane in range(course.lanes):
            if lane:
                line.append(" ")
            name = f"{LANE_LETTERS[lane]}{row}"
            rid = occupants.get(name)
            if rid is not None and state is not None:
                line.append_text(rider_cell(state, rid))
            elif name in course.rocks:
                line.append(" ^^^ ", "bold grey62")
            elif name in marks:
                # Keep the feed token visible under a mark: it refills a domestique.
                cell = f"  {marks[name]}F " if name in course.feed else f"  {marks[name]}  "
                line.append(cell, "bold bright_white")
            elif name in course.feed:
                line.append("  F  ", "bold magenta")
            else:
                line.append("  ·  ", style)
        line.append("┃", style)
        lines.append(line)

    if low > 1:
        lines.append(_elision(course, 1, low - 1))
    return Text("\n").join(lines)


def rider_cell(state: State, rid: str) -> Text:
    """The 5-character cell of a rider: wind mark, id in team colour, bottle mark."""
    # The marks are the round's assessment (MC-4.2): none in setup, and none once the
    # race is over, when the last round's wind no longer means anything.
    assessment = None if state.is_over else state.assessment(rid)
    if assessment is None:
        mark, mark_style = " ", ""
    elif assessment.against_wind:
        mark, mark_style = WIND_MARK, "bold cyan"
    else:
        mark, mark_style = LINK_MARKS.get(state.wind, "↑"), "bold white"
    style = TEAM_STYLES.get(rid[0], "bold")
    if rid == state.current_rider:
        style += " reverse"
    elif state.round and state.has_moved(rid):
        style += " dim"
    cell = Text(mark, mark_style)
    cell.append(rid, style)
    cell.append(BOTTLE_MARK if state.rider(rid).has_bottle else " ", "bold bright_blue")
    return cell


def _occupants(state: State | None) -> dict[str, str]:
    if state is None:
        return {}
    return {r.square: r.id for r in state.riders() if r.square is not None}


def _label_row(course: Course, row: int) -> int:
    """The row where the section of ``row`` is labelled: its tab, or the start zone's top."""
    tabs = [r for r, _ in course.sections if r <= row]
    return tabs[-1] if tabs else course.start_rows


def _elision(course: Course, low: int, high: int) -> Text:
    """A line standing for hidden rows ``low .. high``, naming the tabs among them
    (kept within the road's width so that the side panel keeps its room)."""
    tabs = [f"{kind[0].upper()}{row}" for row, kind in course.sections if low <= row <= high]
    span = f"row {low}" if low == high else f"rows {low}-{high}"
    extra = f": {' '.join(tabs)}" if tabs else ""
    return Text(f"    {'⋮':<{LABEL}} {span}{extra}", "grey50")


def course_profile(course: Course) -> str:
    """The course's tabs in one short line, e.g. ``P9 S27 P37 M49 finish 67``."""
    tabs = " ".join(f"{kind[0].upper()}{row}" for row, kind in course.sections)
    return f"{tabs} finish {course.finish}"
