"""The installed ``peloton`` script, run as a real process with piped stdin."""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from peloton.games import mindcycling as mc

BIN = Path(sys.executable).parent
PELOTON = str(BIN / "peloton")
ENV = {**os.environ, "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}


def peloton(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PELOTON, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=ENV
    )


def test_a_whole_bot_game_writes_a_record_that_replays_to_the_printed_result(
    tmp_path: Path,
) -> None:
    path = tmp_path / "out.json"
    proc = peloton(
        "play",
        "--seats",
        "greedy,random",
        "--course",
        "short",
        "--riders",
        "3",
        "--seed",
        "7",
        "--record",
        str(path),
        stdin="",
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    final = mc.Record.load(path).replay()
    assert final.is_over
    result = final.result
    out = proc.stdout
    assert re.findall(r"^\s+\d+\. ([A-G][DSC]\d)\b", out, flags=re.M) == list(result.places)
    points = dict(re.findall(r"^  ([A-G]) \(\w+\)\s+(\d+) pts", out, flags=re.M))
    assert {team: int(p) for team, p in points.items()} == result.points
    for key, name in (
        ("cyclist", "Best Cyclist"),
        ("sprinter", "Best Sprinter"),
        ("climber", "Best Climber"),
        ("team", "Best Team"),
    ):
        assert f"{name}: {result.medals[key]}" in out
    assert f"Trophy (Best Mind Cycling Manager): {result.trophy} " in out


def test_a_human_gets_the_error_and_the_same_prompt_again(tmp_path: Path) -> None:
    path = tmp_path / "solo.json"
    # MC-9.2: the five riders go side by side on row 2 of the solo course; then AD1
    # (row 2, lane a) opens round 1. Malformed, unreachable and out-of-turn moves are
    # refused before "1" plays the first listed move.
    stdin = "a2\nb2\nc2\nd2\ne2\nnonsense\nAD1-a20\nAS1-c5\n1\nq\n"
    proc = peloton("play", "--solo", "--record", str(path), stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "✗ 'nonsense' is not a Mind Cycling move" in out
    assert "✗ AD1-a20 is illegal: AD1 cannot reach a20" in out
    assert "✗ AS1-c5 is illegal: it is AD1's turn, not AS1's (out of turn)" in out
    prompts = re.findall(r"^AD1 \(1-\d+ or move, \? help, q quit\) > (\S+)$", out, flags=re.M)
    assert prompts == ["nonsense", "AD1-a20", "AS1-c5", "1"]
    record = mc.Record.load(path)
    assert record.moves[:5] == ["AD1@a2", "AD2@b2", "AS1@c2", "AS2@d2", "AC1@e2"]
    assert len(record.moves) == 6 and record.moves[5].startswith("AD1")
    assert record.players == {"A": {"name": "human", "controller": "human"}}


def test_input_ending_mid_game_exits_1_with_the_record(tmp_path: Path) -> None:
    path = tmp_path / "eof.json"
    proc = peloton(
        "play",
        "--seats",
        "human,human",
        "--course",
        "short",
        "--riders",
        "3",
        "--record",
        str(path),
        stdin="AD1@c1\nxyz\nBD1@c1\nBD1@e5\n",
    )
    assert proc.returncode == 1
    out = proc.stdout
    assert "✗ 'xyz' is not a Mind Cycling move" in out
    assert "✗ BD1@c1 is illegal" in out
    assert out.count("team B (RIDER@SQUARE, ? help, q quit) > ") == 3
    assert "Input ended before the game did." in out
    assert mc.Record.load(path).moves == ["AD1@c1", "BD1@e5"]


def test_ctrl_c_saves_the_record_and_exits_130(tmp_path: Path) -> None:
    path = tmp_path / "int.json"
    seen, out, code = interrupt_at_prompt(
        "play",
        "--seats",
        "random,human",
        "--course",
        "short",
        "--riders",
        "3",
        "--seed",
        "1",
        "--record",
        str(path),
    )
    assert b"team B" in seen
    assert code == 130
    assert b"Interrupted." in out
    assert len(mc.Record.load(path).moves) == 1  # the bot's first placement


def test_make_run_command_starts_a_game() -> None:
    # The Makefile's `run` target, left at once.
    proc = peloton(
        "play", "--seats", "human,greedy,greedy", "--riders", "3", "--course", "short", stdin="q\n"
    )
    assert proc.returncode == 0, proc.stderr
    assert "Setup: team A places a rider" in proc.stdout
    assert "You left the game." in proc.stdout


def test_python_dash_m_peloton() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "peloton", "courses"],
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert proc.returncode == 0
    assert "standard: 5 lanes" in proc.stdout


def interrupt_at_prompt(*args: str) -> tuple[bytes, bytes, int]:
    """Run ``peloton *args``, wait for its first move prompt and press Ctrl-C: what it
    printed up to the prompt, what it printed after, its exit code."""
    proc = subprocess.Popen(
        [PELOTON, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
        # As in a terminal: Ctrl-C interrupts. A child inherits an ignored SIGINT, and
        # a test runner's worker may have it ignored (then Python ignores it too).
        preexec_fn=_sigint_as_in_a_terminal,
    )
    try:
        seen = _read_until(proc, b"q quit) > ", timeout=60)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return seen, out, proc.returncode


def _sigint_as_in_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read_until(proc: subprocess.Popen[bytes], marker: bytes, timeout: float) -> bytes:
    """Read the child's stdout until ``marker`` appears (the prompt has no newline)."""
    assert proc.stdout is not None
    data = b""
    deadline = time.monotonic() + timeout
    while marker not in data:
        left = deadline - time.monotonic()
        assert left > 0, f"no {marker!r} in {data[-500:]!r}"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, f"the game ended early: {data[-500:]!r}"
            data += chunk
    return data


def test_serve_on_an_unreachable_database_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """A bad ``--db`` is said in one line naming the database (password hidden) and
    the driver's reason, before anything is served: no traceback."""
    proc = peloton(
        "serve", "--port", "0", "--db", "postgresql://user:secret@nohost.invalid/peloton"
    )
    assert proc.returncode == 1
    errors = proc.stderr.strip().splitlines()
    assert len(errors) == 1 and errors[0].startswith("peloton: error: cannot open the database"), (
        proc.stderr
    )
    assert "nohost.invalid" in errors[0] and "secret" not in proc.stderr + proc.stdout
    assert "Traceback" not in proc.stderr
