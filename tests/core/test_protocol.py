"""core.protocol: what the runtime protocols accept, and the Mind Cycling state as
their example. Every registered game's states and moves are checked against the
protocol by the conformance suite (tests/games/contract.py)."""

from __future__ import annotations

from dataclasses import dataclass

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
    for move in s.legal_moves():
        assert isinstance(move, Move) and move.game == s.game
        assert s.parse_move(str(move)) == move
    assert CHANCE == "chance"


def test_no_chance_steps() -> None:
    """Mind Cycling is deterministic: no chance step; chance_move raises StateError."""
    s = mc.new_game("short", teams={"A": "DSC", "B": "DSC"})
    assert s.is_chance is False
    with pytest.raises(peloton.StateError):
        s.chance_move(Rng(1))
    with pytest.raises(peloton.StateError):
        s.chance_outcomes()


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


@dataclass(frozen=True)
class Token:
    """The least a move needs: a game, a text and a hash."""

    text: str
    game = "toy"

    def __str__(self) -> str:
        return self.text


def test_a_value_naming_its_game_is_a_move_and_plain_values_are_not() -> None:
    assert isinstance(Token("x"), Move)
    for value in (5, 2.5, None, "x", ("x",), b"x"):
        assert not isinstance(value, Move)


class Toy:
    """A game position with every member of the protocol but ``chance_outcomes``."""

    game = "toy"
    current_player = "A"
    players = ("A",)
    is_over = is_chance = False
    result = None

    def legal_moves(self) -> list[Token]:
        return [Token("x")]

    def play(self, move: Token) -> None: ...

    def copy(self) -> Toy:
        return self

    def view(self, player: str | None) -> Toy:
        return self

    def chance_move(self, rng: Rng) -> Token:
        raise peloton.StateError("no chance")

    def parse_move(self, text: str) -> Token:
        return Token(text)


class FullToy(Toy):
    def chance_outcomes(self) -> list[tuple[Token, float]]:
        raise peloton.StateError("no chance")


def test_a_state_needs_every_member_of_the_protocol_chance_outcomes_included() -> None:
    assert not isinstance(Toy(), GameState)
    assert isinstance(FullToy(), GameState)
