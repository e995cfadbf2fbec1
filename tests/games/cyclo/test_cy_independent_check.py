"""Scenarios from the independent check of the engine against the reference model
(``model.py``, ``test_model.py``): each failed before the engine was changed. Where the
specification leaves the point open, the reading chosen is a decision of docs/cyclo.md."""

from __future__ import annotations

import pytest

from peloton.core.errors import NotationError
from peloton.games import cyclo as cy

from .helpers import play


def test_cy_8_2_time_trial_riders_tied_on_a_run_out_square_rank_by_seat_then_rider_order() -> None:
    """In a time trial riders of different worlds may stand on one run-out square: the
    finishing order (DONE) then goes by seat and S1, C1, H1, H2, as places do (CY-10.4),
    not by who arrived first. prologue: N = 20, all last km."""
    state = cy.from_cyn("5 AS1:a1,BC1:a19,BS1:a18", "itt", course="prologue", level="starter")
    play(state, "roll:1,1,1", "AS1-4", "roll:3,4", "BC1-#6", "roll:2,3,3", "BS1-#6")
    assert state.to_cyn() == "6 AS1:a4 / - / BS1:5.6=44,BC1:5.6=44 / - / -"
    assert state.result.places[:2] == ("BS1", "BC1")


def test_cy_10_4_teams_without_a_team_time_rank_by_their_best_rider() -> None:
    """A team time trial team with fewer than three riders in has no team time: it ranks
    after the teams that have one, and among such teams by its best rider (as CY-8.6
    ranks teams in the other modes), not by seat."""
    state = cy.from_cyn("5 AS1:a12,BS1:a19", "ttt", course="prologue", level="starter")
    play(state, "roll:1,1,1", "AS1-15", "roll:3,3,4", "BS1-#9", "roll:6,6,6", "AS1-#9")
    result = state.result
    assert result.over and result.team_times == {}
    assert result.places == ("BS1", "AS1") and result.times == {"BS1": 41, "AS1": 51}
    assert result.teams == ("B", "A") and result.winner_team == "B"


def test_cy_17_lines_out_of_line_order_are_not_canonical() -> None:
    """CY-14.2, CY-17: LINES lists the scoring lines in course order; written otherwise
    it is a non-canonical CYN, refused like riders or team tokens out of order.
    flat-stage scores the sprints after 50 and 75."""
    good = "5 AS1:a80,BS1:a79 / - / - / 1=AS1+BS1,2=BS1+AS1 / -"
    assert cy.from_cyn(good, "leg", course="flat-stage").to_cyn() == good
    with pytest.raises(NotationError, match="line order"):
        cy.from_cyn("5 AS1:a80,BS1:a79 / - / - / 2=BS1+AS1,1=AS1+BS1", "leg", course="flat-stage")


def test_cy_8_6_result_while_a_finisher_waits_on_the_run_out() -> None:
    """CY-8.3: a finisher stays on the run-out until the end of the round, listed only
    then. Meanwhile the result (and the table's snapshot, which carries it) is the
    standing so far: the listed finishers, then the riders on the run-out furthest
    first, then those still racing. It raised KeyError."""
    state = cy.from_cyn("5 AH1:a117,AS1:a119,BS1:a100", "leg", course="flemish-4", level="starter")
    play(state, "roll:1,1,1", "AS1-#2", "roll:2,4", "AH1-#3")
    result = state.result
    assert state.rider("AS1").finished and not result.over
    assert result.places == ("AH1", "AS1", "BS1") and result.teams == ("A", "B")
    assert result.times == {} and result.points == {"AH1": 0, "AS1": 0, "BS1": 0}
    assert cy.snapshot(state, "A")["result"]["places"] == ["AH1", "AS1", "BS1"]
    timed = cy.from_cyn("5 AS1:a19,BS1:a10", "itt", course="prologue", level="starter")
    play(timed, "roll:1,1,1", "AS1-#2")
    assert timed.result.places == ("AS1", "BS1") and timed.result.times == {}
