"""``peloton simulate --game cyclo --competition``: many bot-ridden omniums, sprint
tournaments and pursuit series (CY-12.3 to CY-12.5), each bot's win share with its
Wilson interval and mean standing, the same for a seed whatever the processes; the
saved competitions replay to the winners reported; bad arguments in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.analysis.competitions import Competitions, run_competitions, summarise
from peloton.core.errors import ConfigError
from peloton.games import cyclo as cy

from .helpers import cli


def test_cy_12_3_omnium_runs_are_reproducible_whatever_the_processes() -> None:
    runs = Competitions(("greedy", "random", "greedy"), "omnium", games=3, seed=4, swap=True)
    outcomes = run_competitions(runs)
    assert [o["lineup"] for o in outcomes] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    assert all(o["games"] == 4 for o in outcomes)  # scratch, elimination, tempo, points
    assert all(sorted(o["standing"]) == [1, 2, 3] for o in outcomes)
    assert all(o["standing"][o["winner"]] == 1 for o in outcomes)
    assert run_competitions(runs, jobs=2) == outcomes  # same seed, same competitions
    stats = summarise(runs.bots, outcomes)
    assert sum(s.wins for s in stats) == 3 and [s.label for s in stats] == [
        "greedy#1",
        "random",
        "greedy#2",
    ]
    assert all(s.win_low <= s.win_share <= s.win_high for s in stats)
    assert all(s.mean_figure is not None for s in stats)  # omnium points


@pytest.mark.parametrize(
    ("kind", "settings"),
    [("sprint-tournament", {"mode": "sprint"}), ("pursuit-series", {"mode": "team-pursuit"})],
)
def test_cy_12_4_cy_12_5_saved_competitions_replay_to_the_winners_reported(
    kind: str, settings: dict[str, str], tmp_path: Path
) -> None:
    runs = Competitions(("greedy", "random", "random"), kind, settings, games=2, seed=1,
                        records=tmp_path)  # fmt: skip
    for outcome in run_competitions(runs):
        again = cy.load_competition(Path(outcome["record"]).read_text())
        assert again.kind == kind and again.is_over and again.winner is not None
        assert outcome["lineup"]["ABC".index(again.winner[0])] == outcome["winner"]


def test_simulate_reports_win_shares_and_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    code, text, err = cli(capsys, "--game", "cyclo", "--bots", "greedy,random", "--competition",
                          "omnium", "-o", "entries=2", "--games", "2", "--out", str(out))  # fmt: skip
    assert (code, err) == (0, ""), text
    assert "Cyclo omnium (entries 2): 2 competitions" in text and "standing" in text
    data = json.loads(out.read_text())
    assert data["settings"]["settings"] == {"entries": 2} and len(data["competitions"]) == 2
    assert [e["bot"] for e in data["entries"]] == ["greedy", "random"]
    code, text, err = cli(capsys, "--game", "cyclo", "--bots", "greedy,random", "--competition",
                          "stage", "--games", "1", "-o", "level=starter")  # fmt: skip
    assert (code, err) == (0, "") and "Cyclo stage races (tour, starter): 1 races" in text
    csv = tmp_path / "r.csv"
    code, _, err = cli(capsys, "--game", "cyclo", "--bots", "greedy,random", "--competition",
                       "pursuit-series", "--games", "1", "--out", str(csv))  # fmt: skip
    assert code == 0 and csv.read_text().splitlines()[0].startswith("bot,wins,win_share")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "pistard", "--bots", "greedy,greedy"], "competitions are Cyclo's"),
        (["--bots", "greedy,greedy", "--plot", "p.png"], "--plot"),
        (["--bots", "greedy,greedy", "--stage-race", "tour"], "not both"),
        (["--bots", "greedy,nobody"], "nobody"),
        (
            ["--bots", "greedy,greedy", "-o", "events=true"],
            "-o events: an omnium takes entries and level",
        ),
        (["--bots", "greedy,greedy"], "at least 3 riders"),
        (["--bots", "greedy,greedy,greedy", "-o", "entries=3"], "'entries'"),
    ],
)
def test_simulate_refuses_what_a_competition_does_not_take(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if "--game" not in argv:
        argv = ["--game", "cyclo", *argv]
    code, _, err = cli(capsys, *argv, "--competition", "omnium", "--games", "1")
    assert code in (1, 2) and len(err.strip().splitlines()) == 1 and message in err, err


def test_unknown_kinds_and_modes_are_named() -> None:
    with pytest.raises(ConfigError, match=r"--competition 'tour'.*--stage-race"):
        Competitions(("greedy", "greedy"), "tour").check()
    with pytest.raises(ConfigError, match="'mode' is one of sprint, team-sprint, not 'keirin'"):
        Competitions(("greedy", "greedy"), "sprint-tournament", {"mode": "keirin"}).check()
    with pytest.raises(ConfigError, match="--games must be at least 1"):
        Competitions(("greedy", "greedy", "greedy"), games=0).check()
