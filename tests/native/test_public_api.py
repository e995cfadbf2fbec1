"""``mc.State`` served by the native engine underneath: the same public API, values
and errors as the Python engine, move after move.

A state hands its game to the native core once it is played a few moves without
anyone reading ``state.race``; reading it writes the position back. These tests play
the same random games on a state left to the native engine and on one kept on Python,
compare everything the public API shows, read ``race`` now and then (the hand-back
both ways), copy mid-game and try illegal moves. Without the native engine both
states are Python and the comparison holds trivially (tests/native/test_lockstep.py
says so)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from peloton.core.errors import IllegalMoveError, NotationError
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import native as bridge


@contextmanager
def python_only() -> Iterator[None]:
    available = bridge.available
    bridge.available = lambda: False  # type: ignore[assignment]
    try:
        yield
    finally:
        bridge.available = available  # type: ignore[assignment]


def shown(s: mc.State) -> tuple[Any, ...]:
    """What the public API shows, without reading ``race`` (which hands the game back)."""
    return (
        s.legal_moves(),
        s.current_player,
        s.current_rider,
        s.round,
        s.is_over,
        s.in_setup,
        len(s.history),
    )


def everything(s: mc.State) -> tuple[Any, ...]:
    """Also what needs the race: riders, result, assessment, groups, snapshot."""
    return (
        *shown(s),
        s.riders(),
        s.result,
        [s.assessment(rid) for rid in s.ids],
        [s.group(rid) for rid in s.ids],
        [s.has_moved(rid) for rid in s.ids],
        s.turn_order() if s.round else [],
        s.to_mcn() if s.at_round_start else None,
        mc.snapshot(s),
        s.race.key(),
    )


def play_both(fast: mc.State, slow: mc.State, seed: int) -> None:
    rnd = random.Random(seed)
    step = 0
    while True:
        with python_only():
            expected = shown(slow)
        assert shown(fast) == expected, f"step {step}"
        if step % 37 == 5:
            with python_only():
                expected_all = everything(slow)
            assert everything(fast) == expected_all, f"step {step}"
        if fast.is_over:
            break
        moves = fast.legal_moves()
        move = moves[int(rnd.random() * len(moves))]
        if step % 53 == 7:  # a copy plays on alone; the original is untouched
            twin = fast.copy()
            twin.play(move)
            assert shown(fast) == expected
        if step % 41 == 3:  # an illegal move: the same error, nothing changed
            bad = mc.Move("-", move.rider, "a1")
            with python_only(), pytest.raises(IllegalMoveError) as slow_error:
                slow.play(bad)
            with pytest.raises(IllegalMoveError) as fast_error:
                fast.play(bad)
            assert str(fast_error.value) == str(slow_error.value)
            with pytest.raises(NotationError):
                fast.play("not a move")
        fast.play(str(move) if step % 2 else move)
        with python_only():
            slow.play(move)
        step += 1
    with python_only():
        expected_all = everything(slow)
    assert everything(fast) == expected_all
    assert fast == slow


@pytest.mark.parametrize(
    ("course", "teams", "wind", "relay_limit"),
    [
        ("standard", 3, "front", 3),
        ("standard", 2, "left", 0),
        ("short", 3, "right", 1),
        ("solo", 1, "left", 2),
    ],
)
def test_public_api_is_the_same(course: str, teams: int, wind: str, relay_limit: int) -> None:
    if teams == 1:
        fast = mc.new_solo(course, wind=wind, relay_limit=relay_limit)
    else:
        fast = mc.new_game(course, mc.default_teams(teams, 6 if teams < 4 else 4), wind=wind,
                           relay_limit=relay_limit)  # fmt: skip
    slow = fast.copy()
    play_both(fast, slow, teams * 7 + relay_limit)
    if bridge.available():
        assert fast.native_twin() is None  # everything() read the race at the end


def test_from_mcn_and_records_replay() -> None:
    """A state from MCN (MC-10.2) plays the same; its record replays on Python."""
    text = "3 AC1:c12,AD1:c14+,AD2:c13+,AS1:c11,AS2:c10 / - / -"
    fast = mc.from_mcn("solo", text, wind="right")
    with python_only():
        slow = mc.from_mcn("solo", text, wind="right")
    play_both(fast, slow, 9)
    assert fast.history == slow.history


def test_twin_serves_a_quiet_game() -> None:
    """A game played without reading ``race`` is served natively (when available)."""
    state = mc.new_game("short", mc.default_teams(2, 3))
    rnd = random.Random(4)
    for _ in range(10):
        moves = state.legal_moves()
        state.play(moves[int(rnd.random() * len(moves))])
    assert (state.native_twin() is not None) == bridge.available()
    state.race  # noqa: B018  # reading the race hands the game back to Python
    assert state.native_twin() is None
