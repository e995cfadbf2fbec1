"""The core protocol's promises that no rule id covers: what ``legal_moves()`` hands
out is the caller's own, and the package's modules flow one way."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton.core.rng import Rng
from peloton.games import pistard as pi

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


def _imports(module: Path) -> set[str]:
    """The sibling modules ``module`` imports (``from .x import ...``), at any level of
    the file (imports made only for type checking included)."""
    found = set()
    for node in ast.walk(ast.parse(module.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def test_the_package_flows_one_way() -> None:
    """STYLE §1: no module imports one that imports it back, and the rules never
    import the state (only state.py calls the rules)."""
    graph = {path.stem: _imports(path) for path in PACKAGE.glob("*.py")}
    assert "state" not in graph["rules"] and "state" not in graph["paths"]
    assert "state" not in graph["position"]

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(name for name in graph if reaches(name, name, set()))
    assert circles == []
    callers = sorted(name for name, deps in graph.items() if "rules" in deps and name != "__init__")
    assert callers == ["state"]


def test_no_module_reads_another_modules_private_members() -> None:
    """STYLE §1: ``x._name`` appears only as ``self._name`` (a module's own object)."""
    offenders = []
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "new"))
            ):
                offenders.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert offenders == []
