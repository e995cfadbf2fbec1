"""``peloton courses|course check|show|new --game cyclo``: Cyclo's courses through its
course builder's check (games/cyclo/course_design.py), each problem with its rule id,
and every bad input refused with one clear message and nothing written (CY-1.4 to
CY-1.7, CY-2.4)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from peloton.cli.courses import MAX_COURSE_FILE
from peloton.games import cyclo as cy

from .test_commands import assert_one_line_error, run


def test_courses_lists_cyclo_s_bundled_courses_cy_1_5(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "courses", "--game", "cyclo")
    assert code == 0
    assert "italian-5: A1 D2 C2 B2 E1, 150 spaces" in out
    assert "prologue: E1 from space 11, 20 spaces" in out
    assert len(out.splitlines()) == len(cy.bundled_courses())


def test_course_new_writes_a_toml_course_the_engine_reads_cy_1_4(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "my-classic.toml"
    code, out, err = run(
        capsys, "course", "new", "--game", "cyclo", "--boards", "A1,C2,B1,E1",
        "--name", "my-classic", "--out", str(path),
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert f"{path}: valid course 'my-classic'" in out
    assert "tokens: 4 own tokens a rider, 4 team tokens a team" in out
    course = cy.Course.from_file(path)
    assert [b.name for b in course.boards] == ["A1", "C2", "B1", "E1"]
    state = cy.new_game("classic", players=2, course=str(path))
    assert state.setup.course.name == "my-classic"


def test_course_new_prints_json_and_a_time_trial_start_cy_1_4(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(
        capsys, "course", "new", "--game", "cyclo", "--boards", "E1", "--name", "tt",
        "--start", "11", "--json",
    )  # fmt: skip
    assert code == 0
    assert json.loads(out) == {"name": "tt", "boards": ["E1"], "start": 11}
    code, out, _ = run(
        capsys, "course", "new", "--game", "cyclo", "--boards", "A1,E1", "--name", "t"
    )
    assert tomllib.loads(out) == {"name": "t", "boards": ["A1", "E1"]}


def test_course_new_refuses_an_unknown_board_and_writes_nothing_cy_1_7(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    code, out, err = run(
        capsys, "course", "new", "--game", "cyclo", "--boards", "A1,Z9,E1", "--name", "bad",
        "--out", str(path),
    )  # fmt: skip
    assert code == 1 and out == ""
    assert "course 'bad': invalid course (1 problem(s)):" in err
    assert "unknown board 'Z9'" in err and "(CY-1.7; position 2)" in err
    assert not path.exists()


def test_course_new_refuses_a1_not_first_cy_1_7(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(
        capsys, "course", "new", "--game", "cyclo", "--boards", "C1,A1,E1", "--name", "bad"
    )
    assert code == 1
    assert "board 'A1' has start spaces but is not first (CY-1.7; position 2)" in err


def test_course_new_is_not_for_mind_cycling(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "course", "new", "--boards", "A1", "--name", "x")
    assert code == 2
    assert_one_line_error(err, "Mind Cycling's courses are drawn, not laid from boards")


def test_course_check_of_a_valid_and_an_invalid_cyclo_file_cy_1_7(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"name": "g", "boards": ["C1", "E1"]}), encoding="utf-8")
    code, out, _ = run(capsys, "course", "check", "--game", "cyclo", str(good))
    assert code == 0
    assert f"{good}: valid course 'g'" in out
    assert "modes: classic, leg, itt, ttt (CY-1.7)" in out
    assert "advice: course 'g' opens with board 'C1', not A1" in out
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\nboards = ["A1", "C1", "C1", "E1"]\n', encoding="utf-8")
    code, out, err = run(capsys, "course", "check", "--game", "cyclo", str(bad))
    assert code == 1 and out == ""
    assert "uses board 'C1' twice (CY-1.7; positions 2, 3)" in err


def test_course_check_refuses_a_file_that_is_not_toml(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("name = \nboards = [A1", encoding="utf-8")
    code, _, err = run(capsys, "course", "check", "--game", "cyclo", str(path))
    assert code == 1
    assert_one_line_error(err, f"{path}: not TOML")
    code, _, err = run(capsys, "course", "check", "--game", "cyclo", str(tmp_path / "no.toml"))
    assert code == 1
    assert_one_line_error(err, "no such course file")


def test_course_check_refuses_an_oversized_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "huge.json"
    path.write_text('{"name": "' + "x" * MAX_COURSE_FILE + '", "boards": ["E1"]}', encoding="utf-8")
    code, _, err = run(capsys, "course", "check", "--game", "cyclo", str(path))
    assert code == 1
    assert_one_line_error(err, f"over the {MAX_COURSE_FILE} a course file may have")


def test_course_show_gives_a_bundled_classic_s_facts_cy_2_4(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "course", "show", "--game", "cyclo", "flemish-5")
    assert code == 0
    assert "flemish-5: valid course 'flemish-5'" in out
    assert "boards: 5: A1 C1 A2 F2 E1" in out
    assert (
        "tokens: 5 own tokens a rider, 5 team tokens a team (1 per board, at most 5: CY-2.4)" in out
    )
    code, _, err = run(capsys, "course", "show", "--game", "cyclo", "tour")
    assert code == 1
    assert_one_line_error(err, "no bundled course called 'tour' (bundled: cobble-stage")


def test_an_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "course", "show", "--game", "chess", "x")
    assert code == 2
    assert_one_line_error(err, "unknown game 'chess'")


def test_mind_cycling_s_commands_are_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "course", "show", "short")
    assert code == 0 and out.startswith("course 'short'")


def test_the_course_builder_section_s_commands_run_in_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cyclo.md, "Course builder": its command lines, then the check it names
    inline, in one directory (the check reads the file the first line wrote)."""
    monkeypatch.chdir(tmp_path)
    page = (Path(__file__).resolve().parents[2] / "docs" / "cyclo.md").read_text()
    section = page.split("## Course builder", 1)[1].split("\n## ", 1)[0]
    found = commands_in(section)
    assert [c[:3] for c in found] == [
        ["course", "new", "--game"],
        ["course", "show", "--game"],
        ["courses", "--game", "cyclo"],
        ["course", "check", "--game"],
    ]
    for argv in found:
        code, out, err = run(capsys, *argv)
        assert (code, err) == (0, ""), (argv, err)
    assert "my-classic.json: valid course 'my-classic'" in out
    assert f"{64 * 1024 // 1024} KB" in section and MAX_COURSE_FILE == 64 * 1024


def commands_in(text: str) -> list[list[str]]:
    """The ``peloton …`` lines of a code block and the ``peloton course check`` in the
    prose after it, as argv lists."""
    lines = [line for line in text.splitlines() if line.startswith("peloton ")]
    inline = text.split("`peloton course check", 1)[1].split("`", 1)[0]
    return [line.split()[1:] for line in lines] + [["course", "check", *inline.split()]]
