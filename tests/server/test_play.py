"""Live play over real WebSockets: welcome, updates to every connection, bots, a whole game."""

from __future__ import annotations

import random

import httpx

from peloton.games import mindcycling as mc
from peloton.games.mindcycling.snapshot import snapshot

from .helpers import WS, Server, create, join, random_move


def test_welcome_carries_the_full_state_and_the_seat(server: Server, http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    token = join(http, table, "A", "Ada")
    player, watcher = WS(server, table), WS(server, table)
    welcome = player.hello(token)
    assert welcome["seat"] == "A"
    assert welcome["table"]["id"] == table
    assert welcome["table"]["course_data"] == mc.Course.load("short").to_dict()
    assert welcome["snapshot"]["moves_played"] == 0
    assert welcome["snapshot"]["placement"]["team"] == "A"
    seen = watcher.hello(None)
    assert seen["seat"] is None
    assert seen["snapshot"] == welcome["snapshot"]
    player.close()
    watcher.close()


def test_a_taken_seat_sends_everyone_a_new_welcome(server: Server, http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    a = WS(server, table)
    a.hello(join(http, table, "A"))
    assert http.get(f"/api/tables/{table}").json()["status"] == "open"
    join(http, table, "B", "Bea")
    again = a.expect("welcome")
    assert again["seat"] == "A"
    assert again["table"]["status"] == "running"
    assert again["table"]["seats"][1] == {
        "seat": "B",
        "kind": "human",
        "name": "Bea",
        "taken": True,
        "profile": None,  # taken anonymously
    }
    a.close()


def test_an_accepted_move_reaches_every_connection_including_spectators(
    server: Server, http: httpx.Client
) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    ta, tb = join(http, table, "A"), join(http, table, "B")
    a, a2, b, w = WS(server, table), WS(server, table), WS(server, table), WS(server, table)
    for ws, token in ((a, ta), (a2, ta), (b, tb), (w, None)):
        ws.hello(token)
    first = a.hello(ta)["snapshot"]["placement"]
    move = f"{first['riders'][0]}@{first['squares'][0]}"
    a.send({"type": "move", "move": move, "index": 0})
    updates = [ws.expect("update") for ws in (a, a2, b, w)]
    for update in updates:
        assert update == updates[0]
    assert updates[0]["index"] == 0
    assert updates[0]["move"] == move
    assert updates[0]["by"] == "A"
    assert updates[0]["snapshot"]["moves_played"] == 1
    assert updates[0]["table"]["moves"] == 1
    assert updates[0]["snapshot"]["current_player"] == "B"
    detail = http.get(f"/api/tables/{table}").json()
    assert detail["snapshot"] == updates[0]["snapshot"]
    for ws in (a, a2, b, w):
        ws.quiet()
        ws.close()


def test_bots_move_once_every_human_seat_is_taken(server: Server, http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["greedy", "human"])
    watcher = WS(server, table)
    assert watcher.hello()["snapshot"]["moves_played"] == 0
    watcher.quiet()  # bot A has not moved: seat B is free
    assert http.get(f"/api/tables/{table}").json()["moves"] == 0
    token = join(http, table, "B")
    assert watcher.expect("welcome")["table"]["status"] == "running"
    update = watcher.expect("update")
    assert update["by"] == "A" and update["index"] == 0
    player = WS(server, table)
    snap = player.hello(token)["snapshot"]
    assert snap["current_player"] == "B"
    player.send({"type": "move", "move": random_move(snap, random.Random(1))})
    assert player.expect("update")["by"] == "B"
    assert player.expect("update")["by"] == "A"  # the bot answers by itself
    player.close()
    watcher.close()


def test_an_all_bot_table_plays_to_the_end_and_its_record_replays(
    server: Server, http: httpx.Client
) -> None:
    table = create(http, course="short", riders=3, seats=["greedy", "random"])
    watcher = WS(server, table)
    snap = watcher.hello()["snapshot"]
    last = None
    while snap["phase"] != "over":
        last = watcher.expect("update")
        snap = last["snapshot"]
    assert last is not None and last["table"]["status"] == "finished"
    record = mc.Record.from_json(http.get(f"/api/tables/{table}/record").text)
    assert record.players == {
        "A": {"name": "greedy", "controller": "greedy"},
        "B": {"name": "random", "controller": "random"},
    }
    assert snapshot(record.replay()) == snap
    listed = http.get("/api/tables", params={"status": "finished"}).json()["tables"]
    assert table in [t["id"] for t in listed]
    watcher.close()


def test_a_whole_game_between_two_websocket_clients(server: Server, http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"], wind="left")
    tokens = {"A": join(http, table, "A", "Ada"), "B": join(http, table, "B", "Bea")}
    clients = {seat: WS(server, table) for seat in tokens}
    snaps = {seat: clients[seat].hello(tokens[seat])["snapshot"] for seat in tokens}
    snap = snaps[snaps["A"]["current_player"]]
    rng = random.Random(2024)
    played: list[str] = []
    while snap["phase"] != "over":
        seat = snap["current_player"]
        move = random_move(snap, rng)
        clients[seat].send({"type": "move", "move": move, "index": len(played)})
        got = {s: clients[s].expect("update") for s in ("A", "B")}
        # The same update for both but the legal moves, which only the seat to move gets.
        after = got["A"]["snapshot"]["current_player"]
        for s, update in got.items():
            if s != after:
                assert "legal" not in update and update["snapshot"]["legal"] == []
            elif update["snapshot"]["phase"] == "race":  # setup lists its squares instead
                assert update["legal"] and update["snapshot"]["legal"] == update["legal"]
        same = [{**u, "legal": 0, "snapshot": {**u["snapshot"], "legal": 0}} for u in got.values()]
        assert same[0] == same[1]
        assert got["A"]["move"] == move and got["A"]["index"] == len(played)
        played.append(move)
        snap = got.get(after, got["A"])["snapshot"]
    answer = http.get(f"/api/tables/{table}/record")
    assert "attachment" in answer.headers["content-disposition"]
    record = mc.Record.from_json(answer.text)
    assert record.moves == played
    assert record.players == {
        "A": {"name": "Ada", "controller": "human"},
        "B": {"name": "Bea", "controller": "human"},
    }
    final = record.replay()
    assert final.is_over
    assert final.result.to_dict() == snap["result"]
    assert snapshot(final) == snap
    summary = http.get(f"/api/tables/{table}").json()
    assert summary["status"] == "finished"
    assert summary["result"] == snap["result"]
    for ws in clients.values():
        assert ws.error({"type": "move", "move": played[-1]})["code"] == "game_over"
        ws.close()
