"""Games of different shapes played in one process, interleaved: the regression tests
of the native core's order-dependent defect.

The native bridge keeps one :class:`~peloton.games.mindcycling.native.NativeGame` per
game's facts (course, riders, wind, relay limit, solo) and fills its table of moves a
rider at a time, as riders come up. Two defects made a game's answers depend on the
games played before it in the process:

* asked for the moves of a finished race, the bridge read the table of rider ``-1``
  (Python's last rider), raised ``IndexError`` the first time and left that rider
  marked as filled with no moves, so later games saw ``None`` among their moves;
* in setup it filled the placing team only when the team's first rider was not
  filled yet, so a game of the same facts met mid-race first (that rider to move)
  left its teammates' placements out (a solo table refused a legal placement).

Here every test starts with no cached game, and the Hypothesis test plays several
shapes at once (solo, 2-7 teams, relay limits, winds, random courses), each from a
position met mid-race (or at its end) and from setup, with a state served by the
native twin beside them, one move each in turn.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.mindcycling.test_properties import choose
from native.test_lockstep import NATIVE, Lockstep, new_state, random_prefix, setups
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import native as bridge


@pytest.fixture(autouse=True)
def no_cached_games() -> Iterator[None]:
    """Each test meets its games first: nothing left from the tests before."""
    bridge.forget_games()
    yield
    bridge.forget_games()


def mid_race(state: mc.State, rider_index: int, seed: int) -> mc.State:
    """A position of ``state``'s game (played on from it by random moves) in which the
    rider ``state.ids[rider_index]`` is to move in a round."""
    rnd = random.Random(seed)
    while True:
        s = state.copy()
        while not s.is_over:
            if s.round and s.current_rider == s.ids[rider_index]:
                return s
            s.play(rnd.choice(s.legal_moves()))


def test_a_finished_race_has_no_moves_and_leaves_the_game_whole() -> None:
    """MC-8.5: once the race is over nobody moves. Asking the twin of a finished race
    for its moves gives none, and a later race of the same facts still gets all of
    its own, the last rider's included (it was left without moves)."""
    course = mc.Course.load("short")
    over = random_prefix(mc.new_game(course, mc.default_teams(2, 3)), 1, 10_000)
    last = mid_race(mc.new_game(course, mc.default_teams(2, 3)), -1, 2)
    assert over.is_over and over.legal_moves() == []
    bridge.forget_games()  # the positions were found by games served by twins
    Lockstep(over)  # the twin's moves of the finished race: none
    pair = Lockstep(last)  # the last rider's moves, all of them
    assert pair.game is None or None not in pair.game.legal_moves(pair.r)


@pytest.mark.parametrize("solo", [True, False], ids=["solo", "teams"])
def test_setup_after_a_round_of_the_same_game(solo: bool) -> None:
    """MC-3.1, MC-3.2, MC-9.2: a game met mid-race with the first rider of a team to
    move, then a new game of the same facts in setup: every rider the team still has
    to place is offered every square the rules allow (the solo team's included)."""
    if solo:
        fresh = mc.new_solo(mc.Course.load("solo"))
    else:
        fresh = mc.new_game(mc.Course.load("standard"), mc.default_teams(3, 4), wind="left")
    mid = mid_race(fresh, 0, 1)
    bridge.forget_games()  # the position was found by a game served by a twin
    Lockstep(mid)
    pair = Lockstep(fresh.copy())
    while pair.state.in_setup:  # every placement, in lockstep
        pair.play(pair.state.legal_moves()[-1])


def test_states_served_by_the_twin_after_other_games() -> None:
    """The public API after games of other facts and of the same facts mid-race: a
    solo setup played through ``State.play`` by its twin accepts every legal placement
    and its record replays on the Python engine (MC-10)."""
    solo = mc.Course.load("solo")
    others = mid_race(mc.new_game(mc.Course.load("standard"), mc.default_teams(2, 6)), 0, 3)
    same = mid_race(mc.new_solo(solo, wind="right"), 0, 4)
    bridge.forget_games()  # the positions were found by games served by twins
    Lockstep(others)
    Lockstep(same)
    state = mc.new_solo(solo, wind="right")
    rnd = random.Random(5)
    while not state.is_over:
        state.play(choose(rnd, state.legal_moves()))
        if NATIVE and len(state.history) == 3:
            assert state.native_twin() is not None  # the twin serves the rest of it
    replay = mc.new_solo(solo, wind="right")
    for move in state.history:
        replay.play(str(move))
    assert replay.race.key() == state.race.key()


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(setups(), min_size=2, max_size=4), st.integers(0, 2**32 - 1))
def test_games_of_many_shapes_interleaved(shapes: list[dict[str, Any]], seed: int) -> None:
    """MC-3 to MC-9 on several games at once, one move each in turn: for each shape a
    position met mid-race (or at the end), the game from setup, and a state played
    through the public API (served by the native twin): every engine agrees at every
    step, whatever the games before."""
    bridge.forget_games()
    rnd = random.Random(seed)
    players: list[tuple[Lockstep, mc.State | None, random.Random]] = []
    for shape in shapes:
        fresh = new_state(shape["course"], shape["teams"], shape["wind"], shape["relay_limit"])
        prefix = random_prefix(fresh.copy(), shape["seed"], rnd.randint(0, 400))
        players.append((Lockstep(prefix), None, random.Random(rnd.random())))
        players.append((Lockstep(fresh), fresh.copy(), random.Random(rnd.random())))
        if len(players) == 2:
            bridge.forget_games()  # met first mid-race (the prefix used a twin)
            players[0][0].check()
    while players:
        for entry in list(players):
            pair, twin, moves_rnd = entry
            state = pair.state
            if state.is_over:
                players.remove(entry)
                if twin is not None:
                    assert twin.is_over and twin.legal_moves() == []
                    assert twin.race.key() == state.race.key()
                continue
            moves = state.legal_moves()
            if twin is not None:
                assert twin.legal_moves() == moves, f"step {pair.steps}"
            move = choose(moves_rnd, moves)
            pair.play(move)
            if twin is not None:
                twin.play(move)


def test_threads_playing_games_of_the_same_facts() -> None:
    """Two threads play races of the same facts at once (as a server's jobs may): each
    thread has its own buffers for the C calls, and both races stay in lockstep."""
    course = mc.Course.load("standard")
    errors: list[BaseException] = []

    def play(seed: int) -> None:
        try:
            state = mc.new_game(course, mc.default_teams(4, 4), wind="right", relay_limit=1)
            pair = Lockstep(state)
            rnd = random.Random(seed)
            moves = pair.check()
            while moves:
                moves = pair.play(choose(rnd, moves))
        except BaseException as exc:  # handed to the main thread
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(seed,)) for seed in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    if NATIVE:
        game = bridge.game_for(mc.new_game(course, mc.default_teams(4, 4), wind="right",
                                           relay_limit=1).race)  # fmt: skip
        seen: list[Any] = []
        other = threading.Thread(target=lambda: seen.append(game.work))
        other.start()
        other.join()
        assert seen[0] is not game.work
