"""CY-2: modes, teams, levels, tokens, the start and worlds."""

from __future__ import annotations

import pytest

from peloton.core import ConfigError
from peloton.games import cyclo as cy
from peloton.games.cyclo.modes import ONE_WORLD, WORLD_PER_RIDER, WORLD_PER_TEAM

from .helpers import at, legal, play, square


def test_cy_2_1_modes_and_players() -> None:
    """CY-2.1: classic and leg 2-6 teams of 4, itt and ttt 1-6 of 4; the track modes
    teams and riders a team (their players are checked in test_cy11_track.py)."""
    for mode, low in (("classic", 2), ("leg", 2), ("itt", 1), ("ttt", 1)):
        for n in range(low, 7):
            state = cy.new_game(mode, players=n)
            assert len(state.players) == n and len(state.setup.riders) == 4 * n
        for bad in (low - 1, 7, "2", True):
            with pytest.raises(ConfigError, match="players"):
                cy.new_game(mode, players=bad)  # type: ignore[arg-type]
    table = {name: (m.teams, m.riders) for name, m in cy.MODES.items()}
    assert table == {
        "classic": ((2, 6), 4),
        "leg": ((2, 6), 4),
        "itt": ((1, 6), 4),
        "ttt": ((1, 6), 4),
        "sprint": ((2, 2), 1),
        "team-sprint": ((1, 2), 3),
        "pursuit": ((1, 2), 1),
        "team-pursuit": ((1, 2), 4),
        "keirin": ((2, 6), None),
        "scratch": ((2, 6), None),
        "elimination": ((2, 6), None),
        "tempo": ((2, 6), None),
        "points": ((2, 6), None),
    }
    assert tuple(cy.MODES) == cy.AVAILABLE  # every mode plays, the track events too
    with pytest.raises(ConfigError, match="unknown mode"):
        cy.new_game("criterium")


def test_cy_2_2_teams_and_rider_ids() -> None:
    state = cy.new_game("classic", teams=["C", "E"])
    assert state.players == ("C", "E") and state.setup.riders[:2] == ("CS1", "ES1")
    assert sorted(state.setup.riders) == ["CC1", "CH1", "CH2", "CS1", "EC1", "EH1", "EH2", "ES1"]
    assert state.current_player == "chance" and state.due == "CS1"
    assert cy.new_game("classic", players=3).players == ("A", "B", "C")
    assert state.rider("CC1").type == "climber" and state.rider("EH2").type == "helper"
    for bad in (["E", "C"], ["C", "C"], ["G", "A"], "CE", ["C"]):
        with pytest.raises(ConfigError, match="teams"):
            cy.new_game("classic", teams=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="'players' is 3"):
        cy.new_game("classic", players=3, teams=["A", "B"])


def test_cy_2_3_starter_has_no_tokens_wheel_holding_back_or_swap() -> None:
    """CY-2.3: level ``pro`` by default; ``starter`` has no tokens, wheel, holding back
    or swap, and its own card effects."""
    pro = cy.new_game("classic")
    assert (
        pro.setup.level == "pro"
        and pro.rider("AS1").tokens == 4
        and pro.team_tokens == {"A": 4, "B": 4}
    )
    state = cy.new_game("classic", level="starter")
    assert state.team_tokens == {"A": 0, "B": 0} and state.rider("AS1").tokens == 0
    state.play("roll:1,2")
    assert legal(state) == {"AS1-3"}  # no holding back, no token
    swap = at("9 AS1:a30,BH1:a29", level="starter")
    assert swap.phase == "roll"  # no window
    wheel = play(at("8 AH1:a54,BC1:a55", level="starter"), "roll:4,5", "BC1-64")
    assert wheel.phase == "roll" and wheel.due == "AH1"  # nobody asked to follow
    recovery = play(at("4 AS1:a36", level="starter"), "roll:1,1", "AS1-38", "draw:recovery")
    assert (
        square(recovery, "AS1") == "a44" and recovery.rider("AS1").tokens == 0
    )  # starter: forward 6
    with pytest.raises(ConfigError, match="unknown level"):
        cy.new_game("classic", level="amateur")


def test_cy_2_4_tokens() -> None:
    """min(5, B + saved) own tokens, min(5, B) team tokens; never more than 5."""
    four = cy.new_game("classic", course="flemish-4", tokens={"AS1": 2, "BC1": 0})
    assert (
        four.rider("AS1").tokens == 5
        and four.rider("BC1").tokens == 4
        and four.rider("AC1").tokens == 4
    )
    assert four.team_tokens == {"A": 4, "B": 4}
    five = cy.new_game("leg", course="mountain-stage", tokens={"AS1": 5})
    assert (
        five.rider("AS1").tokens == 5
        and five.rider("AH1").tokens == 5
        and five.team_tokens["A"] == 5
    )
    short = cy.new_game(
        "classic", course={"name": "short", "boards": ["A1", "E1"]}, tokens={"AS1": 1}
    )
    assert (
        short.rider("AS1").tokens == 3
        and short.rider("AC1").tokens == 2
        and short.team_tokens["B"] == 2
    )
    for tokens, why in (
        ({"GS1": 1}, "not a rider"),
        ({"AS1": 6}, "0 to 5"),
        ({"AS1": -1}, "0 to 5"),
        ({"AS1": True}, "0 to 5"),
        (["AS1"], "must map"),
    ):
        with pytest.raises(ConfigError, match=why):
            cy.new_game("classic", tokens=tokens)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="Starter has no tokens"):
        cy.new_game("classic", level="starter", tokens={"AS1": 1})
    full = play(at("4 AS1:a36*5 / A*4"), "roll:1,1", "AS1-38", "draw:recovery")
    assert full.rider("AS1").tokens == 5  # a rider holding 5 gets none
    some = play(at("4 AS1:a36*3 / A*4"), "roll:1,1", "AS1-38", "draw:recovery")
    assert some.rider("AS1").tokens == 4


def test_cy_2_5_start_line() -> None:
    state = cy.new_game("classic", players=3)
    order = ["AS1", "BS1", "CS1", "AC1", "BC1", "CC1", "AH1", "BH1", "CH1", "AH2", "BH2", "CH2"]
    assert [state.rider(r).square for r in order] == [f"{lane}0" for lane in "abcdefghijkl"]
    assert state.to_cyn().startswith("1 AC1:d0*4,AH1:g0*4,AH2:j0*4,AS1:a0*4,")
    # they leave it by the rides of round 1, landing as far left as possible (CY-4.5)
    state.play("roll:2,3")
    state.play("AS1-5")
    assert state.rider("AS1").square == "a5"


def test_cy_2_6_worlds() -> None:
    worlds = {name: m.worlds for name, m in cy.MODES.items()}
    assert worlds["classic"] == worlds["leg"] == worlds["keirin"] == ONE_WORLD
    assert worlds["itt"] == worlds["pursuit"] == WORLD_PER_RIDER
    assert worlds["ttt"] == worlds["team-sprint"] == worlds["team-pursuit"] == WORLD_PER_TEAM
    state = cy.new_game("classic", players=4)
    assert set(state.setup.world.values()) == {0}
