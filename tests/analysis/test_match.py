"""``peloton simulate --game mind-twist|pistard``: reproducible whatever the number of
processes, per-game figures, JSON/CSV/PNG outputs, records that replay, clear errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from peloton.analysis.match import Match, run_match
from peloton.analysis.match_stats import summarise_match
from peloton.analysis.metrics import metrics_for
from peloton.games import mindtwist as mt
from peloton.games import pistard as pi

from .helpers import cli

SHORT_MT = ("--game", "mind-twist", "--option", "length=15", "--option", "milestones=5,10")
SHORT_PI = ("--game", "pistard", "--option", "target=4")


@pytest.mark.parametrize(
    ("game", "bots", "games"),
    [(SHORT_MT, "greedy,random", 6), (SHORT_PI, "greedy,random,random", 6)],
)
def test_same_seed_same_results_with_one_or_two_processes(
    game: tuple[str, ...], bots: str, games: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"run{jobs}.json"
        code, _, err = cli(capsys, *game, "--bots", bots, "--games", str(games), "--swap", "--seed", "5",
                             "--jobs", jobs, "--out", str(path))  # fmt: skip
        assert code == 0, err
        runs.append(json.loads(path.read_text()))
    first, second = runs
    assert first == second
    assert [g["index"] for g in first["games"]] == list(range(games))
    seats = len(bots.split(","))
    assert len({(g["lineup"][s], s) for g in first["games"] for s in range(seats)}) == seats * seats


def test_a_different_seed_rolls_different_dice() -> None:
    a = run_match(Match("pistard", ("random", "random"), {"target": 3}, games=2, seed=1))
    b = run_match(Match("pistard", ("random", "random"), {"target": 3}, games=2, seed=2))
    assert [g.chance_seed for g in a] != [g.chance_seed for g in b]
    assert [g.seat for g in a] != [g.seat for g in b] or [g.moves for g in a] != [
        g.moves for g in b
    ]


def test_pistard_table_json_and_statistics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.json"
    code, out, _ = cli(
        capsys, *SHORT_PI, "--bots", "greedy,random", "--games", "4", "--swap", "--out", str(path)
    )
    assert code == 0
    for word in ("Pistard", "win", "95% CI", "points", "out", "rounds", "rating", "target=4"):
        assert word in out
    data = json.loads(path.read_text())
    assert data["settings"]["game"] == "pistard" and data["settings"]["options"] == {"target": 4}
    greedy, rand = data["entries"]
    assert greedy["games"] == rand["games"] == 4
    assert greedy["win_share"] + rand["win_share"] == pytest.approx(1.0)
    assert greedy["win_low"] <= greedy["win_share"] <= greedy["win_high"]
    assert set(greedy["means"]) == {"points", "eliminated", "rounds"}
    assert greedy["means"]["points"] == pytest.approx(sum(greedy["values"]["points"]) / 4)
    for game in data["games"]:
        winner = game["winner"]
        assert game["ranks"][winner] == 1
        assert game["seat"]["points"][winner] == max(game["seat"]["points"])


def test_mind_twist_table_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "out.csv"
    code, out, _ = cli(
        capsys, *SHORT_MT, "--bots", "random,random", "--games", "4", "--out", str(path)
    )
    assert code == 0
    assert "Mind Twist" in out and "margin" in out and "turns" in out
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert [r["label"] for r in rows] == ["random#1", "random#2"]
    assert sum(int(r["wins"]) for r in rows) == 4
    assert float(rows[0]["mean_margin"]) == pytest.approx(-float(rows[1]["mean_margin"]))
    assert {"win_low", "win_high", "mean_turns", "rating_mu"} <= set(rows[0])


def test_plot_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "wins.png"
    code, _, _ = cli(
        capsys, *SHORT_PI, "--bots", "greedy,random", "--games", "2", "--plot", str(path)
    )
    assert code == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_records_replay_to_the_reported_results(tmp_path: Path) -> None:
    pi_dir, mt_dir = tmp_path / "pi", tmp_path / "mt"
    pi_dir.mkdir(), mt_dir.mkdir()
    games = run_match(
        Match("pistard", ("greedy", "random"), {"target": 4}, games=2, swap=True, records=pi_dir)
    )
    for game in games:
        assert game.record is not None
        record = pi.Record.load(game.record)
        state = record.replay()
        assert state.is_over and record.seed == game.chance_seed
        assert [float(state.result.points[t]) for t in state.players] == game.seat["points"]
        assert record.players[state.players[game.lineup.index(0)]]["controller"] == "greedy"
    games = run_match(Match("mind-twist", ("greedy", "random"), games=2, records=mt_dir))
    for game in games:
        assert game.record is not None
        state = mt.Record.load(game.record).replay()
        assert game.winner is not None and state.result == state.players[game.winner]
        assert game.game["turns"] == len(state.turns())


def test_ratings_follow_the_ranks() -> None:
    m = Match("pistard", ("greedy", "random", "random"), {"target": 4}, games=6, swap=True)
    games = run_match(m)
    stats = summarise_match(m.bots, games, metrics_for("pistard"))
    assert all(s.rating_mu is not None for s in stats)
    best = max(stats, key=lambda s: s.wins)
    assert best.rating_mu == max(s.rating_mu or 0 for s in stats)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess", "--bots", "greedy,random"], "unknown game 'chess'"),
        (
            ["--game", "pistard", "--bots", "greedy"],
            "players must be a whole number from 2 to 4, not 1",
        ),
        (["--game", "pistard", "--bots", "greedy,robot"], "unknown bot 'robot'"),
        (
            ["--game", "pistard", "--bots", "optimal,random"],
            "the 'optimal' bot plays mind-twist only, not pistard",
        ),
        (
            ["--game", "pistard", "--bots", "greedy,random", "--option", "target=0"],
            "target must be",
        ),
        (
            ["--game", "pistard", "--bots", "greedy,random", "--option", "laps=3"],
            "unknown Pistard option(s) 'laps'",
        ),
        (["--game", "mind-twist", "--bots", "greedy,random,random"], "3 seats: option 'players'"),
        (
            ["--game", "mind-twist", "--bots", "greedy,random", "-o", "length=x"],
            "option 'length' must be a whole",
        ),
        (
            ["--game", "mind-twist", "--bots", "greedy,random", "--course", "short"],
            "--course: Mind Cycling option",
        ),
        (
            ["--game", "mind-twist", "--bots", "greedy,random", "--games", "0"],
            "--games must be at least 1",
        ),
        (
            ["--game", "pistard", "--bots", "greedy,random", "--records", "/no/such/dir"],
            "is not a directory",
        ),
        (["--bots", "greedy,random", "--option", "length=3"], "--option is for the other games ("),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, *argv)
    assert code in (1, 2)
    assert message in err
    assert "Traceback" not in err and err.count("\n") == 1
