"""CY-14: move notation and the position notation CYN."""

from __future__ import annotations

import pytest

from peloton.core import NotationError, StateError
from peloton.games import cyclo as cy

from .helpers import at, play

EXAMPLES = [
    "roll:4",
    "roll:2,5",
    "roll:1,4,4",
    "draw:moto",
    "draw:technical",
    "AS1-56",
    "BC1-70/t",
    "AH1-#4/rt",
    "AS1-0",
    "FH2-#9/tt",
    "AS1~BH1",
    "AS1~-",
    "BH1~yes",
    "BH1~no",
    "AH1>BC1",
    "AH1>-",
    "fall:-",
    "fall:BH1",
    "fall:AH1,BH1",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_cy_14_1_every_move_prints_as_it_parses(text: str) -> None:
    move = cy.parse_move(text)
    assert str(move) == text and cy.parse_move(str(move)) == move
    assert move.game == "cyclo" and eval(repr(move), vars(cy)) == move  # the repr pastes back


@pytest.mark.parametrize(
    "text",
    [
        "roll:2,1",
        "roll:7",
        "roll:0",
        "roll:",
        "AS1-056",
        "AS1-5/tr",
        "AS1-5/",
        "AS1-#0",
        "AS1-#10",
        "AS1-#09",
        "as1-5",
        "AS2-5",
        "GS1-5",
        "AS1 -5",
        "AS1~yes ",
        "draw:Moto",
        "draw:joker",
        "fall:BH1,AH1",
        "fall:AH1,AH1",
        "fall:",
        "AS1~",
        "AS1>",
        "AS1~BH1~",
        "roll:1,2,3,",
        "ride AS1 56",
    ],
)
def test_cy_14_1_non_canonical_text_is_refused(text: str) -> None:
    with pytest.raises(NotationError) as info:
        cy.parse_move(text)
    assert repr(text) in str(info.value)


def test_cy_14_1_a_ride_names_its_target() -> None:
    """The ride is written with the target aimed at, not where room puts the rider."""
    state = play(
        at("2 AH1:a40,AS1:a44,BS1:b51s,CS1:c51s,DS1:a51s", level="starter"), "roll:3,4", "AS1-51"
    )
    assert state.rider("AS1").square == "a50" and str(state.history[-1]) == "AS1-51"


def test_cy_14_2_cyn_round_trips_at_round_starts() -> None:
    text = "9 AH1:a69*4+3,BC1:a70*4+5 / A*4,B*3 / - / 1=BC1+AH1 / moto,puncture"
    state = cy.from_cyn(text, "leg", course="flemish-4", events=True)
    assert state.to_cyn() == text and state.start == text
    assert (
        at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4").to_cyn()
        == "9 AS1:a30*4,BH1:a29*4 / A*4,B*4 / - / - / -"
    )
    assert at("9 AS1:a30 /-/ - ", level="starter").to_cyn() == "9 AS1:a30 / - / - / - / -"
    done = "16 AC1:a118xh2+1^2 / - / AS1:14.5+20^3,BS1:14.2+13 / 1=AS1+BS1+AC1,2=AS1+AC1 / bidon,fall,fall"
    assert at(done, "leg", events=True, level="starter").to_cyn() == done
    state.play(state.legal_moves()[0])
    with pytest.raises(StateError, match="start of a round"):
        state.to_cyn()


IMPOSSIBLE = [
    ("9 AS1:a121", "off the course"),
    ("9 AS1:d50", "3 lanes wide"),
    ("9 AS1:a50,BS1:a50", "both on a50"),
    ("9 AS1:a50 / - / AS1:8.2", "both racing and done"),
    ("9 AS1:a50*6", "more than 5"),
    ("9 AS1:a50 / A*6", "more than 5"),
    ("9 AS1:a50 / B*2", "team B has tokens but no rider"),
    ("9 AS1:a50h1", "hunger flag"),
    ("9 AS1:a50+3", "points"),
    ("9 AS1:a50 / - / - / 1=AS1", "scores no line"),
    ("9 AS1:a50 / - / BS1:9.1", "not before round 9"),
    ("9 AS1:a50 / - / BS1:8.12", "the run-out has 9"),
    ("9 AS1:a50 / - / BS1:7.1,CS1:7.3", "not in finishing order"),
    ("9 AS1:a50 / - / BS1:7.1=61", "only in the timed modes"),
    ("9 AS1:a50 / - / BS1:out", "eliminates nobody"),
    ("9 AS1:a50 / - / - / - / moto,moto,moto", "the deck has 2"),
    ("9 AS1:a50,P:7", "only a keirin"),
    ("9 - / - / AS1:8.1", "no rider is racing"),
]


@pytest.mark.parametrize(("text", "why"), IMPOSSIBLE)
def test_cy_14_2_impossible_positions_are_refused(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why) as info:
        at(text)
    assert repr(text) in str(info.value)


def test_cy_14_2_impossible_positions_in_a_leg() -> None:
    for text, why in (
        ("9 AS1:a50 / - / - / 3=AS1", "line 3"),
        ("9 AS1:a50 / - / - / 1=AS1+AS1", "twice"),
        ("9 AS1:a50 / - / - / 1=BS1", "not in the position"),
        ("9 AS1:a50 / - / - / - / moto", "no event cards"),
    ):
        with pytest.raises(NotationError, match=why):
            at(text, "leg")
    with pytest.raises(NotationError, match="tokens in Starter"):
        at("9 AS1:a50*1", level="starter")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "9",
        "x AS1:a1",
        "09 AS1:a1",
        "0 AS1:a1",
        "9 AS1:a1 / - / - / - / - / -",
        "9 AS1:A1",
        "9 AS1:a01",
        "9 AS1:a1,AS1:b1",
        "9 BS1:a1,AS1:a2",
        "9 AS1:a1xs",
        "9 AS1:a1*0",
        "9 AS1:a1+0",
        "9 AS1:a1h3",
        "9 AS1:a1 / A4",
        "9 AS1:a1 / B*1,A*1",
        "9 AS1:a1 / - / BS1:7",
        "9 AS1:a1 / - / BS1:out,CS1:7.1",
        "9 AS1:a1 / - / - / 1=AS1,1=AS1",
        "9 AS1:a1 / - / - / x=AS1",
        "9 AS1:a1 / - / - / - / puncture,moto",
        "9 AS1:a1 / - / - / - / joker",
        "9 AS1:a1,P:7,BS1:a2",
        "9 GS1:a1",
    ],
)
def test_cy_14_2_malformed_cyn_is_refused(text: str) -> None:
    with pytest.raises(NotationError) as info:
        at(text)
    assert repr(text) in str(info.value)
