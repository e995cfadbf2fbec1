"""PI-5: rider, square, position and move notation."""

from __future__ import annotations

import pytest

from peloton.core import NotationError
from peloton.games import pistard as pi

from .helpers import at, position


def test_pi_5_1_riders_squares_and_laps() -> None:
    """PI-5.1: riders ``A3``, squares ``c17`` in the loop, ``A3:2.c17`` with its lap."""
    state = at("A3:2.c17,B1:1.a30")
    assert state.square_of("A3") == "c17" and state.lap_of("A3") == 2
    assert state.dist["A3"] == 57 and state.rider_at("c17") == "A3"


def test_pi_5_1_position_round_trip() -> None:
    """PI-5.1: the position text parses and prints back the same."""
    text = position("A1:2.c17,A2:1.a20,A4:1.b38,B1:2.b12,B2:1.d30", rest=" / A=3,B=2 / 2=2 / A,B")
    state = pi.from_position(text)
    assert pi.to_position(state) == text
    assert pi.parse_position(text).to_text() == text
    assert "A3" in state.out and state.points == {"A": 3, "B": 2}
    assert state.laps == {2: 2} and state.recency == ["A", "B"]


def test_pi_5_1_short_position_defaults() -> None:
    """PI-5.1: points, lap counts and scorers may be left out."""
    state = pi.from_position(position("A1:1.a3,A2:start,B1:1.b3"))
    assert state.lane["A2"] == -1 and state.square_of("A2") is None
    assert state.points == {"A": 0, "B": 0} and state.laps == {} and state.recency == []
    assert pi.to_position(state).endswith(" / A=0,B=0 / - / -")


@pytest.mark.parametrize(
    "text",
    [
        "roll:3,5,5,6",
        "roll:1",
        "roll:6,6",
        "A3=5",
        "D4=1",
        "A3=5:c22",
        "A3=5:c22+c23",
        "B1=6:a9+b10+c11+d12",
        "A3=5:-",
    ],
)
def test_pi_5_2_moves_round_trip(text: str) -> None:
    """PI-5.2: every move form parses, and its ``str()`` is the same text."""
    move = pi.parse_move(text)
    assert str(move) == text and hash(move) == hash(pi.parse_move(text))
    assert move == pi.parse_move(text)


def test_pi_5_2_move_fields() -> None:
    """PI-5.2: the parts of a move."""
    m = pi.parse_move("A3=5:c22+c23")
    assert (m.kind, m.rider, m.value, m.path, m.end, m.bonus) == (
        "ride",
        "A3",
        5,
        ("c22", "c23"),
        "c23",
        ("c23",),
    )
    assert pi.parse_move("roll:1,2,2").dice == (1, 2, 2)
    assert pi.parse_move("A3=5:-").end is None
    assert pi.Move.roll((6, 1, 3)) == pi.parse_move("roll:1,3,6")


def test_pi_5_2_roll_must_be_ascending() -> None:
    """PI-5.2 [decision]: a roll lists its dice ascending (one text per outcome)."""
    with pytest.raises(NotationError, match="ascending"):
        pi.parse_move("roll:6,3")
