"""The server's parts point one way (issue 33, point 2).

``server/`` is five parts by job plus the modules every part shares. A part imports
only the parts below it: storage ← work ← live ← cluster ← http ← the app (``app.py``,
``run.py``). The shared modules (games, errors, limits, inputs, deltas, transport,
lateness) import no part. A test reads every import of every module, lazy ones too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import peloton.server

SERVER = Path(peloton.server.__file__).parent
#: The parts from the ground up: each may import those before it, never those after.
PARTS = ("storage", "work", "live", "cluster", "http")
SHARED = {"games", "errors", "limits", "inputs", "deltas", "transport", "lateness"}
TOP = {"app", "run", "__init__"}


def part_of(path: Path) -> str:
    """The part a module of the server belongs to: a subpackage's name, or the module's."""
    relative = path.relative_to(SERVER)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def imported_parts(path: Path, text: str | None = None) -> set[str]:
    """The parts of the server a module imports (relative or absolute, at any depth);
    ``text`` stands for the module's own when given."""
    package = ["peloton", "server", *path.relative_to(SERVER).parts[:-1]]
    found = set()
    source = path.read_text() if text is None else text
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            target = [*base, *(node.module.split(".") if node.module else [])]
        else:
            target = (node.module or "").split(".")
        if target[:2] != ["peloton", "server"]:
            continue
        if len(target) > 2:
            found.add(target[2])
        else:  # ``from peloton.server import x``: x names the part
            found.update(alias.name for alias in node.names)
    return found


def test_every_module_is_in_a_known_place() -> None:
    places = {part_of(path) for path in SERVER.rglob("*.py")}
    assert places <= set(PARTS) | SHARED | TOP, places - set(PARTS) - SHARED - TOP


def test_parts_import_only_the_parts_below_them() -> None:
    wrong = []
    for path in sorted(SERVER.rglob("*.py")):
        here = part_of(path)
        for there in imported_parts(path) - {here}:
            if here in SHARED:
                allowed = there in SHARED
            elif here in PARTS:
                allowed = there in SHARED or (
                    there in PARTS and PARTS.index(there) < PARTS.index(here)
                )
            else:
                allowed = True  # the app stands above everything
            if not allowed:
                wrong.append(f"{path.relative_to(SERVER)} ({here}) imports {there}")
    assert not wrong, wrong


def test_the_check_sees_an_upward_import() -> None:
    """The reader of imports resolves a relative import two levels up and a lazy one (so
    the test above can fail): such lines in a storage module import ``live`` and ``http``."""
    store = SERVER / "storage" / "store.py"
    assert not imported_parts(store) & {"live", "http"}
    text = "from ..live.tables import Tables\ndef f():\n    from ..http import api\n"
    assert imported_parts(store, text) == {"live", "http"}
