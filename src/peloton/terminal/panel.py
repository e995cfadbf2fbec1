"""The side panel beside the board: round, whose turn, points, medals, finished riders;
and the final classification printed when a game ends."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games.mindcycling import State
from ..games.mindcycling.riders import TYPE_NAMES
from ..games.mindcycling.scoring import place_points
from ..games.mindcycling.state import DEFAULT_RELAY_LIMIT, SOLO_TARGET
from .board import LEGEND, TEAM_STYLES, course_profile, render_board

MEDAL_NAMES = {
    "cyclist": "Best Cyclist",
    "sprinter": "Best Sprinter",
    "climber": "Best Climber",
    "team": "Best Team",
}
#: Finished riders listed in the panel (the rest are counted), to keep it short.
PANEL_FINISHERS = 12


def team_text(team: str, players: Mapping[str, str]) -> Text:
    """``A (human)`` in the team's colour."""
    who = players.get(team)
    return Text(f"{team} ({who})" if who else team, TEAM_STYLES.get(team, "bold"))


def render_panel(state: State, players: Mapping[str, str]) -> RenderableType:
    """The side panel of a position: round, turn, points, medals and finishers."""
    result = state.result
    lines: list[RenderableType] = []
    head = Text(f"Mind Cycling · {state.course.name}", "bold")
    lines.append(head)
    where = "setup" if state.round == 0 else f"round {state.round}"
    lines.append(Text(f"{where} · wind {state.wind}"))
    if state.relay_limit != DEFAULT_RELAY_LIMIT:
        # MC-6.5: the limit counts train places as fixed at the round's start.
        places = (
            f"train places 2-{state.relay_limit + 1} relay" if state.relay_limit else "no relays"
        )
        lines.append(Text(f"relay limit {state.relay_limit}: {places}"))
    lines.append(Text(f"tabs {course_profile(state.course)}", "grey50"))
    if state.is_over:
        lines.append(Text("the race is over", "bold"))
    else:
        team = state.current_player or ""
        turn = Text("to play: ")
        if state.current_rider:
            turn.append(state.current_rider, TEAM_STYLES.get(team, "bold"))
            turn.append(" ")
        turn.append_text(team_text(team, players))
        lines.append(turn)

    table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
    table.add_column("team")
    table.add_column("pts", justify="right")
    table.add_column("medals")
    for team in state.players:
        table.add_row(
            team_text(team, players), str(result.points.get(team, 0)), str(result.medal_count(team))
        )
    lines.append(Text(""))
    lines.append(table)

    lines.append(Text(""))
    if state.solo:
        lines.append(Text(f"across the line: {len(result.places)}/{SOLO_TARGET}"))
    else:
        for key, name in MEDAL_NAMES.items():
            holder = result.medals.get(key)
            text = Text(f"{name:<14}")
            text.append(holder or "-", TEAM_STYLES.get((holder or " ")[0], ""))
            lines.append(text)
    if result.places:
        lines.append(Text(""))
        lines.append(Text("finished", "bold"))
        lines.extend(_finisher_lines(result.places))
    return Group(*lines)


def _holder(key: str, value: str | None) -> str | None:
    """The team holding a medal (``team`` names a team, the others a rider)."""
    if value is None:
        return None
    return value if key == "team" else value[0]


def _finisher_lines(places: tuple[str, ...]) -> list[Text]:
    shown = places[:PANEL_FINISHERS]
    out = []
    for i in range(0, len(shown), 3):
        line = Text()
        for place, rid in enumerate(shown[i : i + 3], start=i + 1):
            line.append(f"{place:>2} ")
            line.append(rid, TEAM_STYLES.get(rid[0], ""))
            line.append("  ")
        out.append(line)
    if len(places) > PANEL_FINISHERS:
        out.append(Text(f"   and {len(places) - PANEL_FINISHERS} more"))
    return out


def render_view(
    state: State,
    players: Mapping[str, str],
    *,
    full: bool = False,
    marks: dict[str, str] | None = None,
) -> RenderableType:
    """The board with the side panel to its right, and the legend below."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(
        render_board(state.course, state, full=full, marks=marks), render_panel(state, players)
    )
    return Group(grid, Text(LEGEND, "grey50"))


def render_classification(state: State, players: Mapping[str, str]) -> RenderableType:
    """The final (or current) classification: places, team points, medals, trophy or
    the solo score (MC-8, MC-9.4)."""
    result = state.result
    lines: list[RenderableType] = []
    if state.is_over:
        title = "Final classification"
    else:
        title = "Standing in setup" if state.round == 0 else f"Standing in round {state.round}"
        title += " (the race is not finished)"
    lines.append(Text(title, "bold underline"))
    for place, rid in enumerate(result.places, start=1):
        line = Text(f"{place:>3}. ")
        line.append(rid, TEAM_STYLES.get(rid[0], ""))
        line.append(f"  {TYPE_NAMES[rid[1]]:<10}  team {rid[0]}  {place_points(place):>2} pts")
        lines.append(line)
    if not result.places:
        lines.append(Text("  nobody has crossed the finish line"))
    if state.solo:
        if result.solo_score is not None:
            rounds, remaining = result.solo_score
            lines.append(Text(f"Solo score: {rounds} rounds, remaining {remaining}", "bold"))
        return Group(*lines)
    lines.append(Text(""))
    lines.append(Text("Teams", "bold"))
    for team in state.players:
        medals = [
            name for k, name in MEDAL_NAMES.items() if _holder(k, result.medals.get(k)) == team
        ]
        line = Text("  ")
        line.append_text(team_text(team, players))
        line.append(f"  {result.points.get(team, 0):>3} pts  medals: {', '.join(medals) or '-'}")
        lines.append(line)
    for key, name in MEDAL_NAMES.items():
        lines.append(Text(f"{name}: {result.medals.get(key, '-')}"))
    if result.trophy is not None:
        trophy = Text("Trophy (Best Mind Cycling Manager): ", "bold")
        trophy.append_text(team_text(result.trophy, players))
        lines.append(trophy)
    return Group(*lines)
