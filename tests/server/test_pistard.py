"""Pistard tables over real WebSockets: chance steps drawn by the server from the
table's seed, bots, humans, bad input, and a killed server that rolls on exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from peloton.core.rng import Rng
from peloton.games import pistard as pi
from peloton.games.pistard.snapshot import MOVE_LISTS

from .helpers import WS, Server, create, in_replay, join, replay_snapshots, stored_moves

SHORT = {"length": 20, "target": 3}


def rolls_follow_the_seed(record: dict[str, Any]) -> int:
    """Assert that every roll of a record is the next draw of one ``Rng(seed)`` stream
    (what an uninterrupted game rolls); how many rolls there were."""
    loaded = pi.Record.from_dict(record)
    assert loaded.seed is not None
    rng = Rng(loaded.seed)
    state = loaded.initial_state()
    rolls = 0
    for text in loaded.moves:
        if state.is_chance:
            assert str(state.chance_move(rng)) == text
            rolls += 1
        state.play(text)
    return rolls


def play_human(
    ws: WS, snap: dict[str, Any], seat: str, rng: random.Random, until: int | None = None
) -> dict[str, Any]:
    """Play ``seat``'s moves (random legal ones) as updates come, until the game is over
    or ``until`` moves have been played; the last snapshot ``ws`` received."""
    while not snap["is_over"] and (until is None or snap["moves_played"] < until):
        if snap["current_player"] == seat and snap["legal"]:
            ws.send(
                {"type": "move", "move": rng.choice(snap["legal"]), "index": snap["moves_played"]}
            )
        snap = ws.expect("update")["snapshot"]
    return snap


def test_the_games_list_describes_pistard(http: httpx.Client) -> None:
    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    track = games["pistard"]
    assert track["title"] == "Pistard" and track["hidden_information"] is False
    assert track["seats"] == {"min": 2, "max": 4, "letters": ["A", "B", "C", "D"]}
    options = {o["name"]: o for o in track["options"]}
    assert options["bonus"]["choices"] == list(pi.BONUSES)
    assert options["layout"]["choices"] == pi.bundled_names()
    assert options["target"]["default"] == 12


def test_create_and_detail(http: httpx.Client) -> None:
    table = create(
        http, game="pistard", options={"bonus": "shelter"}, seats=["human", "greedy", "random"]
    )
    detail = http.get(f"/api/tables/{table}").json()
    assert detail["game"] == "pistard" and detail["status"] == "open"
    assert detail["options"]["players"] == 3 and detail["options"]["bonus"] == "shelter"
    assert [s["seat"] for s in detail["seats"]] == ["A", "B", "C"]
    snap = detail["snapshot"]
    assert snap["is_chance"] and snap["moves_played"] == 0
    # The dice wait for the table to start, like the bots.
    assert http.get(f"/api/tables/{table}").json()["moves"] == 0


@pytest.mark.parametrize(
    "body",
    [
        {"game": "pistard", "seats": ["human"]},
        {"game": "pistard", "seats": ["human"] * 5},
        {"game": "pistard", "options": {"players": 3}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"layout": "/etc/passwd"}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"layout": "nowhere.toml"}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"layout": {"rows": "nope"}}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"bonus": "wind"}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"target": 0}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"length": 3}, "seats": ["human", "human"]},
        {"game": "pistard", "options": {"dice": 5}, "seats": ["human", "human"]},
        {"game": "pistard", "seats": ["human", "optimal"]},  # a Mind Twist bot
    ],
)
def test_bad_options_are_refused(http: httpx.Client, body: dict[str, Any]) -> None:
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_options"


def test_an_all_bot_table_plays_to_the_end_rolling_from_its_seed(
    server: Server, http: httpx.Client
) -> None:
    table = create(http, game="pistard", options=SHORT, seats=["greedy", "random", "greedy"])
    watcher = WS(server, table)
    snap = watcher.hello()["snapshot"]
    while not snap["is_over"]:
        update = watcher.expect("update")
        if update["move"].startswith("roll:"):
            assert update["by"] == "chance"
        snap = update["snapshot"]
    record = http.get(f"/api/tables/{table}/record").json()
    assert record["moves"] == stored_moves(server.db_url, table)
    assert rolls_follow_the_seed(record) > 3
    assert record["players"]["A"] == {"name": "greedy", "kind": "greedy"}
    summary = http.get(f"/api/tables/{table}").json()
    assert summary["status"] == "finished" and summary["result"] == snap["result"]
    assert snap["result"]["winner"] in ("A", "B", "C")
    replay = http.get(f"/api/tables/{table}/replay").json()
    snaps = replay_snapshots(replay)
    assert replay["moves"] == record["moves"] and len(snaps) == len(record["moves"]) + 1
    assert snaps[-1] == in_replay(
        pi.snapshot(pi.Record.from_dict(record).replay(), None), MOVE_LISTS
    )
    upload = http.post("/api/replay", json=record)
    assert upload.status_code == 200 and replay_snapshots(upload.json()) == snaps
    watcher.close()


def test_a_human_against_bots_plays_to_the_end(server: Server, http: httpx.Client) -> None:
    table = create(http, game="pistard", options=SHORT, seats=["human", "greedy"])
    token = join(http, table, "A", "Ann")
    ws = WS(server, table)
    snap = ws.hello(token)["snapshot"]
    snap = play_human(ws, snap, "A", random.Random(4))
    assert snap["is_over"]
    record = http.get(f"/api/tables/{table}/record").json()
    rolls_follow_the_seed(record)
    assert record["players"]["A"] == {"name": "Ann", "kind": "human"}
    assert ws.error({"type": "move", "move": "A1=1:a1"})["code"] == "game_over"
    ws.close()


@pytest.fixture()
def slow_dice(db_url: str) -> Iterator[Server]:
    """A server whose bots and dice wait two seconds: the chance step stays visible."""
    srv = Server(db_url, bot_delay=2.0).start()
    yield srv
    srv.stop()


def test_bad_moves_and_moves_at_a_chance_step_are_refused(slow_dice: Server) -> None:
    with slow_dice.http() as http:
        table = create(http, game="pistard", options=SHORT, seats=["human", "human"])
        tokens = {"A": join(http, table, "A"), "B": join(http, table, "B")}
        a, b = WS(slow_dice, table), WS(slow_dice, table)
        snap = a.hello(tokens["A"])["snapshot"]
        b.hello(tokens["B"])
        assert snap["is_chance"] and snap["current_player"] == "chance"
        error = a.error({"type": "move", "move": "roll:6,6,6,6"})
        assert error["code"] == "chance_step" and "dice" in error["message"]
        assert b.error({"type": "move", "move": "A1=6"})["code"] == "chance_step"
        # The server rolls A's then B's first dice by itself.
        for _ in range(2):
            update = a.expect("update")
            assert update["by"] == "chance" and update["move"].startswith("roll:")
            seen = b.expect("update")
            assert (seen["index"], seen["move"], seen["by"]) == (
                update["index"],
                update["move"],
                update["by"],
            )
            # Each player's snapshot is its own: only the player to act gets legal moves
            # (as notation and in parts).
            mine = {"legal", "legal_moves"}
            assert {k: v for k, v in seen["snapshot"].items() if k not in mine} == {
                k: v for k, v in update["snapshot"].items() if k not in mine
            }
        snap = update["snapshot"]
        assert snap["current_player"] == "A" and not snap["is_chance"]
        assert (
            a.error({"type": "move", "move": "roll:6,6,6,6"})["code"] == "illegal_move"
        )  # no forged dice
        assert a.error({"type": "move", "move": "A1=7"})["code"] in ("notation", "illegal_move")
        assert a.error({"type": "move", "move": "B1=6"})["code"] == "illegal_move"
        assert a.error({"type": "move", "move": "nonsense"})["code"] == "notation"
        assert b.error({"type": "move", "move": "B1=6"})["code"] == "not_your_turn"
        assert a.error({"type": "move", "move": "A1=6", "index": 0})["code"] == "stale"
        a.quiet()
        b.quiet()
        assert http.get(f"/api/tables/{table}").json()["moves"] == 2
        a_snap = http.get(
            f"/api/tables/{table}", headers={"Authorization": f"Bearer {tokens['A']}"}
        ).json()
        assert a_snap["seat"] == "A" and a_snap["snapshot"]["legal"]
        assert (
            http.get(f"/api/tables/{table}").json()["snapshot"]["legal"] == []
        )  # spectators get none
        a.close()
        b.close()


def test_a_killed_server_rolls_on_exactly(db_url: str) -> None:
    rng = random.Random(9)
    first = Server(db_url, bot_delay=0.02).start()
    try:
        with first.http() as http:
            table = create(http, game="pistard", options=SHORT, seats=["human", "greedy", "random"])
            token = join(http, table, "A")
            # Long enough for the watcher to see 12 updates: with target 3 the first
            # rider across the line ends the game at once (PI-4.3), in about 30 moves.
            bots = create(
                http, game="pistard", options={**SHORT, "target": 6}, seats=["greedy", "greedy"]
            )
        ws = WS(first, table)
        snap = play_human(ws, ws.hello(token)["snapshot"], "A", rng, until=30)
        watcher = WS(first, bots)
        watcher.hello()
        for _ in range(12):
            watcher.expect("update")
    finally:
        first.kill()
    before = stored_moves(db_url, table)
    assert len(before) >= 30

    second = Server(db_url, bot_delay=0).start()
    try:
        with second.http() as http:
            detail = http.get(f"/api/tables/{table}").json()
            assert detail["moves"] == len(before)
            # Mid-game the record has every roll so far but not the seed, which would
            # foretell the rolls to come.
            mid = http.get(f"/api/tables/{table}/record").json()
            assert mid["seed"] is None and mid["moves"][: len(before)] == before
            ws = WS(second, table)
            snap = play_human(ws, ws.hello(token)["snapshot"], "A", rng)
            assert snap["is_over"]
            record = http.get(f"/api/tables/{table}/record").json()
            assert record["moves"][: len(before)] == before
            # Every roll, before and after the kill, is the next draw of the table's
            # one seeded stream: the restart rolled exactly what it would have rolled.
            assert rolls_follow_the_seed(record) > 4
            watcher = WS(second, bots)
            snap = watcher.hello()["snapshot"]
            while not snap["is_over"]:
                snap = watcher.expect("update")["snapshot"]
            rolls_follow_the_seed(http.get(f"/api/tables/{bots}/record").json())
    finally:
        second.stop()


def test_only_the_mover_gets_its_moves_in_parts(server: Server, http: httpx.Client) -> None:
    """The moves in parts (``legal_moves``, one of the game's ``MOVE_LISTS``) are the
    mover's, like ``legal`` (PI-5.2 notation, docs/protocol.md "Snapshot"): never in an
    update's changes, filled only in the mover's own update, and empty in a replay."""
    table = create(http, game="pistard", options=SHORT, seats=["human", "human"])
    tokens = {"A": join(http, table, "A"), "B": join(http, table, "B")}
    a, b = WS(server, table), WS(server, table)
    welcome = a.hello(tokens["A"])
    assert welcome["move_lists"] == ["legal", "legal_moves"]
    b.hello(tokens["B"])
    rng, updates = random.Random(7), 0
    players = {"A": a, "B": b}
    while updates < 8 or (a.snapshot or {}).get("is_chance"):  # end where a player is due
        snap = a.snapshot
        assert snap is not None
        if snap["current_player"] in players and not snap["is_over"]:
            mover = players[snap["current_player"]].snapshot
            assert mover is not None
            move = rng.choice(mover["legal"])
            players[snap["current_player"]].send(
                {"type": "move", "move": move, "index": snap["moves_played"]}
            )
        a.expect("update")
        b.expect("update")
        updates += 1
        current = a.snapshot["current_player"]  # type: ignore[index]
        for seat, ws in players.items():
            frame = json.loads(ws.frames[-1])
            assert all(change[0][:1] != ["legal_moves"] for change in frame["changes"])
            mine = ws.snapshot
            assert mine is not None
            if seat == current:
                assert [m["text"] for m in mine["legal_moves"]] == mine["legal"] != []
            else:
                assert mine["legal_moves"] == mine["legal"] == []
    a.quiet()
    b.quiet()
    body = http.get(f"/api/tables/{table}/replay").json()
    assert all(s["legal_moves"] == [] == s["legal"] for s in replay_snapshots(body))
    a.close()
    b.close()
