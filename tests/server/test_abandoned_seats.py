"""Issue 18, abandoned seats, on a real ``peloton serve`` (SQLite and PostgreSQL): a
player who leaves (``POST .../leave``) hands their seat to the table's stand-in bot,
which plays on at once; the seat says so on every screen and in the lobby; the player
takes it back with their seat token (``POST .../reclaim``) and moves again. A table
whose every player left ends as ``abandoned``. Every refusal is clear and changes
nothing: a wrong or absent token, a seat never held, leaving twice, a move from a
seat the bot now plays. (Moves follow MC-3.1: the two teams of Mind Cycling place
their riders in turn.)"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx

from .clock_support import TWO_HUMANS, HandClock, seated, served
from .helpers import WS, Server, create, join, random_move

GREEDY = {**TWO_HUMANS, "standin": "greedy"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seats_of(http: httpx.Client, table_id: str) -> dict[str, dict[str, Any]]:
    return {s["seat"]: s for s in http.get(f"/api/tables/{table_id}").json()["seats"]}


def until_turn(ws: WS, seat: str) -> dict[str, Any]:
    """Read ``ws`` until a message says it is ``seat``'s turn; that message."""
    while True:
        message = ws.recv()
        snap = message.get("snapshot")
        if snap is not None and snap.get("current_player") == seat:
            return message


def test_leave_the_bot_plays_then_the_player_takes_the_seat_back(
    server: Server, http: httpx.Client
) -> None:
    rng = random.Random(18)
    table_id = create(http, **GREEDY)
    a, b = join(http, table_id, "A"), join(http, table_id, "B")
    ws_a, ws_b = WS(server, table_id), WS(server, table_id)
    try:
        snap = ws_a.hello(a)["snapshot"]
        ws_b.hello(b)
        ws_a.send({"type": "move", "move": random_move(snap, rng)})
        ws_a.expect("update")
        ws_b.expect("update")  # B's turn now: B leaves instead of moving
        answer = http.post(f"/api/tables/{table_id}/leave", headers=bearer(b))
        assert answer.status_code == 200, answer.text
        assert answer.json()["away"] == "left"
        seat = seats_of(http, table_id)["B"]
        assert (seat["away"], seat["standin"], seat["name"]) == ("left", "greedy", "Player B")
        # The stand-in moved for B at once: it is A's turn again.
        message = until_turn(ws_a, "A")
        assert message["table"]["moves"] >= 2
        lobby = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
        assert lobby[table_id]["seats"][1]["away"] == "left", "the lobby shows it too"

        answer = http.post(f"/api/tables/{table_id}/reclaim", headers=bearer(b))
        assert answer.status_code == 200, answer.text
        assert "away" not in seats_of(http, table_id)["B"]
        ws_a.send({"type": "move", "move": random_move(message["snapshot"], rng)})
        update = until_turn(ws_b, "B")
        ws_b.send({"type": "move", "move": random_move(update["snapshot"], rng)})
        moved = ws_b.expect("update")
        assert moved["by"] == "B", "B moves again with their own hand"
    finally:
        ws_a.close()
        ws_b.close()


def test_refusals_change_nothing(http: httpx.Client) -> None:
    table_id = create(http, **GREEDY)
    a, b = join(http, table_id, "A"), join(http, table_id, "B")
    other = create(http, **GREEDY)
    stranger = join(http, other, "A")  # a token of another table
    path = f"/api/tables/{table_id}"

    def refused(what: str, status: int, code: str, **kwargs: Any) -> str:
        # (The stand-in may move meanwhile: what a refusal could change is the seats.)
        before = http.get(path).json()
        answer = http.post(f"{path}/{what}", **kwargs)
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code
        after = http.get(path).json()
        assert (after["seats"], after["status"]) == (before["seats"], before["status"])
        message: str = answer.json()["error"]["message"]
        return message

    # Taking back a seat its player still plays, with no token, another's token.
    assert "already played by you" in refused("reclaim", 409, "not_away", headers=bearer(a))
    assert "needs the seat's token" in refused("reclaim", 403, "bad_token")
    assert "needs your seat token" in refused("leave", 403, "bad_token")
    refused("reclaim", 403, "bad_token", headers=bearer(stranger))
    refused("reclaim", 403, "bad_token", headers=bearer("not-a-token"))

    assert http.post(f"{path}/leave", headers=bearer(a)).status_code == 200
    assert "already left" in refused("leave", 409, "already_left", headers=bearer(a))
    # A seat never held: B's token cannot take back A's seat, nor can a stranger's.
    says = refused("reclaim", 403, "bad_token", headers=bearer(b), json={"seat": "A"})
    assert "seat B's: it cannot take back seat 'A'" in says
    refused("reclaim", 403, "bad_token", headers=bearer(stranger), json={"seat": "A"})
    assert seats_of(http, table_id)["A"]["away"] == "left"


def test_a_move_from_the_seat_the_bot_plays_is_refused(db_url: str) -> None:
    """In-process, with bots slow to move (``bot_delay``): on A's own turn, after A
    left, A's move is refused (``away``) and nothing is played; taken back, A moves."""

    async def scenario() -> None:
        async with served(db_url, HandClock(), bot_delay=600) as tables:
            table, players = await seated(tables, dict(GREEDY))
            await tables.presence.leave(table, "A")
            error = await players["A"].refused()
            assert error.code == "away" and "you left the table" in error.message
            assert table.texts == [] and table.seats["A"].away == "left"
            await tables.presence.reclaim(table, "A", {"seat": "A"})
            played = await players["A"].move()
            assert table.texts == [played]

    asyncio.run(scenario())


def test_every_player_leaves_and_the_table_is_abandoned(
    db_url: str, server: Server, http: httpx.Client
) -> None:
    table_id = create(http, **GREEDY)
    a, b = join(http, table_id, "A"), join(http, table_id, "B")
    assert http.post(f"/api/tables/{table_id}/leave", headers=bearer(a)).status_code == 200
    assert http.get(f"/api/tables/{table_id}").json()["status"] == "running"
    answer = http.post(f"/api/tables/{table_id}/leave", headers=bearer(b))
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["status"] == "abandoned"
    abandoned = http.get("/api/tables", params={"status": "abandoned"}).json()["tables"]
    assert table_id in [t["id"] for t in abandoned]
    record = http.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    # Nothing more happens at an abandoned table: no take-back, no leave.
    again = http.post(f"/api/tables/{table_id}/reclaim", headers=bearer(a))
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
    moves = http.get(f"/api/tables/{table_id}").json()["moves"]

    # A restart keeps it abandoned, its moves kept.
    restarted = Server(db_url).start()
    try:
        with restarted.http() as other:
            detail = other.get(f"/api/tables/{table_id}").json()
            assert detail["status"] == "abandoned" and detail["moves"] == moves
            page = other.get(f"/table/{table_id}")
            assert page.status_code == 200
    finally:
        restarted.stop()
