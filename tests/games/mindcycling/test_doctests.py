"""The usage examples in the package's docstrings run (docs/games.md: every documented
example runs in a test)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["peloton.games.mindcycling"]


@pytest.mark.parametrize("name", MODULES)
def test_package_examples_run(name: str) -> None:
    """MC-10.4: the examples of the public API give the results they show."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, raise_on_error=False, report=True)
    assert result.attempted >= 5, f"{name} lost its examples"
    assert result.failed == 0
