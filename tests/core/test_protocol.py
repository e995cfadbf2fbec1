"""core.protocol: the Mind Cycling state implements the game-agnostic protocol."""

from __future__ import annotations

import pytest

import peloton
from peloton.core import CHANCE, GameState, Move, Rng
from peloton.games import mindcycling as mc


def test_mind_cycling_state_is_a_game_state() -> None:
    s = mc.new_game("short", teams={"A": "DSC", "B": "DSC"})
    assert isinstance(s, GameState)
    assert s.game == "mind-cycling"
    assert s.players == ("A", "B")
    assert s.current_player == "A"
    assert all(isinstance(m, Move) for m in s.legal_moves())
    assert CHANCE == "chance"


def test_no_chance_steps() -> None:
    """Mind Cycling is deterministic: no chance step; chance_move raises StateError."""
    s = mc.new_game("short", teams={"A": "DSC", "B": "DSC"})
    assert s.is_chance is False
    with pytest.raises(peloton.StateError):
        s.chance_move(Rng(1))


def test_view_hides_nothing_and_is_a_copy() -> None:
    """Perfect information: view(player) is the whole state, independent of it."""
    s = mc.from_mcn("short", "2 AC1:c10,AD1:c11+,AS1:c9,BC1:b6,BD1:d7+,BS1:e8 / - / -")
    v = s.view("A")
    assert v == s and v is not s
    v.play(v.legal_moves()[0])
    assert v != s
    assert s.to_mcn() == "2 AC1:c10,AD1:c11+,AS1:c9,BC1:b6,BD1:d7+,BS1:e8 / - / -"


def test_parse_move_on_the_state() -> None:
    s = mc.new_game("short", teams={"A": "DSC", "B": "DSC"})
    assert str(s.parse_move("AD1@c3")) == "AD1@c3"
    with pytest.raises(peloton.NotationError):
        s.parse_move("AD1@")


def test_a_plain_value_is_not_a_move() -> None:
    """The Move protocol names its game: an int or a text is not a move."""
    s = mc.new_game("short", teams={"A": "DSC", "B": "DSC"})
    assert not isinstance(5, Move)
    assert not isinstance("AD1@c3", Move)
    assert all(m.game == s.game for m in s.legal_moves())
