"""What every ``peloton`` command shares, checked as a newcomer meets it: the version,
the exit codes docs/cli.md lists, help pages that read as a command's syntax, messages
without Python reprs, bad ports refused in one line, and the game command defaults."""

from __future__ import annotations

import csv
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import click
import httpx
import pytest
import typer
from typer.testing import CliRunner

from docs_examples import ROOT
from peloton import IllegalMoveError, __version__
from peloton.cli import app
from peloton.games import mindcycling as mc
from peloton.games import mindtwist as mt
from peloton.games import pistard as pi

from .test_commands import assert_one_line_error, run
from .test_subprocess import ENV, PELOTON, interrupt_at_prompt


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--version") == (0, f"peloton {__version__}\n", "")


def test_options_without_a_game_lists_mind_cyclings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "options")
    assert (code, err) == (0, "")
    assert out == run(capsys, "options", "mind-cycling")[1]
    assert out.startswith("Mind Cycling options") and "relay_limit (default 3)" in out


# ---------------------------------------------------------------- exit codes


def documented_exit_codes() -> set[int]:
    """The codes of the exit code table of docs/cli.md."""
    text = (ROOT / "docs" / "cli.md").read_text()
    table = text.split("| exit code | when |", 1)[1].split("\n\n", 1)[0]
    return {int(code) for code in re.findall(r"^\| (\d+) \|", table, flags=re.M)}


def invalid_course(tmp_path: Path) -> str:
    path = tmp_path / "bad.toml"
    path.write_text('finish = 67\nsections = [[9, "plain"]]\nfeed = ["a1"]\n')
    return str(path)


def test_every_exit_code_the_docs_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert documented_exit_codes() == {0, 1, 2, 130}
    assert run(capsys, "courses")[0] == 0
    # 1: what was given is wrong
    code, _, err = run(capsys, "course", "check", invalid_course(tmp_path))
    assert code == 1 and "invalid course" in err
    for argv in (
        ["moves", "--position", "not a position"],
        ["replay", str(tmp_path / "missing.json")],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 1 and err.startswith("peloton: error:"), (argv, err)
    # 2: the command line itself is wrong
    for argv in (["fly"], ["moves"], ["serve", "--port", "99999"], ["play", "chess"]):
        code, _, err = run(capsys, *argv)
        assert code == 2, argv
        assert_one_line_error(err, "")
    # 130: Ctrl-C at the game's first prompt
    _, _, code = interrupt_at_prompt("play", "--seats", "human,greedy", "--course", "short")
    assert code == 130


def test_a_game_left_with_q_exits_0(tmp_path: Path) -> None:
    proc = subprocess.run(
        [PELOTON, "play", "--seats", "human,greedy", "--record", str(tmp_path / "q.json")],
        input="q\n",
        capture_output=True,
        text=True,
        timeout=120,
        env=ENV,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    assert mc.Record.load(tmp_path / "q.json").moves == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "99999"], "--port must be 0 (any free port) to 65535, not 99999"),
        (["--port", "-1"], "--port must be 0 (any free port) to 65535, not -1"),
        (["--port", "http"], "Invalid value for '--port'"),
        (["--host", "999.1.1.1", "--port", "0"], "cannot listen on 999.1.1.1:0"),
        (["--host", "no such host", "--port", "0"], "cannot listen on no such host:0"),
    ],
)
def test_a_bad_port_or_host_is_a_one_line_error(
    args: list[str], message: str, tmp_path: Path
) -> None:
    proc = subprocess.run(
        [PELOTON, "serve", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**ENV, "XDG_DATA_HOME": str(tmp_path)},
    )
    assert proc.returncode in (1, 2) and proc.stdout == ""
    assert_one_line_error(proc.stderr, message)


# ---------------------------------------------------------------- help pages


def help_pages() -> list[list[str]]:
    """The argv of every ``--help`` page: the app's and each command's, groups included."""
    pages: list[list[str]] = []

    def walk(command: click.Command, path: list[str]) -> None:
        pages.append([*path, "--help"])
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return pages


@pytest.mark.parametrize("argv", help_pages(), ids=" ".join)
def test_help_reads_as_command_syntax(argv: list[str]) -> None:
    result = CliRunner().invoke(app, argv, env={"COLUMNS": "100"})
    text = result.stdout
    assert result.exit_code == 0 and "Usage: peloton" in text
    # No Python types, no Rich tags shown raw, no stray braces, no doubled blank lines.
    for odd in ("<bool>", "<str>", "<int>", "<float>", "<path>", "list[", "[/", "[bold", "{"):
        assert odd not in text, (odd, text)
    assert "[default: (" not in text, text
    assert "\n\n\n" not in re.sub(r"[ │]+\n", "\n", text), text
    # Rule ids stay only as the rules' own numbering (MC-6.5), where a reader can look them up.
    assert set(re.findall(r"\b([A-Z]{2})-\d", text)) <= {"MC", "CY", "MT", "PI"}


# ---------------------------------------------------------------- messages


def test_messages_name_dice_and_lists_in_words() -> None:
    race = pi.from_options({"players": 2})
    race.play("roll:2,3,3,5")
    race.play("roll:1,1,1,1")
    with pytest.raises(IllegalMoveError, match=r"\(dice left: 2, 3, 3, 5\)$"):
        race.play("A1=6")
    with pytest.raises(ValueError, match=r"strictly increasing, not 9, 5$"):
        mt.from_options({"length": 20, "milestones": [9, 5]})
    with pytest.raises(ValueError, match=r"same number of riders, not 3, 4$"):
        mc.new_game("short", {"A": "DSC", "B": "DDSC"})


# ---------------------------------------------------------------- course check and simulate


def test_course_check_lists_every_problem_with_an_unknown_key(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "keys.toml"
    path.write_text(
        'colour = "red"\nfinish = 67\nsections = [[9, "plain"], [27, "sprint"], [30, "sprint"]]\n'
        'feed = ["a1"]\n'
    )
    code, _, err = run(capsys, "course", "check", str(path))
    assert code == 1
    assert "unknown key(s) 'colour'" in err
    assert "there are 2 sprint sections" in err  # MC-1.3, found all the same
    assert "feed square 'a1' is in the start zone" in err


def test_simulate_csv_fills_mean_rounds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    code, _, _ = run(
        capsys, "simulate", "--bots", "greedy,random", "--games", "2", "--course", "short",
        "--riders", "3", "--out", str(out),
    )  # fmt: skip
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert code == 0 and len(rows) == 2
    for row in rows:
        assert float(row["mean_rounds"]) >= 1, row


# ---------------------------------------------------------------- stopping the server


def serve_with_thinking_bots(tmp_path: Path) -> tuple[subprocess.Popen[str], str]:
    """``peloton serve`` in its own process group (as a terminal runs it), SIGINT as a
    terminal has it, its bots thinking in their worker processes; its first lines."""
    proc = subprocess.Popen(
        [PELOTON, "serve", "--port", "0", "--bot-delay", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**ENV, "XDG_DATA_HOME": str(tmp_path)},
        preexec_fn=_own_group_with_sigint,
    )
    assert proc.stdout is not None
    head = "".join(proc.stdout.readline() for _ in range(3))
    url = head.split("serving on ", 1)[1].split()[0]
    with httpx.Client(base_url=url, timeout=30) as http:
        ids = [
            http.post(
                "/api/tables", json={"course": "short", "riders": 3, "seats": ["hard", "hard"]}
            ).json()["id"]
            for _ in range(2)
        ]
        # Both tables' bots have moved, so the workers are busy thinking.
        while not all(http.get(f"/api/tables/{i}").json()["moves"] for i in ids):
            threading.Event().wait(0.05)
    return proc, head


def _own_group_with_sigint() -> None:
    os.setsid()
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# SIGTERM is a clean stop, exit code 0 (issue 32, point 16); Ctrl-C keeps the shell's 130.
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 0)])
def test_serve_says_how_to_stop_and_stops_without_a_word_on_stderr(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    proc, head = serve_with_thinking_bots(tmp_path)
    try:
        assert head.splitlines()[-1] == "Press Ctrl-C to stop."
        os.killpg(proc.pid, sig)  # Ctrl-C at a terminal reaches the workers too
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    # No worker's KeyboardInterrupt traceback, no leaked semaphore warning.
    assert (proc.returncode, err) == (code, "")
