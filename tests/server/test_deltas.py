"""Deltas (docs/protocol.md, "Deltas"): ``apply(a, diff(a, b)) == b`` for any JSON
values and for the snapshots of real random games of the four games, every viewer's,
move after move; a delta that does not fit its value is refused, never misapplied."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.server.deltas import DeltaError, apply, diff
from peloton.server.games import spec

#: JSON values (strings, numbers, booleans, null, lists, objects), small and nested.
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=6)
    ),
    max_leaves=30,
)


def round_trip(value: Any) -> Any:
    """``value`` as a client receives it (JSON text and back)."""
    return orjson.loads(orjson.dumps(value))


@given(JSON, JSON)
def test_applying_the_diff_of_any_two_json_values_gives_the_second(a: Any, b: Any) -> None:
    kept = copy.deepcopy(a)
    changes = round_trip(diff(a, b))
    assert apply(a, changes) == b
    assert a == kept  # the value before is never changed


@given(JSON)
def test_a_value_and_itself_differ_by_nothing(a: Any) -> None:
    assert diff(a, copy.deepcopy(a)) == []


@given(JSON, st.lists(JSON, min_size=1, max_size=4))
def test_deltas_chain_like_moves(first: Any, later: list[Any]) -> None:
    """A client applies each update's changes to what the last one gave it."""
    have, before = first, first
    for after in later:
        have = apply(have, round_trip(diff(before, after)))
        before = after
    assert have == later[-1]


def test_a_change_that_does_not_fit_its_value_is_refused() -> None:
    snap = {"riders": [{"square": "a1"}], "round": 2}
    for changes in (
        [[["players", 0], "A"]],  # through a missing key
        [[["riders", 3, "square"], "b2"]],  # past a list's end
        [[["round", "x"], 1]],  # through a number
        [[["gone"]]],  # remove a key that is not there
    ):
        with pytest.raises(DeltaError):
            apply(snap, changes)
    assert snap == {"riders": [{"square": "a1"}], "round": 2}


def test_a_list_that_grows_is_appended_to_and_one_that_shrinks_sent_whole() -> None:
    assert diff({"moves": ["a", "b"]}, {"moves": ["a", "b", "c"]}) == [[["moves", 2], "c"]]
    assert diff({"moves": ["a", "b"]}, {"moves": ["a"]}) == [[["moves"], ["a"]]]
    assert diff({"x": 1, "y": None}, {"y": None}) == [[["x"]]]
    assert diff(1, True) == [[[], True]]  # a boolean is not the number 1 at a leaf


# ---------------------------------------------------------------- real games


def positions(game: str, seed: int) -> Iterator[Any]:
    """Each state of a random game of ``game`` (default options), the first before any
    move (the same state object, played on)."""
    game_spec = spec(game)
    state = game_spec.new_state(game_spec.defaults(), seed)
    rng, pick = Rng(seed), random.Random(seed)
    yield state
    for _ in range(2000):
        if state.is_over:
            return
        if state.is_chance:
            state.play(state.chance_move(rng))
        else:
            moves = list(state.legal_moves())
            state.play(moves[pick.randrange(len(moves))])
        yield state


@pytest.mark.parametrize("game", ["mind-cycling", "mind-twist", "pistard", "cyclo"])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_viewers_snapshots_of_a_random_game_follow_from_their_deltas(
    game: str, seed: int
) -> None:
    game_spec = spec(game)
    viewers: list[str | None] = [None, *game_spec.letters[:2]]
    have: dict[str | None, Any] = {}
    before: dict[str | None, Any] = {}
    moves = sizes = whole = 0
    for state in positions(game, seed):
        for viewer in viewers:
            snap = round_trip(game_spec.snapshot(state, viewer))
            snap.pop("legal", None)  # sent apart, to the seat to move only
            whole += len(orjson.dumps(snap))
            if viewer in before:
                changes = diff(before[viewer], snap)
                sizes += len(orjson.dumps(changes))
                have[viewer] = apply(have[viewer], round_trip(changes))
                assert have[viewer] == snap, (game, seed, viewer, moves)
            else:
                have[viewer] = snap
            before[viewer] = snap
        moves += 1
    assert moves > 10 and state.is_over
    # A delta is much smaller than the snapshot it stands for (a few hundred bytes).
    assert sizes / (moves - 1) < whole / moves / 2, (sizes / moves, whole / moves)
