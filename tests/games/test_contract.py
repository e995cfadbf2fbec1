"""Every registered game keeps the contract of docs/games.md (tests/games/contract.py),
one test per game and part, so that a failure names the part a game breaks. A game
joins by registering: nothing here names one."""

from __future__ import annotations

import dataclasses
from importlib import import_module

import pytest

from peloton.core import registry
from peloton.core.errors import PelotonError, StateError
from peloton.games import mindtwist as mt
from peloton.games import pistard as pi

from .contract import CHECKS, check_contract

#: One random game per seed, the same games for every part.
SEEDS = range(20)


@pytest.mark.parametrize("part", list(CHECKS))
@pytest.mark.parametrize("game", registry.names())
def test_random_games_keep_the_contract(game: str, part: str) -> None:
    check_contract(import_module(registry.package(game)), seeds=SEEDS, parts=[part])


# ---------------------------------------------------------------- the contract can fail
#
# Each part must catch the defect it is about: a real game is broken in one place (by
# monkeypatch, for one test) and the part must fail on it. Mind Twist's games are
# short, so a few seeds suffice; Pistard is the game with chance.

FAILS = (AssertionError, pytest.fail.Exception)


def _shared_list(self: mt.State) -> list[mt.Move]:
    return SHARED  # one list for every state, as a careless cache would hand out


SHARED: list[mt.Move] = list(mt.State(mt.Board()).legal_moves())


@pytest.mark.parametrize(
    ("part", "attribute", "broken"),
    [
        ("copies", "copy", lambda self: self),
        ("fresh_move_lists", "legal_moves", _shared_list),
        ("views", "view", lambda self, player=None: self.copy()),
        ("moves", "parse_move", lambda self, text: mt.Move("pass")),
    ],
    ids=["copy-is-the-state", "shared-move-list", "view-shows-the-dial", "parse-is-wrong"],
)
def test_each_part_catches_its_defect(
    part: str, attribute: str, broken: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_contract(mt, seeds=range(3), parts=[part])  # the real game passes
    monkeypatch.setattr(mt.State, attribute, broken)
    with pytest.raises(FAILS):
        check_contract(mt, seeds=range(3), parts=[part])


def test_a_refused_move_that_changes_the_state_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    play = mt.State.play

    def sloppy(self: mt.State, move: object) -> None:
        try:
            play(self, move)  # type: ignore[arg-type]
        except PelotonError:
            self.history.append(mt.Move("pass"))
            raise

    monkeypatch.setattr(mt.State, "play", sloppy)
    with pytest.raises(FAILS, match="changed the state"):
        check_contract(mt, seeds=range(2), parts=["bad_input"])


def test_a_false_fact_is_caught() -> None:
    info = registry.get("mind-twist")
    registry.register(dataclasses.replace(info, has_chance=True))
    try:
        with pytest.raises(FAILS, match="has_chance"):
            check_contract(mt, seeds=range(2), parts=["random_games"])
    finally:
        registry.register(info)


def test_wrong_chance_odds_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def even(self: pi.State) -> list[tuple[pi.Move, float]]:
        moves = self.legal_moves() if self.is_chance else []
        if not moves:
            raise StateError("no roll is due")
        return [(move, 1 / len(moves)) for move in moves]  # sorted dice are not equally likely

    monkeypatch.setattr(pi.State, "chance_outcomes", even)
    with pytest.raises(FAILS):
        check_contract(pi, seeds=range(1), parts=["chance"])


def test_a_sentence_showing_a_repr_is_caught() -> None:
    info = registry.get("mind-twist")
    registry.register(dataclasses.replace(info, describe=lambda state, move: f"plays {move!r}"))
    try:
        with pytest.raises(FAILS, match="repr"):
            check_contract(mt, seeds=range(1), parts=["sentences"])
    finally:
        registry.register(info)
