"""Mind Twist tables over real WebSockets: hidden dials (MT-4.1), per-viewer messages,
bots, records, bad input."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import httpx
import pytest

from peloton.games import mindtwist as mt

from .helpers import WS, Server, apply_changes, create, join, replay_snapshots, stored_moves

DIAL_TEXT = re.compile(r"dial:(\d)")
DIAL_FIELD = re.compile(r'"dial":\s*(\d)')


def visible(moves: list[str], viewer: str | None, start: str = "R") -> list[str]:
    """The moves as ``viewer`` may see them, worked out here from MT-2.2/MT-4.1 (not
    by the engine under test): a dial is seen by its dialer, and by everyone once a
    pass or a wrong guess revealed it."""
    out: list[str] = []
    active = start
    for i in range(0, len(moves), 2):
        dial = moves[i]
        response = moves[i + 1] if i + 1 < len(moves) else None
        correct = response is not None and response == dial.replace("dial", "guess")
        revealed = response is not None and not correct
        out.append(dial if viewer == active or revealed else "dial:?")
        if response is not None:
            out.append(response)
            if correct or response == "pass":
                active = "B" if active == "R" else "R"
    return out


def check_frames(frames: list[str], full: list[str], viewer: str | None) -> int:
    """Assert that no frame received by ``viewer`` holds a dial it could not see:
    every move list and move shows hidden dials as ``dial:?``, the raw text has no
    ``dial:N`` beyond the visible ones, and ``dial`` fields are null unless allowed.
    Returns how many frames were checked."""
    checked = 0
    snap: dict[str, Any] = {}
    table: dict[str, Any] = {}
    for raw in frames:
        message = json.loads(raw)
        if message["type"] == "welcome":
            snap, table = message["snapshot"], message["table"]
        elif message["type"] == "update":  # the changes applied, as a client does
            snap = {**apply_changes(snap, message["changes"]), "legal": message.get("legal", [])}
            table = apply_changes(table, message["table_changes"])
        else:
            continue
        played = table["moves"]
        seen = visible(full[:played], viewer)
        assert snap["moves"] == seen, (viewer, raw)
        allowed = Counter(m for m in seen if m.startswith("dial:") and m != "dial:?")
        allowed += Counter(snap["legal"])  # the viewer's own choices: dial:1..3 when it dials
        assert not snap["legal"] or snap["current_player"] == viewer, raw
        if message["type"] == "update":
            assert message["move"] == seen[message["index"]], (viewer, raw)
            if message["move"] != "dial:?" and message["move"].startswith("dial:"):
                allowed[message["move"]] += 1
        found = Counter(f"dial:{n}" for n in DIAL_TEXT.findall(raw))
        assert found <= allowed, (viewer, found, allowed, raw)
        # A dial field holds a number only for the dialer of a pending dial, or for a
        # last turn whose dial was revealed.
        fields = Counter(DIAL_FIELD.findall(raw))
        may: Counter[str] = Counter()
        if snap["dial"] is not None:
            assert viewer is not None and viewer == snap["active"] and snap["phase"] == "guess", raw
            may[str(snap["dial"])] += 1
        last = snap.get("last_turn")
        if last is not None and last["dial"] is not None:
            assert last["outcome"] != "correct" or last["dialer"] == viewer, raw
            may[str(last["dial"])] += 1
        assert fields <= may, (viewer, raw)
        checked += 1
    return checked


def hidden_dials(full: list[str], viewer: str | None) -> list[int]:
    """Indexes of the dials ``viewer`` never saw."""
    return [i for i, (a, b) in enumerate(zip(full, visible(full, viewer), strict=True)) if a != b]


def test_the_games_list_describes_mind_twist(http: httpx.Client) -> None:
    games = {g["name"]: g for g in http.get("/api/games").json()["games"]}
    twist = games["mind-twist"]
    assert twist["title"] == "Mind Twist" and twist["hidden_information"] is True
    assert twist["seats"] == {"min": 2, "max": 2, "letters": ["R", "B"]}
    options = {o["name"]: o for o in twist["options"]}
    assert options["length"]["default"] == 30 and options["milestones"]["default"] == [8, 16, 24]
    assert all(o["help"] for o in twist["options"])
    assert {"random", "greedy"} <= set(twist["bots"])


def test_create_and_detail(http: httpx.Client) -> None:
    table = create(
        http,
        game="mind-twist",
        options={"length": 20, "milestones": [5, 10]},
        seats=["human", "greedy"],
    )
    detail = http.get(f"/api/tables/{table}").json()
    assert detail["game"] == "mind-twist" and detail["status"] == "open"
    assert detail["options"] == {"players": 2, "length": 20, "milestones": [5, 10], "first": "R"}
    assert detail["seats"] == [
        {"seat": "R", "kind": "human", "name": None, "taken": False, "profile": None},
        {"seat": "B", "kind": "greedy", "name": "greedy", "taken": True, "profile": None},
    ]
    assert detail["snapshot"] == mt.snapshot(
        mt.from_options({"length": 20, "milestones": [5, 10]}), None
    )
    assert "course" not in detail and "course_data" not in detail
    listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
    assert listed[table]["game"] == "mind-twist"


@pytest.mark.parametrize(
    "body",
    [
        {"game": "mind-twist", "seats": ["human"]},
        {"game": "mind-twist", "seats": ["human", "human", "human"]},
        {"game": "mind-twist", "seats": ["human", "grandmaster"]},
        {"game": "mind-twist", "seats": "human,human"},
        {"game": "mind-twist", "options": {"length": "long"}, "seats": ["human", "human"]},
        {"game": "mind-twist", "options": {"length": 1}, "seats": ["human", "human"]},
        {"game": "mind-twist", "options": {"milestones": [16, 8]}, "seats": ["human", "human"]},
        {"game": "mind-twist", "options": {"milestones": [40]}, "seats": ["human", "human"]},
        {"game": "mind-twist", "options": {"colour": "red"}, "seats": ["human", "human"]},
        {"game": "mind-twist", "options": {"players": 3}, "seats": ["human", "human"]},
        {"game": "mind-twist", "options": [30], "seats": ["human", "human"]},
        {"game": "mind-twist", "course": "short", "seats": ["human", "human"]},
        {"game": "chess", "seats": ["human", "human"]},
        {"game": 7, "seats": ["human", "human"]},
    ],
)
def test_bad_options_are_refused(http: httpx.Client, body: dict[str, Any]) -> None:
    before = len(http.get("/api/tables").json()["tables"])
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "bad_options" and error["message"]
    assert len(http.get("/api/tables").json()["tables"]) == before


def test_bad_moves_get_errors_and_change_nothing(server: Server, http: httpx.Client) -> None:
    table = create(http, game="mind-twist", seats=["human", "human"])
    tokens = {"R": join(http, table, "R"), "B": join(http, table, "B")}
    r, b, w = WS(server, table), WS(server, table), WS(server, table)
    r.hello(tokens["R"])
    b.hello(tokens["B"])
    w.hello(None)
    assert r.error({"type": "move", "move": "guess:1"})["code"] == "illegal_move"  # must dial first
    assert r.error({"type": "move", "move": "dial:?"})["code"] == "illegal_move"
    assert r.error({"type": "move", "move": "dial:4"})["code"] == "notation"
    assert r.error({"type": "move", "move": "dial:1", "index": 3})["code"] == "stale"
    assert b.error({"type": "move", "move": "dial:1"})["code"] == "not_your_turn"
    assert w.error({"type": "move", "move": "dial:1"})["code"] == "spectator"
    for ws in (r, b, w):
        ws.quiet()
    assert http.get(f"/api/tables/{table}").json()["moves"] == 0
    r.send({"type": "move", "move": "dial:3", "index": 0})
    assert r.expect("update")["move"] == "dial:3"
    assert b.expect("update")["move"] == "dial:?"
    assert w.expect("update")["move"] == "dial:?"
    assert r.error({"type": "move", "move": "pass"})["code"] == "not_your_turn"
    assert (
        b.error({"type": "move", "move": "dial:1"})["code"] == "illegal_move"
    )  # must guess or pass
    b.send({"type": "move", "move": "pass"})
    for ws in (r, b, w):
        update = ws.expect("update")
        assert update["move"] == "pass" and update["snapshot"]["spaces"] == {"R": 3, "B": 0}
        assert update["snapshot"]["moves"] == ["dial:3", "pass"]  # the pass revealed the dial
        ws.close()


def _respond(dial: str, rng: random.Random) -> str:
    """A response that is often right (so that dials stay hidden), else a pass or a wrong guess."""
    amount = int(dial[-1])
    roll = rng.random()
    if roll < 0.45:
        return f"guess:{amount}"
    if roll < 0.7:
        return "pass"
    return f"guess:{rng.choice([n for n in (1, 2, 3) if n != amount])}"


def test_two_humans_finish_a_game_and_no_frame_shows_a_hidden_dial(
    server: Server, http: httpx.Client
) -> None:
    table = create(
        http,
        game="mind-twist",
        options={"length": 16, "milestones": [4, 8, 12]},
        seats=["human", "human"],
    )
    watcher = WS(server, table)
    watcher.hello(None)  # watching before anyone sits: the welcomes after each join count too
    tokens = {"R": join(http, table, "R", "Rosa"), "B": join(http, table, "B", "Bert")}
    assert watcher.expect("welcome")["table"]["status"] == "open"
    assert watcher.expect("welcome")["table"]["status"] == "running"
    clients = {seat: WS(server, table) for seat in tokens}
    snap = {seat: clients[seat].hello(tokens[seat])["snapshot"] for seat in tokens}["R"]
    rng = random.Random(11)
    played: list[str] = []
    while not snap["is_over"]:
        seat = snap["current_player"]
        move = (
            rng.choice(["dial:1", "dial:2", "dial:3"])
            if snap["phase"] == "dial"
            else _respond(played[-1], rng)
        )
        clients[seat].send({"type": "move", "move": move, "index": len(played)})
        played.append(move)
        updates = {s: clients[s].expect("update") for s in clients}
        watcher.expect("update")
        assert updates[seat]["move"] == move
        other = "B" if seat == "R" else "R"
        snap = updates[other]["snapshot"]
        # The player to act gets its legal moves; the other player none.
        nxt = snap["current_player"]
        if nxt is not None:
            assert updates[nxt]["snapshot"]["legal"]
            assert updates["B" if nxt == "R" else "R"]["snapshot"]["legal"] == []
    for ws in (*clients.values(), watcher):
        ws.quiet()
    full = stored_moves(server.db_url, table)
    assert full == played
    assert hidden_dials(full, "B") and hidden_dials(full, None), "the game should hide some dial"
    assert check_frames(clients["B"].frames, full, "B") == len(played) + 1
    assert check_frames(clients["R"].frames, full, "R") == len(played) + 1
    assert check_frames(watcher.frames, full, None) == len(played) + 3
    # The records: each player's own public record, the spectators' public one.
    _check_record_endpoints(http, table, full, tokens)
    assert http.get(f"/api/tables/{table}").json()["status"] == "finished"
    for ws in (*clients.values(), watcher):
        ws.close()


def _check_record_endpoints(
    http: httpx.Client, table: str, full: list[str], tokens: dict[str, str]
) -> None:
    viewers: list[tuple[str | None, dict[str, str]]] = [(None, {})]
    viewers += [(seat, {"Authorization": f"Bearer {token}"}) for seat, token in tokens.items()]
    for viewer, headers in viewers:
        seen = visible(full, viewer)
        record = http.get(f"/api/tables/{table}/record", headers=headers)
        assert record.status_code == 200
        assert record.json()["moves"] == seen
        hidden = Counter(f"dial:{n}" for n in DIAL_TEXT.findall(record.text))
        assert hidden <= Counter(m for m in seen if m != "dial:?")
        replay = http.get(f"/api/tables/{table}/replay", headers=headers)
        assert replay.json()["moves"] == seen
        for i, snap in enumerate(replay_snapshots(replay.json())):
            assert snap["moves"] == visible(full[:i], viewer)
            assert snap["dial"] is None or (viewer == snap["active"] and snap["phase"] == "guess")
        detail = http.get(f"/api/tables/{table}", headers=headers).json()
        assert detail["seat"] == viewer and detail["snapshot"]["moves"] == seen
        # A public record is a valid record: it loads and replays.
        assert mt.Record.from_json(record.text).replay().is_over
    bad = http.get(f"/api/tables/{table}/record", headers={"Authorization": "Bearer not-a-token"})
    assert bad.status_code == 403 and bad.json()["error"]["code"] == "bad_token"


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_a_human_against_a_bot_never_sees_the_bots_dial(
    server: Server, http: httpx.Client, bot: str
) -> None:
    table = create(
        http, game="mind-twist", options={"length": 14, "milestones": [5, 10]}, seats=[bot, "human"]
    )
    token = join(http, table, "B", "Bea")
    human, watcher = WS(server, table), WS(server, table)
    snap = human.hello(token)["snapshot"]
    watcher.hello(None)
    rng = random.Random(3)
    while not snap["is_over"]:
        if snap["current_player"] == "B":
            move = rng.choice(snap["legal"])
            human.send({"type": "move", "move": move, "index": len(snap["moves"])})
        update = human.expect("update")
        snap = update["snapshot"]
    human.quiet()
    watcher.drain()
    full = stored_moves(server.db_url, table)
    assert http.get(f"/api/tables/{table}").json()["status"] == "finished"
    assert len(full) == len(snap["moves"])
    check_frames(human.frames, full, "B")
    check_frames(watcher.frames, full, None)
    _check_record_endpoints(http, table, full, {"B": token})
    human.close()
    watcher.close()


def test_an_all_bot_table_finishes_and_its_full_record_stays_on_the_server(
    server: Server, http: httpx.Client
) -> None:
    table = create(
        http,
        game="mind-twist",
        options={"length": 12, "milestones": [6]},
        seats=["greedy", "random"],
    )
    watcher = WS(server, table)
    snap = watcher.hello()["snapshot"]
    while not snap["is_over"]:
        snap = watcher.expect("update")["snapshot"]
    full = stored_moves(server.db_url, table)
    check_frames(watcher.frames, full, None)
    record = http.get(f"/api/tables/{table}/record").json()
    assert record["moves"] == visible(full, None)
    assert record["players"] == {
        "R": {"name": "greedy", "kind": "greedy"},
        "B": {"name": "random", "kind": "random"},
    }
    assert record["result"] == snap["result"] in ("R", "B")
    summary = http.get(f"/api/tables/{table}").json()
    assert summary["status"] == "finished" and summary["result"] == snap["result"]
    # A full record uploaded for replay is shown as a spectator would see it played.
    state = mt.from_options({"length": 12, "milestones": [6]})
    for move in full:
        state.play(move)
    upload = http.post("/api/replay", content=mt.Record.from_state(state).to_json())
    assert upload.status_code == 200, upload.text
    assert (
        upload.json()["game"] == "mind-twist"
        and len(replay_snapshots(upload.json())) == len(full) + 1
    )
    watcher.close()


def test_a_pending_dial_survives_a_restart_and_stays_hidden(db_url: str) -> None:
    first = Server(db_url).start()
    try:
        with first.http() as http:
            table = create(http, game="mind-twist", seats=["human", "human"])
            tokens = {"R": join(http, table, "R"), "B": join(http, table, "B")}
        r = WS(first, table)
        r.hello(tokens["R"])
        r.send({"type": "move", "move": "dial:2", "index": 0})
        assert r.expect("update")["snapshot"]["dial"] == 2
    finally:
        first.kill()
    second = Server(db_url).start()
    try:
        with second.http() as http:
            r, b, w = WS(second, table), WS(second, table), WS(second, table)
            assert r.hello(tokens["R"])["snapshot"]["dial"] == 2
            for ws, token in ((b, tokens["B"]), (w, None)):
                snap = ws.hello(token)["snapshot"]
                assert (
                    snap["dial"] is None
                    and snap["moves"] == ["dial:?"]
                    and snap["phase"] == "guess"
                )
            b.send({"type": "move", "move": "guess:1", "index": 1})  # wrong: the dial is revealed
            for ws in (r, b, w):
                update = ws.expect("update")
                assert update["snapshot"]["moves"] == ["dial:2", "guess:1"]
                assert update["snapshot"]["spaces"]["R"] == 2
            check_frames(b.frames, ["dial:2", "guess:1"], "B")
            check_frames(w.frames, ["dial:2", "guess:1"], None)
            for ws in (r, b, w):
                ws.close()
    finally:
        second.stop()
