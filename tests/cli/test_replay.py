"""Stepping through a record: next, next round, back, jump, end (MC-10.3)."""

from __future__ import annotations

import re

import pytest

from peloton.bots import make_bot, play_out
from peloton.games import mindcycling as mc
from peloton.terminal.replay import ReplaySession

from .helpers import Recorder, Script


@pytest.fixture(scope="module")
def record() -> mc.Record:
    state = mc.new_game("short", mc.default_teams(2, 3))
    play_out(state, {"A": make_bot("greedy", 1), "B": make_bot("random", 2)})
    return mc.Record.from_state(state, players={"A": {"name": "Ann", "controller": "human"}})


def session(record: mc.Record, lines: list[str]) -> tuple[ReplaySession, Recorder, Script]:
    out, ask = Recorder(), Script(lines)
    return ReplaySession(record, record.states(), out.console, ask), out, ask


def shown(out: Recorder) -> list[int]:
    """The move indexes shown, in order."""
    return [int(n) for n in re.findall(r"^move (\d+)/\d+", out.text, flags=re.M)]


def test_navigation(record: mc.Record) -> None:
    replay, out, _ = session(record, ["", "", "b", "r", "10", "e", "", "q"])
    assert replay.run() == 0
    # Setup is 6 placements, so the first round starts after move 6.
    assert shown(out) == [0, 1, 2, 1, 6, 10, replay.last]
    assert "End of the record (b: back, q: quit)." in out.text
    assert "Final classification" in out.text


def test_next_round_lands_on_the_first_move_of_each_round(record: mc.Record) -> None:
    replay, _, _ = session(record, [])
    states = replay.states
    replay.index = 6
    target = replay.target("r")
    assert target is not None
    assert (
        states[target].round == states[6].round + 1 and states[target - 1].round == states[6].round
    )
    assert states[target].at_round_start


def test_unknown_commands_are_reported_and_input_end_leaves(record: mc.Record) -> None:
    replay, out, ask = session(record, ["jump", "-3"])
    assert replay.run() == 0  # input ran out: leaving a replay is no error
    assert out.text.count("✗ 'jump' is not a replay command") == 1
    assert "✗ '-3' is not a replay command" in out.text
    assert len(ask.prompts) == 3


def test_panel_uses_the_record_player_names(record: mc.Record) -> None:
    replay, out, _ = session(record, [])
    replay.show_end()
    assert "A (Ann)" in out.text
    assert f"move {replay.last}/{len(record.moves)}   played: {record.moves[-1]}" in out.text
