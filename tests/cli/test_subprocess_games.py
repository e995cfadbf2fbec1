"""``peloton play mind-twist|pistard`` and ``peloton simulate --game`` as real
processes with piped stdin."""

from __future__ import annotations

import json
from pathlib import Path

from peloton.games import mindcycling as mc
from peloton.games import pistard as pi

from .test_subprocess import interrupt_at_prompt, peloton


def test_a_pistard_bot_game_in_a_real_process(tmp_path: Path) -> None:
    path = tmp_path / "pi.json"
    proc = peloton(
        "play", "pistard", "--seats", "greedy,random", "--seed", "9", "--record", str(path)
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    final = pi.Record.load(path).replay()
    assert final.is_over
    assert f"Winner: {final.result.winner} (" in proc.stdout


def test_ctrl_c_in_pistard_saves_the_record_and_exits_130(tmp_path: Path) -> None:
    path = tmp_path / "int.json"
    seen, out, code = interrupt_at_prompt(
        "play", "pistard", "--seats", "human,random", "--seed", "1", "--record", str(path)
    )
    assert b"A rolls" in seen
    assert code == 130
    assert b"Interrupted." in out
    moves = pi.Record.load(path).moves
    assert len(moves) == 2 and all(m.startswith("roll:") for m in moves)  # both first rolls


def test_naming_mind_cycling_plays_the_usual_game(tmp_path: Path) -> None:
    path = tmp_path / "mc.json"
    proc = peloton("play", "mind-cycling", "--seats", "greedy,random", "--course", "short", "--riders", "3",
                   "--seed", "7", "--record", str(path))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert mc.Record.load(path).replay().is_over
    assert "Trophy (Best Mind Cycling Manager)" in proc.stdout


def test_simulate_a_game_with_dice_in_a_real_process(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    proc = peloton("simulate", "--game", "pistard", "--bots", "greedy,random", "--games", "3", "--jobs", "2",
                   "--option", "target=4", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "3 games of Pistard" in proc.stdout
    data = json.loads(out.read_text())
    assert [g["index"] for g in data["games"]] == [0, 1, 2]
