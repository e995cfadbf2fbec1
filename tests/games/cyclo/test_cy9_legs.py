"""CY-9: stage race legs — times, group arrivals, green and red points, places."""

from __future__ import annotations

from peloton.games.cyclo.scoring import FINISH_POINTS, MOUNTAIN_POINTS, SPRINT_POINTS, leg_times

from .helpers import at, play


def test_cy_9_1_times() -> None:
    """The first round with finishers gives them 0; later 10·(r − r0) − p."""
    assert leg_times([("AS1", 20, 3), ("BS1", 20, 1), ("CS1", 21, 3), ("AH1", 23, 9)]) == {
        "AS1": 0,
        "BS1": 0,
        "CS1": 7,
        "AH1": 21,
    }
    assert leg_times([]) == {}


def test_cy_9_2_group_arrivals() -> None:
    """A rider on the square of the rider before it, or one behind, gets its time;
    only one round's finishers form a group (CY-19.10)."""
    times = leg_times(
        [
            ("AS1", 5, 1),
            ("BS1", 6, 9),
            ("CS1", 6, 8),
            ("AH1", 6, 8),
            ("BH1", 6, 6),
            ("CH1", 7, 9),
            ("AC1", 7, 3),
            ("BC1", 8, 9),
        ]
    )
    assert times == {
        "AS1": 0,
        "BS1": 1,
        "CS1": 1,
        "AH1": 1,
        "BH1": 4,
        "CH1": 11,
        "AC1": 17,
        "BC1": 21,
    }
    # BC1 on #9 is not grouped with AC1 of round 7, nor CH1 with BH1 of round 6.


def test_cy_9_3_points() -> None:
    assert SPRINT_POINTS == (5, 3, 2, 1) and FINISH_POINTS == (15, 10, 5, 3, 2, 1)
    assert MOUNTAIN_POINTS == {
        "3": (3, 2, 1),
        "2": (5, 3, 2, 1),
        "1": (7, 5, 3, 2, 1),
        "HC": (10, 7, 5, 3, 2, 1),
    }
    riders = "AC1:a80,AH1:b80,AH2:a79,AS1:b79,BC1:a78,BH1:b78,BH2:a77"
    state = at(f"20 {riders}", "leg", course="mountain-stage", level="starter")  # D1: HC after 82
    assert [line.category for line in state.setup.scoring] == ["2", "HC", "1"]
    for rider in state.position.order:
        play(
            state,
            "roll:5",
            f"{rider}-{state.rider(rider).position + (6 if rider[1] == 'C' else 5)}",
        )
    # AC1 86, AH1 85, AH2 a84, AS1 b84, BC1 c84 (a climber: +1), BH1 83; BH2 stops on 82
    assert state.position.lists[1] == ["AC1", "AH1", "AH2", "AS1", "BC1", "BH1"]
    assert state.result.mountain == {
        "AC1": 10,
        "AH1": 7,
        "AH2": 5,
        "AS1": 3,
        "BC1": 2,
        "BH1": 1,
        "BH2": 0,
    }


def test_cy_9_4_places_are_the_finishing_order() -> None:
    """CY-9.4: a leg's places are the finishing order: BS1, further past the line at
    the end of the round, beats AS1, which crossed first."""
    state = at("9 AS1:a119,BS1:a110", "leg", level="starter")
    play(state, "roll:1,1,1", "AS1-#2", "roll:4,5,6", "BS1-#5")
    assert state.is_over and state.result.places == ("BS1", "AS1") and state.result.winner == "BS1"
    assert state.result.points == {"AS1": 10, "BS1": 15} and state.result.times == {
        "AS1": 0,
        "BS1": 0,
    }
