"""``peloton simulate --game cyclo``: wins read from the result's winning team, Cyclo's
own figures (the best rider's place, time gap, green and red points, tokens left,
rounds) from its ``metrics`` hook, JSON/CSV/PNG outputs and records that replay; and
the generic ways a game without figures of its own is read."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from peloton.analysis.match import Match, run_match
from peloton.analysis.metrics import measure_any, metrics_for
from peloton.core import registry
from peloton.games import cyclo as cy

from .helpers import cli

#: One board with the finish: a classic of about ten rounds.
SHORT = json.dumps({"name": "short", "boards": ["A1", "E1"]})


def test_classic_json_wins_and_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "out.json"
    code, out, err = cli(capsys, "--game", "cyclo", "-o", f"course={SHORT}", "--bots", "greedy,random",
                         "--games", "4", "--swap", "--out", str(path))  # fmt: skip
    assert code == 0, err
    for word in ("Cyclo The Game", "95% CI", "place", "tokens", "rounds", "rating"):
        assert word in out
    assert "green" not in out  # a classic scores no points (CY-8.1)
    data = json.loads(path.read_text())
    greedy, rand = data["entries"]
    assert greedy["wins"] + rand["wins"] == 4  # every game has a winning team
    assert set(greedy["means"]) == {"place", "tokens", "rounds"}
    for game in data["games"]:
        winner = game["winner"]
        assert game["ranks"][winner] == 1 and sorted(game["ranks"]) == [1, 2]
        assert game["seat"]["place"][winner] == 1.0  # the winning team's best rider won
        assert min(game["seat"]["place"]) == 1.0 and max(game["seat"]["place"]) >= 2.0


def test_leg_reports_gaps_and_points_in_a_table_of_their_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = cli(capsys, "--game", "cyclo", "-o", "mode=leg", "-o", f"course={SHORT}",
                         "--bots", "greedy,random", "--games", "2", "--swap")  # fmt: skip
    assert code == 0, err
    for word in ("Figures", "gap", "green", "red", "tokens", "rounds"):
        assert word in out


def test_figures_match_the_replayed_records(tmp_path: Path) -> None:
    m = Match("cyclo", ("greedy", "random"), {"mode": "leg", "course": json.loads(SHORT)}, games=2, swap=True,
              records=tmp_path)  # fmt: skip
    for game in run_match(m):
        assert game.record is not None
        state = cy.load_record(json.loads(Path(game.record).read_text())).replay()
        result = state.result
        teams = list(state.players)
        assert game.winner == teams.index(result.winner_team)
        for seat, team in enumerate(teams):
            riders = [r for r in result.places if r[0] == team]
            assert game.seat["place"][seat] == result.places.index(riders[0]) + 1
            assert game.seat["green"][seat] == sum(result.points[r] for r in riders)
            assert game.seat["red"][seat] == sum(result.mountain[r] for r in riders)
            assert game.seat["tokens"][seat] == sum(result.tokens_left[r] for r in riders)
            best = min(result.times[r] for r in riders)
            assert game.seat["gap"][seat] == best - min(result.times.values())
        assert game.game["rounds"] == state.round
        assert min(game.seat["gap"]) == 0.0


def test_starter_reports_no_tokens() -> None:
    metrics = metrics_for("cyclo", cy.from_options({"level": "starter"}))
    assert [key for key, _ in metrics.seat] == ["place"] and [key for key, _ in metrics.game] == [
        "rounds"
    ]


def test_csv_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, png = tmp_path / "out.csv", tmp_path / "wins.png"
    code, _, err = cli(capsys, "--game", "cyclo", "-o", f"course={SHORT}", "--bots", "random,greedy",
                       "--games", "2", "--swap", "--out", str(out), "--plot", str(png))  # fmt: skip
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [r["label"] for r in rows] == ["random", "greedy"]
    assert {"mean_place", "mean_tokens", "mean_rounds", "win_low", "rating_mu"} <= set(rows[0])
    assert sum(int(r["wins"]) for r in rows) == 2
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class Finished:
    """A finished toy game whose result is no seat's name (a Cyclo-like result)."""

    game = "toy-race"
    players = ("A", "B", "C")
    is_over = True
    result = object()


def test_a_game_without_figures_reads_its_winner_from_its_outcome_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    values: dict[str, Any] = {"A": 0.0, "B": 1.0, "C": 0.0}
    registry.register(registry.GameInfo("toy-race", "Toy race", dict, {"outcome": lambda state: values},
                                        max_players=3))  # fmt: skip
    measured = measure_any(Finished())
    assert measured.winner == 1 and measured.ranks == [2, 1, 2]
    values.update(A=0.5, B=0.5)  # a shared win names no winner
    assert measure_any(Finished()).winner is None
    registry.register(registry.GameInfo("toy-race", "Toy race", dict, max_players=3))
    assert measure_any(Finished()).winner is None  # neither a seat's name nor an outcome: no winner
