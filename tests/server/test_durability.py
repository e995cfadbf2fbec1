"""Durability (issue item 8): a server killed with SIGKILL mid-game and started again
on the same database continues every table from its last accepted move."""

from __future__ import annotations

import random
from typing import Any

from peloton.games import mindcycling as mc

from .helpers import WS, Server, create, join, random_move


def play(ws: WS, others: list[WS], snap: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Play a random move for ``ws``'s seat; the update everyone received, as the seat
    to move next got it when it is among them (it alone gets the legal moves)."""
    ws.send({"type": "move", "move": random_move(snap, rng), "index": snap["moves_played"]})
    got = [ws.expect("update")] + [other.expect("update") for other in others]
    bare = [{**u, "legal": 0, "snapshot": {**u["snapshot"], "legal": 0}} for u in got]
    assert all(b == bare[0] for b in bare)
    return next((u for u in got if u.get("legal")), got[0])


def bare(snap: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without its legal moves (as a spectator gets it)."""
    return {**snap, "legal": []}


def test_a_killed_server_resumes_every_table(db_url: str) -> None:
    rng = random.Random(8)
    first = Server(db_url, bot_delay=0.05).start()
    try:
        with first.http() as http:
            humans = create(http, course="short", riders=3, seats=["human", "human"])
            tokens = {"A": join(http, humans, "A"), "B": join(http, humans, "B")}
            mixed = create(http, course="short", riders=3, seats=["human", "greedy"])
            mixed_token = join(http, mixed, "A")
            bots = create(http, course="short", riders=3, seats=["greedy", "random"])
            open_table = create(http, course="short", riders=3, seats=["human", "greedy"])
        # Two humans play seven moves.
        a, b = WS(first, humans), WS(first, humans)
        snap = a.hello(tokens["A"])["snapshot"]
        b.hello(tokens["B"])
        for _ in range(7):
            ws, other = (a, b) if snap["current_player"] == "A" else (b, a)
            snap = play(ws, [other], snap, rng)["snapshot"]
        humans_seen = snap
        # A human against a bot: the bot answers each move.
        m = WS(first, mixed)
        msnap = m.hello(mixed_token)["snapshot"]
        msnap = play(m, [], msnap, rng)["snapshot"]
        msnap = m.expect("update")["snapshot"]
        assert msnap["current_player"] == "A"
        # An all-bot table is killed while its bots play.
        watcher = WS(first, bots)
        watcher.hello()
        seen = [(u["index"], u["move"]) for u in (watcher.expect("update") for _ in range(5))]
    finally:
        first.kill()

    second = Server(db_url, bot_delay=0).start()
    try:
        with second.http() as http:
            detail = http.get(f"/api/tables/{humans}").json()
            assert detail["status"] == "running"
            assert detail["moves"] == 7
            # A spectator's snapshot: the same, but the legal moves (the mover's alone).
            assert detail["snapshot"] == {**humans_seen, "legal": []}
            # The seat tokens still work, and the game goes on from move 7.
            a, b = WS(second, humans), WS(second, humans)
            welcome = a.hello(tokens["A"])
            assert welcome["seat"] == "A" and bare(welcome["snapshot"]) == bare(humans_seen)
            b.hello(tokens["B"])
            ws, other = (a, b) if humans_seen["current_player"] == "A" else (b, a)
            assert play(ws, [other], humans_seen, rng)["index"] == 7

            assert http.get(f"/api/tables/{mixed}").json()["snapshot"] == bare(msnap)
            m = WS(second, mixed)
            m.hello(mixed_token)
            played = play(m, [], msnap, rng)
            assert played["index"] == 2
            assert m.expect("update")["by"] == "B"  # the bot moves again

            # The bots resumed by themselves and finish their game; every move seen
            # before the kill is in the record, in order.
            watcher = WS(second, bots)
            snap = watcher.hello()["snapshot"]
            while snap["phase"] != "over":
                snap = watcher.expect("update")["snapshot"]
            record = mc.Record.from_json(http.get(f"/api/tables/{bots}/record").text)
            assert [(i, record.moves[i]) for i, _ in seen] == seen
            assert record.replay().result.to_dict() == snap["result"]

            still_open = http.get(f"/api/tables/{open_table}").json()
            assert still_open["status"] == "open" and still_open["moves"] == 0
            listed = {t["id"]: t["status"] for t in http.get("/api/tables").json()["tables"]}
            assert listed == {
                humans: "running",
                mixed: "running",
                bots: "finished",
                open_table: "open",
            }
    finally:
        second.kill()

    # A finished table is read back from its stored summary, then replayed on demand.
    third = Server(db_url, bot_delay=0).start()
    try:
        with third.http() as http:
            listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
            assert listed[bots]["status"] == "finished"
            assert listed[bots]["result"] == snap["result"]
            assert listed[bots]["moves"] == len(record.moves)
            assert http.get(f"/api/tables/{bots}").json()["snapshot"] == snap
            watcher = WS(third, bots)
            assert watcher.hello()["snapshot"] == snap
    finally:
        third.stop()
