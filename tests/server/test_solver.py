"""A solo table's solver line (GET /api/tables/{id}/solver) against a real server."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.solver import solve
from peloton.games.mindcycling.solver.examples import C8

from .helpers import create

#: A guard against a solve that never answers (the server's own limit is 20 s).
PATIENCE = 120.0


def solver_answer(http: httpx.Client, table: str) -> dict[str, Any]:
    """Poll the table's solver until it is no longer running."""
    give_up = time.monotonic() + PATIENCE
    while True:
        answer = http.get(f"/api/tables/{table}/solver")
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        if body["status"] != "running" or time.monotonic() > give_up:
            return body
        time.sleep(0.2)


def test_a_solo_table_shows_the_proven_optimum_of_its_course(http: httpx.Client) -> None:
    table = create(http, solo=True, course=C8.to_dict(), seats=["human"])
    body = solver_answer(http, table)
    assert body["status"] == "done"
    solution = body["solution"]
    assert solution["proven"] is True
    assert solution["score"] == list(solve(C8).score or ()) == [2, 0]
    assert [r["label"] for r in solution["rounds"]] == ["setup", "round 1", "round 2"]
    # The line really plays on a fresh game to the claimed score.
    state = mc.new_solo(C8, solution["team"])
    for moves in solution["rounds"]:
        for move in moves["moves"]:
            state.play(move)
    assert state.solo_score == (2, 0)
    # Another table on the same course and rules is answered from the same solve.
    again = create(http, solo=True, course=C8.to_dict(), seats=["human"])
    assert http.get(f"/api/tables/{again}/solver").json() == body


def test_a_solo_table_on_the_bundled_solo_course_shows_its_best_line(http: httpx.Client) -> None:
    """MC-9.4: the bundled course's answer starts from its shipped line and is never
    worse; the panel gets the whole line, which plays to the score it claims, and a
    proven lower bound no better than that score."""
    shipped = Path(mc.__file__).resolve().parent / "courses" / "solo-DDSSC.line.json"
    shipped_score = mc.Record.load(shipped).replay().solo_score
    assert shipped_score is not None
    table = create(http, solo=True, course="solo", seats=["human"])
    body = solver_answer(http, table)
    assert body["status"] == "done"
    solution = body["solution"]
    assert solution["score"] is not None and tuple(solution["score"]) <= shipped_score
    assert tuple(solution["lower_bound"]) <= tuple(solution["score"])
    if solution["proven"]:
        assert solution["lower_bound"] == solution["score"]
    state = mc.new_solo("solo", solution["team"])
    for moves in solution["rounds"]:
        for move in moves["moves"]:
            state.play(move)
    assert state.solo_score == tuple(solution["score"])


def test_only_a_solo_table_has_a_solver_line(http: httpx.Client) -> None:
    race = create(http, seats=["human", "greedy"])
    answer = http.get(f"/api/tables/{race}/solver")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"
    twist = create(http, game="mind-twist", seats=["human", "random"])
    assert http.get(f"/api/tables/{twist}/solver").status_code == 400
    missing = http.get("/api/tables/nope/solver")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
