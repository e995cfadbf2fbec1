"""GET /api/games tells the lobby how many seats each Cyclo mode takes (CY-2.1), read
from the game's declaration, so that choosing a mode narrows the seat count; a game
without such a choice declares none."""

from __future__ import annotations

import httpx

from peloton.games import cyclo as cy


def test_each_cyclo_mode_declares_its_seats(http: httpx.Client) -> None:
    listed = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    by_mode = listed["cyclo"]["seats_by"]["mode"]
    assert set(by_mode) == set(cy.AVAILABLE) == set(listed["cyclo"]["options"][0]["choices"])
    for mode, (low, high) in by_mode.items():
        assert (low, high) == cy.MODES[mode].teams
    assert by_mode["sprint"] == [2, 2] and by_mode["pursuit"] == [1, 2]
    assert by_mode["keirin"] == [2, 6] and by_mode["itt"] == [1, 6]
    for name in ("mind-cycling", "pistard", "mind-twist"):
        assert listed[name]["seats_by"] == {}
