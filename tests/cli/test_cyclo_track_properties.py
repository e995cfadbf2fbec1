"""Properties of the velodrome's terminal drawing over random track positions
(Hypothesis): at any width the lap is drawn whole, every space once, and every rider
on the loop is drawn exactly once, on its loop space (CY-1.6, CY-19.1) and lane, with
its laps; riders of different worlds sharing a square are counted there."""

from __future__ import annotations

import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.terminal.cyclo_track import CELL, MARGIN, Lap

TRACK_MODES = sorted(m for m in cy.AVAILABLE if not cy.MODES[m].road)
SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹"


@st.composite
def positions(draw: st.DrawFn) -> cy.State:
    """A track event after some random legal play."""
    mode = draw(st.sampled_from(TRACK_MODES))
    low, high = cy.MODES[mode].teams
    options: dict[str, object] = {"mode": mode, "players": draw(st.integers(max(low, 2), high))}
    if cy.MODES[mode].riders is None:
        options["entries"] = draw(st.integers(1, 2))
        if mode == "elimination" and options["players"] == 2:
            options["entries"] = 2
    options["level"] = draw(st.sampled_from(["pro", "starter"]))
    state = cy.from_options(options)
    seed = draw(st.integers(0, 10**6))
    dice, pick = Rng(seed), Rng(seed + 1)
    for _ in range(draw(st.integers(0, 120))):
        if state.is_over:
            break
        state.play(state.chance_move(dice) if state.is_chance else pick.choice(state.legal_moves()))
    return state


def lap_text(state: cy.State, width: int) -> str:
    console = Console(width=width, color_system=None, highlight=False)
    with console.capture() as capture:
        console.print(Lap(cy.snapshot(state)))
    return capture.get()


@settings(max_examples=40, deadline=None)
@given(positions(), st.integers(40, 160))
def test_every_rider_on_the_loop_is_drawn_once_where_it_stands(state: cy.State, width: int) -> None:
    data = cy.snapshot(state)
    lap, distance = data["track"]["lap"], data["track"]["distance"]
    lines = lap_text(state, width).splitlines()
    assert all(len(line) <= width for line in lines)
    # Every loop space is numbered once, in order, across the bands.
    numbers = [
        int(n)
        for line in lines
        if re.match(r"^ {3}[┃ ] +1?\d", line)
        for n in re.findall(r"\d+", line)
    ]
    assert numbers == list(range(1, lap + 1))
    # A band: its numbers row, then one row a lane; a space's cell is 5 wide.
    cells: Counter[tuple[int, int]] = Counter()
    drawn: dict[str, tuple[int, int]] = {}
    shared: Counter[tuple[int, int]] = Counter()
    for i, line in enumerate(lines):
        if not re.match(r"^ {3}[┃ ] +1?\d", line):
            continue
        spaces = [int(n) for n in re.findall(r"\d+", line)]
        for lane in range(data["track"]["width"]):
            row = lines[i + 1 + lane]
            assert row.startswith(f" {chr(97 + lane)} ")
            for k, space in enumerate(spaces):
                cell = row[MARGIN + k * CELL + 1 : MARGIN + (k + 1) * CELL]
                cells[(space, lane)] += 1
                found = re.fullmatch(rf"([A-F][SCH][12])([{SUPER}]+)", cell)
                if found:
                    drawn[found.group(1)] = (space, lane)
                    laps = int("".join(str(SUPER.index(c)) for c in found.group(2)))
                    rider = next(r for r in data["riders"] if r["id"] == found.group(1))
                    assert laps == min(rider["position"], distance) // lap
                elif cell.startswith("×"):
                    shared[(space, lane)] = int(cell[1:])
                else:
                    assert cell.strip() == "·", cell
    width_ = data["track"]["width"]
    assert set(cells) == {(s, lane) for s in range(1, lap + 1) for lane in range(width_)}
    assert set(cells.values()) == {1}
    on_loop = [
        r for r in data["riders"] if r["position"] is not None and 1 <= r["position"] <= distance
    ]
    at: Counter[tuple[int, int]] = Counter(
        ((r["position"] - 1) % lap + 1, ord(r["lane"]) - 97) for r in on_loop
    )
    for r in on_loop:
        square = ((r["position"] - 1) % lap + 1, ord(r["lane"]) - 97)
        if at[square] == 1:
            assert drawn[r["id"]] == square, r
        else:
            assert shared[square] == at[square], (r, at[square])
    assert len(drawn) == sum(1 for n in at.values() if n == 1)
