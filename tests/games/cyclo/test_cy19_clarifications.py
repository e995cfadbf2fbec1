"""CY-19: the clarifications of the road race (19.1, 19.3, 19.11 and 19.12 concern the
velodrome, the timed modes and the team events of the next issue)."""

from __future__ import annotations

from typing import Any

import pytest

from peloton.core import CourseError, IllegalMoveError, NotationError
from peloton.core.rng import Rng
from peloton.games import cyclo as cy
from peloton.games.cyclo.scoring import leg_times

from .helpers import at, legal, play, square

#: Cobbles from position 1 (so the start line rides like cobbles), then flat.
ROUGH: dict[str, Any] = {
    "name": "rough",
    "boards": [{"name": "R", "runs": [["cobbles", 5, 2], ["flat", 25, 3]], "finish": True}],
}
#: One lane on spaces 1-6 (cobbles 2-6, dark 5), then flat.
NARROW: dict[str, Any] = {
    "name": "narrow",
    "boards": [
        {
            "name": "X",
            "runs": [["flat", 1, 1], ["cobbles", 5, 1], ["end", 24, 3]],
            "dark": [5],
            "finish": True,
        }
    ],
}


def test_cy_19_2_track_is_not_a_road_type() -> None:
    with pytest.raises(CourseError, match="unknown road type 'track'"):
        cy.Board.from_dict({"name": "T", "runs": [["track", 20, 4]], "finish": True})


def test_cy_19_4_the_start_line_rides_like_position_1() -> None:
    state = cy.new_game("classic", course=ROUGH)
    assert len(state.legal_moves()) == 21
    state.play("roll:1,2")
    assert legal(state) == {"AS1-3", "AS1-9/r", "AS1-9/t"}  # no holding back; sprinter panel 1


def test_cy_19_5_the_vacated_square_is_free() -> None:
    """The dark-square fall-back may land where the rider stood; a move back to its own
    position has not changed space (no draw)."""
    state = play(at("3 AS1:a2,BS1:a1s", course=NARROW, level="starter"), "roll:1,2", "AS1-5")
    assert square(state, "AS1") == "a2" and state.phase == "roll" and state.round == 4


def test_cy_19_6_a_follower_always_moves_forward() -> None:
    state = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:1,1", "BC1-56", "AH1>BC1")
    assert square(state, "AH1") == "a55"


def test_cy_19_7_a_line_list_holds_each_rider_once() -> None:
    """A swap crosses no line; a rider listed and crossing again is not listed twice."""
    state = play(at("9 AS1:a46*4+5,BH1:a45*4 / A*4,B*4 / - / 1=AS1", "leg"), "AS1~BH1", "BH1~yes")
    assert (
        square(state, "BH1") == "a46" and state.position.crossed[0] == []
    )  # the swap crossed nothing
    play(state, "roll:1,1", "BH1-48", "AS1>-", "roll:1,1", "AS1-47")  # AS1 crosses the line again
    assert state.round == 10 and state.position.lists[0] == ["AS1"]
    assert state.result.points == {"AS1": 5, "BH1": 0}


def test_cy_19_8_hunger_while_hungry_changes_nothing() -> None:
    state = play(at("3 AS1:a35h2", level="starter"), "roll:3", "AS1-38", "draw:hunger")
    assert state.rider("AS1").hunger == 1


def test_cy_19_9_lazy_reshuffle() -> None:
    full = ",".join(c.id for c in cy.CARDS for _ in range(c.count))
    state = at(f"3 AS1:a36 / - / - / - / {full}", level="starter")
    assert sum(state.cards_left.values()) == 0 and state.to_cyn().endswith(full)


def test_cy_19_10_only_one_rounds_finishers_form_a_group() -> None:
    times = leg_times([("AS1", 3, 9), ("BS1", 4, 9), ("CS1", 4, 8)])
    assert times == {"AS1": 0, "BS1": 1, "CS1": 1}  # BS1 is not grouped with AS1 of round 3


def test_cy_19_12_team_time_for_every_finished_rider() -> None:
    state = at("6 AC1:a88,AH1:b88,AH2:c88,AS1:a89", "ttt", course="ttt", level="starter")
    play(
        state,
        "roll:2,3,4",
        "AS1-#8",
        "roll:5,5",
        "AC1-#8",
        "roll:1,2",
        "AH1-#1",
        "roll:4,5",
        "AH2-#7",
    )
    # own times 52, 52, 59, 53: the third best, 53, is every finished rider's time
    assert state.result.team_times == {"A": 53} and set(state.result.times.values()) == {53}


def test_cy_19_13_the_caller_owns_the_stream() -> None:
    """``chance_move`` draws once from the stream it is given and keeps nothing."""
    state = at("3 AS1:a36", level="starter")
    rng, mirror = Rng(9), Rng(9)
    first, second = state.chance_move(rng), state.chance_move(rng)
    for move in (first, second):
        assert str(move) == "roll:" + ",".join(map(str, sorted(mirror.roll(2))))
    assert state.phase == "roll" and state.history == []


def test_cy_19_14_id_order_is_string_order() -> None:
    state = at("4 BH1:a52,BS1:a53,CC1:a40", level="starter")
    assert state.to_cyn().startswith("4 BH1:a52,BS1:a53,CC1:a40")
    picks = play(at("4 AH1:a52s,AS1:a53s,BS1:b52s,CC1:a40", level="starter"), "roll:6,6", "CC1-52")
    assert square(picks, "CC1") == "c52"
    picks.play("draw:fall")
    assert "fall:AH1,BS1" in legal(picks)  # BH1 before BS1, AH1 before BS1


def test_cy_19_15_done_order() -> None:
    text = "16 AC1:a100 / - / BS1:14.5,AS1:14.2,CS1:15.9 / - / -"
    assert at(text, level="starter").to_cyn() == text


def test_cy_19_16_deck_repeats_ids() -> None:
    text = "3 AS1:a36 / - / - / - / bidon,bidon,fall"
    assert at(text, level="starter").to_cyn() == text
    assert at(text, level="starter").cards_left["bidon"] == 2


def test_cy_19_17_cyn_is_the_round_as_it_began() -> None:
    state = at("5 AS1:a40s,BS1:a30", level="starter")
    assert state.due == "BS1" and state.to_cyn() == "5 AS1:a40s,BS1:a30 / - / - / - / -"


def test_cy_19_18_notation_or_illegal() -> None:
    state = at("5 AS1:a40,BS1:a30", level="starter")
    with pytest.raises(NotationError):
        state.play("GS1-5")
    with pytest.raises(IllegalMoveError, match="no rider ES1"):
        state.play("ES1-5")
    with pytest.raises(IllegalMoveError, match="rolls 2 dice"):
        state.play("roll:1,1,1")
    with pytest.raises(NotationError):
        state.play("roll:1,7")
