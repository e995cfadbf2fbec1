"""The JSON snapshot for clients and the public move list."""

from __future__ import annotations

import json

from peloton.games import cyclo as cy

from .helpers import at, play


def test_snapshot_is_json_and_the_same_for_every_viewer() -> None:
    state = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:4,5", "BC1-64")
    data = cy.snapshot(state, "A")
    assert json.loads(json.dumps(data)) == data
    assert cy.snapshot(state, "B") == data == cy.snapshot(state, None)
    assert data["phase"] == "wheel" and data["current_player"] == "A" and data["leader"] == "BC1"
    assert data["legal"] == ["AH1>BC1", "AH1>-"] and data["dice"] == [4, 5]
    assert data["team_tokens"] == {"A": 4, "B": 4} and data["course"]["length"] == 120
    assert data["course"]["spaces"][64]["dark"] and data["course"]["spaces"][66]["event"]  # 65, 67
    assert data["course"]["lines"][-1] == {
        "after": 120,
        "kind": "finish",
        "category": None,
        "scores": True,
    }
    riders = {r["id"]: r for r in data["riders"]}
    assert riders["BC1"]["square"] == "a64" and riders["AH1"]["due"] and riders["BC1"]["turn_over"]
    assert data["result"]["over"] is False and data["last_moves"][-1] == "BC1-64"


def test_public_moves_are_every_move() -> None:
    state = play(at("8 AH1:a54*4,BC1:a55*4 / A*4,B*4"), "BC1~-", "roll:4,5")
    assert cy.public_moves(state, "B") == ["BC1~-", "roll:4,5"] == cy.public_moves(state)
    assert cy.snapshot(state)["legal"][0].startswith("BC1-")
    play(state, "BC1-56", "AH1>-")
    assert (
        cy.snapshot(state)["legal"] == [] and cy.snapshot(state)["is_chance"]
    )  # a roll: chance acts
