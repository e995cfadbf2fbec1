"""The package's shape (STYLE §1): its modules flow one way."""

from __future__ import annotations

import ast
from pathlib import Path

from peloton.games import pistard as pi

PACKAGE = Path(pi.__file__).parent


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
