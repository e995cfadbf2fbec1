"""The solo solver (MC-9.4) against an independent exhaustive search, the bots, the
engine's replay, and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from peloton import ConfigError, NotationError
from peloton.bots import make_bot, play_out
from peloton.cli import main
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import solve
from peloton.games.mindcycling.solver.examples import C8, C12, C14
from peloton.games.mindcycling.solver.lines import known_line

POSITIONS = [
    (C14, "5 AD1:a10,AD2:b11+,AS1:c10,AS2:d11,AC1:e10"),
    (C14, "5 AD1:c11,AS1:a9,AS2:d10,AC1:e9 / AD2"),
    (C12, "3 AD1:a8,AD2:b9+,AS1:c9,AS2:d9,AC1:e9"),
    (C12, "4 AD1:b9+,AS1:a8,AS2:d8,AC1:e9 / AD2"),
]


def brute_force(state: mc.State, memo: dict[object, tuple[int, int]]) -> tuple[int, int]:
    """The best solo score by trying every move sequence (memoised on the full state)."""
    if state.is_over:
        score = state.solo_score
        assert score is not None
        return score
    key = state.race.key()
    if key in memo:
        return memo[key]
    best = None
    for move in state.legal_moves():
        child = state.copy()
        child.history = []
        child.play(move)
        score = brute_force(child, memo)
        if best is None or score < best:
            best = score
    assert best is not None
    memo[key] = best
    return best


@pytest.mark.parametrize(("course", "mcn"), POSITIONS)
def test_solver_agrees_with_exhaustive_search(course: mc.Course, mcn: str) -> None:
    expected = brute_force(mc.from_mcn(course, mcn), {})
    solution = solve(course, start=mcn)
    assert solution.proven
    assert solution.score == expected
    assert solution.lower_bound == expected


@pytest.mark.parametrize(("course", "mcn"), POSITIONS)
def test_line_replays_to_the_claimed_score(course: mc.Course, mcn: str) -> None:
    solution = solve(course, start=mcn)
    assert solution.final is not None
    record = mc.Record.from_json(mc.Record.from_state(solution.final).to_json())
    assert record.replay().solo_score == solution.score
    assert sum(len(moves) for moves in solution.rounds) == len(record.moves)


def test_setup_is_searched_and_the_line_replays() -> None:
    solution = solve(C8)
    assert solution.proven and solution.score == (2, 0)
    assert solution.setup_searched and len(solution.rounds[0]) == 5
    assert all("@" in m for m in solution.rounds[0])
    assert solution.final is not None
    assert mc.Record.from_state(solution.final).replay().solo_score == (2, 0)
    summary = json.loads(json.dumps(solution.to_dict()))
    assert summary["score"] == [2, 0] and summary["proven"] and summary["lower_bound"] == [2, 0]
    assert [r["label"] for r in summary["rounds"]] == ["setup", "round 1", "round 2"]
    assert summary["rounds"][0]["moves"] == solution.rounds[0]


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_no_bot_beats_the_solver(bot: str) -> None:
    best = solve(C8).score
    assert best is not None
    for seed in range(40):
        state = play_out(mc.new_solo(C8), make_bot(bot, seed))
        assert state.solo_score is not None and state.solo_score >= best
    for course, mcn in POSITIONS:
        optimum = solve(course, start=mcn).score
        assert optimum is not None
        for seed in range(25):
            state = play_out(mc.from_mcn(course, mcn), make_bot(bot, seed))
            assert state.solo_score is not None and state.solo_score >= optimum


def test_any_team_is_no_worse_than_the_default() -> None:
    default = solve(C8).score
    best = solve(C8, any_team=True)
    assert best.proven and best.score is not None and default is not None
    assert best.score <= default
    assert best.team in ("DDSSC", "DDSCC", "DSSCC")


def test_time_limit_gives_an_unproven_line_and_a_lower_bound() -> None:
    solution = solve(mc.Course.load("solo"), time_limit=0.001)
    assert not solution.proven
    assert solution.score is not None  # the greedy line at least
    assert solution.lower_bound <= solution.score
    assert solution.final is not None and solution.final.solo_score == solution.score


def test_bad_input() -> None:
    with pytest.raises(ConfigError, match="5"):
        solve(C8, "DDSC")
    with pytest.raises(ConfigError, match="each type"):
        solve(C8, "DDDSC")
    with pytest.raises(NotationError):
        solve(C14, start="not a position")
    with pytest.raises((ConfigError, NotationError), match=r"solo|teams"):
        solve(mc.Course.load("standard"), start="1 AD1:a5+,AS1:b5,AC1:c5,BD1:d5+,BS1:e5,BC1:a3")
    with pytest.raises(ConfigError):
        solve(C14, start="5 AD1:a10,AD2:b11+,AS1:c10,AS2:d11,AC1:e10", any_team=True)


#: The best solo line shipped with the bundled course (package data beside it).
SOLO_LINE = Path(mc.__file__).resolve().parent / "courses" / "solo-DDSSC.line.json"


def shipped_score() -> tuple[int, int]:
    """MC-9.4: the score the shipped line replays to."""
    score = mc.Record.load(SOLO_LINE).replay().solo_score
    assert score is not None
    return score


def test_the_shipped_line_is_the_first_line_to_beat() -> None:
    """MC-9.4 on the bundled ``solo`` course: the solver starts from the line shipped
    with it and never answers worse; the row game rules out 10 rounds, so no line can
    beat (11, 0)."""
    solution = solve(mc.Course.load("solo"), time_limit=20.0)
    assert solution.log[0] == "started from the line shipped with the course (solo-DDSSC.line.json)"
    assert solution.score is not None and solution.score <= shipped_score()
    assert solution.final is not None and solution.final.solo_score == solution.score
    assert solution.lower_bound <= solution.score


@pytest.mark.parametrize(
    "path",
    sorted(SOLO_LINE.parent.glob("*.line.json")),
    ids=lambda p: p.name,
)
def test_every_shipped_line_is_its_course_and_teams_opening_book(path: Path) -> None:
    """Each line shipped beside a bundled course is played from its setup under the
    default rules (MC-9.2, MC-5.5, MC-6.5), ends the game (MC-9.3), and is the line the
    solver starts from for that course and team."""
    record = mc.Record.load(path)
    course_name, team = path.name.removesuffix(".line.json").rsplit("-", 1)
    course = mc.Course.load(course_name)
    assert known_line(course, team, "front", 3) == (path.name, record.moves)
    assert record.course.to_dict() == course.to_dict()
    final = record.replay()
    assert final.is_over and final.solo_score is not None and final.solo_score[0] >= 1


def test_a_given_line_is_the_line_to_beat() -> None:
    """A known line (a record's moves) is the first incumbent: with it the result is
    never worse; from scratch the shipped line is not used."""
    moves = mc.Record.load(SOLO_LINE).moves
    solo = mc.Course.load("solo")
    solution = solve(solo, known_line=moves, time_limit=10.0)
    assert solution.score is not None and solution.score <= shipped_score()
    assert not any("shipped" in entry for entry in solution.log)
    scratch = solve(solo, from_scratch=True, time_limit=0.5)
    assert not scratch.proven and scratch.score is not None
    assert not any("shipped" in entry for entry in scratch.log)


def test_bad_given_lines() -> None:
    moves = mc.Record.load(SOLO_LINE).moves
    solo = mc.Course.load("solo")
    with pytest.raises(ConfigError, match="stops after 30 moves"):
        solve(solo, known_line=moves[:30], time_limit=1.0)
    with pytest.raises(ConfigError, match=r"cannot be played.*AD2-c60"):
        solve(solo, known_line=[*moves[:5], "AD2-c60", *moves[6:]], time_limit=1.0)
    with pytest.raises(ConfigError, match="goes on after"):
        solve(solo, known_line=[*moves, "AS2-a60"], time_limit=1.0)
    with pytest.raises(ConfigError, match="fixes the team"):
        solve(solo, known_line=moves, any_team=True)
    with pytest.raises(ConfigError, match="cannot be played"):
        solve(solo, "DSSCC", known_line=moves, time_limit=1.0)  # another team: no AD2 to place


def test_cli_starts_from_a_record_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "better.json"
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--line", str(SOLO_LINE), "--time-limit", "10", "--record", str(out)])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "solving course 'solo', team DDSSC" in text
    score = mc.Record.load(out).replay().solo_score
    assert score is not None and score <= shipped_score() and f"score: {score}" in text
    duel = tmp_path / "duel.json"
    game = mc.new_game("short", {"A": "DSC", "B": "DSC"})
    duel.write_text(mc.Record.from_state(game).to_json())
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--line", str(duel)])
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a solo game" in err


def test_cli_solves_and_writes_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    course = tmp_path / "c8.json"
    course.write_text(
        '{"name": "c8", "lanes": 5, "finish": 8, "sections": [[2, "plain"], [5, "sprint"]], "feed": ["c3"]}'
    )
    out = tmp_path / "best.json"
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--course", str(course), "--record", str(out)])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "score: (2, 0)" in text and "proven optimal" in text and "nodes/s" in text
    assert "setup:" in text and "round 2:" in text
    assert mc.Record.load(out).replay().solo_score == (2, 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--course", "nope"], "no bundled course"),
        (["solve", "--course", "short", "--team", "DDS"], "riders"),
        (
            [
                "solve",
                "--course",
                "standard",
                "--start",
                "1 AD1:a5+,AS1:b5,AC1:c5,BD1:d5+,BS1:e5,BC1:a3",
            ],
            "solo",
        ),
        (["solve", "--course", "solo", "--start", "1 AD1:a5+,AZ1:b5"], "MCN"),
        (["solve", "--line", "no-such-record.json"], "cannot read record"),
    ],
)
def test_cli_errors_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("peloton: error:") and message in err


def test_cli_time_limit_says_not_proven(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["solve", "--course", "solo", "--time-limit", "0.001"])
    assert exc.value.code == 0
    assert "NOT proven optimal" in capsys.readouterr().out
