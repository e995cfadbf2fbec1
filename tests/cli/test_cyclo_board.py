"""Cyclo's board at the terminal: the course strip (spaces by track type and width,
dark squares, event spaces, lines, the run-out, riders by team, the window around the
riders that matter) and the panels (tokens, flags, order, dice, card, lists)."""

from __future__ import annotations

import re

from rich.console import Console
from rich.segment import Segment

from peloton.games import cyclo as cy
from peloton.terminal.cyclo_board import TEAM_STYLES, TYPE_STYLES, Extras, Strip
from peloton.terminal.games import FULL_VIEW, terminal_game

from .helpers import Recorder

PLAYERS = {"A": "human", "B": "greedy", "C": "random"}


def drawn(state: cy.State, width: int = 100) -> str:
    """The whole board of ``state`` as plain text."""
    out = Recorder(width)
    out.console.print(terminal_game("cyclo").render(state, PLAYERS, FULL_VIEW))
    return out.text


def strip_rows(state: cy.State, width: int = 100) -> list[str]:
    out = Recorder(width)
    out.console.print(Strip(cy.snapshot(state)))
    return out.text.splitlines()


def numbered(rows: list[str], label: str) -> tuple[int, int]:
    """The row numbering position ``label`` and the text column of its last digit."""
    for i, row in enumerate(rows):
        match = re.search(rf"(?<![\d#]){re.escape(label)}(?=[ ┃]|$)", row)
        if match and re.fullmatch(r"[\s\d#┃]+", row):
            return i, match.end() - 1
    raise AssertionError(f"no number {label} in {rows}")


def column(rows: list[str], label: str) -> int:
    """The text column under which position ``label`` is numbered (its last digit)."""
    return numbered(rows, label)[1]


def under(rows: list[str], label: str, lane: str) -> str:
    """The three characters drawn in lane ``lane`` of the space numbered ``label``."""
    at, end = numbered(rows, label)
    row = next(r for r in rows[at:] if r.startswith(f" {lane} "))
    return row[end - 2 : end + 1]


# ---------------------------------------------------------------- the strip


def test_spaces_lanes_riders_and_dark_squares_cy_18_2() -> None:
    state = cy.from_cyn("3 AH1:a75*4 / A*4", course="flemish-4")
    rows = strip_rows(state)
    assert under(rows, "75", "a") == "AH1"
    assert under(rows, "76", "a") == " · " and under(rows, "76", "b") == " · "
    # 77 is a dark square of the cobbles (2 lanes); the end before them has 3 lanes.
    assert under(rows, "77", "a") == " ▪ " and under(rows, "77", "b") == " ▪ "
    assert under(rows, "77", "c") == "   " and under(rows, "74", "c") == " · "
    ground = next(r for r in rows if "cobbles" in r)
    assert ground.index("cobbles") == column(rows, "75") - 2 and "end" in ground
    marks = rows[rows.index(ground) + 1]
    assert (
        marks[column(rows, "77") - 1] == "▪" and marks[column(rows, "81") - 1] == "?"
    )  # F2's event on 81


def test_lines_are_drawn_between_spaces_with_their_names() -> None:
    state = cy.from_cyn("9 AH1:a69*4,BC1:a70*4 / A*4,B*3", course="flemish-4")
    rows = strip_rows(state)
    names = next(r for r in rows if "mountain 3" in r)
    glyph = names.index("┃mountain 3")
    # The line after 70 is drawn left of 71, in the label row, the numbers and every lane.
    assert glyph == column(rows, "71") - 3
    assert all(r[glyph] == "┃" for r in rows if r.startswith((" a ", " b ")))
    assert under(rows, "69", "a") == "AH1" and under(rows, "70", "a") == "BC1"


def test_the_window_runs_from_the_last_rider_and_sums_up_empty_road() -> None:
    state = cy.from_cyn("3 AH1:a75*4,AS1:a20*4,BS1:b116 / A*4", course="flemish-4")
    rows = strip_rows(state)
    assert rows[0].split()[0] == "19"  # not from the start: from the last rider
    text = " ".join("\n".join(rows).split())
    assert (
        "⋯ 23-72: flat 23-62, slope 63-70, end 71-72 · dark 65 68 · events 38 52 67 · sprint after 45 · "
        "mountain 3 after 70 ⋯" in text
    )
    assert (
        "⋯ 78-113: cobbles 78-84, end 85-90, flat 91-100, last km 101-113 · dark 80 83 · events 81 95 108 ⋯"
        in text
    )
    # The last band reaches the finish line and the run-out, numbered #1 … #9.
    assert "┃finish" in text and all(f"#{k}" in text for k in range(1, 10))
    assert under(rows, "116", "b") == "BS1"


def test_bands_fit_the_terminal_width() -> None:
    state = cy.new_game("classic", players=2, level="starter")
    for width in (60, 100, 140):
        rows = strip_rows(state, width)
        assert max(len(r) for r in rows) <= width
        per_band = (width - 4) // 4
        assert rows[0].split()[-1] == str(per_band)  # the first band: 1 … per_band


def test_the_reach_of_the_rider_due_is_drawn() -> None:
    state = cy.from_cyn("3 AH1:a20*4 / A*4", course="flemish-4")
    state.play("roll:6,6")  # AH1 may attack to 44: the strip runs on past its band
    assert strip_rows(state, 100)[0].split()[-1] == "42"
    assert re.search(r"^ +43  44 ", drawn(state, 100), flags=re.M)
    out = Recorder(100)
    out.console.print(Strip(cy.snapshot(state), Extras(reach=70)))
    assert "┃mountain 3" in out.text


def test_riders_of_different_worlds_share_a_square_in_a_time_trial() -> None:
    state = cy.new_game("ttt", players=2, level="starter")
    for move in ("roll:3,4", "AS1-7"):
        state.play(move)
    while state.due != "BS1":
        state.play(state.legal_moves()[0] if not state.is_chance else "roll:1,1")
    state.play("roll:3,4")
    state.play("BS1-7")
    rows = strip_rows(state)
    assert under(rows, "7", "a") == "×2 "


def test_track_types_riders_and_the_rider_due_in_colour() -> None:
    state = cy.from_cyn("3 AH1:a75*4,BS1:a62 / A*4", course="flemish-4")
    console = Console(width=100, color_system="truecolor", file=None)
    segments = list(console.render(Strip(cy.snapshot(state))))
    styles = {
        s.text: s.style for s in segments if isinstance(s, Segment) and s.text in ("AH1", "BS1")
    }
    cobbles = console.get_style(TYPE_STYLES["cobbles"]).bgcolor
    flat = console.get_style(TYPE_STYLES["flat"]).bgcolor
    assert styles["AH1"] is not None and styles["AH1"].bgcolor == cobbles
    assert styles["BS1"] is not None and styles["BS1"].bgcolor == flat and cobbles != flat
    assert styles["AH1"].color == console.get_style(TEAM_STYLES["A"]).color
    assert styles["BS1"].color == console.get_style(TEAM_STYLES["B"]).color
    due = state.due
    assert due == "AH1" and styles["AH1"].reverse and not styles["BS1"].reverse
    assert len({console.get_style(style).bgcolor for style in TYPE_STYLES.values()}) == len(
        TYPE_STYLES
    )


# ---------------------------------------------------------------- the panels


def test_the_start_line_teams_tokens_and_order() -> None:
    text = drawn(cy.new_game("classic", players=3, seed=1))
    assert (
        "Cyclo · classic · Pro · flemish-4 (A1 C1 F2 E1, finish after 120) · round 1 · event cards"
        in text
    )
    assert "on the start line (0): AS1 BS1 CS1 AC1 BC1 CC1 AH1 BH1 CH1 AH2 BH2 CH2" in text
    assert re.search(
        r"^team A \(human\) +4 +AS1 a0 \*4 +AC1 d0 \*4 +AH1 g0 \*4 +AH2 j0 \*4$", text, flags=re.M
    )
    assert re.search(r"^team C \(random\) +4 +CS1 c0 \*4 ", text, flags=re.M)
    assert "round 1 order: ▶AS1 AC1 AH1 AH2 BS1 BC1 BH1 BH2 CS1 CC1 CH1 CH2" in text
    assert "event cards: none drawn yet, 24 of 24 left" in text


def test_flags_points_dice_and_the_last_card() -> None:
    # A leg with cards: BC1 and AH1 have sprint points; CC1 has lost its next turn.
    cyn = "9 AH1:a69*4+3,BC1:a70*4+5,CC1:a60s / A*4,B*3,C*2 / - / 1=BC1+AH1 / moto,puncture"
    state = cy.from_cyn(cyn, "leg", course="flemish-4", events=True)
    state.play("roll:3")  # BC1 on the slope rolls one die
    text = drawn(state)
    assert re.search(r"BC1 a70 \*4 \+5 \^0", text) and re.search(r"CC1 a60 s \+0 \^0", text)
    assert "dice: ⚂  3 = 3 (BC1's roll)" in text
    assert "event cards: 22 of 24 left" in text  # moto and puncture were drawn before
    assert "sprint after 45: BC1, AH1" in text and "mountain 3 after 70: nobody yet" in text
    assert "green (points): BC1 5, AH1 3" in text
    state.play("BC1-73")  # 73: an event space of F2
    state.play("draw:moto")
    text = drawn(state, 140)
    assert (
        "last card: television motorbike (moto): forward 4 · drawn by BC1 · 21 of 24 cards left"
        in text
    )


def test_a_finisher_shows_its_place_run_out_square_and_time() -> None:
    state = cy.from_cyn("14 AH1:a118*2,BH1:a110 / A*1 / - / - / -", "leg", course="flemish-4")
    state.play("roll:4,5")
    state.play("AH1-#7")
    text = drawn(state)
    assert re.search(r"AH1 a#7 \*2", text)  # waiting on the run-out until the round ends
    state.play("roll:1,1")
    state.play("BH1-112")
    text = drawn(state)
    assert "AH1 1st #7 0 s" in text and "finish line: 1. AH1 #7" in text
    assert "race over" not in text


def test_the_board_in_the_docs_is_drawn_as_shown() -> None:
    from pathlib import Path

    from peloton.terminal.turn import numbered

    doc = (Path(__file__).resolve().parents[2] / "docs" / "cyclo.md").read_text()
    section = doc[doc.index("## In the terminal") :]
    shown = section[
        section.index("```text\n") + 8 : section.index("\n```", section.index("```text"))
    ]
    cyn = re.search(r"at position `([^`]+)`", section)
    after = re.search(r"after `([^`]+)`", section)
    assert cyn and after
    state = cy.from_cyn(cyn.group(1), course="flemish-4")
    for move in after.group(1).split():
        state.play(move)
    game = terminal_game("cyclo")
    out = Recorder(100)
    players = {"A": "human", "B": "greedy"}
    out.console.print(game.render(state, players, FULL_VIEW))
    out.console.print(game.describe(state, players))
    moves = game.order(state, state.legal_moves())
    out.console.print(numbered(moves, [game.label(state, m) for m in moves]))
    out.console.print(game.hint(state))
    assert [line.rstrip() for line in out.text.splitlines()] == shown.splitlines()
