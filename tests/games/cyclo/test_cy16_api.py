"""CY-16: the Python API, the registry entry and the core protocol."""

from __future__ import annotations

import json

import pytest

from peloton.core import CHANCE, ConfigError, CourseError, GameState, Move, registry
from peloton.core.rng import Rng
from peloton.games import cyclo as cy

from .helpers import at


def test_cy_16_constructors() -> None:
    state = cy.new_game("classic", players=4, course="flemish-4", seed=7)
    assert isinstance(state, GameState) and state.game == "cyclo" and state.seed == 7
    assert state.players == ("A", "B", "C", "D") and state.round == 1 and not state.is_over
    assert cy.new_game(teams=["C", "E"]).players == ("C", "E")
    assert cy.new_game("classic", course=cy.Course.load("french-4")).setup.course.name == "french-4"
    leg = cy.from_options({"mode": "leg", "players": 3, "tokens": {"AS1": 2}})
    assert (
        leg.rider("AS1").tokens == 5
        and leg.setup.course.name == "flat-stage"
        and not leg.setup.events
    )
    assert cy.from_options({}).players == ("A", "B") and cy.from_options(
        {"teams": ["B", "D", "F"]}
    ).players == ("B", "D", "F")
    inline = cy.from_options({"course": {"name": "mine", "boards": ["A1", "E2"]}})
    assert inline.setup.finish == 60
    position = cy.from_cyn("9 AS1:a30*4,BH1:a29*4 / A*4,B*4", mode="classic", course="flemish-4")
    assert position.round == 9 and position.phase == "swap"


def test_cy_16_from_options_refuses_bad_options() -> None:
    for options, why in (
        ({"colour": "red"}, "unknown Cyclo option"),
        ({"mode": "tour"}, "unknown mode"),
        ({"level": "expert"}, "unknown level"),
        ({"players": 9}, "players"),
        ({"entries": 3}, "entries"),
        ({"entries": 2}, "entries"),
        ({"events": 1}, "events"),
        ({"course": 5}, "course"),
        ({"teams": ["A"]}, "teams"),
    ):
        with pytest.raises(ConfigError, match=why):
            cy.from_options(options)
    with pytest.raises(CourseError, match="no bundled course"):
        cy.from_options({"course": "/etc/passwd.toml"})  # never a file path
    with pytest.raises(CourseError):
        cy.from_options({"course": {"name": "x", "boards": []}})


def test_cy_16_state_queries() -> None:
    state = cy.new_game("classic", seed=1)
    assert state.current_player == CHANCE and state.phase == "roll" and state.due == "AS1"
    rider = state.rider("AS1")
    assert (rider.team, rider.type, rider.square, rider.position, rider.tokens) == (
        "A",
        "sprinter",
        "a0",
        0,
        4,
    )
    assert not (rider.skip or rider.technical or rider.hunger or rider.finished)
    assert state.team_tokens == {"A": 4, "B": 4} and sum(state.cards_left.values()) == 24
    state.play(state.chance_move(Rng(1)))
    assert state.phase == "ride" and state.current_player == "A"
    assert str(state.parse_move("AS1-5")) == "AS1-5"
    copy = state.copy()
    copy.play(copy.legal_moves()[0])
    assert copy != state and state.phase == "ride"
    assert json.loads(json.dumps(state.result.to_dict()))["over"] is False


def test_cy_16_registry() -> None:
    info = registry.get("cyclo")
    assert info.title == "Cyclo The Game" and registry.package("cyclo") == "peloton.games.cyclo"
    assert info.has_chance and not info.hidden_information and info.public_snapshot
    assert (info.min_players, info.max_players) == (1, 6)
    assert info.options is cy.OPTIONS and info.options["mode"].choices == (
        "classic",
        "leg",
        "itt",
        "ttt",
        "sprint",
        "team-sprint",
        "pursuit",
        "team-pursuit",
        "keirin",
        "scratch",
        "elimination",
        "tempo",
        "points",
    )
    assert "flemish-4" in info.options["course"].choices and info.options["level"].choices == (
        "pro",
        "starter",
    )
    assert set(cy.OPTIONS) == {
        "mode",
        "players",
        "teams",
        "course",
        "level",
        "events",
        "entries",
        "tokens",
    }
    assert {"score_moves", "rollout_move", "evaluate", "outcome"} <= set(cy.HEURISTICS)


def test_cy_16_core_protocol() -> None:
    """A fresh list of moves, each a Move of this game that parses back; views are
    independent copies; chance outcomes sum to 1 and are the legal moves."""
    state = at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4")
    moves = state.legal_moves()
    moves.clear()
    assert state.legal_moves()
    for move in state.legal_moves():
        assert isinstance(move, Move) and state.parse_move(str(move)) == move
    assert not isinstance("AS1~-", Move) and not isinstance(5, Move)
    rng = Rng(3)
    for _ in range(40):
        if state.is_over:
            break
        if state.is_chance:
            outcomes = state.chance_outcomes()
            assert [m for m, _ in outcomes] == state.legal_moves()
            assert sum(p for _, p in outcomes) == pytest.approx(1)
            state.play(state.chance_move(rng))
        else:
            state.play(state.legal_moves()[-1])
