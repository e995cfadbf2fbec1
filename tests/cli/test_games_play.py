"""``peloton play GAME`` for the games without Mind Cycling's flags (Mind Twist,
Pistard), ``peloton replay`` of their records and ``peloton options``, through the real
command line (Typer's CliRunner)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from peloton.cli import app
from peloton.core import registry
from peloton.core.record import load_record
from peloton.games import mindtwist as mt
from peloton.games import pistard as pi

runner = CliRunner()


def peloton(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run ``peloton ARGS`` with ``stdin`` piped in: (exit code, stdout, stderr)."""
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "100"})
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line_error(err: str, text: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert text in lines[0], err
    assert "Traceback" not in err


# ---------------------------------------------------------------- Mind Twist


def test_mind_twist_bot_game_saves_a_full_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "mt.json"
    code, out, err = peloton(
        "play", "mind-twist", "--seats", "greedy,random", "--seed", "3", "--record", str(path)
    )
    assert (code, err) == (0, "")
    record = mt.Record.load(path)
    final = record.replay()
    assert final.is_over
    assert "dial:?" not in record.moves  # the file is the full record
    assert f"{final.result} (" in out and "wins" in out
    assert f"Record saved to {path}" in out
    assert record.players["R"] == {"name": "greedy", "kind": "bot", "controller": "greedy",
                                   "seed": record.players["R"]["seed"]}  # fmt: skip
    # With bots alone there is nobody to hide from: every move is logged as played.
    logged = re.findall(r"^  [RB] (?:greedy|random) +(\S+)$", out, flags=re.M)
    assert logged == record.moves


def test_same_seed_same_mind_twist_game(tmp_path: Path) -> None:
    games = []
    for i in range(2):
        path = tmp_path / f"g{i}.json"
        assert (
            peloton(
                "play",
                "mind-twist",
                "--seats",
                "random,random",
                "--seed",
                "8",
                "--record",
                str(path),
            )[0]
            == 0
        )
        games.append(mt.Record.load(path).moves)
    assert games[0] == games[1]


def test_mind_twist_human_moves_typed_numbered_or_in_notation(tmp_path: Path) -> None:
    path = tmp_path / "mt.json"
    # R dials 2 by its number; hand-over; B guesses in shorthand (g3), wrong, so R
    # dials again (hand-over) in shorthand (d1); then B leaves with q.
    code, out, _ = peloton("play", "mind-twist", "--seats", "human,human", "--record", str(path),
                           stdin="2\n\ng3\n\nd1\n\nq\n")  # fmt: skip
    assert code == 0
    assert "You left the game." in out
    moves = mt.Record.load(path).moves
    assert moves == ["dial:2", "guess:3", "dial:1"]


def test_mind_twist_illegal_input_gets_the_reason_and_the_same_prompt(tmp_path: Path) -> None:
    path = tmp_path / "mt.json"
    # B is human: R (greedy) dials, then B types nonsense, a dial, a number out of
    # range, then guess:2 (in shorthand g2) and leaves.
    code, out, _ = peloton("play", "mind-twist", "--seats", "greedy,human", "--seed", "2", "--record", str(path),
                           stdin="hello\ndial:2\n9\n0\ng2\nq\n")  # fmt: skip
    assert code == 0
    assert "✗ 'hello' is not a Mind Twist move" in out
    assert "✗ dial:2 is illegal: R has dialled; B must guess (guess:1..3) or pass" in out
    assert "✗ there is no move number 9; choose 1 to 4" in out
    assert "✗ there is no move number 0; choose 1 to 4" in out
    prompts = re.findall(r"^B \(1-4 or move, \? help, q quit\) > (\S+)$", out, flags=re.M)
    assert prompts[:5] == ["hello", "dial:2", "9", "0", "g2"]
    assert mt.Record.load(path).moves[1] == "guess:2"


def test_mind_twist_options_reach_the_game(tmp_path: Path) -> None:
    path = tmp_path / "mt.json"
    code, out, _ = peloton("play", "mind-twist", "--seats", "random,random", "--option", "length=12",
                           "-o", "milestones=4,8", "--record", str(path))  # fmt: skip
    assert code == 0
    assert "finish 12 · milestones 4 8" in out
    assert mt.Record.load(path).board.options() == {"length": 12, "milestones": [4, 8]}


def test_mind_twist_blue_first(tmp_path: Path) -> None:
    """``-o first=B``: blue dials first, and the record says so."""
    path = tmp_path / "mt.json"
    code, out, err = peloton("play", "mind-twist", "--seats", "random,random", "-o", "first=B", "-o", "length=10",
                             "--seed", "4", "--record", str(path))  # fmt: skip
    assert (code, err) == (0, "")
    assert "milestones 3 5 8 · blue dials first" in out
    record = mt.Record.load(path)
    assert record.first == "B" and record.to_dict()["options"]["first"] == "B"
    assert record.replay().turns()[0].dialer == "B"
    code, _, err = peloton("play", "mind-twist", "--seats", "random,random", "-o", "first=G")
    assert code == 1 and "option 'first' must be R (red) or B (blue), not 'G'" in err


def test_input_ending_mid_game_exits_1_with_the_record(tmp_path: Path) -> None:
    path = tmp_path / "mt.json"
    code, out, _ = peloton(
        "play", "mind-twist", "--seats", "human,random", "--record", str(path), stdin="2\n"
    )
    assert code == 1
    assert "Input ended before the game did." in out
    assert mt.Record.load(path).moves[0] == "dial:2"


# ---------------------------------------------------------------- Pistard


def test_pistard_bot_game_rolls_from_the_seed_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "pi.json"
    code, out, err = peloton("play", "pistard", "--seats", "greedy,random,random", "--seed", "5",
                             "--record", str(path))  # fmt: skip
    assert (code, err) == (0, "")
    record = pi.Record.load(path)
    final = record.replay()
    assert final.is_over
    # With bots alone, one line per round lists its moves, the rolls among them.
    logged = re.findall(r"^round (\d+): (.*)$", out, flags=re.M)
    assert [int(n) for n, _ in logged] == list(range(1, final.round + 1))
    assert " ".join(moves for _, moves in logged).split() == record.moves
    assert any(m.startswith("roll:") for m in record.moves)
    places = re.findall(r"^\s+\d+\. ([A-D]) \(", out, flags=re.M)
    assert places == list(final.result.places)
    assert f"Winner: {final.result.winner} (" in out
    assert record.seed is not None
    # The same seed rolls the same dice: the same game again.
    again = tmp_path / "again.json"
    assert (
        peloton(
            "play",
            "pistard",
            "--seats",
            "greedy,random,random",
            "--seed",
            "5",
            "--record",
            str(again),
        )[0]
        == 0
    )
    assert pi.Record.load(again).moves == record.moves


def test_pistard_human_first_move_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "pi.json"
    state = pi.from_options({"players": 2})
    code, out, _ = peloton("play", "pistard", "--seats", "human,greedy", "--seed", "4", "--record", str(path),
                           stdin="A1=9\nB1=3\n77\nA1\n1\nq\n")  # fmt: skip
    assert code == 0, out
    assert "rolls" in out  # the dice fell before the human was asked
    assert "✗ 'A1=9'" in out
    assert "✗ 'B1=3' is not legal now: it is player A's turn" in out
    assert "✗ there is no move number 77; choose 1 to" in out
    assert "✗ 'A1'" in out
    moves = pi.Record.load(path).moves
    assert moves[:2] == [m for m in moves[:2] if m.startswith("roll:")]
    assert re.fullmatch(r"A1=\d", moves[2])
    assert state.players == ("A", "B")
    # The board: the velodrome's lanes, the start line, the teams' dice and riders.
    assert re.search(r"^ d .*\n c .*\n b .*\n a ", out, flags=re.M)
    assert "S/F" in out and "A1 start" in out


def test_seats_take_mcts_budgets(tmp_path: Path) -> None:
    path = tmp_path / "mt.json"
    code, _, err = peloton("play", "mind-twist", "--seats", "mcts:20,random", "-o", "length=8", "-o", "milestones=4",
                             "--seed", "3", "--record", str(path))  # fmt: skip
    assert (code, err) == (0, "")
    assert mt.Record.load(path).players["R"]["controller"] == "mcts:20"
    code, _, err = peloton("play", "mind-twist", "--seats", "mcts:lots,random")
    assert code == 1 and "bad MCTS budget in 'mcts:lots'" in err


def test_pistard_options_and_seat_count(tmp_path: Path) -> None:
    path = tmp_path / "pi.json"
    code, out, _ = peloton("play", "pistard", "--seats", "random,random,random,random", "--option", "target=3",
                           "--option", "bonus=shelter", "--seed", "1", "--record", str(path))  # fmt: skip
    assert code == 0
    assert "shelter bonus only (house rule) · first to 3 points wins" in out
    data = json.loads(path.read_text())
    assert len(data["players"]) == 4
    final = pi.Record.load(path).replay()
    assert final.target == 3 and final.bonus == "shelter" and max(final.result.points.values()) >= 3


# ---------------------------------------------------------------- replay, options


def test_replay_dispatches_on_the_records_game(tmp_path: Path) -> None:
    for game, seats, word in (
        ("mind-twist", "greedy,random", "Result"),
        ("pistard", "greedy,random", "Final standings"),
    ):
        path = tmp_path / f"{game}.json"
        assert peloton("play", game, "--seats", seats, "--seed", "2", "--record", str(path))[0] == 0
        record = load_record(path)
        code, out, _ = peloton("replay", str(path), "--to-end")
        assert code == 0 and word in out
        last = len(record.to_dict()["moves"])
        assert f"move {last}/{last}" in out
        code, out, _ = peloton("replay", str(path), stdin="\n\nb\n5\njump\ne\nq\n")
        assert code == 0
        assert re.findall(r"^move (\d+)/", out, flags=re.M) == ["0", "1", "2", "1", "5", str(last)]
        assert "✗ 'jump' is not a replay command" in out


@pytest.mark.parametrize("game", registry.names())
def test_options_lists_what_the_game_declares_with_its_choices(game: str) -> None:
    code, out, _ = peloton("options", game)
    assert code == 0
    for name, option in registry.get(game).options.items():
        line = f"  {name} (default {json.dumps(option.default)}"
        if option.choices:
            line += f"; choices: {', '.join(map(str, option.choices))}"
        assert f"{line}): {option.help}\n" in out


def test_a_seat_offers_the_games_own_bots_only() -> None:
    code, _, err = peloton("play", "pistard", "--seats", "human,optimal")
    one_line_error(err, "unknown seat 'optimal'")
    assert "pass3" not in err and "greedy" in err
    code, out, _ = peloton("play", "mind-twist", "--seats", "pass3,optimal", "--seed", "1")
    assert code == 0 and re.search(r"\((optimal|pass3)\) wins", out)


def test_options_lists_a_games_options() -> None:
    code, out, _ = peloton("options", "pistard")
    assert code == 0
    for name in pi.OPTIONS:
        assert f"  {name} (default " in out
    code, out, _ = peloton("options", "mind-twist")
    assert "milestones (default [8, 16, 24])" in out


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (
            ["play", "chess"],
            2,
            f"unknown game 'chess' (known games: {', '.join(registry.names())})",
        ),
        (["options", "chess"], 2, "unknown game 'chess'"),
        (
            ["play", "mind-twist", "--option", "length=abc"],
            1,
            "option 'length' must be a whole number, not 'abc'",
        ),
        (["play", "mind-twist", "--option", "length=1"], 1, "option 'length' must be 2 to"),
        (
            ["play", "mind-twist", "--option", "milestones=9,4"],
            1,
            "option 'milestones' must be strictly increasing",
        ),
        (
            ["play", "mind-twist", "--option", "colour=red"],
            1,
            "unknown Mind Twist option(s) 'colour'; its options are",
        ),
        (["play", "mind-twist", "--option", "length"], 1, "--option 'length' must be NAME=VALUE"),
        (
            ["play", "mind-twist", "-o", "length=9", "-o", "length=10"],
            1,
            "--option 'length' is given twice",
        ),
        (["play", "mind-twist", "--seats", "human,greedy,random"], 1, "3 seats: option 'players'"),
        (
            ["play", "mind-twist", "--seats", "human,alphago"],
            1,
            "unknown seat 'alphago' (choose from human,",
        ),
        (
            ["play", "pistard", "--seats", "human,pass3"],
            1,
            "unknown seat 'pass3' (choose from human,",
        ),
        (["play", "mind-twist", "--seats", "human,,greedy"], 1, "has an empty entry"),
        (
            ["play", "mind-twist", "--course", "short"],
            2,
            "--course: Mind Cycling option(s), not mind-twist's",
        ),
        (["play", "pistard", "--solo"], 2, "--solo: Mind Cycling option(s)"),
        (
            ["play", "pistard", "--seats", "human"],
            1,
            "players must be a whole number from 2 to 4, not 1",
        ),
        (["play", "pistard", "--seats", "random,random", "-o", "target=0"], 1, "target must be"),
        (
            ["play", "pistard", "--seats", "random,random", "-o", "players=3"],
            1,
            "option 'players' is 3 but 2 seats",
        ),
        (["play", "--option", "length=20"], 2, "--option is for the other games ("),
        (["play", "pistard", "--record", "/no/such/dir/x.json"], 1, "no such directory"),
    ],
)
def test_bad_input_is_one_line_on_stderr(argv: list[str], code: int, message: str) -> None:
    got, out, err = peloton(*argv)
    assert got == code, (out, err)
    one_line_error(err, message)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("20", 20),
        ("[5,10]", [5, 10]),
        ("5,10", [5, 10]),
        ("true", True),
        ("shelter", "shelter"),
        ("", ""),
    ],
)
def test_option_values_read_as_json_lists_or_text(value: str, expected: object) -> None:
    from peloton.terminal.setup import parse_option_args

    assert parse_option_args([f"x={value}"]) == {"x": expected}


def test_list_options_take_one_value_or_none() -> None:
    from peloton.terminal.setup import game_options

    assert game_options("mind-twist", {"milestones": 12}, 2)["milestones"] == [12]
    assert game_options("mind-twist", {"milestones": ""}, 2)["milestones"] == []
    assert game_options("pistard", {"target": 5}, 3) == {"target": 5, "players": 3}


def test_default_seats_are_a_human_against_the_greedy_bot() -> None:
    code, out, _ = peloton("play", "mind-twist", stdin="q\n")
    assert code == 0
    assert "R (human)" in out and "B (greedy)" in out
    code, out, _ = peloton("play", "pistard", stdin="q\n")
    assert code == 0
    assert "A (human)" in out and "B (greedy)" in out
