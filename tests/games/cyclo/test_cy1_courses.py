"""CY-1: track types, boards, courses, the velodrome and validation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.core import CourseError
from peloton.games import cyclo as cy
from peloton.games.cyclo.board import BoardError
from peloton.games.cyclo.terrain import ROAD_TYPES, TERRAIN

from .helpers import at, legal, play


def test_cy_1_1_track_types() -> None:
    """Dice, adjustments, token panels S/C/H and what each type allows."""
    table = {
        "start": (2, 2, (2, 2, 2), True, True, True),
        "flat": (2, 2, (2, 2, 2), True, True, True),
        "climb": (1, 1, (0, 2, 1), False, False, True),
        "top": (3, 3, (1, 1, 1), True, True, True),
        "cobbles": (2, 2, (1, 1, 2), False, False, False),
        "slope": (1, 1, (1, 1, 1), False, False, False),
        "end": (2, 2, (2, 2, 2), True, True, True),
        "lastkm": (2, 3, (2, 1, 1), True, True, True),
        "track": (2, 2, (2, 2, 2), True, True, True),
    }
    for name, (dice, sprinter, panels, wheel, swap, hold) in table.items():
        t = TERRAIN[name]
        assert (t.dice, t.dice_for("sprinter"), t.panels, t.wheel, t.swap, t.hold_back) == (
            dice,
            sprinter,
            panels,
            wheel,
            swap,
            hold,
        ), name
    assert TERRAIN["climb"].climber_bonus == 1 and TERRAIN["cobbles"].dark_back == 3
    assert TERRAIN["slope"].dark_back == 1 and "track" not in ROAD_TYPES


def test_cy_1_1_the_type_where_a_ride_starts_fixes_the_dice() -> None:
    """From a top (3 dice) the roll has 56 outcomes; from the flat after it, 21."""
    flat = at("3 AH1:a24", course="italian-4", level="starter")  # A1's flat; C2's top is 47-52
    assert len(flat.legal_moves()) == 21
    assert len(at("3 AH1:a48", course="italian-4").legal_moves()) == 56


def test_cy_1_2_board_keys_toml_and_json(tmp_path: Path) -> None:
    """CY-1.2: a board is data; TOML and JSON take the same keys (the F2 example);
    spaces are numbered from 1 in travel order, ``runs`` laid end to end; a line
    ``[k, …]`` lies between spaces k and k+1; ``finish`` defaults to false."""
    keys = {
        "name": "F2",
        "runs": [["flat", 2, 3], ["slope", 8, 2], ["end", 4, 3], ["cobbles", 10, 2], ["end", 6, 3]],
        "dark": [5, 8, 17, 20, 23],
        "events": [7, 13, 21],
        "lines": [[10, "mountain", "3"]],
    }
    board = cy.Board.from_dict(keys)
    assert board == cy.Board.load("F2") and board.to_dict() == keys
    (tmp_path / "f2.json").write_text(json.dumps(keys))
    assert cy.Board.from_file(tmp_path / "f2.json") == board
    assert cy.Board.load(str(tmp_path / "f2.json")) == board
    (tmp_path / "f2.toml").write_text(
        'name = "F2"\n'
        'runs = [["flat", 2, 3], ["slope", 8, 2], ["end", 4, 3], ["cobbles", 10, 2], ["end", 6, 3]]\n'
        'dark = [5, 8, 17, 20, 23]\nevents = [7, 13, 21]\nlines = [[10, "mountain", "3"]]\n'
    )
    assert (
        cy.Board.from_file(tmp_path / "f2.toml")
        == board
        == cy.Board.load(str(tmp_path / "f2.toml"))
    )
    assert (
        len(board) == 30 and board.kind(3) == "slope" and board.width(3) == 2 and not board.finish
    )
    spaces = [(board.kind(k), board.width(k)) for k in range(1, 31)]
    assert spaces == (
        [("flat", 3)] * 2
        + [("slope", 2)] * 8
        + [("end", 3)] * 4
        + [("cobbles", 2)] * 10
        + [("end", 3)] * 6
    )
    assert [(line.after, line.kind, line.category) for line in board.lines] == [
        (10, "mountain", "3")
    ]
    finish = cy.Board.from_dict({"name": "G", "runs": [["flat", 5, 3]], "finish": True})
    assert finish.finish and finish.to_dict()["finish"] is True
    # the mountain line after F2's space 10 is crossed moving from 10 (a slope) to 11
    leg = play(
        at("3 AH1:a70", "leg", level="starter"), "roll:1", "AH1-71"
    )  # F2 is 61-90 of flemish-4
    assert leg.position.lists[1] == ["AH1"]


def test_cy_1_3_bundled_boards() -> None:
    """CY-1.3: twelve boards of 30 spaces; E2 is corrected: no last km, 2 dice for
    everyone."""
    assert cy.bundled_boards() == [
        "A1",
        "A2",
        "B1",
        "B2",
        "C1",
        "C2",
        "D1",
        "D2",
        "E1",
        "E2",
        "F1",
        "F2",
    ]
    for name in cy.bundled_boards():
        assert len(cy.Board.load(name)) == 30
    e2 = cy.Board.load("E2")
    assert e2.finish and "lastkm" not in e2.kinds and e2.events == (6,)
    assert [(r.type, r.count, r.width) for r in e2.runs] == [("end", 10, 3), ("flat", 20, 4)]
    assert cy.Board.load("E1").finish and not cy.Board.load("A1").finish
    assert cy.Board.load("D1").lines[0].category == "HC"


#: CY-1.3's table of bundled boards: runs (type, count, width), dark, lines, events.
BUNDLED: dict[str, tuple[list[tuple[str, int, int]], list[int], list[list[object]], list[int]]] = {
    "A1": ([("start", 6, 4), ("flat", 24, 3)], [], [], [20]),
    "A2": (
        [("flat", 4, 3), ("cobbles", 18, 2), ("end", 8, 3)],
        [7, 10, 13, 16, 19, 22],
        [],
        [12, 26],
    ),
    "B1": (
        [("flat", 4, 3), ("climb", 16, 2), ("top", 6, 3), ("flat", 4, 3)],
        [],
        [[20, "mountain", "1"]],
        [12],
    ),
    "B2": (
        [("flat", 8, 3), ("climb", 8, 2), ("top", 6, 3), ("flat", 8, 3)],
        [],
        [[16, "mountain", "3"]],
        [24],
    ),
    "C1": ([("flat", 30, 3)], [], [[15, "sprint"]], [8, 22]),
    "C2": (
        [("flat", 4, 3), ("climb", 12, 2), ("top", 6, 3), ("flat", 8, 3)],
        [],
        [[16, "mountain", "2"]],
        [10],
    ),
    "D1": (
        [("flat", 2, 3), ("climb", 20, 2), ("top", 6, 3), ("flat", 2, 3)],
        [],
        [[22, "mountain", "HC"]],
        [14],
    ),
    "D2": ([("flat", 30, 3)], [], [[20, "sprint"]], [12, 27]),
    "E1": ([("flat", 10, 3), ("lastkm", 20, 3)], [], [], [5, 18]),
    "E2": ([("end", 10, 3), ("flat", 20, 4)], [], [], [6]),
    "F1": (
        [("flat", 3, 3), ("cobbles", 10, 2), ("end", 4, 3), ("slope", 8, 2), ("end", 5, 3)],
        [6, 9, 12, 20, 23],
        [[25, "mountain", "3"]],
        [10, 21],
    ),
    "F2": (
        [("flat", 2, 3), ("slope", 8, 2), ("end", 4, 3), ("cobbles", 10, 2), ("end", 6, 3)],
        [5, 8, 17, 20, 23],
        [[10, "mountain", "3"]],
        [7, 13, 21],
    ),
}


def test_cy_1_3_every_bundled_board_as_the_table_says() -> None:
    """CY-1.3: runs, dark squares, lines and event spaces of each bundled board; only
    E1 and E2 put the finish line after their last space."""
    assert sorted(BUNDLED) == cy.bundled_boards()
    for name, (runs, dark, lines, events) in BUNDLED.items():
        board = cy.Board.load(name)
        assert [(r.type, r.count, r.width) for r in board.runs] == runs, name
        assert list(board.dark) == dark and list(board.events) == events, name
        assert [line.to_list() for line in board.lines] == lines, name
        assert board.finish == (name in ("E1", "E2")), name
        assert len(board) == 30, name


def test_cy_1_4_course_numbering_and_run_out() -> None:
    """Boards end to end numbered 1 … N; ``start`` drops spaces; the run-out N+1 … N+9."""
    course = cy.Course.load("flemish-4")
    assert course.length == 120 and len(course.boards) == 4
    assert course.kind(1) == "start" and course.kind(7) == "flat" and course.kind(101) == "lastkm"
    assert course.board_at(61) == "F2" and course.is_event(20) and course.is_event(108)
    assert course.widths[121] > 24 and course.kinds[129] == "lastkm"  # run-out: unlimited
    prologue = cy.Course.load("prologue")
    assert (
        prologue.length == 20 and prologue.kind(1) == "lastkm" and prologue.is_event(8)
    )  # E1's 18
    # no move goes past #9 (a sprinter on 119 with 3 sixes and an attack)
    state = play(at("3 AS1:a119*4 / A*4"), "roll:6,6,6")
    targets = {m.split("-")[1].split("/")[0] for m in legal(state)}
    assert targets == {"120", *(f"#{k}" for k in range(1, 10))}
    assert {"AS1-#9", "AS1-#9/r", "AS1-#9/rr"} <= legal(state)


def test_cy_1_5_bundled_courses_and_defaults() -> None:
    """CY-1.5: the bundled courses and their boards; the prologue starts on E1's space
    11, its last km; the default course of each mode, the velodrome for the track."""
    boards = {
        "italian-4": "A1 C2 B2 E1",
        "italian-5": "A1 D2 C2 B2 E1",
        "flemish-4": "A1 C1 F2 E1",
        "flemish-5": "A1 C1 A2 F2 E1",
        "french-4": "A1 C1 A2 E2",
        "french-5": "A1 D2 C1 A2 E2",
        "flat-stage": "A1 D2 C1 E1",
        "mountain-stage": "A1 C2 D1 B1 E1",
        "cobble-stage": "A1 F1 A2 E2",
        "prologue": "E1",
        "ttt": "A1 C1 E1",
    }
    assert cy.bundled_courses() == sorted([*boards, "velodrome"])
    for name, listed in boards.items():
        assert " ".join(b.name for b in cy.Course.load(name).boards) == listed
    assert cy.Course.load("prologue").start == 11
    assert cy.new_game("classic").setup.course.name == "flemish-4"
    assert cy.new_game("leg").setup.course.name == "flat-stage"
    assert cy.MODES["itt"].course == "prologue" and cy.MODES["ttt"].course == "ttt"
    assert all(m.course == "velodrome" for m in cy.MODES.values() if not m.road)
    assert {name for name, m in cy.MODES.items() if m.road} == {"classic", "leg", "itt", "ttt"}
    assert cy.new_game("itt", players=1).setup.course.name == "prologue"
    assert cy.new_game("ttt", players=1).setup.course.name == "ttt"


def test_cy_1_6_velodrome() -> None:
    """CY-1.6: the velodrome is ``{"name": "velodrome", "lap": 20, "width": 4}``; its
    spaces are of type ``track``, with no dark squares (loop spaces and race distances
    come with the track modes)."""
    track = cy.Course.load("velodrome")
    assert track.is_track and (track.lap, track.width) == (20, 4) and not track.boards
    assert track.to_dict() == {"name": "velodrome", "lap": 20, "width": 4}
    assert cy.Course.from_dict({"name": "velodrome", "lap": 20, "width": 4}) == track
    assert TERRAIN["track"].dark_back == 0 and TERRAIN["track"].dice == 2


def problems(data: object, kind: type = cy.Course) -> list[str]:
    with pytest.raises(CourseError) as info:
        kind.from_dict(data)  # type: ignore[attr-defined]
    return info.value.problems


def test_cy_1_7_board_validation_lists_every_problem() -> None:
    found = problems(
        {
            "name": "bad board!",
            "colour": "red",
            "runs": [["flat", 2, 3], ["start", 0, 5], ["track", 3, 2], ["climb", 70, 2]],
            "dark": [1, 1, 99],
            "events": [3, 3, 0],
            "lines": [[1, "mountain", "4"], [1, "sprint"], [80, "kom"]],
            "finish": "yes",
        },
        cy.Board,
    )
    text = "\n".join(found)
    for part in (
        "unknown key(s) 'colour'",
        "name must be 1-16",
        "width 5",
        "count 0",
        "unknown road type 'track'",
        "75 spaces",
        "start run 2 comes after",
        "dark space 1 is listed twice",
        "dark space 99 is outside",
        "dark space 1 is on flat",
        "event space 3 is listed twice",
        "event space 0 is outside",
        "two lines after space 1",
        "unknown category '4'",
        "follows flat",
        "unknown kind 'kom'",
        "a line after space 80",
        "'finish' must be true or false",
    ):
        assert part in text, part
    assert all("bad board!" in p for p in found)
    with pytest.raises(BoardError, match="no runs"):
        cy.Board.from_dict({"name": "X", "runs": []})
    assert "on a start space" in "".join(
        problems({"name": "S", "runs": [["start", 3, 4]], "events": [2]}, cy.Board)
    )


def test_cy_1_7_course_validation_lists_every_problem() -> None:
    found = "\n".join(
        problems(
            {
                "name": "mine",
                "boards": ["A1", "E1", "A1", "Z9", {"name": "Q", "runs": []}],
                "start": 2,
                "extra": 1,
            }
        )
    )
    for part in (
        "unknown key(s) 'extra'",
        "unknown board 'Z9'",
        "uses board 'A1' twice",
        "'Q' has no runs",
    ):
        assert part in found, part
    order = "\n".join(problems({"name": "order", "boards": ["E1", "A1"]}))
    assert (
        "'A1' has no finish line" in order and "'E1' has the finish line but is not last" in order
    )
    assert "'A1' has start spaces but is not first" in order
    assert "outside its first board" in "".join(
        problems({"name": "s", "boards": ["E1"], "start": 31})
    )
    assert "has 0 boards" in "".join(problems({"name": "none", "boards": []}))
    many = ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1"]
    assert "has 9 boards" in "".join(problems({"name": "many", "boards": many}))
    track = "\n".join(problems({"name": "v", "lap": 21, "width": 7}))
    assert "lap is 21" in track and "width is 7" in track
    assert "lap is 8" in "".join(problems({"name": "v", "lap": 8, "width": 4}))


def test_cy_1_7_course_against_the_mode() -> None:
    with pytest.raises(CourseError, match="only time trials may set 'start'"):
        cy.new_game("classic", course="prologue")
    with pytest.raises(CourseError, match="is the velodrome"):
        cy.new_game("leg", course="velodrome")
    assert (
        cy.new_game("classic", course={"name": "short", "boards": ["A1", "E2"]}).setup.finish == 60
    )
