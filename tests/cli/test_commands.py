"""The ``peloton`` commands, run in-process through :func:`peloton.cli.main`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from peloton.cli import main
from peloton.games import mindcycling as mc

from .helpers import EXAMPLE_MCN


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``peloton ARGV``: (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


def assert_one_line_error(err: str, text: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("peloton: error: ")
    assert text in lines[0]
    assert "Traceback" not in err


def test_courses_lists_every_bundled_course(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "courses")
    assert code == 0
    for name in mc.bundled_names():
        course = mc.Course.load(name)
        assert f"{name}: {course.lanes} lanes, finish line after row {course.finish - 1}" in out
    assert "start 1-8 · plain 9-26 · sprint 27-36 · plain 37-48 · mountain 49-66" in out
    assert "feed b29, d33 · rocks b39, d42, a45, c48, e52, b56" in out


def test_course_check_accepts_a_valid_json_course(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hill.json"
    path.write_text(
        json.dumps(
            {
                "name": "hill",
                "finish": 30,
                "sections": [[4, "plain"], [15, "mountain"]],
                "rocks": ["c20"],
            }
        )
    )
    code, out, err = run(capsys, "course", "check", str(path))
    assert (code, err) == (0, "")
    assert "valid course 'hill'" in out
    assert "plain 4-14, mountain 15-29" in out and "rocks:      c20" in out


def test_course_check_prints_every_problem_mc_1_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        'name = "bad"\nfinish = 12\nsections = [[5, "sprint"], [8, "sprint"], [14, "hill"]]\n'
    )
    code, _, err = run(capsys, "course", "check", str(path))
    assert code == 1
    assert "invalid course (3 problem(s))" in err
    problems = [line for line in err.splitlines() if line.startswith("  - ")]
    assert len(problems) == 3
    assert any("'hill' is not one of" in p for p in problems)
    assert any("finish 12 must be greater than the last tab row 14" in p for p in problems)
    assert any("2 sprint sections" in p for p in problems)
    assert "Traceback" not in err


def test_course_check_of_broken_toml_and_missing_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("name = \n")
    code, _, err = run(capsys, "course", "check", str(path))
    assert code == 1 and "is not valid TOML" in err
    code, _, err = run(capsys, "course", "check", str(tmp_path / "nothing.toml"))
    assert code == 1
    assert_one_line_error(err, "no such course file")


def test_course_show_draws_the_whole_road(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "course", "show", "short")
    assert code == 0
    assert "43 FINISH" in out
    assert out.count("┃") == 2 * 42  # rows 1 to 42, each between two road edges
    assert "SPRINT" in out and "MOUNTAIN" in out


def test_moves_prints_the_legal_moves_mc_10_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "moves", "--course", "standard", "--position", EXAMPLE_MCN)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("# round 3, BD1 to play")
    expected = [str(m) for m in mc.from_mcn("standard", EXAMPLE_MCN).legal_moves()]
    assert lines[1:] == expected


def test_moves_with_expert_wind(capsys: pytest.CaptureFixture[str]) -> None:
    position = "3 AC1:a9,AD1:b12+,AS1:c11,BC1:e8,BD1:d13+,BS1:d12 / - / -"
    code, out, _ = run(capsys, "moves", "--position", position, "--wind", "left", "--board")
    assert code == 0
    assert "↖AS1" in out
    expected = [str(m) for m in mc.from_mcn("standard", position, wind="left").legal_moves()]
    assert out.splitlines()[-len(expected) :] == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "--position", "3 AD1:c12+,AS1 / - / -"], "MCN rider 'AS1' must look like"),
        (
            ["moves", "--position", EXAMPLE_MCN, "--wind", "north"],
            "wind must be one of front, left, right",
        ),
        (
            ["moves", "--position", EXAMPLE_MCN, "--course", "tour"],
            "no bundled course called 'tour'",
        ),
        (["play", "--seats", "human,greedy", "--riders", "7"], "a team has 3 to 6 riders, not 7"),
        (["play", "--seats", "greedy,robot"], "unknown seat 'robot'"),
        (["play", "--seats", "greedy"], "one seat plays with --solo"),
        (["play", "--solo", "--riders", "3"], "the solo team has 5 riders, not 3"),
        (
            ["play", "--seats", "random,random", "--relay-limit", "-1"],
            "relay_limit must be a whole number",
        ),
        (
            ["play", "--seats", ",".join(["random"] * 7), "--course", "short"],
            "has no room for 42 riders",
        ),
        (["play", "--record", "/no/such/dir/x.json"], "no such directory"),
        (["replay", "/no/such/record.json"], "cannot read record"),
    ],
)
def test_errors_are_one_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 1
    assert_one_line_error(err, message)


def test_usage_errors_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "--bogus")
    assert code == 2
    assert_one_line_error(err, "No such option: --bogus")
    code, _, err = run(capsys, "play", "--seed", "many")
    assert code == 2
    assert_one_line_error(err, "Invalid value for '--seed'")
    code, _, err = run(capsys, "fly")
    assert code == 2
    assert_one_line_error(err, "No such command 'fly'")


def test_no_arguments_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    for command in ("play", "replay", "moves", "courses", "course"):
        assert command in out


def test_replay_rejects_a_bad_record_with_its_move_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    state.play("AD1@c1")
    record = mc.Record.from_state(state)
    record.moves.append("BD1@c1")  # taken square
    path = tmp_path / "bad.json"
    record.save(path)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert_one_line_error(err, "record move 1 ('BD1@c1') rejected")
    path.write_text("{not json")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert_one_line_error(err, "record is not valid JSON")


def test_play_a_bot_game_and_replay_it_to_the_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    code, out, _ = run(
        capsys,
        "play",
        "--seats",
        "greedy,random,random",
        "--course",
        "short",
        "--riders",
        "3",
        "--seed",
        "4",
        "--record",
        str(path),
    )
    assert code == 0
    assert "Final classification" in out
    final = mc.Record.load(path).replay()
    assert final.is_over
    code, replay_out, _ = run(capsys, "replay", str(path), "--to-end")
    assert code == 0
    # Both print the same classification, from the game and from the record.
    assert (
        out[out.index("Final classification") :].split("Record saved")[0]
        == (replay_out[replay_out.index("Final classification") :])
    )


def test_play_options_reach_the_record_mc_10_3(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "expert.json"
    code, out, _ = run(
        capsys,
        "play",
        "--seats",
        "random,greedy",
        "--course",
        "standard",
        "--riders",
        "4",
        "--wind",
        "right",
        "--relay-limit",
        "2",
        "--seed",
        "3",
        "--full-board",
        "--record",
        str(path),
    )
    assert code == 0
    data = json.loads(path.read_text())
    assert data["rules"] == {"wind": "right", "relay_limit": 2}
    assert data["teams"] == {"A": "DDSC", "B": "DDSC"}
    assert data["course"]["name"] == "standard"
    assert [p["controller"] for p in data["players"].values()] == ["random", "greedy"]
    assert "relay limit 2" in out and "wind right" in out
    # --full-board draws the road down to row 1 even after the race has moved on.
    assert re.search(r"^  1 +┃", out, flags=re.M)


def test_solo_play_uses_the_solo_course_mc_9_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "solo.json"
    code, out, _ = run(capsys, "play", "--solo", "--seats", "greedy", "--record", str(path))
    assert code == 0
    final = mc.Record.load(path).replay()
    assert final.course.name == "solo" and final.solo and final.is_over
    rounds, remaining = final.result.solo_score  # type: ignore[misc]
    assert f"Solo score: {rounds} rounds, remaining {remaining}" in out
