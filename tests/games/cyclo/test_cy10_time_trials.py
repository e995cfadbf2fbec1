"""CY-10 (with CY-2.6, CY-3.1, CY-19.3, CY-19.12, CY-19.15): the time trials."""

from __future__ import annotations

import pytest

from peloton.core import ConfigError, NotationError
from peloton.games import cyclo as cy

from .helpers import at, legal, play, square


def test_cy_10_1_everyone_leaves_the_line_no_cards_no_points() -> None:
    """CY-10.1: all riders leave the start line in round 1; no event cards are drawn
    and no line scores points."""
    state = cy.new_game("itt", players=1)
    assert (
        state.setup.course.name == "prologue"
        and state.setup.finish == 20
        and not state.setup.events
    )
    assert [square(state, r) for r in ("AS1", "AC1", "AH1", "AH2")] == ["a0"] * 4  # a world each
    assert state.setup.scoring == () and state.result.points == {}
    with pytest.raises(ConfigError, match="no event cards"):
        cy.new_game("itt", events=True)
    ttt = cy.new_game("ttt", players=2)
    assert (
        ttt.setup.course.name == "ttt" and ttt.rider("BS1").square == "a0"
    )  # each team its own start
    assert ttt.rider("BC1").square == "b0"
    assert cy.new_game("itt", players=1).setup.world == {"AC1": 0, "AH1": 1, "AH2": 2, "AS1": 3}
    one = cy.new_game("ttt", players=2, level="starter")
    rides: list[str | None] = []
    while one.round == 1:
        if one.is_chance:
            one.play(one.legal_moves()[0])  # the lowest roll: 1s
        else:
            rides.append(one.due)
            one.play(one.legal_moves()[0])
    assert sorted(map(str, rides)) == sorted(one.setup.riders)  # each rode once, in round 1
    assert all((one.rider(r).position or 0) > 0 for r in one.setup.riders)  # none left on the line
    # the ttt course (A1 C1 E1) has events on 20, 38, 52 … and a sprint after 45
    cards = play(at("3 AS1:a36", "ttt", course="ttt", level="starter"), "roll:1,1", "AS1-38")
    assert cards.phase == "roll" and cards.round == 4 and square(cards, "AS1") == "a38"  # no draw
    sprint = play(at("3 AS1:a44", "itt", course="ttt", level="starter"), "roll:1,2", "AS1-47")
    assert sprint.round == 4 and sprint.position.lists == [] and sprint.result.points == {}
    assert sprint.result.mountain == {}


def test_cy_10_worlds_keep_riders_apart() -> None:
    """In an itt riders share squares and never follow or swap; in a ttt only teammates."""
    itt = at("3 AS1:a10*4,BH1:a9*4,BS1:a10*4 / A*4,B*4", "itt", course="ttt")
    assert itt.phase == "roll"  # no swap partner: everyone rides alone
    play(itt, "roll:1,1", "AS1-12", "roll:1,1", "BS1-12")
    assert (
        square(itt, "BS1") == "a12" and itt.due == "BH1"
    )  # same square, other worlds; no wheel for BH1
    ttt = at("3 AS1:a10*4,BH1:a9*4,BS1:a10*4 / A*4,B*4", "ttt", course="ttt")
    assert ttt.due == "AS1" and ttt.phase == "roll"  # BS1 and BH1 ride in another world
    play(ttt, "roll:1,1", "AS1-12")
    assert ttt.due == "BS1" and ttt.phase == "swap" and legal(ttt) == {"BS1~-", "BS1~BH1"}


def test_cy_19_3_timed_order_every_round() -> None:
    state = at("5 AH1:a30,AS1:a20,BC1:a40,BS1:a40", "itt", course="ttt", level="starter")
    assert state.position.order == [
        "AH1",
        "AS1",
        "BS1",
        "BC1",
    ]  # team by team, then position, then rider order


def test_cy_10_2_times() -> None:
    state = at("6 AC1:a80,AS1:a88 / - / BS1:5.3=47", "itt", course="ttt", level="starter")
    play(state, "roll:1,1,2", "AS1-#2", "roll:1,1", "AC1-82")
    assert state.to_cyn() == "7 AC1:a82 / - / BS1:5.3=47,AS1:6.2=58 / - / -"
    with pytest.raises(NotationError, match="its time is 47, not 50"):
        at("6 AC1:a80 / - / BS1:5.3=50", "itt", course="ttt", level="starter")
    with pytest.raises(NotationError, match="required in the timed modes"):
        at("6 AC1:a80 / - / BS1:5.3", "itt", course="ttt", level="starter")


def test_cy_18_8_team_time_trial() -> None:
    """A's riders finish in round 6 on #2 (58), round 7 on #9 (61) and #7 (63), round 8
    on #3 (77): team time 63, every rider's time 63 (CY-10.3, CY-19.12)."""
    state = at("6 AC1:a85,AH1:a84,AH2:a78,AS1:a88", "ttt", course="ttt", level="starter")
    play(
        state,
        "roll:1,1,2",
        "AS1-#2",
        "roll:1,1",
        "AC1-87",
        "roll:1,1",
        "AH1-86",
        "roll:1,1",
        "AH2-80",
    )
    assert state.result.times == {"AS1": 58} and state.result.team_times == {}  # its own, for now
    play(state, "roll:6,6", "AC1-#9", "roll:5,6", "AH1-#7", "roll:1,1", "AH2-82")
    assert state.result.team_times == {"A": 63} and state.result.times == {
        "AS1": 63,
        "AC1": 63,
        "AH1": 63,
    }
    play(state, "roll:5,6", "AH2-#3")
    result = state.result
    assert result.over and result.times == dict.fromkeys(("AS1", "AC1", "AH1", "AH2"), 63)
    assert result.team_times == {"A": 63} and result.winner is None and result.winner_team == "A"


def test_cy_10_3_the_team_time() -> None:
    """Own times until three riders are in; then the third best is everyone's, the
    fourth rider's too; a team with no team time ranks after those with one."""
    state = at(
        "6 AC1:a84,AH1:b84,AH2:a80,AS1:a89,BC1:a84,BS1:a89", "ttt", course="ttt", level="starter"
    )
    play(
        state,
        "roll:1,1,1",
        "AS1-#2",
        "roll:1,2",
        "AC1-87",
        "roll:1,1",
        "AH1-86",
        "roll:1,1",
        "AH2-82",
    )
    play(state, "roll:1,1,1", "BS1-#2", "roll:6,6", "BC1-#6")
    assert state.result.times == {"AS1": 58, "BS1": 58, "BC1": 54} and state.result.team_times == {}
    play(state, "roll:6,6", "AC1-#9", "roll:6,6", "AH1-#8", "roll:1,1", "AH2-84")
    assert state.result.team_times == {"A": 62}
    assert state.result.times == {"AS1": 62, "AC1": 62, "AH1": 62, "BS1": 58, "BC1": 54}
    play(state, "roll:6,6", "AH2-#6")
    result = state.result
    assert result.over and result.times["AH2"] == 62 and result.teams == ("A", "B")
    assert result.places == (
        "BC1",
        "BS1",
        "AS1",
        "AC1",
        "AH1",
        "AH2",
    )  # ties: seat, then S1, C1, H1, H2
    assert result.winner is None and result.winner_team == "A"


def test_cy_10_4_places_and_teams() -> None:
    """Places by time, ties by seat then rider order; teams by team time, ties by seat."""
    state = at("6 AC1:a88,AS1:a89,BS1:a88", "itt", course="ttt", level="starter")
    play(state, "roll:1,1,1", "AS1-#2", "roll:1,3", "AC1-#2", "roll:1,1,2", "BS1-#2")
    result = state.result
    assert result.places == ("AS1", "AC1", "BS1") and result.times == {
        "AS1": 58,
        "AC1": 58,
        "BS1": 58,
    }
    assert result.winner == "AS1" and result.teams == ("A", "B")
    teams = at(
        "6 AC1:a88,AH1:b88,AS1:a89,BC1:a88,BH1:b88,BS1:a89", "ttt", course="ttt", level="starter"
    )
    for team in "AB":
        play(
            teams,
            "roll:1,1,1",
            f"{team}S1-#2",
            "roll:1,3",
            f"{team}C1-#2",
            "roll:1,3",
            f"{team}H1-#2",
        )
    assert teams.is_over and teams.result.team_times == {"A": 58, "B": 58}
    assert teams.result.teams == ("A", "B") and teams.result.winner is None
