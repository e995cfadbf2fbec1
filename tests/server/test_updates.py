"""Issue 19: leaner updates over real WebSockets (docs/protocol.md, "Deltas"). An
``update`` carries the move and the changes, never a whole snapshot; each client that
applies them to its ``welcome`` has, after every move, exactly the snapshot and
summary the server shows that viewer; only the seat to move is sent legal moves.
Pistard (a snapshot per viewer, dice rolled by the server) and Cyclo (one snapshot for
every viewer, with its course: 15 KB) with two players and a spectator."""

from __future__ import annotations

import json
import random

import httpx
import pytest

from .helpers import WS, Server, create, join

GAMES = {
    "pistard": {"game": "pistard", "options": {"length": 20, "target": 3}},
    "cyclo": {"game": "cyclo", "options": {}},
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_client_follows_the_game_from_its_welcome_and_the_changes(
    server: Server, http: httpx.Client, game: str
) -> None:
    table = create(http, seats=["human", "human"], **GAMES[game])
    tokens = {s: join(http, table, s, f"p{s}") for s in "AB"}
    clients: dict[str | None, WS] = {s: WS(server, table) for s in "AB"}
    clients[None] = WS(server, table)
    welcomes = {s: ws.hello(tokens.get(s or "")) for s, ws in clients.items()}
    whole = max(len(json.dumps(w["snapshot"])) for w in welcomes.values())
    headers = {s: {"Authorization": f"Bearer {tokens[s]}"} for s in "AB"}
    rng = random.Random(19)
    sizes: list[int] = []
    compared = 0
    for _ in range(40):
        snap = clients["A"].snapshot
        assert snap is not None
        if snap["is_over"]:
            break
        mover = snap["current_player"]
        if mover in ("A", "B"):
            legal = clients[mover].snapshot["legal"]  # type: ignore[index]
            assert legal, "the seat to move has its legal moves"
            clients[mover].send({"type": "move", "move": rng.choice(legal)})
        for viewer, ws in clients.items():
            update = ws.expect("update")  # the helper applies its changes (or fails)
            raw = ws.frames[-1]
            sizes.append(len(raw))
            assert '"snapshot"' not in raw and '"table":' not in raw
            after = update["snapshot"]["current_player"]
            # Legal moves for the seat to move alone.
            assert ("legal" in update) == (viewer == after and bool(update.get("legal")))
            if viewer != after:
                assert update["snapshot"].get("legal", []) == []
            if after not in ("A", "B"):
                continue  # the server rolls at once: its table is already further on
            # What the client rebuilt is what the server shows that viewer (nobody
            # moves until a player does).
            detail = http.get(f"/api/tables/{table}", headers=headers.get(viewer or "", {}))
            shown = detail.json()
            assert update["snapshot"] == shown["snapshot"], (viewer, update["index"])
            for key in ("moves", "status", "seats", "round"):
                assert update["table"].get(key) == shown.get(key), key
            compared += 1
    assert len(sizes) > 30 and compared > 20
    assert sorted(sizes)[len(sizes) // 2] < whole / 4, "an update is much smaller than a snapshot"
    for ws in clients.values():
        ws.close()


def test_a_seat_taken_sends_everyone_the_whole_state_again(
    server: Server, http: httpx.Client
) -> None:
    """A change without a move (a seat taken) is a ``welcome`` to every connection,
    the full state; the updates after it follow from it."""
    table = create(http, seats=["human", "human"], game="pistard", options={"length": 20})
    watcher = WS(server, table)
    watcher.hello()
    first = join(http, table, "A", "Ada")
    assert watcher.expect("welcome")["table"]["status"] == "open"
    join(http, table, "B", "Bea")
    welcome = watcher.expect("welcome")
    assert welcome["table"]["status"] == "running" and "course_data" not in welcome["table"]
    # The dice are rolled by the server: the watcher follows from the new welcome up
    # to the first player's turn (the server then waits).
    update = watcher.expect("update")
    assert update["by"] == "chance" and update["table"]["status"] == "running"
    while update["snapshot"]["is_chance"]:
        update = watcher.expect("update")
    assert update["snapshot"] == http.get(f"/api/tables/{table}").json()["snapshot"]
    seat = WS(server, table)
    assert seat.hello(first)["seat"] == "A"
    watcher.close()
    seat.close()
