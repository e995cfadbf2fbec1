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
    text = shown(omnium)
    assert "Final omnium standings" in text and "pts race" in text and "total" in text


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


KINDS = {
    "omnium": (["--seats", "greedy,random,greedy"], 4),
    "sprint-tournament": (["--seats", "greedy,random,greedy", "--mode", "sprint"], None),
    "pursuit-series": (["--seats", "greedy,random,greedy", "--mode", "team-pursuit"], None),
}

#: The standings' headings: between games, and after the last.
HEADINGS = {
    "omnium": ("Omnium standings after event", "Final omnium standings"),
    "sprint-tournament": ("Tournament standings after", "Final tournament standings"),
    "pursuit-series": ("Pursuit series standings", "Final series standings"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_is_ridden_by_bots_to_the_end_and_saved(tmp_path: Path, kind: str) -> None:
    saved = tmp_path / "race.json"
    argv, games = KINDS[kind]
    code, out, err = peloton("tour", "--kind", kind, *argv, "--seed", "5", "--save", str(saved))
    assert (code, err) == (0, ""), out[-2000:]
    data = json.loads(saved.read_text())
    race = cy.load_competition(data)
    assert race.kind == kind and race.is_over and data["table"]["seed"] == 5
    if games is not None:
        assert len(race.records) == games
    title = race.title
    between, final = HEADINGS[kind]
    assert out.count(between) == len(race.records) - 1 and out.count(final) == 1
    winner = race.winner
    assert winner is not None and f"Winner of the {title}: " in out
    assert (f"team {winner} (" if len(winner) == 1 else f"{winner} of team") in out
    assert f"{title.capitalize()} saved to {saved}" in out


def test_the_omnium_shows_each_event_and_its_points_between_them(tmp_path: Path) -> None:
    code, out, _ = peloton("tour", "--kind", "omnium", "--seats", "greedy,greedy,random",
                           "--seed", "2")  # fmt: skip
    assert code == 0
    for k, event in enumerate(["scratch race", "elimination race", "tempo race", "points race"]):
        assert f"Event {k + 1} of 4: {event}" in out
    for k in (1, 2, 3):
        assert f"Omnium standings after event {k} of 4" in out
    assert "Final omnium standings" in out and "Winner of the omnium: " in out


def test_the_tournament_shows_its_duels_and_the_series_its_final(tmp_path: Path) -> None:
    code, out, _ = peloton("tour", "--kind", "sprint-tournament", "--seats", "greedy,random",
                           "--seed", "1")  # fmt: skip
    assert code == 0 and "Duel 1 of 1: A v B, heat 1" in out and "— duel to " in out
    code, out, _ = peloton("tour", "--kind", "pursuit-series", "--seats", "greedy,random,greedy",
                           "--seed", "1")  # fmt: skip
    assert code == 0
    assert "Qualifying heat 1 of 2: A v B" in out and "Qualifying heat 2 of 2: C alone" in out
    assert "Final next: " in out and "Final: " in out and "Final series standings" in out


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_competition_resumed_mid_way_is_the_one_ridden_at_once(tmp_path: Path, kind: str) -> None:
    whole, half = tmp_path / "whole.json", tmp_path / "half.json"
    argv, _ = KINDS[kind]
    code, _, err = peloton("tour", "--kind", kind, *argv, "--seed", "8", "--save", str(whole))
    assert (code, err) == (0, "")
    data = json.loads(whole.read_text())
    cut = len(data["games"]) // 2
    half.write_text(json.dumps({**data, "games": data["games"][:cut]}))
    code, out, err = peloton("tour", "--resume", str(half))
    assert (code, err) == (0, ""), out[-2000:]
    resumed = json.loads(half.read_text())  # saved back to the file it came from
    assert resumed["games"] == data["games"] and resumed["standings"] == data["standings"]
    assert resumed["table"] == data["table"]


def test_leaving_a_heat_keeps_the_heats_ridden(tmp_path: Path) -> None:
    saved = tmp_path / "race.json"
    code, out, err = peloton("tour", "--kind", "sprint-tournament", "--seats", "human,greedy",
                             "--save", str(saved), stdin="q\n")  # fmt: skip
    assert (code, err) == (0, "")
    assert (
        f"The sprint tournament stops after 0 heats; resume with: peloton tour --resume {saved}"
        in out
    )
    race = cy.load_competition(saved.read_text())
    assert race.kind == "sprint-tournament" and not race.records


def bad_files() -> list[tuple[str, str]]:
    omnium = cy.Omnium(3)
    good = {**omnium.to_dict(), "table": {"seats": "greedy,greedy,greedy", "seed": 1}}
    heat = cy.Record.from_state(cy.new_game("sprint", teams=["A", "B"])).to_dict()
    return [
        (json.dumps({**good, "settings": {"players": 2}}), "at least 3 riders"),
        (json.dumps({**good, "games": [heat]}), "game 1 of the competition"),
        (json.dumps({**good, "kind": "sprint-tournament"}), "unknown sprint tournament setting"),
        (json.dumps({**good, "table": {"seed": "x"}}), "'table' must be"),
    ]


@pytest.mark.parametrize("case", range(4))
def test_a_bad_file_of_a_track_competition_is_one_line(tmp_path: Path, case: int) -> None:
    text, message = bad_files()[case]
    path = tmp_path / "race.json"
    path.write_text(text)
    code, out, err = peloton("tour", "--resume", str(path))
    assert code == 1, out
    one_line_error(err, message)
    assert path.read_text() == text  # a bad file is left as it was


def test_a_human_rides_the_heats_and_is_asked_between_them(tmp_path: Path) -> None:
    code, out, err = peloton("tour", "--kind", "pursuit-series", "--seats", "human,greedy,random",
                             "--seed", "4", stdin="1\n" * 3000)  # fmt: skip
    assert (code, err) == (0, ""), out[-2000:]
    assert out.count("Press Enter for the next heat (q to stop) > ") == 2  # after heats 1, 2
    assert "Final: B v C" in out and "Winner of the pursuit series: team " in out
