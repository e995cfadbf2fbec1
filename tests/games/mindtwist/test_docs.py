"""Every documented example runs: the package docstring's doctest, the Python blocks
of docs/mind-twist.md, and the README's Mind Twist and Pistard example."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from peloton.games import mindtwist as mt

ROOT = Path(__file__).resolve().parents[3]


def python_blocks(path: Path, containing: str = "") -> list[str]:
    """The ```python blocks of a Markdown file (those containing ``containing``)."""
    blocks = re.findall(r"^```python\n(.*?)^```", path.read_text(), flags=re.M | re.S)
    return [b for b in blocks if containing in b]


def test_the_package_docstring_runs() -> None:
    failures, tried = doctest.testmod(mt, raise_on_error=False)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize(
    "block",
    [
        *python_blocks(ROOT / "docs" / "mind-twist.md"),
        *python_blocks(ROOT / "README.md", "mindtwist as mt, pistard as pi"),
    ],
)
def test_the_docs_examples_run(block: str) -> None:
    exec(compile(block, "example", "exec"), {})
