"""Every documented example runs: the package docstring's doctest and the Python
blocks of docs/pistard.md."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from peloton.games import pistard as pi

ROOT = Path(__file__).resolve().parents[3]


def python_blocks(path: Path) -> list[str]:
    """The ```python blocks of a Markdown file."""
    return re.findall(r"^```python\n(.*?)^```", path.read_text(), flags=re.M | re.S)


def test_the_package_docstring_runs() -> None:
    failures, tried = doctest.testmod(pi, raise_on_error=False)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("block", python_blocks(ROOT / "docs" / "pistard.md"))
def test_the_docs_examples_run(block: str) -> None:
    exec(compile(block, "docs/pistard.md", "exec"), {})
