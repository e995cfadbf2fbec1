"""Hypothesis properties over random games on random valid courses: every game ends;
no square holds more riders than its width; positions never decrease but by a dark
square (or by a swap, which gives the proposer its partner's square, one behind at
most); records replay exactly; copies are independent; moves and CYN round-trip."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.course import UNLIMITED

MAX_MOVES = 20_000
ROAD = ["flat", "climb", "top", "cobbles", "slope", "end", "lastkm"]


@st.composite
def boards(draw: st.DrawFn, name: str, first: bool, last: bool) -> dict[str, Any]:
    """A random valid board (CY-1.7)."""
    runs = []
    if first and draw(st.booleans()):
        runs.append(["start", draw(st.integers(1, 6)), draw(st.integers(1, 4))])
    for _ in range(draw(st.integers(1, 4))):
        runs.append([draw(st.sampled_from(ROAD)), draw(st.integers(1, 8)), draw(st.integers(1, 4))])
    kinds = [kind for kind, count, _ in runs for _ in range(count)]
    size = len(kinds)
    spaces = st.integers(1, size)
    dark = sorted(
        {k for k in draw(st.lists(spaces, max_size=4)) if kinds[k - 1] in ("cobbles", "slope")}
    )
    events = sorted({k for k in draw(st.lists(spaces, max_size=3)) if kinds[k - 1] != "start"})
    lines: list[list[Any]] = []
    for k in sorted(set(draw(st.lists(st.integers(1, max(1, size - 1)), max_size=2)))):
        if k > size - 1:
            continue
        if kinds[k - 1] in ("climb", "slope") and draw(st.booleans()):
            lines.append([k, "mountain", draw(st.sampled_from(["3", "2", "1", "HC"]))])
        else:
            lines.append([k, "sprint"])
    return {
        "name": name,
        "runs": runs,
        "dark": dark,
        "events": events,
        "lines": lines,
        "finish": last,
    }


@st.composite
def courses(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 3))
    return {
        "name": "random",
        "boards": [draw(boards(f"R{i}", i == 0, i == n - 1)) for i in range(n)],
    }


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    mode = draw(st.sampled_from(["classic", "leg", "itt", "ttt"]))
    road_race = mode in ("classic", "leg")
    return {
        "mode": mode,
        "players": draw(st.integers(2 if road_race else 1, 4)),
        "course": draw(courses()),
        "level": draw(st.sampled_from(["pro", "starter"])),
        "events": draw(st.booleans()) if road_race else False,
    }


def check_squares(state: cy.State) -> None:
    """No square holds more riders than its width; occupancy matches the riders."""
    p, setup = state.position, state.setup
    seen: dict[tuple[int, int, int], str] = {}
    masks = [[0] * (setup.cap + 1) for _ in range(setup.worlds)]
    for rider, where in p.pos.items():
        key = (setup.world[rider], where, p.lane[rider])
        assert key not in seen, f"{seen.get(key)} and {rider} share a square"
        seen[key] = rider
        width = setup.course.widths[where]
        assert width >= UNLIMITED or p.lane[rider] < width, f"{rider} off the road on {where}"
        masks[key[0]][where] |= 1 << key[2]
    assert masks == p.occupied


def play_random(options: dict[str, Any], seed: int, *, check: bool = True) -> cy.State:
    state = cy.from_options(options)
    state.seed = seed
    rng, pick = Rng(seed), random.Random(seed)
    darks = [k for k, back in enumerate(state.setup.course.darks) if back]
    for _ in range(MAX_MOVES):
        if state.is_over:
            return state
        before = dict(state.position.pos)
        if state.is_chance:
            move = state.chance_move(rng)
        else:
            moves = state.legal_moves()
            move = moves[pick.randrange(len(moves))]
        assert cy.parse_move(str(move)) == move
        state.play(move)
        if check:
            check_squares(state)
            swapped = isinstance(move, cy.Answer | cy.Swap)
            for rider, where in state.position.pos.items():
                if where < before.get(rider, 0):
                    # a swap hands the proposer its partner's square, at most one behind (CY-6.4)
                    by_swap = swapped and before[rider] - where == 1
                    assert by_swap or any(where < d for d in darks), (
                        f"{rider} went back from {before[rider]} to {where} by {move}"
                    )
    raise AssertionError(f"game not over after {MAX_MOVES} moves")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_random_games_end_and_keep_the_squares(options: dict[str, Any], seed: int) -> None:
    state = play_random(options, seed)
    result = state.result
    assert state.is_over and result.over and set(result.places) == set(state.setup.riders)
    assert result.winner == (None if options["mode"] == "ttt" else result.places[0])
    assert result.winner_team == result.teams[0]
    assert state.round <= 300 and (not state.racing or state.round == 300)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_records_replay_exactly(options: dict[str, Any], seed: int) -> None:
    state = play_random(options, seed, check=False)
    record = cy.Record.from_json(cy.Record.from_state(state).to_json())
    replayed = record.replay()
    assert replayed == state and replayed.history == state.history
    assert record.result == state.result.to_dict() and record.seed == seed


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 2**32))
def test_cyn_round_trips_at_round_starts(options: dict[str, Any], seed: int) -> None:
    state = cy.from_options(options)
    rng, pick = Rng(seed), random.Random(seed)
    setup = state.setup
    while not state.is_over:
        if state.at_round_start:
            text = state.to_cyn()
            again = cy.from_cyn(
                text, setup.mode.name, course=setup.course, level=setup.level, events=setup.events
            )
            assert again.to_cyn() == text and again.position.order == state.position.order
            assert again.phase == state.phase and again.due == state.due
            assert set(again.legal_moves()) == set(state.legal_moves())
        moves = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else moves[pick.randrange(len(moves))])


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_copies_are_independent(seed: int) -> None:
    state = cy.from_options({"players": 3})
    rng, pick = Rng(seed), random.Random(seed)
    for _ in range(150):
        moves = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else moves[pick.randrange(len(moves))])
    copy = state.copy()
    view = state.view("A")
    saved = (state.position.key(), list(state.history), state.phase, state.due)
    assert copy == state == view
    for other in (copy, view):
        for _ in range(60):
            if other.is_over:
                break
            moves = other.legal_moves()
            other.play(
                other.chance_move(rng) if other.is_chance else moves[pick.randrange(len(moves))]
            )
        assert other != state
    assert (state.position.key(), list(state.history), state.phase, state.due) == saved


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_same_seed_same_game(seed: int) -> None:
    a = play_random({"players": 2}, seed, check=False)
    b = play_random({"players": 2}, seed, check=False)
    assert a.history == b.history and a == b
