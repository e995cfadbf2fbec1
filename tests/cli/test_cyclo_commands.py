"""The commands around Cyclo at the terminal: ``peloton moves --game cyclo``, ``peloton
replay`` of Cyclo records, ``play --game`` for every game, the ``--help`` example of a
Starter leg played to its end, and a whole hot-seat game typed into a real ``peloton``
process. (Every example of ``--help``, docs/playing.md and ``docs/cyclo.md`` runs in
test_documented.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docs_examples import ROOT, Command, commands, help_examples
from peloton.core import registry
from peloton.games import cyclo as cy

from .test_cyclo_play import peloton
from .test_subprocess import peloton as peloton_process


def one_line_error(err: str, text: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], err
    assert "Traceback" not in err


# ---------------------------------------------------------------- moves


def test_moves_of_a_cyn_position_cy_18_2() -> None:
    code, out, _ = peloton(
        "moves", "--game", "cyclo", "--position", "3 AH1:a75*4 / A*4", "--after", "roll:1,1"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "# round 3, AH1 rides (team A), 6 legal moves"
    assert lines[1:] == ["AH1-77", "AH1-83/r", "AH1-83/t", "AH1-89/rr", "AH1-89/rt", "AH1-89/tt"]


def test_moves_lists_a_swap_window_and_chance_outcomes() -> None:
    code, out, _ = peloton(
        "moves", "--game", "cyclo", "--position", "9 AS1:a30*4,BH1:a29*4 / A*4,B*4"
    )
    assert code == 0 and out.splitlines() == ["# round 9, AS1's swap window (team A), 2 legal moves", "AS1~-",
                                              "AS1~BH1"]  # fmt: skip
    code, out, _ = peloton("moves", "--game", "cyclo", "--position", "9 AS1:a30*4,BH1:a29*4 / A*4,B*4",
                           "--after", "AS1~-")  # fmt: skip
    assert out.splitlines()[0] == "# round 9, AS1's roll (chance), 21 legal moves"
    assert out.splitlines()[1:3] == ["roll:1,1", "roll:1,2"]


def test_moves_takes_the_games_options_and_draws_the_board() -> None:
    code, out, _ = peloton("moves", "--game", "cyclo", "-o", "mode=leg", "-o", "level=starter", "-o",
                           "course=italian-4", "--position", "3 AC1:a40,BS1:a30", "--after", "roll:3",
                           "--board")  # fmt: skip
    assert code == 0, out
    # CY-18.11: a climber on italian-4's climb adds 1 to its roll; Starter never holds back.
    assert out.splitlines()[-2:] == ["# round 3, AC1 rides (team A), 1 legal move", "AC1-44"]
    assert "Cyclo · leg · Starter · italian-4 (A1 C2 B2 E1, finish after 120) · round 3" in out
    assert "climb" in out and "dice: ⚂  3 = 3 (AC1's roll)" in out


def test_mind_cycling_stays_the_default_of_moves() -> None:
    code, out, _ = peloton(
        "moves", "--position", "3 AC1:b9,AD1:c12+,AS1:c11,BC1:e8,BD1:d13+,BS1:d12 / - / -"
    )
    assert code == 0 and out.startswith("# round 3, BD1 to play, ")


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--position", "9 AS1:a30*4,BS1:a30"], 1, "AS1 and BS1 are both on a30"),
        (["--position", "9 QQ"], 1, "rider 'QQ' must look like 'AS1:a30'"),
        (
            ["--position", "9 AS1:a30", "--course", "standard"],
            2,
            "--course: Mind Cycling option(s), not cyclo's",
        ),
        (
            ["--position", "9 AS1:a30", "-o", "players=3"],
            1,
            "a position (CYN) names its own riders",
        ),
        (
            ["--position", "9 AS1:a30", "-o", "mode=elimination"],
            1,
            "an elimination race needs at least 3 riders, not 1",
        ),
        (
            ["--position", "9 AS1:a30", "--after", "AS1-40"],
            1,
            "'AS1-40' is not legal now: AS1 must roll first",
        ),
        (["--position", "9 AS1:a30", "--after", "roll:9"], 1, "'roll:9' is not a Cyclo move"),
    ],
)
def test_bad_positions_and_moves_are_one_line_errors(
    argv: list[str], code: int, message: str
) -> None:
    got, out, err = peloton("moves", "--game", "cyclo", *argv)
    assert got == code, (out, err)
    one_line_error(err, message)


def test_moves_of_a_game_without_positions_at_the_terminal() -> None:
    code, _, err = peloton("moves", "--game", "mind-twist", "--position", "x")
    assert code == 1
    one_line_error(err, "Mind Twist cannot start from a position at the terminal")


# ---------------------------------------------------------------- replay


def test_replay_steps_through_a_cyclo_record(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    assert peloton("play", "cyclo", "--seats", "greedy,random", "--seed", "4", "-o", "level=starter",
                   "--record", str(path))[0] == 0  # fmt: skip
    record = cy.Record.load(path)
    last = len(record.moves)
    code, out, _ = peloton("replay", str(path), "--to-end")
    assert code == 0
    assert (
        f"move {last}/{last}" in out
        and "Cyclo · classic · Starter · flemish-4" in out
        and "race over" in out
    )
    assert f"Winner: {record.replay().result.winner} (team " in out
    code, out, _ = peloton("replay", str(path), stdin="\n\nb\n5\ne\nq\n")
    assert code == 0
    assert re.findall(r"^move (\d+)/", out, flags=re.M) == ["0", "1", "2", "1", "5", str(last)]
    assert f"move 1/{last}   played: {record.moves[0]}   next: {record.moves[1]}" in out
    assert "on the start line (0): AS1 BS1 AC1 BC1 AH1 BH1 AH2 BH2" in out


# ---------------------------------------------------------------- play --game, options


@pytest.mark.parametrize("game", registry.names())
def test_play_dash_dash_game_names_any_game(game: str) -> None:
    code, out, err = peloton("play", "--game", game, stdin="q\n")
    assert (code, err) == (0, ""), out
    assert "You left the game." in out


def test_the_game_named_twice_must_agree() -> None:
    code, _, err = peloton("play", "cyclo", "--game", "cyclo", "--seats", "greedy,greedy", "-o",
                           'course={"name": "s", "boards": ["E1"]}')  # fmt: skip
    assert code == 0 and err == ""
    code, _, err = peloton("play", "cyclo", "--game", "pistard")
    assert code == 2
    one_line_error(err, "two games named: 'cyclo' and --game 'pistard'")


def test_modes_are_the_declared_ones() -> None:
    modes = cy.OPTIONS["mode"].choices
    code, out, _ = peloton("options", "cyclo")
    assert code == 0 and f'mode (default "classic"; choices: {", ".join(modes)})' in out
    for mode in modes:  # every declared mode can be set up and left at once
        entries = ["-o", "entries=2"] if mode == "elimination" else []  # 3 riders at least
        code, out, err = peloton(
            "play", "cyclo", "-o", f"mode={mode}", *entries, "--seats", "human,greedy", stdin="q\n"
        )
        assert (code, err) == (0, ""), (mode, err)
        assert f"Cyclo · {mode} · Pro · " in out


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["-o", "mode=criterium"], 1, "unknown mode 'criterium' (modes: classic, leg, itt"),
        (["-o", "mode=elimination"], 1, "an elimination race needs at least 3 riders, not 2"),
        (["-o", "level=expert"], 1, "unknown level 'expert'"),
        (
            ["--seats", "human,human,human,human,human,human,human"],
            1,
            "7 seats: option 'players' must be 2 to 6",
        ),
        (["--start", "9 AS1:a30", "-o", "teams=A"], 1, "a position (CYN) names its own riders"),
        (
            ["--start", "9 AS1:a30,BS1:a31", "--seats", "human"],
            1,
            "cyclo has 2 seats (A, B); --seats gives 1",
        ),
        (["--start", "9 AS1:a30:x"], 1, "CYN '9 AS1:a30:x'"),
        (["--wind", "left"], 2, "--wind: Mind Cycling option(s), not cyclo's"),
    ],
)
def test_bad_setups_are_one_line_errors(argv: list[str], code: int, message: str) -> None:
    got, out, err = peloton("play", "cyclo", *argv)
    assert got == code, (out, err)
    one_line_error(err, message)


def test_start_is_refused_for_mind_cycling_and_games_without_positions() -> None:
    code, _, err = peloton("play", "--start", "3 AD1:c12 / - / -")
    assert code == 2
    one_line_error(err, "--start: Mind Cycling begins with its setup at the terminal")
    code, _, err = peloton("play", "pistard", "--start", "x")
    one_line_error(err, "Pistard cannot start from a position at the terminal")


# ---------------------------------------------------------------- examples


def run_example(command: Command, stdin: str) -> tuple[int, str, str]:
    """Run a documented command line (read by docs_examples)."""
    return peloton(*command.argv, stdin=stdin)


def test_the_help_example_of_a_starter_leg_is_played_to_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (command,) = [c for c in help_examples() if c.command == "play" and "mode=leg" in c.line]
    code, out, err = run_example(command, stdin="1\n" * 200)
    assert (code, err) == (0, "")
    final = cy.Record.load(tmp_path / "c.json").replay()
    assert (
        final.is_over and final.options()["mode"] == "leg" and final.options()["level"] == "starter"
    )
    # A leg's result: times, green and red points.
    assert re.search(r"^place +rider +team +time +green +red", out, flags=re.M)
    winner = final.result.places[0]
    assert re.search(rf"^ +1\. +{winner} +team {winner[0]} \(\w+\) +0 s +\d+ +\d+", out, flags=re.M)


def test_the_docs_have_cyclo_commands() -> None:
    assert len(commands(ROOT / "docs" / "playing.md", "cyclo")) >= 3 and commands(
        ROOT / "docs" / "cyclo.md", "cyclo"
    )


# ---------------------------------------------------------------- a real process


def test_a_starter_hot_seat_game_typed_into_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "hot.json"
    proc = peloton_process("play", "cyclo", "--seats", "human,human", "-o", "level=starter", "-o",
                           'course={"name": "short", "boards": ["E1"]}', "--seed", "5", "--record", str(path),
                           stdin="1\n" * 200)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    record = cy.Record.load(path)
    final = record.replay()
    assert final.is_over and {p["kind"] for p in record.players.values()} == {"human"}
    out = proc.stdout
    # Every ride was typed, by both teams, and shown with where it took the rider.
    rides = [m for m in record.moves if re.fullmatch(r"[AB][SCH][12]-#?\d+", m)]
    typed = re.findall(r"^[AB] \(1-1 or move, \? help, q quit\) > 1$", out, flags=re.M)
    assert len(typed) == len(rides) and {m[0] for m in rides} == {"A", "B"}
    for ride in rides[:5]:
        assert re.search(rf"^  [AB] human +{ride}  → [a-d]#?\d+$", out, flags=re.M)
    assert "Pass the keyboard" not in out  # Starter: no swap, no wheel, nothing out of turn
    assert f"Winner: {final.result.winner} (team " in out and f"Record saved to {path}" in out
