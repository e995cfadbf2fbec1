"""Issue 32, point 7: a move at an abandoned table (every player left) is answered
``game_over``, as docs/protocol.md says of a table that has ended ("Error codes"), not
``not_started``, which tells a player to wait for free seats that will never fill.
Over the socket of a real ``peloton serve`` (SQLite and PostgreSQL), also once the
table comes back from a restart. (Moves follow MC-3.1: the teams place their riders
in turn.)"""

from __future__ import annotations

import random

import httpx

from .clock_support import TWO_HUMANS
from .helpers import WS, Server, create, join, random_move


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_move_at_an_abandoned_table_is_game_over(
    db_url: str, server: Server, http: httpx.Client
) -> None:
    table_id = create(http, **TWO_HUMANS, standin="greedy")
    a, b = join(http, table_id, "A"), join(http, table_id, "B")
    ws = WS(server, table_id)
    try:
        snapshot = ws.hello(a)["snapshot"]
        move = random_move(snapshot, random.Random(7))
        for token in (a, b):
            answer = http.post(f"/api/tables/{table_id}/leave", headers=bearer(token))
            assert answer.status_code == 200, answer.text
        assert answer.json()["table"]["status"] == "abandoned"
        ws.drain()  # the welcomes that said each seat changed hands
        error = ws.error({"type": "move", "move": move})
        assert error["code"] == "game_over", error
        assert "abandoned" in error["message"]
    finally:
        ws.close()
    moves = http.get(f"/api/tables/{table_id}").json()["moves"]

    restarted = Server(db_url).start()
    try:
        again = WS(restarted, table_id)
        try:
            again.hello(b)
            error = again.error({"type": "move", "move": move})
            assert error["code"] == "game_over", error
        finally:
            again.close()
        with restarted.http() as other:
            detail = other.get(f"/api/tables/{table_id}").json()
        assert detail["status"] == "abandoned" and detail["moves"] == moves, "nothing played"
    finally:
        restarted.stop()
