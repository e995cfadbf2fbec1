"""CY-0: rounds and turns; positions and squares."""

from __future__ import annotations

from peloton.games import cyclo as cy

from .helpers import at, play, square


def test_cy_0_1_a_round_gives_every_racing_rider_one_turn() -> None:
    state = at("4 AS1:a40,BS1:a41,CS1:a20", level="starter")
    riders = []
    while state.round == 4:
        if state.phase == "ride":
            riders.append(state.due)
            state.play(state.legal_moves()[0])
        else:
            state.play("roll:1,1")
    assert riders == ["BS1", "AS1", "CS1"]


def test_cy_0_2_positions_and_squares() -> None:
    """Position 0 is the start line; a square is lane + position (``b44``, ``a0``)."""
    state = cy.new_game("classic", level="starter")
    assert square(state, "AS1") == "a0" and square(state, "BS1") == "b0" and state.rider("BS1").position == 0
    assert square(at("4 AS1:b44,BS1:a44", level="starter"), "AS1") == "b44"
    assert square(play(at("4 AS1:a118", level="starter"), "roll:1,1,2"), "AS1") == "a118"
