"""Every documented example runs: the package docstring's doctest here; the Python
blocks of docs/mind-twist.md and docs/formats.md's Mind Twist and Pistard example run in
tests/cli/test_documented.py, with every other documented example."""

from __future__ import annotations

import doctest

from docs_examples import ROOT, python_blocks
from peloton.games import mindtwist as mt


def test_the_package_docstring_runs() -> None:
    failures, tried = doctest.testmod(mt, raise_on_error=False)
    assert tried > 0 and failures == 0


def test_the_docs_have_mind_twist_examples() -> None:
    assert python_blocks(ROOT / "docs" / "mind-twist.md")
    assert python_blocks(ROOT / "docs" / "formats.md", "mindtwist as mt, pistard as pi")
