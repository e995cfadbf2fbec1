"""``peloton analyse RECORD``: the table and summary, ``--json`` in its documented
format, ``--out`` and ``--plot`` files, and bad input refused in one line, exit 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analysis_records import record
from docs_examples import ROOT
from peloton.analysis.review import ANALYSIS_FORMAT
from peloton.cli import app
from peloton.server.limits import MAX_RECORD_BYTES

#: The fields of every analysed position (docs/formats.md, "Analysis files").
POSITION_KEYS = {"index", "mover", "chance", "chances", "played", "best", "played_value",
                 "best_value", "cost", "class"}  # fmt: skip


def saved(tmp_path: Path, game: str, moves: int | None = 8) -> Path:
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(record(game, str(tmp_path), moves=moves)), encoding="utf-8")
    return path


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["analyse", *args], env={"COLUMNS": "120"})
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("game", ["mind-twist", "mind-cycling", "pistard", "cyclo"])
def test_every_game_is_analysed_as_json_in_its_format(game: str, tmp_path: Path) -> None:
    code, out, err = run(str(saved(tmp_path, game)), "--budget", "0.01", "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["format"] == ANALYSIS_FORMAT and data["game"] == game
    assert len(data["positions"]) == 8
    for position in data["positions"]:
        assert set(position) == POSITION_KEYS
        assert sum(position["chances"].values()) == pytest.approx(1.0, abs=1e-3)
        assert position["chance"] or position["cost"] >= 0
    assert set(data["summary"]) == set(data["players"])


def test_the_table_names_each_move_and_the_summary_each_seat(tmp_path: Path) -> None:
    code, out, _ = run(str(saved(tmp_path, "mind-twist", moves=None)))
    assert code == 0
    assert "mind-twist: analysed by mind-twist solver" in out
    assert "summary per seat" in out and "dial:" in out
    assert all(f"│ {seat} " in out for seat in ("R", "B"))


def test_out_and_plot_write_their_files(tmp_path: Path) -> None:
    out_file, plot_file = tmp_path / "a.json", tmp_path / "a.png"
    code, _, err = run(
        str(saved(tmp_path, "pistard")), "--budget", "0.01", "--out", str(out_file),
        "--plot", str(plot_file), "--jobs", "2",
    )  # fmt: skip
    assert (code, err) == (0, "")
    assert json.loads(out_file.read_text())["format"] == ANALYSIS_FORMAT
    assert plot_file.read_bytes().startswith(b"\x89PNG")


def test_a_corrupt_record_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": ', encoding="utf-8")
    code, _, err = run(str(path))
    assert code == 1 and err.startswith("peloton: error: record is not valid JSON")
    assert err.count("\n") == 1


def test_an_oversized_record_is_refused_saying_its_size(tmp_path: Path) -> None:
    data = record("mind-twist", str(tmp_path))
    data["padding"] = "x" * MAX_RECORD_BYTES
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(str(path))
    assert code == 1 and f"more than the {MAX_RECORD_BYTES} a record may have" in err


def test_a_record_of_an_unknown_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "chess.json"
    path.write_text(json.dumps({**record("mind-twist", str(tmp_path)), "game": "chess"}))
    code, _, err = run(str(path))
    assert code == 1 and "unknown game 'chess'" in err


def test_an_illegal_move_is_named_by_its_index(tmp_path: Path) -> None:
    data = record("mind-twist", str(tmp_path))
    data["moves"][4] = "dial:9"
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    code, _, err = run(str(path))
    assert code == 1 and "record move 4 ('dial:9') rejected" in err


def test_a_missing_file_and_bad_numbers(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path / "nowhere.json"))
    assert code == 1 and "cannot read record" in err
    path = saved(tmp_path, "mind-twist")
    assert run(str(path), "--jobs", "0")[0] == 2
    assert run(str(path), "--budget", "0")[0] == 2


def test_the_documented_example_has_the_keys_the_command_writes(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    section = text[text.index("## Analysis files") :]
    example = json.loads(section.split("```json\n", 1)[1].split("```", 1)[0])
    code, out, _ = run(str(saved(tmp_path, "mind-twist", moves=1)), "--json")
    written = json.loads(out)
    assert code == 0 and example == written  # the first dial of seed 1's game, exact
