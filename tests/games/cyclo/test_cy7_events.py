"""CY-7: the event deck, draws, every card's effect at both levels, the fall."""

from __future__ import annotations

from typing import Any

import pytest

from peloton.core import ConfigError
from peloton.games import cyclo as cy

from .helpers import at, legal, play, square

#: Event spaces on every kind of road: 10 (flat), 13 (cobbles), 23 (slope), 27 (climb),
#: 33 (last km); dark squares nowhere.
#: Event spaces 10, 11 and 12 on flat road.
PAIR: dict[str, Any] = {
    "name": "pair",
    "boards": [{"name": "P", "runs": [["flat", 30, 3]], "events": [10, 11, 12], "finish": True}],
}
MARKS: dict[str, Any] = {
    "name": "marks",
    "boards": [
        "A1",
        {
            "name": "M",
            "runs": [["flat", 10, 3], ["cobbles", 10, 2], ["slope", 5, 2], ["climb", 5, 2]],
            "events": [10, 13, 23, 27],
        },
        {"name": "L", "runs": [["lastkm", 30, 3]], "events": [3], "finish": True},
    ],
}


def drawn(
    card: str, text: str, moves: tuple[str, ...], mode: str = "classic", **options: Any
) -> cy.State:
    """The state after ``moves`` from ``text`` and a draw of ``card``."""
    options.setdefault("course", MARKS)
    state = play(at(text, mode, **options), *moves)
    assert state.phase == "draw", state.phase
    state.play(f"draw:{card}")
    return state


def test_cy_7_1_the_deck_and_its_use() -> None:
    assert [(c.id, c.count) for c in cy.CARDS] == [
        ("recovery", 3),
        ("bidon", 4),
        ("cars", 3),
        ("moto", 2),
        ("hunger", 3),
        ("puncture", 4),
        ("technical", 3),
        ("fall", 2),
    ]
    assert cy.new_game("classic").setup.events and not cy.new_game("leg").setup.events
    assert cy.new_game("leg", events=True).setup.events
    assert [m for m, mode in cy.MODES.items() if mode.cards] == ["classic", "leg"]
    with pytest.raises(ConfigError, match="events"):
        cy.new_game("classic", events="yes")  # type: ignore[arg-type]
    assert cy.new_game("classic").cards_left == {c.id: c.count for c in cy.CARDS}


def test_cy_7_1_limits_discard_a_card() -> None:
    """Drawn where its limit says, a card does nothing."""
    moto = drawn("moto", "3 AC1:a56", ("roll:1", "AC1-57"))  # 57 = M's 27, a climb
    assert square(moto, "AC1") == "a57" and moto.phase == "roll"
    bidon = drawn("bidon", "3 AS1:a41", ("roll:1,1", "AS1-43"))  # cobbles
    assert square(bidon, "AS1") == "a43"
    cars = drawn("cars", "3 AS1:a52,BS1:a55s", ("roll:1", "AS1-53"), level="starter")  # slope
    assert square(cars, "AS1") == "a53"
    technical = drawn("technical", "3 AS1:a60", ("roll:3", "AS1-63"))  # last km
    assert not technical.rider("AS1").technical
    recovery = drawn(
        "recovery", "3 AS1:a18", ("roll:1,1", "AS1-20"), level="starter", course="flemish-4"
    )
    assert square(recovery, "AS1") == "a20"  # on board A1


def test_cy_7_2_who_draws() -> None:
    """A ride or a wheel ending on an event space, having changed space; nothing else."""
    assert play(at("3 AS1:a36", level="starter"), "roll:1,1", "AS1-38").phase == "draw"
    assert (
        play(at("3 AS1:a36", level="starter", events=False), "roll:1,1", "AS1-38").phase == "roll"
    )
    one_lane: dict[str, Any] = {
        "name": "one",
        "boards": [{"name": "N", "runs": [["flat", 30, 1]], "events": [5], "finish": True}],
    }
    stay = play(
        at("3 AS1:a5,BS1:a6s,CS1:a7s", course=one_lane, level="starter"), "roll:1,1", "AS1-7"
    )
    assert stay.phase == "roll" and square(stay, "AS1") == "a5"  # no room: it stays, no draw
    card = drawn("bidon", "3 AS1:a8", ("roll:1,1", "AS1-10"), course=PAIR, level="starter")
    assert (
        square(card, "AS1") == "a12" and card.phase == "roll"
    )  # 12 is an event: card moves never draw
    wheel = play(at("3 AH1:a36*4,BS1:a37*4 / A*4,B*4"), "BS1~-", "roll:1,1", "BS1-39", "AH1>BS1")
    assert wheel.phase == "draw" and wheel.due == "AH1"


def test_cy_7_3_two_draws_in_order() -> None:
    """CY-7.3: after the wheel step the rider whose turn it was draws first, then its
    follower; each card is resolved at once (BS1's puncture before AH1's draw)."""
    state = play(
        at("3 AH1:a7*4,BS1:a8*4 / A*4,B*4", course=PAIR), "BS1~-", "roll:1,3", "BS1-12", "AH1>BS1"
    )
    assert square(state, "AH1") == "a11" and state.phase == "draw" and state.due == "BS1"
    state.play("draw:puncture")
    assert state.phase == "draw" and state.due == "AH1"
    state.play("draw:technical")
    assert (
        state.rider("AH1").technical and state.round == 4 and state.due == "AH1"
    )  # BS1 lost its turn
    assert state.to_cyn() == "4 AH1:a11*4x,BS1:a12*4s / A*4,B*4 / - / - / puncture,technical"


def test_cy_7_4_effects_pro() -> None:
    """CY-7.4 (pro): recovery +1 own token; hunger an own token, else a team token, else
    nothing; moto and bidon forward 4 and 2; puncture the skip flag; technical its flag."""
    recovery = drawn("recovery", "3 AS1:a36*2 / A*1", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert recovery.rider("AS1").tokens == 3
    hunger = drawn("hunger", "3 AS1:a36*2 / A*1", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert hunger.rider("AS1").tokens == 1 and hunger.team_tokens["A"] == 1
    team = drawn("hunger", "3 AS1:a36 / A*1", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert team.team_tokens["A"] == 0
    nothing = drawn("hunger", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert nothing.team_tokens["A"] == 0 and nothing.rider("AS1").tokens == 0
    moto = drawn("moto", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert square(moto, "AS1") == "a42"
    bidon = drawn("bidon", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert square(bidon, "AS1") == "a40"
    puncture = drawn("puncture", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert puncture.round == 5 and puncture.to_cyn().startswith("5 AS1:a38 ")  # round 4 lost
    technical = drawn("technical", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4")
    assert technical.rider("AS1").technical


def test_cy_7_4_effects_starter() -> None:
    """CY-7.4 (starter): recovery forward 6; hunger 2 rides with 1 die, a ride uses one
    up; a puncture loses the next turn."""
    recovery = drawn(
        "recovery", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4", level="starter"
    )
    assert square(recovery, "AS1") == "a44"
    hunger = drawn(
        "hunger", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4", level="starter"
    )
    assert hunger.rider("AS1").hunger == 2
    again = drawn(
        "hunger", "3 AS1:a35h2", ("roll:3", "AS1-38"), course="flemish-4", level="starter"
    )
    assert (
        again.rider("AS1").hunger == 1
    )  # the ride used one; a flag still set is not renewed (CY-19.8)
    twice = drawn(
        "puncture", "3 AS1:a36", ("roll:1,1", "AS1-38"), course="flemish-4", level="starter"
    )
    assert twice.round == 5


def test_cy_7_4_cars() -> None:
    """CY-7.4: ``cars`` goes to the back of the nearest group ahead, at most 8 forward;
    nobody ahead: nothing."""
    near = drawn(
        "cars",
        "3 AS1:a36,BC1:b45s,BS1:a45s,CS1:a50s",
        ("roll:1,1", "AS1-38"),
        course="flemish-4",
        level="starter",
    )
    assert square(near, "AS1") == "c45"
    far = drawn(
        "cars", "3 AS1:a36,BS1:a55s", ("roll:1,1", "AS1-38"), course="flemish-4", level="starter"
    )
    assert square(far, "AS1") == "a46"  # 8 towards BS1
    alone = drawn(
        "cars", "3 AS1:a36,BS1:a30", ("roll:1,1", "AS1-38"), course="flemish-4", level="starter"
    )
    assert square(alone, "AS1") == "a38"
    full = drawn(
        "cars",
        "3 AS1:a36,BC1:b45s,BH1:c45s,BS1:a45s",
        ("roll:1,1", "AS1-38"),
        course="flemish-4",
        level="starter",
    )
    assert square(full, "AS1") == "a44"  # 45 is full: it lands behind the group


def test_cy_7_4_card_moves_count_lines_and_the_finish() -> None:
    """CY-7.4: a card's forward move counts for lines and the finish (the furthest
    past the line wins, though it crossed last); a ride uses up the technical flag."""
    lines: dict[str, Any] = {
        "name": "lines",
        "boards": [
            {
                "name": "Q",
                "runs": [["flat", 30, 3]],
                "events": [10, 28],
                "lines": [[12, "sprint"]],
                "finish": True,
            }
        ],
    }
    sprint = drawn(
        "moto",
        "3 AS1:a8",
        ("roll:1,1", "AS1-10"),
        "leg",
        course=lines,
        level="starter",
        events=True,
    )
    assert square(sprint, "AS1") == "a14" and sprint.round == 4  # 10 + 4, over the line after 12
    assert sprint.position.lists[0] == ["AS1"] and sprint.result.points["AS1"] == 5
    finish = play(
        at("3 AS1:a26,BS1:a29", course=lines, level="starter"),
        "roll:1,1",
        "BS1-#1",
        "roll:1,1",
        "AS1-28",
    )
    finish.play("draw:moto")  # 28 + 4 = 32: two past the finish line after 30
    assert finish.is_over and finish.position.finishers == [("AS1", 3, 2), ("BS1", 3, 1)]
    assert finish.result.places == ("AS1", "BS1")  # the furthest past the line wins
    technical = play(at("3 AS1:a36x", level="starter"), "roll:2", "AS1-38")
    assert not technical.rider("AS1").technical  # the ride used it up (with one die fewer)


def test_cy_7_5_fall_picks() -> None:
    state = drawn(
        "fall",
        "3 AC1:a39s,AH1:a36,AH2:a40s,AS1:a42s,BS1:b38s,CS1:a37s",
        ("roll:1,1", "AH1-38"),
        course="flemish-4",
        level="starter",
    )
    assert state.phase == "fall" and state.current_player == "A" and state.due == "AH1"
    assert legal(state) == {
        "fall:-",
        "fall:AC1",
        "fall:AH2",
        "fall:BS1",
        "fall:AC1,AH2",
        "fall:AC1,BS1",
        "fall:AH2,BS1",
    }  # AS1 is 4 ahead; CS1 is a rival off 38
    state.play("fall:AC1,BS1")
    assert all(state.rider(r).skip for r in ("AH1", "AC1", "BS1")) and state.phase == "roll"


def test_cy_7_6_reshuffle() -> None:
    deck = (
        "recovery," * 3
        + "bidon," * 4
        + "cars," * 3
        + "moto," * 2
        + "hunger," * 3
        + "puncture," * 4
        + "technical," * 3
        + "fall," * 2
    ).rstrip(",")
    state = at(f"3 AS1:a36 / - / - / - / {deck}", level="starter")
    assert state.cards_left == dict.fromkeys(state.cards_left, 0)
    state.play("roll:1,1")
    state.play("AS1-38")
    assert len(state.legal_moves()) == 8 and state.chance_outcomes()[0][1] == pytest.approx(3 / 24)
    state.play("draw:moto")
    assert state.cards_left["moto"] == 1 and sum(state.cards_left.values()) == 23
