"""Bad input over real WebSockets never breaks a table (issue item 7): every kind gets
an ``error`` to its sender only, the state is unchanged, and play goes on."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from .helpers import WS, Server, create, join, random_move


@dataclass
class Game:
    """A running two-human table: A to play, B waiting, one spectator."""

    id: str
    a: WS
    b: WS
    watcher: WS
    tokens: dict[str, str]
    snapshot: dict[str, Any]


@pytest.fixture()
def game(server: Server, http: httpx.Client) -> Iterator[Game]:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    tokens = {"A": join(http, table, "A"), "B": join(http, table, "B")}
    a, b, watcher = WS(server, table), WS(server, table), WS(server, table)
    snap = a.hello(tokens["A"])["snapshot"]
    b.hello(tokens["B"])
    watcher.hello(None)
    yield Game(table, a, b, watcher, tokens, snap)
    for ws in (a, b, watcher):
        ws.close()


def unchanged(game: Game, http: httpx.Client) -> None:
    """Nobody else heard anything, the table is as before, and A can still play."""
    game.b.quiet()
    game.watcher.quiet()
    game.a.quiet()
    assert http.get(f"/api/tables/{game.id}").json()["snapshot"] == game.snapshot
    move = random_move(game.snapshot, random.Random(0))
    game.a.send({"type": "move", "move": move, "index": 0})
    for ws in (game.a, game.b, game.watcher):
        update = ws.expect("update")
        assert update["index"] == 0 and update["move"] == move


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_json"),
        ("", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"hello"', "bad_json"),
        (b"\xff\xfe", "bad_json"),
        ("{}", "unknown_type"),
        ('{"type": "resign"}', "unknown_type"),
        ('{"type": 7}', "unknown_type"),
        ('{"type": "move"}', "bad_request"),
        ('{"type": "move", "move": 12}', "bad_request"),
        ('{"type": "move", "move": "AD1@a1", "index": "0"}', "bad_request"),
        ('{"type": "move", "move": "AD1@a1", "index": true}', "bad_request"),
        ('{"type": "hello", "token": 5}', "bad_request"),
        ("x" * 4097, "too_large"),
        (json.dumps({"type": "move", "move": "AD1@a1", "pad": "x" * 5000}), "too_large"),
        ('{"type": "move", "move": "garbage!!"}', "notation"),
        ('{"type": "move", "move": "AD1@a1", "index": 5}', "stale"),
    ],
)
def test_malformed_messages_get_an_error_and_change_nothing(
    game: Game, http: httpx.Client, frame: str | bytes, code: str
) -> None:
    error = game.a.error(frame)
    assert error["code"] == code
    assert error["message"]
    unchanged(game, http)


def test_an_illegal_move_says_why(game: Game, http: httpx.Client) -> None:
    far = "AD1@a40"  # not in the start zone
    error = game.a.error({"type": "move", "move": far})
    assert error["code"] == "illegal_move"
    assert "AD1@a40" in error["message"]
    unchanged(game, http)


def test_a_move_out_of_turn_is_refused(game: Game, http: httpx.Client) -> None:
    move = random_move(game.snapshot, random.Random(0)).replace("A", "B", 1)
    error = game.b.error({"type": "move", "move": move})
    assert error["code"] == "not_your_turn"
    unchanged(game, http)


def test_a_spectator_cannot_move(game: Game, http: httpx.Client) -> None:
    move = random_move(game.snapshot, random.Random(0))
    assert game.watcher.error({"type": "move", "move": move})["code"] == "spectator"
    unchanged(game, http)


def test_a_wrong_token_is_refused_and_the_connection_stays_a_spectator(
    server: Server, game: Game, http: httpx.Client
) -> None:
    intruder = WS(server, game.id)
    assert intruder.error({"type": "hello", "token": "not-a-token"})["code"] == "bad_token"
    move = random_move(game.snapshot, random.Random(0))
    assert intruder.error({"type": "move", "move": move})["code"] == "hello_first"
    other = create(http, course="short", riders=3, seats=["human", "human"])
    foreign = join(http, other, "A")  # a real token, of another table
    assert intruder.error({"type": "hello", "token": foreign})["code"] == "bad_token"
    intruder.close()
    unchanged(game, http)


def test_messages_before_hello_are_refused(server: Server, game: Game, http: httpx.Client) -> None:
    early = WS(server, game.id)
    move = random_move(game.snapshot, random.Random(0))
    assert early.error({"type": "move", "move": move, "index": 0})["code"] == "hello_first"
    assert early.error({"type": "ping"})["code"] == "hello_first"
    assert early.hello(None)["seat"] is None
    early.close()
    unchanged(game, http)


def test_moves_before_the_table_starts_are_refused(server: Server, http: httpx.Client) -> None:
    table = create(http, course="short", riders=3, seats=["human", "human"])
    token = join(http, table, "A")
    a = WS(server, table)
    snap = a.hello(token)["snapshot"]
    error = a.error({"type": "move", "move": random_move(snap, random.Random(0))})
    assert error["code"] == "not_started"
    assert "B" in error["message"]
    assert http.get(f"/api/tables/{table}").json()["snapshot"] == snap
    a.close()


def test_an_unknown_table_gets_not_found(server: Server) -> None:
    ws = WS(server, "nosuchtable")
    assert ws.expect("error")["code"] == "not_found"
    ws.close()


def test_a_reconnect_gets_the_full_state_again(
    server: Server, game: Game, http: httpx.Client
) -> None:
    unchanged(game, http)  # one move played
    again = WS(server, game.id)
    welcome = again.hello(game.tokens["A"])
    assert welcome["seat"] == "A"
    assert welcome["snapshot"]["moves_played"] == 1
    assert welcome["snapshot"] == http.get(f"/api/tables/{game.id}").json()["snapshot"]
    again.close()
