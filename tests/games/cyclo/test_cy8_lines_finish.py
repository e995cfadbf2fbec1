"""CY-8: line lists, the finish, ranking and the result."""

from __future__ import annotations

import json
from typing import Any

from peloton.games import cyclo as cy

from .helpers import at, play, square

#: A mountain line after 70 (category 2), with dark cobbles on 72 and 73 just past it.
RECROSS: dict[str, Any] = {
    "name": "recross",
    "boards": [
        "A1",
        "C1",
        {
            "name": "Z",
            "runs": [["slope", 10, 2], ["cobbles", 5, 2], ["end", 15, 3]],
            "dark": [12, 13],
            "lines": [[10, "mountain", "2"]],
        },
        "E1",
    ],
}


def test_cy_8_1_course_lines_score_in_a_leg_only() -> None:
    classic = play(at("3 AS1:a44", level="starter"), "roll:1,2", "AS1-47")
    assert (
        classic.setup.scoring == () and classic.position.lists == [] and classic.result.points == {}
    )
    leg = play(at("3 AS1:a44", "leg", level="starter"), "roll:1,2", "AS1-47")
    assert leg.position.lists == [["AS1"], []] and leg.result.points["AS1"] == 5


def test_cy_8_2_line_lists() -> None:
    """Appended at the end of the round, the furthest first, then the lower lane; a
    rider is listed once, never removed, even when it crosses again (CY-19.7)."""
    state = at("3 AC1:a41,AH1:a43,BS1:b43,CS1:a40", "leg", level="starter")
    play(state, "roll:1,2", "AH1-46", "roll:1,2", "BS1-46", "roll:1,1", "AC1-43")
    assert state.position.lists == [[], []] and state.position.crossed[0] == [
        "AH1",
        "BS1",
    ]  # not yet listed
    play(state, "roll:6,6", "CS1-52")
    assert state.position.lists[0] == ["CS1", "AH1", "BS1"]
    assert state.result.points == {"AC1": 0, "AH1": 3, "BS1": 2, "CS1": 5}
    back = at("3 AH1:a70", "leg", course=RECROSS, level="starter")
    play(back, "roll:1", "AH1-71")
    assert back.position.lists[1] == ["AH1"] and back.result.mountain["AH1"] == 5
    play(back, "roll:1,1")
    back.play("AH1-73")  # dark: back 3 to 70, behind the line again
    assert square(back, "AH1") == "a70"
    play(back, "roll:1", "AH1-71")
    assert back.position.lists[1] == ["AH1"] and back.result.mountain["AH1"] == 5


def test_cy_8_3_finishing() -> None:
    """Past the finish line a rider has finished; it stays on the run-out until the end
    of the round, blocking nobody, then leaves; the finish list is the finishing order."""
    state = at("3 AS1:a115,BS1:a116,CS1:a114", level="starter")
    play(state, "roll:2,2,2", "BS1-#2", "roll:3,3,3", "AS1-#4")
    assert state.rider("BS1").finished and state.rider("BS1").square == "a#2"
    assert state.rider("BS1").position == 122
    # CY-8.6 mid-round: riders waiting on the run-out are placed, provisionally, by square.
    assert state.result.places == ("AS1", "BS1", "CS1") and state.result.teams == ("A", "B", "C")
    play(state, "roll:1,1,1", "CS1-117")
    assert state.rider("BS1").square is None and state.rider("BS1").finished
    assert state.position.finishers == [("AS1", 3, 4), ("BS1", 3, 2)]


def test_cy_8_4_classic_places_and_teams() -> None:
    state = at("3 AC1:a100,AS1:a118,BH1:a119,BS1:a90", level="starter")
    play(
        state,
        "roll:1,1",
        "BH1-#1",
        "roll:1,2,3",
        "AS1-#4",
        "roll:1,1",
        "AC1-102",
        "roll:1,1",
        "BS1-92",
    )
    result = state.result
    assert result.places[:2] == ("AS1", "BH1") and result.teams == ("A", "B")
    assert not result.over and result.winner is None and result.winner_team is None


def test_cy_8_4_classic_teams_rank_by_their_best_rider() -> None:
    """CY-8.4: in a classic the places are the finishing order (the furthest past the
    line first, whoever crossed first) and a team ranks by its best rider, not by how
    many it has ahead."""
    state = at("9 AC1:a118,AS1:a119,BS1:a117", level="starter")
    play(
        state, "roll:1,1,1", "AS1-#2", "roll:1,2", "AC1-#1", "roll:2,3,4", "BS1-#6"
    )  # 117 + 9 = #6
    result = state.result
    assert result.over and result.places == ("BS1", "AS1", "AC1")
    assert result.winner == "BS1" and result.teams == ("B", "A") and result.winner_team == "B"


def test_cy_8_5_end_and_riders_still_racing() -> None:
    """CY-8.5: a classic goes on after its first finisher and ends at the end of the
    round in which the last rider finishes, or by the guard (CY-3.6); riders still
    racing then rank after the finishers in position order."""
    state = at("299 AS1:a118,BS1:a60,CS1:a70", level="starter")
    play(state, "roll:6,6,6", "AS1-#9", "roll:2", "CS1-72", "roll:1,1", "BS1-62")
    assert not state.is_over and state.round == 300
    play(state, "roll:1,1", "CS1-74", "roll:2,2", "BS1-66")
    assert state.is_over and state.result.places == ("AS1", "CS1", "BS1")
    last = play(at("5 AS1:a119,BS1:a100", level="starter"), "roll:1,1,1", "AS1-#2", "roll:6,6")
    assert not last.is_over and last.phase == "ride"
    last.play("BS1-112")
    assert not last.is_over and last.round == 6  # BS1 still racing
    play(last, "roll:3,3,4", "BS1-#2")
    assert last.is_over and last.round == 6 and last.result.places == ("AS1", "BS1")


def test_cy_8_6_result() -> None:
    state = at("3 AS1:a118*2 / A*1", level="pro")
    play(state, "roll:6,6,6", "AS1-#9")
    result = state.result
    assert result.over and result.winner == "AS1" and result.winner_team == "A"
    data = result.to_dict()
    assert list(data) == [
        "places",
        "winner",
        "winner_team",
        "teams",
        "times",
        "team_times",
        "points",
        "mountain",
        "eliminated",
        "tokens_left",
        "over",
    ]
    assert data["tokens_left"] == {"AS1": 2} and data["eliminated"] == [] and data["times"] == {}
    assert json.loads(json.dumps(data)) == data
    assert cy.new_game("leg").result.points == dict.fromkeys(cy.new_game("leg").setup.riders, 0)
