"""Cyclo's package in layers, and its modes as data (docs/layout.md).

The engine (the package root) imports neither the bots' knowledge (``bots/``), the
competitions (``competitions/``) nor the lessons (``tutorial/``), and those do not
import each other: each rests on the engine alone. No module asks a mode its name to decide what to do: what a mode
is (a pacer, eliminations, a team time, its lines …) is a field of ``Mode`` in
``modes.py`` (CY-2.1), read by the rules, the bots, the competitions and the page.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from peloton.games.cyclo.modes import MODES

PACKAGE = Path(__file__).resolve().parents[3] / "src" / "peloton" / "games" / "cyclo"
LAYERS = ("bots", "competitions", "tutorial")


def layer_of(path: Path) -> str:
    """``bots``, ``competitions``, ``tutorial`` or ``engine`` (the package root)."""
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else "engine"


def imported_layers(source: str, own: str) -> set[str]:
    """The layers of the Cyclo package that a module of layer ``own`` imports from
    (relative or absolute imports, at the top or inside a function)."""
    tree = ast.parse(source)
    depth = 0 if own == "engine" else 1  # a layer's modules sit one folder down
    found = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names = [node.module or ""]
            elif node.level == depth + 1:  # the package root: from .bots, from ..bots
                base = node.module or ""
                names = [base] if base else [a.name for a in node.names]
                names = [n if n.split(".")[0] in LAYERS else "" for n in names]
            elif node.level == 1 and depth == 1:  # beside it in its own layer
                names = [f"{own}."]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            name = name.removeprefix("peloton.games.cyclo.")
            head = name.split(".")[0]
            if head in LAYERS:
                found.add(head)
    return found


def modules() -> list[Path]:
    return sorted(
        p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE
    )


def test_the_layers_exist() -> None:
    layers = {layer_of(p) for p in modules()}
    assert layers == {"engine", *LAYERS}
    assert (PACKAGE / "bots" / "heuristics.py").exists()
    assert (PACKAGE / "competitions" / "omnium.py").exists()


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_layer_rests_on_the_engine_alone(path: Path) -> None:
    own = layer_of(path)
    found = imported_layers(path.read_text(encoding="utf-8"), own)
    assert found <= ({own} if own != "engine" else set()), (
        f"{path.relative_to(PACKAGE)} ({own}) imports from {sorted(found)}"
    )


@pytest.mark.parametrize(
    ("line", "own", "found"),
    [
        ("from .bots.goals import evaluate", "engine", {"bots"}),
        ("from . import competitions", "engine", {"competitions"}),
        ("from peloton.games.cyclo.bots import heuristics", "engine", {"bots"}),
        ("from ..competitions.omnium import EVENTS", "bots", {"competitions"}),
        ("from .goals import evaluate", "bots", {"bots"}),
        ("from ..state import State", "bots", set()),
        ("from .rules import landing", "engine", set()),
    ],
)
def test_the_layer_check_can_fail(line: str, own: str, found: set[str]) -> None:
    """The AST reading sees a module importing a layer, whichever way it is written."""
    assert imported_layers(f"def f():\n    {line}\n", own) == found


# ---------------------------------------------------------------- modes are data

NAMES = set(MODES)


def _names_a_mode(node: ast.expr) -> bool:
    """A mode's name as a literal, a tuple of them, or ``MODES["…"]``."""
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_mode(e) for e in node.elts)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return node.value.id == "MODES" and _names_a_mode(node.slice)
    return False


def _a_mode_name(node: ast.expr) -> bool:
    """``mode.name``, ``setup.mode.name``, ``the_mode.name`` …"""
    if not (isinstance(node, ast.Attribute) and node.attr == "name"):
        return False
    owner = node.value
    label = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return "mode" in label


def name_tests(source: str) -> list[int]:
    """The lines where a comparison asks a mode its name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_a_mode(s) or _a_mode_name(s) for s in sides):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    "path",
    [p for p in modules() if p.name != "modes.py"],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_module_tests_a_mode_by_its_name(path: Path) -> None:
    found = name_tests(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PACKAGE)} tests a mode by its name at lines {found}"


@pytest.mark.parametrize(
    "source",
    [
        'if mode.name == "keirin": pass',
        'x = setup.mode.name in ("sprint", "elimination")',
        'if mode != "team-sprint": pass',
        'if leg["mode"] == "leg": pass',
        'y = mode is MODES["ttt"]',
    ],
)
def test_the_name_check_can_fail(source: str) -> None:
    assert name_tests(source) == [1]


def test_the_check_leaves_other_comparisons_alone() -> None:
    assert name_tests('if kind == SPRINT or mode not in LEG_MODES or line == "finish": pass') == []
