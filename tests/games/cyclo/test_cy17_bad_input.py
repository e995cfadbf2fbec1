"""CY-17, CY-19.18: every bad input is a typed error (a ValueError) quoting the input,
saying why, citing the rule where one applies, and leaving the state unchanged."""

from __future__ import annotations

import pytest

from peloton.core import (
    ConfigError,
    CourseError,
    IllegalMoveError,
    NotationError,
    PelotonError,
    StateError,
)
from peloton.core.rng import Rng
from peloton.games import cyclo as cy

from .helpers import at, play, unchanged

SWAP = "9 AS1:a30*4,BH1:a29*4 / A*4,B*4"


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "AS1",
        "AS1-",
        "roll:7",
        "roll:3,1",
        "GS1-5",
        "AS1-05",
        "AS1-5/tr",
        "BH1~maybe",
        "fall:BH1,AH1",
        "draw:joker",
        "AS1-#12",
        "yes",
    ],
)
def test_cy_17_malformed_moves(text: str) -> None:
    unchanged(at(SWAP), text, NotationError)


def test_cy_17_moves_that_are_not_text() -> None:
    state = at(SWAP)
    for bad in (5, None, ("AS1", "-"), b"AS1~-"):
        unchanged(state, bad, NotationError)


def test_cy_17_illegal_moves() -> None:
    state = at(SWAP)
    unchanged(state, "roll:1,1", IllegalMoveError, "swap window is open")
    unchanged(state, "AS1-33", IllegalMoveError, "no ride is due")
    unchanged(state, "AS1~CS1", IllegalMoveError, "no rider CS1 in this game")  # CY-19.18
    unchanged(state, "FS1-5", IllegalMoveError, "no rider FS1")
    state.play("AS1~-")
    unchanged(state, "roll:1,1,1", IllegalMoveError, r"AS1 rolls 2 dice here \(CY-4.2\), not 3")
    unchanged(state, "roll:1", IllegalMoveError, "not 1")
    unchanged(state, "AS1-33", IllegalMoveError, "must roll first")
    state.play("roll:1,2")
    unchanged(state, "AS1-34", IllegalMoveError, r"may aim at 31 to 33 \(CY-4.4\)")
    unchanged(state, "AS1-46/rt", IllegalMoveError, "may aim at 31 to 45")
    unchanged(state, "BH1-31", IllegalMoveError, r"AS1 is due to ride, not BH1 \(CY-3.3\)")
    unchanged(state, "draw:moto", IllegalMoveError, "no card is drawn now")
    unchanged(state, "fall:-", IllegalMoveError, "no fall is being picked")
    unchanged(state, "AS1>BH1", IllegalMoveError, "no wheel is offered")
    cobbles = play(at("3 AH1:a75*1 / A*4"), "roll:1,1")
    unchanged(cobbles, "AH1-89/rr", IllegalMoveError, r"may not spend 'rr' here .*CY-4.3")
    unchanged(cobbles, "AH1-76", IllegalMoveError, "may aim at 77")
    finish = play(at("3 AS1:a118 / A*4"), "roll:1,2,3")
    unchanged(finish, "AS1-124", IllegalMoveError, r"is written #4 \(CY-14.1\)")


def test_cy_17_out_of_turn_moves() -> None:
    state = at(SWAP)
    unchanged(state, "BH1~yes", IllegalMoveError, r"no swap was proposed to BH1 \(CY-6.3\)")
    unchanged(state, "BH1~AS1", IllegalMoveError, "no swap window")
    unchanged(state, "BH1~-", IllegalMoveError, "BH1 has no swap window")
    state.play("AS1~BH1")
    unchanged(state, "AS1~yes", IllegalMoveError, "no swap was proposed to AS1")
    unchanged(state, "AS1~-", IllegalMoveError, "no swap window")
    wheel = play(at("8 AH1:a54*4,BC1:a55*4,BS1:b54*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-64")
    unchanged(wheel, "BS1>BC1", IllegalMoveError, r"AH1 is asked first, in lane order \(CY-5.2\)")
    unchanged(wheel, "AH1>BS1", IllegalMoveError, "may only follow BC1")
    fall = play(
        at("4 BH1:a51,BS1:a53,CC1:a40", level="starter"),
        "roll:1,1",
        "BS1-55",
        "roll:1,1",
        "BH1-53",
        "roll:6,6",
        "CC1-52",
        "draw:fall",
    )
    unchanged(fall, "fall:BH1", IllegalMoveError, "CY-7.5")


def test_cy_17_cards_not_left_and_moves_once_over() -> None:
    draw = play(at("3 AS1:a36 / - / - / - / moto,moto", level="starter"), "roll:1,1", "AS1-38")
    unchanged(draw, "draw:moto", IllegalMoveError, r"no 'moto' card is left in the deck \(CY-7.6")
    over = play(at("3 AS1:a118", level="starter"), "roll:1,2,3", "AS1-#4")
    assert over.is_over
    for move in ("roll:1,1", "AS1-125", "draw:moto"):
        unchanged(over, move, IllegalMoveError, "the game is over")
    with pytest.raises(StateError):
        over.chance_move(Rng(1))
    with pytest.raises(StateError):
        over.to_cyn()


def test_cy_17_state_errors() -> None:
    state = at(SWAP)
    with pytest.raises(StateError):
        state.chance_move(Rng(1))
    state.play("AS1~-")
    with pytest.raises(StateError, match="start of a round"):
        state.to_cyn()
    with pytest.raises(StateError, match="no rider"):
        state.rider("CS1")


def test_cy_17_setup_errors_are_config_errors() -> None:
    for call in (
        lambda: cy.new_game("classic", players=1),
        lambda: cy.new_game("tour"),
        lambda: cy.new_game("classic", level="pro+"),
        lambda: cy.new_game("classic", entries=0),
        lambda: cy.new_game("classic", tokens={"ZZ9": 1}),
    ):
        with pytest.raises(ConfigError) as info:
            call()
        assert isinstance(info.value, ValueError) and not isinstance(info.value, CourseError)
    with pytest.raises(CourseError) as course:
        cy.Course.from_dict({"name": "x", "boards": ["A1", "Q7"]})
    assert isinstance(course.value, ConfigError) and "'Q7'" in str(course.value)


def test_cy_17_every_error_is_a_value_error() -> None:
    for error in (NotationError, IllegalMoveError, ConfigError, CourseError, StateError):
        assert issubclass(error, PelotonError) and issubclass(error, ValueError)
