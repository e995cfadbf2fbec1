"""No Python module of Peloton is over 600 lines (issue 33, point 8): a module that
grows past it holds two jobs, and is split by job before it lands."""

from __future__ import annotations

from pathlib import Path

import peloton

SOURCE = Path(peloton.__file__).parent
MOST_LINES = 600


def long_modules(root: Path, most: int = MOST_LINES) -> dict[str, int]:
    """The modules under ``root`` with more than ``most`` lines, with their lengths."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > most:
            found[str(path.relative_to(root))] = lines
    return found


def test_no_module_is_over_600_lines() -> None:
    assert long_modules(SOURCE) == {}


def test_the_count_finds_a_long_module(tmp_path: Path) -> None:
    (tmp_path / "long.py").write_text("x = 1\n" * 601)
    (tmp_path / "short.py").write_text("x = 1\n" * 600)
    assert long_modules(tmp_path) == {"long.py": 601}
