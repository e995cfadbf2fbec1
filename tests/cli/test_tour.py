"""``peloton tour``: a whole stage race with bots, the standings and jerseys between
legs, the file saved after every leg, a race resumed from it mid-way (the same race as
one ridden without the break), and bad files refused in one line (CY-12.2, CY-12.6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton.games import cyclo as cy
from peloton.terminal.tour import TourSession

from .helpers import Recorder
from .test_cyclo_play import peloton

#: A one-board course (E1's flat and last km): legs quick to ride to the end.
SHORT = {"name": "short", "boards": ["E1"]}


def legs(tmp_path: Path) -> str:
    course = tmp_path / "short.json"
    course.write_text(json.dumps(SHORT), encoding="utf-8")
    return f"leg:{course},itt:{course},ttt:{course}"


def one_line_error(err: str, text: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], err
    assert "Traceback" not in err


def test_a_stage_race_of_bots_is_ridden_to_the_end_and_saved(tmp_path: Path) -> None:
    saved = tmp_path / "tour.json"
    code, out, err = peloton("tour", "--seats", "greedy,random,greedy", "--legs", legs(tmp_path),
                             "--seed", "5", "--save", str(saved))  # fmt: skip
    assert (code, err) == (0, ""), out[-2000:]
    for k in (1, 2, 3):
        assert f"Leg {k} of 3: " in out
    assert "General classification after leg 1 of 3" in out and "Final classification" in out
    data = json.loads(saved.read_text())
    race = cy.load_competition(data)
    assert isinstance(race, cy.StageRace) and race.is_over
    assert data["table"] == {"seats": "greedy,random,greedy", "seed": 5}
    winner = race.winner
    assert winner is not None and f"Winner of the stage race: {winner} of team" in out
    jerseys = race.standings["jerseys"]
    assert f"yellow {jerseys['yellow']} of team" in out
    assert f"green {jerseys['green']} of team" in out and f"red {jerseys['red']} of team" in out
    leader, second = race.standings["yellow"][:2]
    gap = second[1] - leader[1]
    assert f"+{gap // 60}:{gap % 60:02d}" in out  # the time gap to the yellow jersey
    assert [g["players"]["B"]["name"] for g in data["games"]] == ["random"] * 3


def test_a_race_resumed_mid_way_is_the_race_ridden_at_once(tmp_path: Path) -> None:
    whole, half = tmp_path / "whole.json", tmp_path / "half.json"
    code, _, err = peloton("tour", "--seats", "greedy,random", "--legs", legs(tmp_path), "--seed",
                           "8", "--save", str(whole))  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(whole.read_text())
    half.write_text(json.dumps({**data, "games": data["games"][:1]}))
    code, out, err = peloton("tour", "--resume", str(half))
    assert (code, err) == (0, ""), out[-2000:]
    assert "General classification after leg 1 of 3" in out.split("Leg 2 of 3")[0]
    assert "Leg 1 of 3" not in out
    resumed = json.loads(half.read_text())  # saved back to the file it came from
    assert resumed["games"] == data["games"] and resumed["standings"] == data["standings"]


def test_leaving_during_a_leg_keeps_the_legs_ridden(tmp_path: Path) -> None:
    saved = tmp_path / "tour.json"
    code, out, err = peloton("tour", "--seats", "human,greedy", "--legs", legs(tmp_path), "--save",
                             str(saved), stdin="q\n")  # fmt: skip
    assert (code, err) == (0, "")
    assert (
        f"The stage race stops after 0 of 3 legs; resume with: peloton tour --resume {saved}" in out
    )
    race = cy.load_competition(saved.read_text())
    assert race.standings["ridden"] == 0 and not race.is_over


def test_the_tour_is_four_legs(tmp_path: Path) -> None:
    saved = tmp_path / "tour.json"
    code, out, _ = peloton("tour", "--seats", "human,greedy", "--save", str(saved), stdin="q\n")
    assert code == 0 and "Leg 1 of 4: individual time trial, prologue" in out
    assert json.loads(saved.read_text())["settings"]["legs"] == "tour"


def bad_files(tmp_path: Path) -> list[tuple[str, str]]:
    race = cy.StageRace(2, legs=[{"mode": "itt", "course": SHORT}])
    good = {**race.to_dict(), "table": {"seats": "greedy,greedy", "seed": 1}}
    record = cy.Record.from_state(cy.new_game("classic")).to_dict()
    return [
        ("missing.json", "cannot read"),
        ("{not json", "must be JSON"),
        (json.dumps(record), "not a Cyclo competition file"),
        (json.dumps({**good, "kind": "omnium"}), "unknown omnium setting"),
        (json.dumps({**good, "games": [record]}), "game 1 of the competition"),
        (json.dumps({**good, "table": {"seats": 2}}), "'table' must be"),
    ]


@pytest.mark.parametrize("case", range(6))
def test_a_bad_file_is_one_line(tmp_path: Path, case: int) -> None:
    text, message = bad_files(tmp_path)[case]
    path = tmp_path / "race.json"
    if text != "missing.json":
        path.write_text(text)
    code, out, err = peloton("tour", "--resume", str(path))
    assert code == 1, out
    one_line_error(err, message)
    if text != "missing.json":
        assert path.read_text() == text  # a bad file is left as it was


def test_bad_arguments_are_one_line(tmp_path: Path) -> None:
    race = cy.StageRace(2, legs=[{"mode": "itt", "course": SHORT}])
    path = tmp_path / "race.json"
    path.write_text(json.dumps(race.to_dict()))
    for argv, code, message in [
        (["--resume", str(path), "--legs", "tour"], 2, "--legs: a resumed competition keeps"),
        (["--resume", str(path), "--seats", "greedy"], 1, "2 teams; --seats gives 1"),
        (["--legs", "classic:flemish-4"], 1, "'classic:flemish-4' is not MODE or MODE:COURSE"),
        (["--legs", "leg:nowhere"], 1, "nowhere"),
        (["--seats", "greedy,nobody"], 1, "unknown seat 'nobody'"),
        (["--seats", "greedy", "--legs", "leg"], 1, "leg 1 (leg on flat-stage)"),
        (["--save", str(tmp_path / "no" / "t.json")], 1, "no such directory"),
    ]:
        got, out, err = peloton("tour", *argv)
        assert got == code, (argv, out)
        one_line_error(err, message)


def test_a_finished_race_is_not_resumed(tmp_path: Path) -> None:
    saved = tmp_path / "tour.json"
    peloton("tour", "--seats", "greedy,greedy", "--legs", f"itt:{tmp_path / 'c.json'}")
    assert not saved.exists()
    course = tmp_path / "c.json"
    course.write_text(json.dumps(SHORT))
    code, _, _ = peloton("tour", "--seats", "greedy,greedy", "--legs", f"itt:{course}", "--save",
                         str(saved))  # fmt: skip
    assert code == 0
    code, _, err = peloton("tour", "--resume", str(saved))
    assert code == 1
    one_line_error(err, "the stage race is over")


@pytest.mark.parametrize(("answer", "code"), [("q", 0), (None, 1)])
def test_humans_stop_between_legs_and_the_legs_ridden_are_kept(
    tmp_path: Path, answer: str | None, code: int
) -> None:
    saved = tmp_path / "tour.json"
    race = cy.StageRace(2, legs=[{"mode": "itt", "course": SHORT}] * 2)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if prompt.startswith("Press Enter for leg 2"):
            if answer is None:
                raise EOFError
            return answer
        return "1"  # the human rides the first move listed

    recorder = Recorder()
    session = TourSession(race, ["human", "greedy"], 3, recorder.console, ask, save=saved)
    assert session.run() == code
    assert "General classification after leg 1 of 2" in recorder.text
    assert f"stops after 1 of 2 legs; resume with: peloton tour --resume {saved}" in recorder.text
    kept = cy.load_competition(saved.read_text())
    assert kept.standings == race.standings and kept.standings["ridden"] == 1
