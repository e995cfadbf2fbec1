"""The native Mind Cycling core against the Python engine, move for move.

Both engines are driven side by side through whole games: random games (moves chosen
kind first, so that wheels, relays, gifts and attacks come up often) and greedy games
(the MCTS playout policy and the greedy bot, with their seeded tie-breaks), on the
bundled courses and on random valid courses, every wind, relay limits 0-3, 2-7 teams
and the solo game. At every step the legal-move lists, the positions, the round's
tables and the results must be identical, and so must every greedy score.

Without a compiled native module these tests fail under ``PELOTON_ENGINE=native``;
otherwise they check the Python engine alone (the same games, the same invariants,
no comparison) and say so with a warning: the comparison needs the C core built
(``make`` builds it; see docs/native.md).
"""

from __future__ import annotations

import os
import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.mindcycling.test_properties import choose, course_data
from peloton import native
from peloton.bots.greedy import GreedyBot
from peloton.core.rng import Rng
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import move_scores, playouts

NATIVE = native.engine() == "native"
if not NATIVE:
    warnings.warn(
        f"native engine not active ({native.reason()}): tests/native checks the Python "
        "engine alone, without the lockstep comparison",
        stacklevel=1,
    )

WINDS = ("front", "left", "right")


def test_engine_is_the_one_asked_for() -> None:
    """PELOTON_ENGINE=native must find the native engine (engine() raises otherwise)."""
    choice = os.environ.get("PELOTON_ENGINE", "")
    assert native.engine() == ("python" if choice == "python" else native.engine())
    if choice == "native":
        assert NATIVE, native.reason()


class Lockstep:
    """A Python :class:`mc.State` and, with the native engine, its C twin."""

    def __init__(self, state: mc.State) -> None:
        self.state = state
        self.game: Any = None
        self.r: Any = None
        if NATIVE:
            from peloton.games.mindcycling.native import game_for

            self.game = game_for(state.race)
            self.r = self.game.load(state.race)
        self.steps = 0
        self.check()

    def check(self) -> list[mc.Move]:
        """Compare everything; the legal moves."""
        s, race = self.state, self.state.race
        moves = s.legal_moves()
        assert bool(moves) != s.is_over, f"step {self.steps}: {moves} while over={s.is_over}"
        if self.game is None:
            assert len(set(race.square_of.values())) == len(race.square_of)
            return moves
        game, r = self.game, self.r
        where = f"step {self.steps} of {s!r}"
        assert game.legal_moves(r) == moves, where
        assert game.key(r) == race.key(), where
        if s.round:
            tables = game.tables(r)
            assert tables == {k: getattr(race.tables, k) for k in tables}, where
        assert game.result(r) == s.result, where
        return moves

    def play(self, move: mc.Move) -> list[mc.Move]:
        self.state.play(move)
        if self.game is not None:
            self.game.play(self.r, move)
            if self.steps % 23 == 0:  # and loading any position gives the same twin
                assert self.game.key(self.game.load(self.state.race)) == self.state.race.key()
        self.steps += 1
        return self.check()


def new_state(course: mc.Course, teams: dict[str, str], wind: str, relay_limit: int) -> mc.State:
    if len(teams) == 1:
        return mc.new_solo(course, teams["A"], wind=wind, relay_limit=relay_limit)
    return mc.new_game(course, teams, wind=wind, relay_limit=relay_limit)


def random_game(state: mc.State, seed: int) -> mc.State:
    """A whole game of random moves, both engines in lockstep."""
    rnd = random.Random(seed)
    pair = Lockstep(state)
    moves = pair.check()
    while moves:
        moves = pair.play(choose(rnd, moves) if rnd.random() < 0.5 else rnd.choice(moves))
    assert state.is_over
    return state


@contextmanager
def python_only() -> Iterator[None]:
    """The Python engine's greedy scores and playouts, even with the native one active."""
    from peloton.games.mindcycling import native as bridge

    available = bridge.available
    bridge.available = lambda: False  # type: ignore[assignment]
    try:
        yield
    finally:
        bridge.available = available  # type: ignore[assignment]


def greedy_games(state: mc.State, seed: int) -> None:
    """From ``state``: the MCTS greedy playout policy (one Rng, a draw per move) and the
    greedy bot (one per team, draws between ties), native whole playouts against the
    Python bots; and every greedy score on the way."""
    policy = state.copy()
    rng, c_rng = Rng(seed), Rng(seed)
    played: list[mc.Move] = []
    pair = Lockstep(policy)
    while not policy.is_over:
        moves = policy.legal_moves()
        if pair.game is not None:
            codes = [pair.game.code(m) for m in moves]
            scores = pair.game.score_codes(pair.r, codes, move_scores.DEFAULT_WEIGHTS)
            assert scores == move_scores.python_score_moves(policy, moves), f"step {pair.steps}"
            assert scores == move_scores.score_moves(policy, moves)  # served natively
        with python_only():
            move = playouts.greedy_move(policy, rng)
        played.append(move)
        pair.play(move)
    bots_state = state.copy()
    bots = {t: GreedyBot(seed + i) for i, t in enumerate(bots_state.players)}
    by_bots: list[mc.Move] = []
    while not bots_state.is_over:
        with python_only():
            move = bots[bots_state.current_player].choose(bots_state)  # type: ignore[index]
        by_bots.append(move)
        bots_state.play(move)
    if not NATIVE:
        return
    from peloton.games.mindcycling.native import game_for

    game = game_for(state.race)
    r = game.load(state.race)
    codes = game.greedy_playout(r, [c_rng], move_scores.DEFAULT_WEIGHTS, record=True)
    assert [game.move(c) for c in codes] == played
    assert game.key(r) == policy.race.key()
    assert c_rng.getstate() == rng.getstate()  # the Rng is left where Python leaves it
    r = game.load(state.race)
    rngs = [Rng(seed + i) for i in range(len(state.players))]
    codes = game.greedy_playout(r, rngs, move_scores.DEFAULT_WEIGHTS, policy=False, record=True)
    assert [game.move(c) for c in codes] == by_bots
    assert [g.getstate() for g in rngs] == [b.rng.getstate() for b in bots.values()]


def random_prefix(state: mc.State, seed: int, moves: int) -> mc.State:
    rnd = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_moves()
        state.play(legal[int(rnd.random() * len(legal))])
    return state


# ---------------------------------------------------------------- bundled courses


@pytest.mark.parametrize("wind", WINDS)
@pytest.mark.parametrize("course", ["standard", "short", "solo"])
def test_random_games_on_bundled_courses(course: str, wind: str) -> None:
    """MC-3 to MC-9: random games, 2-7 teams (solo on `solo`), relay limits 0-3 (two
    per wind)."""
    c = mc.Course.load(course)
    rnd = random.Random(f"{course}/{wind}")
    w = WINDS.index(wind)
    for relay_limit in (w, 3 - w):
        if course == "solo":
            random_game(mc.new_solo(c, wind=wind, relay_limit=relay_limit), rnd.randrange(2**32))
            continue
        most = min(7, c.start_capacity // 3)
        teams = rnd.randint(2, most)
        size = rnd.randint(3, min(6, c.start_capacity // teams))
        state = mc.new_game(c, mc.default_teams(teams, size), wind=wind, relay_limit=relay_limit)
        random_game(state, rnd.randrange(2**32))


@pytest.mark.parametrize("wind", WINDS)
@pytest.mark.parametrize("course", ["standard", "short", "solo"])
def test_greedy_games_on_bundled_courses(course: str, wind: str) -> None:
    """Greedy playouts from setup and from positions met in random games."""
    c = mc.Course.load(course)
    rnd = random.Random(f"greedy {course}/{wind}")
    relay_limit = rnd.randint(0, 3)
    if course == "solo":
        state = mc.new_solo(c, wind=wind, relay_limit=relay_limit)
    else:
        teams = rnd.randint(2, 3 if course == "short" else 6)
        state = mc.new_game(c, mc.default_teams(teams, 6 if teams < 4 else 4), wind=wind,
                            relay_limit=relay_limit)  # fmt: skip
    greedy_games(state, rnd.randrange(2**32))
    greedy_games(random_prefix(state, rnd.randrange(2**32), rnd.randint(20, 80)), 7)


def test_positions_from_mcn() -> None:
    """A game started from MCN (MC-10.2) mid-race, with finishers and medals."""
    state = mc.from_mcn(
        "standard",
        "40 AD1:c60,AS1:b59+,BD1:c58,BC1:d57+,AC1:c45,BS1:e30 / AD2,BD2 / sprint=AS1",
        wind="left",
    )
    random_game(state, 3)
    state = mc.from_mcn("solo", "3 AC1:c12,AD1:c14+,AD2:c13+,AS1:c11,AS2:c10", wind="right")
    greedy_games(state, 5)


# ---------------------------------------------------------------- random courses


@st.composite
def setups(draw: Any) -> dict[str, Any]:
    """A random game: 2-7 teams (or solo), a valid random course with room for them,
    any wind and relay limit 0-3."""
    if draw(st.integers(0, 5)) == 0:  # solo, MC-9
        lanes = draw(st.integers(5, 7))
        teams = {"A": draw(st.sampled_from(["DDSSC", "DDSCC", "DSSCC"]))}
        start_rows = draw(st.integers(1, 2))
    else:
        count = draw(st.integers(2, 7))
        size = draw(st.integers(3, 4))
        teams = {"ABCDEFG"[i]: "DSC" if size == 3 else "DDSC" for i in range(count)}
        lanes = draw(st.integers(3, 7))
        start_rows = -(-count * size // lanes) + draw(st.integers(0, 1))
    data = draw(course_data(lanes=lanes, start_rows=start_rows, max_gap=5))
    return {
        "course": mc.Course.from_dict(data),
        "teams": teams,
        "wind": draw(st.sampled_from(WINDS)),
        "relay_limit": draw(st.integers(0, 3)),
        "seed": draw(st.integers(0, 2**32 - 1)),
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups())
def test_random_games_on_random_courses(setup: dict[str, Any]) -> None:
    """Random games in lockstep on random valid courses (MC-1.3 rocks, feed zones)."""
    state = new_state(setup["course"], setup["teams"], setup["wind"], setup["relay_limit"])
    random_game(state, setup["seed"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 60))
def test_greedy_games_on_random_courses(setup: dict[str, Any], prefix: int) -> None:
    """Greedy playouts in lockstep on random valid courses, from setup or mid-game."""
    state = new_state(setup["course"], setup["teams"], setup["wind"], setup["relay_limit"])
    greedy_games(random_prefix(state, setup["seed"], prefix), setup["seed"])


# ---------------------------------------------------------------- engine choice


@pytest.fixture
def fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The engine chosen again under a patched environment, and again after."""
    native._load.cache_clear()
    native._checked.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    native._load.cache_clear()
    native._checked.cache_clear()


def test_python_forced(fresh_choice: pytest.MonkeyPatch) -> None:
    fresh_choice.setenv("PELOTON_ENGINE", "python")
    assert native.engine() == "python"
    assert native.lib() is None
    assert native.reason() == "PELOTON_ENGINE=python"


def test_native_required_but_missing(fresh_choice: pytest.MonkeyPatch) -> None:
    """PELOTON_ENGINE=native without a loadable module: one clear line, no fallback."""
    fresh_choice.setenv("PELOTON_ENGINE", "native")
    fresh_choice.setitem(__import__("sys").modules, "peloton.native._mc", None)
    with pytest.raises(native.NativeEngineError) as info:
        native.engine()
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(
        "PELOTON_ENGINE=native: no native engine: the native module is not built"
    )


def test_unset_falls_back_quietly(fresh_choice: pytest.MonkeyPatch) -> None:
    fresh_choice.delenv("PELOTON_ENGINE", raising=False)
    fresh_choice.setitem(__import__("sys").modules, "peloton.native._mc", None)
    assert native.engine() == "python"
    assert "not built" in native.reason()


def test_unknown_choice_is_refused(fresh_choice: pytest.MonkeyPatch) -> None:
    fresh_choice.setenv("PELOTON_ENGINE", "turbo")
    with pytest.raises(native.NativeEngineError, match="'turbo' is not one of native, python"):
        native.engine()
