"""Every registered game keeps the contract of docs/games.md (tests/games/contract.py),
one test per game and part, so that a failure names the part a game breaks. A game
joins by registering: nothing here names one."""

from __future__ import annotations

from importlib import import_module

import pytest

from peloton.core import registry

from .contract import CHECKS, check_contract

#: One random game per seed, the same games for every part.
SEEDS = range(20)


@pytest.mark.parametrize("part", list(CHECKS))
@pytest.mark.parametrize("game", registry.names())
def test_random_games_keep_the_contract(game: str, part: str) -> None:
    check_contract(import_module(registry.package(game)), seeds=SEEDS, parts=[part])
