"""CY-0: rounds and turns; positions and squares."""

from __future__ import annotations

from peloton.games import cyclo as cy

from .helpers import at, play, square


def test_cy_0_1_a_round_gives_every_racing_rider_one_turn() -> None:
    """CY-0.1: a round gives every racing rider one turn, then the next round begins;
    a rider that has finished races no more and gets none."""
    state = at("4 AS1:a40,BS1:a41,CS1:a20 / - / DS1:3.4", level="starter")
    turns: dict[int, list[str | None]] = {4: [], 5: []}
    while state.round in turns:
        if state.phase == "ride":
            turns[state.round].append(state.due)
            state.play(state.legal_moves()[0])
        else:
            state.play("roll:1,1")
    assert turns == {4: ["BS1", "AS1", "CS1"], 5: ["BS1", "AS1", "CS1"]}
    assert state.round == 6 and state.rider("DS1").finished and state.rider("DS1").square is None


def test_cy_0_2_positions_and_squares() -> None:
    """CY-0.2: position 0 is the start line; a position is an integer; a space holds
    ``width`` riders side by side in lanes a, b, … from the left; a square is lane +
    position (``b44``, ``a0``)."""
    state = cy.new_game("classic", level="starter")
    assert (
        square(state, "AS1") == "a0"
        and square(state, "BS1") == "b0"
        and state.rider("BS1").position == 0
    )
    assert square(at("4 AS1:b44,BS1:a44", level="starter"), "AS1") == "b44"
    assert square(play(at("4 AS1:a118", level="starter"), "roll:1,1,2"), "AS1") == "a118"
    # 44 is flat, 3 wide: a rider landing there takes the leftmost free lane, c
    full = play(at("4 AS1:a44s,BS1:a40,CS1:b44s", level="starter"), "roll:2,2", "BS1-44")
    assert square(full, "BS1") == "c44" and full.rider("BS1").position == 44
    # 76 is cobbles, 2 wide: with a and b taken, a rider aiming there stops on 75
    narrow = play(at("4 AS1:a76s,BS1:a72,CS1:b76s", level="starter"), "roll:2,2", "BS1-76")
    assert square(narrow, "BS1") == "a75"
