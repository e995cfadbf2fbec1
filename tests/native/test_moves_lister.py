"""``moves.c``: the public API's lists of Moves built in C, and the cffi path that
stands in when that extension is not compiled.

The lister plays and lists with the same C rules as the rest of the native engine;
what it adds is building the list from the game's table of Moves. These tests play
the public API's games with and without it (``tests/native/test_public_api.py``
compares each with the Python engine move by move) and give the extension bad
arguments. Without the native engine there is nothing to test here but that the
module is not offered."""

from __future__ import annotations

import importlib
import importlib.util
import random
from typing import Any

import pytest

from peloton import native
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import native as bridge


def compiled() -> Any:
    """The compiled extension, imported even when this process runs the Python engine
    (``make test`` runs these tests on both), or ``None`` where it was never built."""
    if importlib.util.find_spec("peloton.native._moves") is None:
        return None
    return importlib.import_module("peloton.native._moves")


def random_game(seed: int) -> list[mc.Move]:
    """A random 3×6 game on ``standard`` through the public API: its moves."""
    state = mc.new_game("standard", mc.default_teams(3, 6))
    rnd = random.Random(seed)
    while not state.is_over:
        legal = state.legal_moves()
        state.play(legal[int(rnd.random() * len(legal))])
    return state.history


def test_the_module_is_offered_only_with_the_native_engine() -> None:
    assert (native.moves_module() is not None) <= bridge.available()


def test_games_are_the_same_with_and_without_the_lister(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seeds give the same games whichever path lists the moves (and the
    Python engine gives them too: see test_public_api.py)."""
    with_lister = [random_game(seed) for seed in range(3)]
    bridge.forget_games()  # new games, whose threads' buffers have no lister
    monkeypatch.setattr(native, "moves_module", lambda: None)
    try:
        without = [random_game(seed) for seed in range(3)]
    finally:
        bridge.forget_games()
    assert with_lister == without
    assert all(len(moves) > 50 for moves in with_lister)


def test_the_lister_refuses_bad_arguments_clearly() -> None:
    module = compiled()
    if module is None:  # not built here: the engine must not offer it
        assert native.moves_module() is None
        return
    lister = module.Lister(1, 1, 8, 8, [], ())
    with pytest.raises(ValueError, match="null race address"):
        lister.legal(0)
    with pytest.raises(TypeError, match="takes 2 arguments"):
        lister.play_legal(1)
    with pytest.raises(TypeError):
        module.Lister(1, 1, 8, 8, "not a list", ())
    with pytest.raises(ValueError, match="null course or buffer"):
        module.Lister(0, 0, 8, 8, [], ())
    with pytest.raises(ValueError, match="positive"):
        module.Lister(1, 1, 0, 8, [], ())


def test_a_move_not_built_yet_is_built_by_the_bridge() -> None:
    """The lister answers None for a move the table does not hold yet; the bridge
    then builds it (MC-3.1: the placements of a fresh game come first)."""
    fresh = mc.new_game("short", mc.default_teams(2, 3))
    if native.moves_module() is None:  # the Python engine or no extension: no lister
        assert not bridge.available() or bridge.game_for(fresh.race).work.lister is None
        return
    bridge.forget_games()
    game = bridge.game_for(fresh.race)
    r = game.load(fresh.race)
    lister = game.work.lister
    assert lister.legal(game.address(r)) is None  # nothing built yet
    built = game.legal_at(r, game.address(r))
    assert built == fresh.legal_moves()
    assert lister.legal(game.address(r)) == built  # built once, now listed in C
