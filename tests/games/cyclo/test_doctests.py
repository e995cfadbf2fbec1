"""The examples in the Cyclo package's docstrings run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import peloton.games.cyclo as package

MODULES = sorted(
    [
        "peloton.games.cyclo",
        # walk_packages: the layers below the root (bots/, competitions/) too
        *(m.name for m in pkgutil.walk_packages(package.__path__, "peloton.games.cyclo.")),
    ]
)


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_examples_exist() -> None:
    counts = {
        name: len(doctest.DocTestFinder().find(importlib.import_module(name))) for name in MODULES
    }
    with_examples = [
        n
        for n, c in counts.items()
        if c and any(t.examples for t in doctest.DocTestFinder().find(importlib.import_module(n)))
    ]
    assert {
        "peloton.games.cyclo",
        "peloton.games.cyclo.notation",
        "peloton.games.cyclo.course",
    } <= set(with_examples)
