"""The package's shape (STYLE §1): its modules flow one way, none reads another's
private members, and the game's own bots sit below :mod:`peloton.bots`."""

from __future__ import annotations

from pathlib import Path

from peloton.games import mindtwist as mt
from peloton.games.mindtwist.position import Duel

from ..pistard.shape import circles, imports, private_reads

PACKAGE = Path(mt.__file__).parent


def test_the_package_flows_one_way() -> None:
    graph = imports(PACKAGE, "peloton.games.mindtwist")
    assert circles(graph) == []
    assert "state" not in graph["rules"] and "state" not in graph["board"]
    callers = sorted(name for name, deps in graph.items() if "rules" in deps and name != "__init__")
    assert callers == ["state"]
    # The solver and the bots read states; the state never reads them.
    assert not {"solver", "bots", "heuristics", "start", "record"} & graph["state"]


def test_games_sit_below_the_bots() -> None:
    """The game's own bots (``GameInfo.bots``) import nothing from peloton.bots."""
    graph = imports(PACKAGE, "peloton.games.mindtwist")
    assert "peloton.core.rng" in graph["bots"]
    assert not any(dep.startswith("peloton.bots") for deps in graph.values() for dep in deps)


def test_no_module_reads_another_modules_private_members() -> None:
    assert list(private_reads(PACKAGE)) == []


def test_the_state_keeps_its_data_in_the_position() -> None:
    """The rules read and write a Duel (position.py), never a State."""
    graph = imports(PACKAGE, "peloton.games.mindtwist")
    assert "position" in graph["rules"] and "state" not in graph["position"]
    assert issubclass(mt.State, Duel)
