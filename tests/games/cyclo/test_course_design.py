"""The Cyclo course builder's check (games/cyclo/course_design.py): each problem the
loader finds with its rule id and the board's position, the facts of the bundled
classics (tokens CY-2.4, modes CY-1.7), and a draft written as TOML read back as the
same course (CY-1.4)."""

from __future__ import annotations

import tomllib

import pytest

from peloton.core import registry
from peloton.core.offers import Editor
from peloton.games.cyclo import Course
from peloton.games.cyclo.course_design import (
    EDITOR,
    MAX_DRAFT_BOARDS,
    course_advice,
    course_problems,
    course_summary,
    course_toml,
    editable_draft,
    problem_place,
)

CLASSICS = {
    "italian-4": ["A1", "C2", "B2", "E1"],
    "italian-5": ["A1", "D2", "C2", "B2", "E1"],
    "french-4": ["A1", "C1", "A2", "E2"],
    "french-5": ["A1", "D2", "C1", "A2", "E2"],
    "flemish-4": ["A1", "C1", "F2", "E1"],
    "flemish-5": ["A1", "C1", "A2", "F2", "E1"],
}


def test_cyclo_declares_the_builder_as_its_editor() -> None:
    assert registry.get("cyclo").editor == "peloton.games.cyclo.course_design:EDITOR"
    assert isinstance(EDITOR, Editor) and EDITOR.page == "cyclo_editor.html"


def test_an_unknown_board_is_named_with_its_position_cy_1_7() -> None:
    problems = course_problems({"name": "x", "boards": ["A1", "Z9", "E1"]})
    assert len(problems) == 1
    assert problems[0].startswith("course 'x': unknown board 'Z9' (bundled: A1, A2,")
    assert problems[0].endswith("(CY-1.7; position 2)")
    assert problem_place(problems[0]) == {"row": 2, "square": None, "key": "boards"}


def test_a1_not_first_is_refused_where_it_lies_cy_1_7() -> None:
    problems = course_problems({"name": "x", "boards": ["C1", "A1", "E1"]})
    assert problems == [
        "course 'x': board 'A1' has start spaces but is not first (CY-1.7; position 2)"
    ]
    assert problem_place(problems[0])["row"] == 2


def test_a_board_the_box_holds_once_is_refused_twice_cy_1_7() -> None:
    problems = course_problems({"name": "x", "boards": ["A1", "C1", "D2", "C1", "E1"]})
    assert problems == ["course 'x' uses board 'C1' twice (CY-1.7; positions 2, 4)"]
    assert problem_place(problems[0])["row"] == 2
    # A1 and A2 are two boards of the box: both may be laid (french-4, flemish-5).
    assert course_problems({"name": "x", "boards": ["A1", "A2", "E1"]}) == []


def test_too_many_boards_and_none_cy_1_7() -> None:
    many = ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1"]
    assert course_problems({"name": "x", "boards": many}) == [
        "course 'x' has 9 boards, not 1-8 (CY-1.7)"
    ]
    assert course_problems({"name": "x", "boards": []}) == [
        "course 'x' has 0 boards, not 1-8 (CY-1.7)"
    ]
    assert problem_place("course 'x' has 0 boards, not 1-8 (CY-1.7)")["row"] is None


def test_the_finish_board_must_be_last_cy_1_7() -> None:
    problems = course_problems({"name": "x", "boards": ["A1", "E1", "C1"]})
    assert problems == [
        "course 'x': its last board 'C1' has no finish line (CY-1.7; position 3)",
        "course 'x': board 'E1' has the finish line but is not last (CY-1.7; position 2)",
    ]
    assert [problem_place(p)["row"] for p in problems] == [3, 2]


def test_name_start_and_unknown_keys_cite_their_rules_cy_1_4() -> None:
    problems = course_problems({"name": "", "boards": ["A1", "E1"], "start": 99, "laps": 2})
    assert problems == [
        "course '': 'name' must be a non-empty string (CY-1.4)",
        "course '': unknown key(s) 'laps' (allowed: name, boards, start) (CY-1.7)",
        "course '': 'start' 99 is outside its first board 'A1' (1-30) (CY-1.4; position 1)",
    ]
    assert [problem_place(p)["key"] for p in problems] == ["name", "file", "start"]


def test_a_name_that_reads_like_a_problem_is_not_read_as_one() -> None:
    for name in ("board 'E1' 'start'", "x (CY-1.4; position 5)"):
        problems = course_problems({"name": name, "boards": ["A1", "Z9", "E1"]})
        assert problem_place(problems[0]) == {"row": 2, "square": None, "key": "boards"}
    # Nor is a board's name, whatever it quotes.
    problems = course_problems({"name": "x", "boards": ["A1", "'start'", "E1"]})
    assert problems[0].endswith("(CY-1.7; position 2)")
    assert problem_place(problems[0])["key"] == "boards"


def test_a_value_of_the_wrong_type_is_a_problem_and_no_draft() -> None:
    problems = course_problems({"name": "x", "boards": "A1 E1"})
    assert problems[0].endswith("not 'A1 E1' (CY-1.4)")
    draft, notes = editable_draft({"name": "x", "boards": "A1 E1"})
    assert draft is None and "'boards' is not a list of board names" in notes[0]
    assert editable_draft([1, 2]) == (None, ["a course must be a table of keys, not list"])
    assert editable_draft({"name": "v", "lap": 20, "width": 4})[0] is None
    too_many = {"name": "x", "boards": ["A1"] * (MAX_DRAFT_BOARDS + 1)}
    assert editable_draft(too_many)[0] is None


def test_a_draft_leaves_out_unknown_keys_and_keeps_the_problems() -> None:
    draft, notes = editable_draft({"name": "x", "boards": ["A1", "E1"], "laps": 3})
    assert draft == {"name": "x", "boards": ["A1", "E1"]}
    assert notes == ["unknown key 'laps' left out"]


@pytest.mark.parametrize("name", sorted(CLASSICS))
def test_the_classics_open_with_their_boards_and_facts_cy_1_5_cy_2_4(name: str) -> None:
    course = Course.load(name)
    data = tomllib.loads(course_toml({"name": name, "boards": CLASSICS[name]}))
    assert Course.from_dict(data) == course
    assert course_problems(data) == [] and course_advice(data) == []
    summary = course_summary(data)
    tokens = min(5, len(CLASSICS[name]))
    assert f"tokens: {tokens} own tokens a rider, {tokens} team tokens a team" in summary[4]
    assert summary[-1] == "modes: classic, leg, itt, ttt (CY-1.7)"
    assert summary[0].startswith(f"length: {course.length} spaces")


def test_the_summary_names_lines_events_and_tokens_capped_at_five_cy_2_4() -> None:
    summary = course_summary({"name": "m", "boards": ["A1", "C2", "D1", "B1", "F1", "E1"]})
    assert "tokens: 5 own tokens a rider, 5 team tokens a team" in summary[4]
    assert summary[3] == (
        "lines: mountain cat. 2 after 46 (C2), mountain cat. HC after 82 (D1), "
        "mountain cat. 1 after 110 (B1), mountain cat. 3 after 145 (F1), finish after 180"
    )
    assert course_summary({"name": "bad", "boards": ["Z9"]}) == []


def test_a_time_trial_start_suits_the_time_trials_only_cy_1_7() -> None:
    summary = course_summary({"name": "p", "boards": ["E1"], "start": 11})
    assert summary[0].startswith("length: 20 spaces from space 11 of E1")
    assert "1 own token a rider, 1 team token a team" in summary[4]
    assert summary[-1] == "modes: itt, ttt (CY-1.7)"


def test_a_course_not_opening_with_a1_is_advised_cy_1_5() -> None:
    advice = course_advice({"name": "p", "boards": ["C1", "E1"]})
    assert len(advice) == 1 and "opens with board 'C1', not A1" in advice[0]
    assert problem_place(advice[0])["row"] == 1


@pytest.mark.parametrize(
    "draft",
    [
        {"name": 'Tour "de" test\n', "boards": ["A1", "F1", "A2", "E2"]},
        {"name": "prologue 2", "boards": ["E1"], "start": 11},
        {"name": "x\x7f", "boards": ["A1", "Z9"]},
    ],
)
def test_text_reads_back_as_the_same_draft_cy_1_4(draft: dict[str, object]) -> None:
    assert tomllib.loads(course_toml(draft)) == draft
    if not course_problems(draft):
        assert Course.from_text(course_toml(draft), toml=True) == Course.from_dict(draft)
