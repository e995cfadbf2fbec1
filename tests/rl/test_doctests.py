"""The examples in ``peloton.rl``'s docstrings run."""

from __future__ import annotations

import doctest

import peloton.rl


def test_the_package_docstring_examples_run() -> None:
    failures, tried = doctest.testmod(peloton.rl, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
