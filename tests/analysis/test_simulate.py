"""``peloton simulate`` and the analysis package: reproducible whatever the number of
processes, JSON/CSV/PNG outputs, records that replay, and clear errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from peloton.analysis import Tournament, run, summarise, wilson
from peloton.analysis.ratings import finishing_order
from peloton.games import mindcycling as mc

from .helpers import cli

SHORT = ("--course", "short", "--riders", "3")


def test_wilson_interval() -> None:
    low, high = wilson(65, 100)
    assert 0.55 < low < 0.56 and 0.73 < high < 0.74
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def test_same_seed_same_results_with_one_or_two_processes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"run{jobs}.json"
        code, out, _ = cli(capsys, "--bots", "greedy,random,easy", "--games", "6", "--swap", "--seed", "5",
                           "--jobs", jobs, "--out", str(path), *SHORT)  # fmt: skip
        assert code == 0, out
        outs.append(json.loads(path.read_text()))
    first, second = outs
    first["settings"].pop("records"), second["settings"].pop("records")
    assert first == second
    assert [g["index"] for g in first["games"]] == list(range(6))
    # --swap rotates the line-up: every entry sits in every seat twice in six games.
    seats = {(g["lineup"][s], s) for g in first["games"] for s in range(3)}
    assert len(seats) == 9


def test_a_different_seed_plays_different_games() -> None:
    a = run(Tournament(("random", "random"), games=2, seed=1, course="short", riders=3))
    b = run(Tournament(("random", "random"), games=2, seed=2, course="short", riders=3))
    assert [g.points for g in a] != [g.points for g in b] or [g.moves for g in a] != [
        g.moves for g in b
    ]


def test_table_json_and_statistics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "out.json"
    code, out, _ = cli(
        capsys, "--bots", "greedy,random", "--games", "4", "--swap", "--out", str(path), *SHORT
    )
    assert code == 0
    assert "trophy" in out and "95% CI" in out and "greedy" in out and "rating" in out
    data = json.loads(path.read_text())
    assert data["format"] == "peloton-simulation/1"
    greedy, rand = data["entries"]
    assert greedy["label"] == "greedy" and greedy["games"] == 4
    assert greedy["win_share"] + rand["win_share"] == pytest.approx(1.0)
    assert greedy["win_low"] <= greedy["win_share"] <= greedy["win_high"]
    assert set(greedy["medal_share"]) == {"cyclist", "sprinter", "climber", "team"}
    assert set(greedy["mean_place"]) == {"D", "S", "C"}
    assert greedy["rating_mu"] > rand["rating_mu"]
    assert sum(greedy["points"]) / 4 == pytest.approx(greedy["mean_points"])


def test_csv_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "out.csv"
    code, _, _ = cli(capsys, "--bots", "greedy,greedy", "--games", "2", "--out", str(path), *SHORT)
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert [r["label"] for r in rows] == ["greedy#1", "greedy#2"]
    assert sum(int(r["trophies"]) for r in rows) == 2
    assert {"win_low", "win_high", "cyclist_share", "mean_place_sprinter", "rating_mu"} <= set(
        rows[0]
    )


def test_plot_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "medals.png"
    code, _, _ = cli(capsys, "--bots", "greedy,random", "--games", "2", "--plot", str(path), *SHORT)
    assert code == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_records_replay_to_the_reported_result(tmp_path: Path) -> None:
    games = run(
        Tournament(
            ("greedy", "random"), games=3, course="short", riders=3, swap=True, records=tmp_path
        )
    )
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    for game, file in zip(games, files, strict=True):
        assert game.record == str(file)
        record = mc.Record.load(file)
        state = record.replay()
        assert state.is_over
        letters = list(state.players)
        assert [state.result.points[t] for t in letters] == game.points
        assert game.trophy is not None and state.result.trophy == letters[game.trophy]
        assert record.players[letters[game.lineup.index(0)]]["controller"] == "greedy"


def test_solo_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--bots", "greedy", "--solo", "--games", "2")
    assert code == 0 and "mean rounds" in out
    games = run(Tournament(("greedy",), games=2, solo=True, course="solo"))
    stats = summarise(("greedy",), games)
    assert (
        stats[0].mean_rounds is not None
        and stats[0].mean_rounds == sum(g.rounds for g in games) / 2
    )


def test_finishing_order_puts_the_trophy_first() -> None:
    (game,) = run(Tournament(("random", "greedy", "random"), games=1, course="standard", riders=3))
    order = finishing_order(game)
    assert order[0] == game.trophy and sorted(order) == [0, 1, 2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "greedy,robot"], "unknown bot 'robot'"),
        (["--bots", "greedy"], "at least two teams"),
        (["--bots", "greedy,random", "--solo"], "one seat"),
        (["--bots", "greedy,random", "--games", "0"], "--games must be at least 1"),
        (["--bots", "greedy,random", "--jobs", "0"], "--jobs must be at least 1"),
        (["--bots", "greedy,random", "--riders", "8"], "--riders must be 3 to 6"),
        (["--bots", "greedy,random", "--wind", "north"], "wind must be one of"),
        (["--bots", "greedy,random", "--course", "nowhere"], "no bundled course called 'nowhere'"),
        (["--bots", "greedy,random", "--out", "results.txt"], ".json or .csv"),
        (["--bots", "greedy,random", "--plot", "medals.jpg"], ".png"),
        (["--bots", "greedy,random", "--records", "/no/such/dir"], "is not a directory"),
        (["--bots", "mcts:zero,random"], "bad MCTS budget"),
        (["--bots", ",".join(["greedy"] * 7)], "no room for 42 riders"),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, *argv)
    assert code in (1, 2)
    assert message in err
    assert "Traceback" not in err and err.count("\n") == 1
