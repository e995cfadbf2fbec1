"""``peloton tour --kind``: the omnium, the sprint tournament and the pursuit series at
the terminal: their standings between games (points, duels, times; CY-12.3 to
CY-12.5) and their options refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.games import cyclo as cy
from peloton.terminal.tour import standings_view

from .helpers import Recorder
from .test_cyclo_play import peloton
from .test_tour import one_line_error

PLAYERS = {"A": "human", "B": "greedy", "C": "random"}


def shown(race: cy.Competition) -> str:
    recorder = Recorder(width=120)
    recorder.console.print(standings_view(race, PLAYERS))
    return recorder.text


def result(places: str, **extra: object) -> cy.Result:
    return cy.Result(places=tuple(places.split()), teams=(), **extra)  # type: ignore[arg-type]


def test_the_omnium_shows_its_points_table() -> None:
    omnium = cy.Omnium(3)
    omnium.table.add_event(result("BS1 AS1 CS1", tokens_left={"AS1": 2}))
    omnium.table.add_event(result("BS1 CS1 AS1"))
    text = shown(omnium)
    assert "Omnium standings after event 2 of 4" in text
    assert "scratch" in text and "elim." in text and "tempo" not in text
    lines = {line.split()[1]: line for line in text.splitlines() if line.strip()[:2] in "1.2.3."}
    assert lines["BS1"].split()[:3] == ["1.", "BS1", "B"] and "15 (1.)" in lines["BS1"]
    assert lines["BS1"].rstrip().endswith("30")  # 15 + 15, the leader: no gap
    assert lines["AS1"].rstrip().endswith("15  -15")  # 10 + 5
    assert "Tokens saved for the next event: AS1 2" not in text  # the elimination spent it
    omnium.table.add_event(result("AS1 BS1 CS1"))
    omnium.table.add_event(result("AS1 CS1 BS1", points={"AS1": 9}))
    assert "Final omnium standings" in shown(omnium) and "points" in shown(omnium)


def test_the_tournament_shows_duels_and_heats() -> None:
    tournament = cy.SprintTournament(3)
    for winner in "BAA":
        tournament.table.add_heat(result(f"{winner}S1 {'B' if winner == 'A' else 'A'}S1"))
    tournament.table.add_heat(result("AS1 CS1"))
    text = shown(tournament)
    assert "Tournament standings after 1 of 3 duels" in text
    assert "A v B: heat to B, heat to A, heat to A — duel to A 2–1" in text
    assert "A v C: heat to A" in text and "duel to A 2–1\nA v C: heat to A\n" in text
    team = cy.SprintTournament(2, mode="team-sprint")
    team.table.add_heat(result("", team_times={"A": 60, "B": 60}))
    team.table.add_heat(result("", team_times={"A": 61}))
    text = shown(team)
    assert "Final tournament standings" in text
    assert "A v B: 1:00 v 1:00 (tied: ridden again), 1:01 v no time — duel to A" in text


def test_the_series_shows_times_gaps_and_the_final() -> None:
    series = cy.PursuitSeries(3)
    series.table.add_heat(result("", times={"AS1": 70, "BS1": 64}))
    series.table.add_heat(result("", times={"CS1": 66}))
    text = shown(series)
    assert "Pursuit series standings" in text and "Final next: B v C" in text
    rows = [line.split() for line in text.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    assert [row[1] for row in rows] == ["B", "C", "A"]
    assert rows[0][3:] == ["1:04"] and rows[1][3:] == ["1:06", "+0:02"]
    series.table.add_heat(result("", times={"BS1": 62, "CS1": 61}))
    text = shown(series)
    assert "Final series standings" in text and "Final: B 1:02, C 1:01" in text
    rows = [line.split() for line in text.splitlines() if line.strip()[:2] in ("1.", "2.", "3.")]
    assert [row[1] for row in rows] == ["C", "B", "A"]


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    for argv, code, message in [
        (["--kind", "criterium"], 2, "--kind 'criterium': one of stage, omnium, sprint-tournament"),
        (["--kind", "omnium", "--legs", "tour"], 2, "--legs: not an option of the omnium"),
        (["--kind", "stage", "--mode", "sprint"], 2, "--mode: not an option of the stage race"),
        (["--kind", "pursuit-series", "--entries", "2"], 2, "--entries: not an option"),
        (["--kind", "omnium", "--seats", "greedy,greedy"], 1, "at least 3 riders"),
        (["--kind", "omnium", "--entries", "3"], 1, "'entries' (riders a team) is 1 or 2"),
        (["--kind", "sprint-tournament", "--mode", "keirin"], 1, "'mode' is one of sprint"),
        (["--kind", "pursuit-series", "--mode", "sprint"], 1, "'mode' is one of pursuit"),
        (["--kind", "pursuit-series", "--seats", "greedy"], 1, "2 to 6 teams, not 1"),
        (["--kind", "sprint-tournament", "--seats", "greedy,nobody"], 1, "unknown seat 'nobody'"),
    ]:
        got, out, err = peloton("tour", *argv)
        assert got == code, (argv, out, err)
        one_line_error(err, message)


@pytest.mark.parametrize(
    "race",
    [cy.Omnium(3), cy.SprintTournament(2, mode="team-sprint"), cy.PursuitSeries(2)],
    ids=lambda race: race.kind,
)
def test_a_resumed_competition_keeps_its_kind_and_settings(
    tmp_path: Path, race: cy.Competition
) -> None:
    path = tmp_path / "race.json"
    path.write_text(json.dumps(race.to_dict()))
    for flag, value in [("--kind", race.kind), ("--mode", "sprint"), ("--entries", "2")]:
        code, out, err = peloton("tour", "--resume", str(path), flag, value)
        assert code == 2, out
        one_line_error(err, f"{flag}: a resumed competition keeps the settings of its file")
    code, out, err = peloton("tour", "--resume", str(path), "--seats", "greedy")
    assert code == 1
    one_line_error(err, f"the {race.title} has {race.players} teams; --seats gives 1")
