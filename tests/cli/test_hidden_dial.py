"""Mind Twist's dial stays secret at a shared terminal (MT-4.1): typed unseen, never
drawn for the other player, a hand-over with a cleared screen between two humans, and
bots given only their seat's view."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from peloton.cli import app
from peloton.core.rng import Rng
from peloton.games import mindtwist as mt
from peloton.terminal import inputs
from peloton.terminal.games import terminal_game
from peloton.terminal.seats import Seat, make_seats
from peloton.terminal.table import CLEAR_ALL, TableSession

from .helpers import Recorder, Script
from .test_subprocess import ENV, PELOTON

DIAL_PROMPT = "R (1-3 or move, typed unseen, ? help, q quit) > "


def test_hot_seat_never_shows_a_dial_guessed_right() -> None:
    # R dials 2 unseen; hand-over; B guesses 2, right: the dial is never revealed.
    # B dials 1 unseen; hand-over; R guesses 3, wrong: B's dial is revealed, B moves.
    # Hand-over back to B, who leaves.
    stdin = "2\n\nguess:2\n1\n\n3\n\nq\n"
    result = CliRunner().invoke(app, ["play", "mind-twist", "--seats", "human,human"], input=stdin,
                                env={"COLUMNS": "100"})  # fmt: skip
    out = result.stdout
    assert result.exit_code == 0, out
    # The digits typed at a dial prompt are never echoed.
    assert (
        re.findall(r"typed unseen, \? help, q quit\) > (.*)$", out, flags=re.M) == ["(hidden)"] * 3
    )
    # Everything B was shown, from the hand-over until R has the keyboard again, came
    # from B's view: R's dial is nowhere in it (the move list names dials, not R's).
    to_b = out.index("Pass the keyboard to B")
    to_r = out.index("Pass the keyboard to R")
    shown_to_b = out[to_b:to_r]
    assert "seen by B" in shown_to_b
    assert "R (human) has dialled (hidden)" in shown_to_b
    assert re.search(r"R dial:[123]|dialled [123]", shown_to_b) is None
    assert "turn  1: R dial:? · B guess:2 (right: no move)" in shown_to_b
    assert re.search(r"R dial:[123]", out[:to_r]) is None  # nor before, on the shared log
    # R, back at the keyboard, sees its own dial in its own view.
    assert "turn  1: R dial:2 · B guess:2 (right: no move)" in out[to_r:]
    # B's own dial, guessed wrong, was revealed to everyone: that is the rule (MT-2.2).
    assert "revealed: move 3 was dial:1" in out
    assert out.count("Pass the keyboard to") == 3


def test_q_at_the_hand_over_leaves_the_game() -> None:
    result = CliRunner().invoke(
        app, ["play", "mind-twist", "--seats", "human,human"], input="1\nq\n"
    )
    assert result.exit_code == 0
    assert "Pass the keyboard to B" in result.stdout and "You left the game." in result.stdout


def test_hot_seat_record_keeps_every_dial(tmp_path: Path) -> None:
    path = tmp_path / "hot.json"
    CliRunner().invoke(app, ["play", "mind-twist", "--seats", "human,human", "--record", str(path)],
                       input="2\n\nguess:2\nq\n")  # fmt: skip
    record = mt.Record.load(path)
    assert record.moves == ["dial:2", "guess:2"]  # the file is the full record
    assert record.to_dict(None)["moves"] == ["dial:?", "guess:2"]


def test_hand_over_clears_the_screen_and_its_scrollback() -> None:
    state = mt.from_options({})
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=100, force_terminal=True, color_system=None, highlight=False
    )
    session = TableSession(state, make_seats(["human", "human"], 1, state.players), terminal_game("mind-twist"),
                           console, Script(["2", "", "q"]))  # fmt: skip
    assert session.run() == 0
    text = buffer.getvalue()
    handover = text.index("Pass the keyboard to B")
    assert text.rfind(CLEAR_ALL, 0, handover) > text.index(
        "R human    dial:?"
    )  # cleared after R dialled
    assert CLEAR_ALL in text[handover:]  # and again once B pressed Enter
    assert "seen by B" in text[handover:]


def test_a_human_guesser_never_sees_the_bots_dial() -> None:
    state = mt.from_options({})
    out = Recorder()
    seats = make_seats(["greedy", "human"], 4, state.players)
    session = TableSession(
        state, seats, terminal_game("mind-twist"), out.console, Script(["pass", "q"])
    )
    session.run()
    first_prompt = out.text.index("B (human): guess R's dial, or pass")
    assert re.search(r"dial:[123]", out.text[:first_prompt]) is None
    assert "R (greedy) has dialled (hidden)" in out.text[:first_prompt]
    assert "  R greedy   dial:?" in out.text
    # After the pass the dial is public, and shown as revealed.
    assert re.search(r"revealed: move 1 was dial:[123]", out.text)


class Spy:
    """A random bot that records what it is shown."""

    name = "spy"

    def __init__(self, seed: int) -> None:
        self.seen: list[Any] = []
        self.rng = Rng(seed)

    def choose(self, state: Any) -> Any:
        self.seen.append(state)
        return self.rng.choice(state.legal_moves())


def test_bots_at_the_terminal_get_their_seats_view_only() -> None:
    state = mt.from_options({"length": 10, "milestones": [5]})
    red, blue = Spy(1), Spy(2)
    seats = [Seat("R", "spy", red), Seat("B", "spy", blue)]
    TableSession(state, seats, terminal_game("mind-twist"), Recorder().console, Script()).run()
    assert state.is_over
    guessing = [s for s in (*red.seen, *blue.seen) if s.phase == "guess"]
    assert guessing and all(s.dial is None and s is not state for s in guessing)


def test_secret_input_on_a_terminal_uses_getpass(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    monkeypatch.setattr(inputs.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(inputs.getpass, "getpass", lambda prompt: asked.append(prompt) or "2")
    ask = inputs.secret_ask(Recorder().console)
    assert ask("R dial > ") == "2"
    assert asked == ["R dial > "]


def test_hot_seat_in_a_real_process_with_piped_keys(tmp_path: Path) -> None:
    path = tmp_path / "hot.json"
    proc = subprocess.run(
        [PELOTON, "play", "mind-twist", "--seats", "human,human", "--record", str(path)],
        input="3\n\ng3\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=ENV,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"{DIAL_PROMPT}(hidden)" in proc.stdout
    assert re.search(r"R dial:3|dialled 3", proc.stdout) is None
    assert "turn  1: R dial:? · B guess:3 (right: no move)" in proc.stdout
    assert mt.Record.load(path).moves == ["dial:3", "guess:3"]
