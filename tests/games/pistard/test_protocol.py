"""The core protocol's promises that no rule id covers: what ``legal_moves()`` hands
out is the caller's own, and the package's modules flow one way."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import pistard as pi

from .shape import circles, imports, private_reads

PACKAGE = Path(pi.__file__).parent


def test_legal_moves_are_the_callers_own_list() -> None:
    """Clearing the list a copy or a view returns leaves the original (and the copy)
    able to play every one of its moves (issue: a shared cache once made the original
    refuse its own roll with "player A rolls 4 dice, not 4")."""
    state = pi.new_game(2)
    moves = state.legal_moves()
    for other in (state.copy(), state.view("A"), state.view(None)):
        other.legal_moves().clear()
        other.legal_moves().append(pi.parse_move("A1=6"))
    state.legal_moves().clear()
    assert state.legal_moves() == moves and len(moves) == 126
    state.play(moves[0])
    assert str(state.history[-1]) == "roll:1,1,1,1"


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 200))
def test_mutating_legal_moves_never_changes_a_game(seed: int, stop: int) -> None:
    """Whatever is done to the returned lists, the state, its copies and its views keep
    the same legal moves and play them."""
    state = pi.from_options({"players": 3})
    rng, rnd = Rng(seed), random.Random(seed)
    for _ in range(stop):
        if state.is_over:
            return
        moves = state.legal_moves()
        state.play(state.chance_move(rng) if state.is_chance else moves[rnd.randrange(len(moves))])
    expected = [str(m) for m in state.legal_moves()]
    copy, view = state.copy(), state.view(state.current_player)
    for holder in (state, copy, view):
        got = holder.legal_moves()
        got.reverse()
        got[:] = got[:1]
    for holder in (state, copy, view):
        assert [str(m) for m in holder.legal_moves()] == expected
    if expected:
        copy.play(expected[-1])
        state.play(expected[-1])
        assert copy == state


def test_the_package_flows_one_way() -> None:
    """STYLE §1: no module imports one that imports it back, and the rules never
    import the state (only state.py calls the rules)."""
    graph = imports(PACKAGE, "peloton.games.pistard")
    assert "state" not in graph["rules"] and "state" not in graph["paths"]
    assert "state" not in graph["position"]
    assert circles(graph) == []
    callers = sorted(name for name, deps in graph.items() if "rules" in deps and name != "__init__")
    assert callers == ["state"]
    assert not any(dep.startswith("peloton.bots") for deps in graph.values() for dep in deps)


def test_no_module_reads_another_modules_private_members() -> None:
    """STYLE §1: ``x._name`` appears only as ``self._name`` (a module's own object)."""
    assert list(private_reads(PACKAGE)) == []
