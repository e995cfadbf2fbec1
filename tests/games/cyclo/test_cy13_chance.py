"""CY-13: rolls and draws as chance steps; the deck and what is public."""

from __future__ import annotations

import pytest

from peloton.core import CHANCE, StateError, registry
from peloton.core.rng import Rng
from peloton.games import cyclo as cy

from .helpers import at, play


def test_cy_13_1_chance_steps_list_every_outcome() -> None:
    state = at("3 AS1:a36,BS1:a110", level="starter")
    assert state.is_chance and state.current_player == CHANCE and state.due == "BS1"
    assert len(state.legal_moves()) == 56
    outcomes = state.chance_outcomes()
    assert [m for m, _ in outcomes] == state.legal_moves() and sum(
        p for _, p in outcomes
    ) == pytest.approx(1)
    assert dict((str(m), p) for m, p in outcomes)["roll:1,2,3"] == pytest.approx(6 / 216)
    play(state, "roll:1,1,1", "BS1-113", "roll:1,1", "AS1-38")
    assert state.phase == "draw" and state.current_player == CHANCE and state.due == "AS1"
    assert [str(m) for m in state.legal_moves()] == [f"draw:{c.id}" for c in cy.CARDS]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx(
        [c.count / 24 for c in cy.CARDS]
    )
    state.play("draw:moto")
    state.play("roll:1,1,1")
    assert state.phase == "ride" and not state.is_chance
    with pytest.raises(StateError):
        state.chance_outcomes()
    with pytest.raises(StateError):
        state.chance_move(Rng(1))
    less = at("3 AS1:a36 / - / - / - / moto,moto", level="starter")
    play(less, "roll:1,1", "AS1-38")
    assert "draw:moto" not in {str(m) for m in less.legal_moves()} and len(less.legal_moves()) == 7


def test_cy_13_2_chance_move_draws_from_the_callers_stream() -> None:
    state = at("3 AS1:a36,BS1:a110", level="starter")
    before = state.copy()
    rng, mirror = Rng(5), Rng(5)
    move = state.chance_move(rng)
    assert state == before  # no state changed (CY-19.13)
    assert str(move) == "roll:" + ",".join(map(str, sorted(mirror.roll(3))))
    play(state, "roll:1,1,1", "BS1-113", "roll:1,1", "AS1-38")
    left = [c.id for c in cy.CARDS for _ in range(c.count)]
    assert str(state.chance_move(rng)) == "draw:" + mirror.choice(left)


def test_cy_13_3_the_deck_order_is_nowhere() -> None:
    """CY-13.3: a draw is uniform among the cards left: two states that drew the same
    cards are equal, whatever the seed; the undrawn order is stored nowhere; all else
    is public: Cyclo registers without hidden information, views are independent
    copies of everything and every viewer gets the full record."""
    a = play(at("3 AS1:a36 / - / - / - / fall", level="starter"), "roll:1,1", "AS1-38")
    b = play(at("3 AS1:a36 / - / - / - / fall", level="starter"), "roll:1,1", "AS1-38")
    assert a == b and a.chance_outcomes() == b.chance_outcomes()
    view = a.view("A")
    assert view == a and view is not a
    view.play("draw:moto")
    assert a.phase == "draw"
    assert not any(
        "order" in name or "shuffle" in name for name in a.position.__slots__ if name != "order"
    )
    seeded = [
        play(
            at("3 AS1:a36,BS1:a30", level="starter", seed=seed),
            "roll:1,1",
            "AS1-38",
            "draw:moto",
            "roll:4,4",
            "BS1-38",
        )
        for seed in (1, 2)
    ]
    assert seeded[0].phase == "draw" and seeded[0].seed != seeded[1].seed
    assert seeded[0] == seeded[1] and seeded[0].chance_outcomes() == seeded[1].chance_outcomes()
    assert registry.get("cyclo").hidden_information is False
    drew = play(at("3 AS1:a36", level="starter"), "roll:1,1", "AS1-38", "draw:moto")
    assert drew.cards_left["moto"] == 1 and drew.to_cyn().endswith(
        " / moto"
    )  # cards drawn are public
    assert cy.snapshot(drew, "A") == cy.snapshot(drew, "B") == cy.snapshot(drew, None)
    record = cy.Record.from_state(drew)
    assert record.to_dict("A") == record.to_dict("B") == record.to_dict(None)
    assert "draw:moto" in record.to_dict("B")["moves"]
