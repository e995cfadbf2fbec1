"""The game loop at the terminal: humans and bots, the record saved on every exit."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from peloton import ConfigError
from peloton.bots import bot_names
from peloton.games import mindcycling as mc
from peloton.terminal.play import GameSession
from peloton.terminal.prompt import ordered_moves
from peloton.terminal.seats import make_seats, parse_seats

from .helpers import Recorder, Script


def autopilot(state: mc.State, quit_after: int | None = None) -> Callable[[str], str]:
    """A human who places on the first allowed square, then types the move number of
    the furthest normal move (``q`` after ``quit_after`` answers)."""
    asked = 0

    def ask(prompt: str) -> str:
        nonlocal asked
        asked += 1
        if quit_after is not None and asked > quit_after:
            return "q"
        if state.in_setup:
            return str(state.legal_moves()[0])
        numbered = ordered_moves(state)
        best = max(range(len(numbered)), key=lambda i: _reach(numbered[i]))
        return str(best + 1)

    return ask


def _reach(move: mc.Move) -> int:
    if move.kind not in "-w" or move.square is None:
        return 0
    return 1000 if move.square == "#" else int(move.square[1:])


def printed_places(text: str) -> list[str]:
    return re.findall(r"^\s+\d+\. ([A-G][DSC]\d)\b", text, flags=re.M)


def test_human_and_bots_play_to_the_end(tmp_path: Path) -> None:
    state = mc.new_game("short", mc.default_teams(3, 3))
    seats = make_seats(["human", "greedy", "random"], seed=11)
    out = Recorder()
    path = tmp_path / "game.json"
    session = GameSession(state, seats, out.console, autopilot(state), record_path=path)
    assert session.run() == 0
    assert state.is_over
    assert "Final classification" in out.text
    assert printed_places(out.text) == list(state.result.places)
    assert f"Trophy (Best Mind Cycling Manager): {state.result.trophy}" in out.text
    # Every bot move was printed as it was played, with its seat.
    b_moves = [str(m) for m in state.history if m.rider.startswith("B")]
    assert len(re.findall(r"^  B greedy +\S+$", out.text, flags=re.M)) == len(b_moves)
    record = mc.Record.load(path)
    assert record.replay() == state
    assert record.players["A"] == {"name": "human", "controller": "human"}
    assert record.players["B"]["controller"] == "greedy" and record.players["B"]["seed"].isdigit()
    assert f"Record saved to {path}" in out.text


def test_quit_saves_the_record_so_far(tmp_path: Path) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    path = tmp_path / "quit.json"
    out = Recorder()
    # Three placements, then two race turns, then q.
    session = GameSession(
        state,
        make_seats(["human", "greedy"], seed=2),
        out.console,
        autopilot(state, quit_after=5),
        record_path=path,
    )
    assert session.run() == 0
    assert "You left the game." in out.text
    assert "(the race is not finished)" in out.text
    record = mc.Record.load(path)
    assert record.moves == [str(m) for m in state.history]
    assert record.replay() == state
    assert sum(1 for m in record.moves if m.startswith("A")) == 5


def test_end_of_input_exits_1_and_keeps_the_record(tmp_path: Path) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    path = tmp_path / "eof.json"
    out = Recorder()
    session = GameSession(
        state,
        make_seats(["human", "random"], seed=1),
        out.console,
        Script(["AD1@c1"]),
        record_path=path,
    )
    assert session.run() == 1
    assert "Input ended before the game did." in out.text
    assert mc.Record.load(path).moves[0] == "AD1@c1"


def test_ctrl_c_exits_130_and_keeps_the_record(tmp_path: Path) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    path = tmp_path / "int.json"

    def ask(prompt: str) -> str:
        raise KeyboardInterrupt

    session = GameSession(
        state, make_seats(["random", "human"], seed=1), Recorder().console, ask, record_path=path
    )
    assert session.run() == 130
    # The bot placed one rider before the human was asked; that move is kept.
    assert len(state.history) == 1
    assert mc.Record.load(path).moves == [str(state.history[0])]


def test_bot_game_prints_one_line_per_round_and_the_result(tmp_path: Path) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    out = Recorder()
    path = tmp_path / "bots.json"
    session = GameSession(
        state,
        make_seats(["greedy", "random"], seed=5),
        out.console,
        lambda p: pytest.fail("bots need no input"),
        record_path=path,
    )
    assert session.run() == 0
    assert re.search(r"^setup: AD1@\S+ BD1@|^setup: A\w\d@", out.text, flags=re.M)
    last = state.round
    assert re.search(rf"^round {last}: ", out.text, flags=re.M)
    assert not re.search(rf"^round {last + 1}: ", out.text, flags=re.M)
    replayed = mc.Record.load(path).replay()
    assert printed_places(out.text) == list(replayed.result.places)
    assert replayed.result == state.result


def test_solo_game_prints_the_solo_score_mc_9_4() -> None:
    state = mc.new_solo("solo")
    out = Recorder()
    session = GameSession(state, make_seats(["human"]), out.console, autopilot(state))
    assert session.run() == 0
    score = state.result.solo_score
    assert score is not None
    assert f"Solo score: {score[0]} rounds, remaining {score[1]}" in out.text
    assert len(state.result.places) >= 4
    assert f"across the line: {len(state.result.places)}/4" in out.text


def test_a_record_that_cannot_be_written_is_an_error(tmp_path: Path) -> None:
    state = mc.new_game("short", mc.default_teams(2, 3))
    out = Recorder()
    path = tmp_path / "missing" / "game.json"
    session = GameSession(
        state, make_seats(["random", "random"], seed=3), out.console, lambda p: "", record_path=path
    )
    assert session.run() == 1
    assert "cannot save the record" in out.text


@pytest.mark.parametrize(
    ("text", "solo", "message"),
    [
        (
            "human",
            False,
            "a race needs 2 to 7 seats, one per team; 'human' has 1 (one seat plays with --solo)",
        ),
        ("human,greedy", True, "the solo game has exactly one seat, not 2"),
        ("human,,greedy", False, "has an empty entry"),
        (",".join(["random"] * 8), False, "a race needs 2 to 7 seats"),
    ],
)
def test_seat_lists_are_checked(text: str, solo: bool, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_seats(text, solo=solo)
    assert message in str(info.value)


def test_unknown_seat_names_the_choices() -> None:
    with pytest.raises(ConfigError, match=r"unknown seat 'alphago' \(choose from human, ") as info:
        make_seats(["human", "alphago"])
    for name in bot_names():
        assert name in str(info.value)


def test_bot_seeds_make_bot_games_reproducible() -> None:
    games = []
    for _ in range(2):
        state = mc.new_game("short", mc.default_teams(2, 3))
        GameSession(
            state, make_seats(["random", "random"], seed=9), Recorder().console, lambda p: ""
        ).run()
        games.append([str(m) for m in state.history])
    assert games[0] == games[1]
    assert (
        make_seats(["random", "random"], seed=9)[0].seed
        != make_seats(["random", "random"], seed=9)[1].seed
    )
