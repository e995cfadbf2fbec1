"""The Rich board: riders, wind and train marks, bottles, sections, tokens, window."""

from __future__ import annotations

import re

from peloton.bots import make_bot, play_out
from peloton.games import mindcycling as mc
from peloton.terminal.board import render_board, visible_rows
from peloton.terminal.panel import render_classification, render_panel, render_view
from peloton.terminal.prompt import destination_marks

from .helpers import EXAMPLE_MCN, Recorder


def board_lines(course: mc.Course, state: mc.State | None = None, **kw: object) -> dict[int, str]:
    """Row number -> that row's line of the drawn board."""
    text = render_board(course, state, **kw).plain  # type: ignore[arg-type]
    rows = {}
    for line in text.splitlines():
        m = re.match(r"\s*(\d+) ", line)
        if m and "┃" in line:
            rows[int(m.group(1))] = line
    return rows


def test_riders_show_team_type_bottle_and_wind_mc_5_4() -> None:
    state = mc.from_mcn("standard", EXAMPLE_MCN)
    rows = board_lines(state.course, state)
    # AD1 (c12) and BD1 (d13) have nobody straight ahead: against the wind; both
    # domestiques hold their bottle.
    assert "~AD1+" in rows[12]
    assert "~BD1+" in rows[13]
    # AS1 sits behind AD1 and BS1 behind BD1: sheltered, linked to the rider ahead.
    assert "↑AS1 " in rows[11]
    assert "↑BS1 " in rows[12]
    # Lanes are drawn left to right: a, b, c, d, e.
    assert rows[12].index("AD1") < rows[12].index("BS1")


def test_expert_wind_links_point_diagonally_mc_5_5() -> None:
    # With wind from the left, AS1's shelter square is b12 (one row ahead, one lane
    # to the left), where AD1 stands.
    state = mc.from_mcn(
        "standard", "3 AC1:a9,AD1:b12+,AS1:c11,BC1:e8,BD1:d13+,BS1:d12 / - / -", wind="left"
    )
    assert state.assessment("AS1").leader == "AD1"  # type: ignore[union-attr]
    rows = board_lines(state.course, state)
    assert "↖AS1" in rows[11]
    assert "~BS1" in rows[12]  # c13 is empty: no shelter for BS1 in this wind


def test_finish_line_on_top_and_hidden_rows_name_the_tabs_mc_1_2() -> None:
    state = mc.from_mcn("standard", EXAMPLE_MCN)
    text = render_board(state.course, state).plain
    lines = text.splitlines()
    assert "FINISH" in lines[1] and lines[1].lstrip().startswith("67")
    # The window ends 10 rows above the leader (row 13): rows 24 to 66 are folded
    # into one line naming the sprint, plain and mountain tabs they contain.
    assert "rows 24-66: S27 P37 M49" in text
    rows = board_lines(state.course, state)
    assert max(rows) == 23 and min(rows) == 7
    assert "rows 1-6" in lines[-1]
    assert visible_rows(state.course, state) == (7, 23)


def test_whole_course_with_tabs_feed_and_rocks_mc_1_2() -> None:
    course = mc.Course.load("solo")
    rows = board_lines(course, full=True)
    assert sorted(rows) == list(range(1, course.finish))
    assert "MOUNTAIN" in rows[36] and "SPRINT" in rows[15] and "PLAIN" in rows[24]
    assert "start" in rows[2]
    for rock in course.rocks:  # b39, d42, a45, c48, e52, b56
        row, lane = int(rock[1:]), "abcde".index(rock[0])
        cells = rows[row].split("┃")[1]
        assert cells[lane * 6 : lane * 6 + 5] == " ^^^ ", rock
    assert "  F  " in rows[29] and "  F  " in rows[33]
    assert "^^^" not in rows[40] and "F" not in rows[40]


def test_marks_show_reachable_and_attack_only_squares_mc_7_2() -> None:
    # BD1 (d13, plain, against the wind, bottle) may ride 6 rows or attack 9.
    state = mc.from_mcn("standard", EXAMPLE_MCN)
    marks = destination_marks(state)
    assert marks["d19"] == "o" and marks["d22"] == "!" and "d23" not in marks
    rows = board_lines(state.course, state, marks=marks)
    assert rows[19].count(" o ") == 5
    assert rows[22].count(" ! ") == 5


def test_current_rider_and_panel() -> None:
    state = mc.from_mcn("standard", EXAMPLE_MCN)
    out = Recorder()
    out.console.print(render_panel(state, {"A": "human", "B": "greedy"}))
    assert "round 3 · wind front" in out.text
    assert "to play: BD1 B (greedy)" in out.text
    assert "A (human)" in out.text


def test_panel_and_classification_after_a_finish_mc_8_3() -> None:
    state = mc.from_mcn("short", "9 AC1:b40,AD1:c41,BC1:e38,BD1:d41+ / AS1,BS1 / sprint=AS1")
    out = Recorder()
    out.console.print(render_view(state, {"A": "greedy", "B": "random"}))
    assert " 1 AS1" in out.text and " 2 BS1" in out.text
    assert re.search(r"Best Sprinter\s+AS1", out.text)
    out.console.print(render_classification(state, {"A": "greedy", "B": "random"}))
    assert "  1. AS1  sprinter    team A  12 pts" in out.text
    assert "  2. BS1  sprinter    team B  11 pts" in out.text
    assert "(the race is not finished)" in out.text


def test_no_wind_marks_once_the_race_is_over_mc_8_5() -> None:
    # Six greedy teams on the standard course: the race ends early (twelve across and
    # both section medals given) with riders still on the road.
    state = mc.new_game("standard", mc.default_teams(6, 6))
    play_out(state, {team: make_bot("greedy", i) for i, team in enumerate(state.players)})
    on_road = [r for r in state.riders() if r.square is not None]
    assert state.is_over and on_road
    text = render_board(state.course, state).plain
    for rider in on_road:
        assert f" {rider.id}" in text
    assert not re.search(r"[~↑↖↗][A-G][DSC]\d", text)
