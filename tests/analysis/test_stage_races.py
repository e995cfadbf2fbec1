"""``peloton simulate --game cyclo --stage-race``: many bot-ridden stage races, each
bot's jersey shares (CY-12.2) and mean general-classification place, reproducible from
the seed; bad arguments in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.analysis.stage_races import StageRaces, run_stage_races, summarise
from peloton.games import cyclo as cy

from .helpers import cli

#: A one-board course: legs quick to ride.
SHORT = {"name": "short", "boards": ["E1"]}
LEGS = [{"mode": "leg", "course": SHORT}, {"mode": "itt", "course": SHORT}]


def test_each_jersey_goes_to_one_bot_a_race_and_the_seed_decides_all() -> None:
    races = StageRaces(("greedy", "random", "greedy"), legs=LEGS, games=3, seed=2, swap=True)
    outcomes = run_stage_races(races)
    assert [o["lineup"] for o in outcomes] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    stats = summarise(races.bots, outcomes)
    for jersey in ("yellow", "green", "red"):
        assert abs(sum(s.share[jersey] for s in stats) - 1) < 1e-9
        assert all(s.low[jersey] <= s.share[jersey] <= s.high[jersey] for s in stats)
    assert sorted(o["best_place"].count(1) for o in outcomes) == [1, 1, 1]
    assert run_stage_races(races) == outcomes  # same seed, same races
    assert [s.label for s in stats] == ["greedy#1", "random", "greedy#2"]


def test_the_saved_races_replay_to_the_jerseys_reported(tmp_path: Path) -> None:
    races = StageRaces(("greedy", "random"), legs=LEGS, games=2, seed=5, records=tmp_path)
    outcomes = run_stage_races(races)
    for outcome in outcomes:
        race = cy.load_competition(Path(outcome["record"]).read_text())
        wearer = race.standings["jerseys"]["yellow"]
        assert outcome["jerseys"]["yellow"] == outcome["lineup"]["AB".index(wearer[0])]


def test_simulate_reports_jersey_shares(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    course = tmp_path / "short.json"
    course.write_text(json.dumps(SHORT))
    out = tmp_path / "r.json"
    code, text, err = cli(capsys, "--game", "cyclo", "--bots", "greedy,random", "--stage-race",
                              f"leg:{course},itt:{course}", "--games", "2", "-o", "level=starter",
                              "--out", str(out))  # fmt: skip
    assert (code, err) == (0, ""), text
    assert "Cyclo stage races" in text and "yellow" in text and "best GC" in text
    data = json.loads(out.read_text())
    assert data["settings"]["level"] == "starter" and len(data["races"]) == 2
    assert [e["bot"] for e in data["entries"]] == ["greedy", "random"]


def test_simulate_refuses_what_a_stage_race_does_not_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv, message in [
        (["--game", "pistard", "--bots", "greedy,greedy"], "stage races are Cyclo's"),
        (["--game", "cyclo", "--bots", "greedy,greedy", "-o", "mode=leg"], "-o mode"),
        (["--game", "cyclo", "--bots", "greedy,greedy", "--plot", "p.png"], "--plot"),
        (["--game", "cyclo", "--bots", "greedy,nobody"], "nobody"),
    ]:
        code, _, err = cli(capsys, *argv, "--stage-race", "itt")
        assert code in (1, 2) and len(err.strip().splitlines()) == 1 and message in err, err
