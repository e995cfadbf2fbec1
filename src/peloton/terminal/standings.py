"""The standings of the track competitions at the terminal, shown between their
games: the omnium's points table, the sprint tournament's duels and the pursuit
series' times. Each view reads only the competition's ``standings`` (CY-12.6), so
the terminal shows exactly what a saved file holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..games import cyclo as cy
from .cyclo_board import team_style

#: The omnium's events in a column head.
EVENT_HEADS = {"scratch": "scratch", "elimination": "elim.", "tempo": "tempo",
               "points": "pts race"}  # fmt: skip


def race_time(seconds: int) -> str:
    """Seconds of race time as ``m:ss`` (negative with bonus seconds)."""
    sign = "-" if seconds < 0 else ""
    minutes, rest = divmod(abs(seconds), 60)
    return f"{sign}{minutes}:{rest:02d}"


def team_label(team: str, players: Mapping[str, str]) -> Text:
    """``A (greedy)``: a team and who rides it, in its colour."""
    who = players.get(team)
    return Text(f"{team} ({who})" if who else team, team_style(team))


def _table(columns: Sequence[tuple[str, str]]) -> Table:
    table = Table(box=None, padding=(0, 1), pad_edge=False)
    for column, justify in columns:
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    return table


def _head(text: str) -> Text:
    """A standings heading (on its own line: a narrow table would wrap it)."""
    return Text(text, "bold underline")


def omnium_view(omnium: cy.Omnium, players: Mapping[str, str]) -> RenderableType:
    """The points table: per rider the points of each event ridden (its place in
    brackets), the total and the gap to the leader; then the tokens saved."""
    standings = omnium.standings
    ridden, events = standings["ridden"], standings["events"]
    head = (
        "Final omnium standings"
        if omnium.is_over
        else f"Omnium standings after event {ridden} of {len(events)}"
    )
    columns = [("", "right"), ("rider", "left"), ("team", "left")]
    columns += [(EVENT_HEADS[event], "right") for event in events[:ridden]]
    table = _table([*columns, ("total", "right"), ("gap", "right")])
    for row in standings["table"]:
        rider = row["rider"]
        scored = [
            f"{points} ({place}.)" if event != "points" else f"{points}"
            for event, points, place in zip(events, row["events"], row["places"], strict=False)
        ]
        table.add_row(f"{row['rank']}.", Text(rider, team_style(rider[0])),
                      team_label(rider[0], players), *scored, str(row["points"]),
                      f"-{row['gap']}" if row["gap"] else "")  # fmt: skip
    lines: list[RenderableType] = [_head(head), table]
    saved = {r: n for r, n in sorted(standings["tokens"].items()) if n}
    if saved and not omnium.is_over:
        line = Text("Tokens saved for the next event: ", "bold")
        line.append(", ".join(f"{r} {n}" for r, n in saved.items()))
        lines.append(line)
    return Group(*lines)


def tournament_view(tournament: cy.SprintTournament, players: Mapping[str, str]) -> RenderableType:
    """The teams by duels and heats won, then every duel ridden: its heats' winners
    (a team sprint: both team times) and who took it."""
    standings = tournament.standings
    head = (
        "Final tournament standings"
        if tournament.is_over
        else f"Tournament standings after {standings['decided']} of {len(standings['duels'])} duels"
    )
    table = _table([("", "right"), ("team", "left"), ("duels", "right"),
                          ("heats", "right"), ("ridden", "right")])  # fmt: skip
    for row in standings["table"]:
        table.add_row(f"{row['rank']}.", team_label(row["team"], players), str(row["duels"]),
                      str(row["heats"]), str(row["ridden"]))  # fmt: skip
    lines: list[RenderableType] = [_head(head), table]
    for duel in standings["duels"]:
        if duel["heats"]:
            lines.append(_duel_line(duel, standings["mode"]))
    return Group(*lines)


def _duel_line(duel: Mapping[str, Any], mode: str) -> Text:
    a, b = duel["teams"]
    line = Text(f"{a} v {b}: ", "bold")
    heats = []
    timed = cy.MODES[mode].timed  # a team sprint's heats are ridden against the clock
    for heat in duel["heats"]:
        if timed:
            times = heat["times"]
            shown = " v ".join(
                "no time" if times[t] is None else race_time(times[t]) for t in (a, b)
            )
            heats.append(shown + ("" if heat["winner"] else " (tied: ridden again)"))
        else:
            heats.append(f"heat to {heat['winner']}")
    line.append(", ".join(heats))
    winner = duel["winner"]
    if winner is not None:
        line.append(" — duel to ")
        line.append(winner, team_style(winner))
        if not timed:  # a match sprint's duel is the best of its heats
            won = sum(1 for heat in duel["heats"] if heat["winner"] == winner)
            line.append(f" {won}–{len(duel['heats']) - won}")
    return line


def series_view(series: cy.PursuitSeries, players: Mapping[str, str]) -> RenderableType:
    """Qualifying times with the gap to the fastest, then the final (and its
    re-rides) and the series order."""
    standings = series.standings
    head = "Final series standings" if series.is_over else "Pursuit series standings"
    table = _table([("", "right"), ("team", "left"), ("qualifying", "right"),
                          ("gap", "right"), ("final", "right")])  # fmt: skip
    for row in standings["table"]:
        time, gap, final = row["time"], row["gap"], row["final"]
        table.add_row(f"{row['rank']}.", team_label(row["team"], players),
                      "-" if time is None else race_time(time),
                      f"+{race_time(gap)}" if gap else "",
                      "" if final is None else race_time(final))  # fmt: skip
    lines: list[RenderableType] = [_head(head), table]
    for i, final in enumerate(standings["finals"]):
        line = Text("Final" + (f" (ride {i + 1})" if len(standings["finals"]) > 1 else "") + ": ",
                    "bold")  # fmt: skip
        line.append(", ".join(
            f"{team} {'no time' if time is None else race_time(time)}"
            for team, time in final.items()
        ))  # fmt: skip
        lines.append(line)
    if (
        standings["next"]
        and len(standings["next"]) == 2
        and len(standings["qualifying"]) == len(standings["table"])
    ):
        lines.append(Text(f"Final next: {' v '.join(standings['next'])}", "bold"))
    return Group(*lines)
