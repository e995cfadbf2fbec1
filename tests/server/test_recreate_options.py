"""Issue 32, point 9: the options a table shows (``GET /api/tables/{id}``) create the
same table again, for every game the server offers and every option left at its
default, and a finished table's rematch opens with them (docs/protocol.md, "HTTP
API": a rematch has the same options and seats).

A Cyclo table whose course was left to the game (the lobby's default, ``course``
``null``) showed ``"course": null``, and its rematch failed with ``400`` ("option
'course' must be one of ... not None"): the default of an option with choices was
refused when sent back. The games and their options are read from ``GET
/api/games`` only: a game added to the server is checked here without a word
changed."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from .helpers import WS, Server, create, join

#: Keys of a table's detail that are not its options but say which table it is.
SAME_TABLE = ("game", "options", "solo", "rated", "standin")


def offered(http: httpx.Client) -> list[dict[str, Any]]:
    """Every game of ``GET /api/games``."""
    answer = http.get("/api/games")
    assert answer.status_code == 200, answer.text
    found: list[dict[str, Any]] = answer.json()["games"]
    assert found, "the server offers no game"
    return found


def seat_count(game: dict[str, Any]) -> int:
    """The seats of a table at the game's defaults: its ``players`` option's default
    where it has one, else its fewest seats (never a one-seat table by accident)."""
    defaults = {o["name"]: o["default"] for o in game["options"]}
    players = defaults.get("players")
    if isinstance(players, int):
        return players
    return int(max(game["seats"]["min"], min(2, game["seats"]["max"])))


def requests_of(game: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Create requests of ``game`` with every option at its default: none given, all
    given as ``GET /api/games`` lists their defaults, and each one given alone."""
    seats = ["human"] * seat_count(game)
    base: dict[str, Any] = {"game": game["name"], "seats": seats, "solo": len(seats) == 1}
    defaults = {o["name"]: o["default"] for o in game["options"]}
    out = [("none given", base), ("all given", {**base, "options": dict(defaults)})]
    out += [(f"{name} given", {**base, "options": {name: v}}) for name, v in defaults.items()]
    return out


def detail(http: httpx.Client, table_id: str) -> dict[str, Any]:
    answer = http.get(f"/api/tables/{table_id}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def again(shown: dict[str, Any]) -> dict[str, Any]:
    """The create request of a table as its detail shows it."""
    request = {key: shown[key] for key in SAME_TABLE}
    request["seats"] = [s["kind"] for s in shown["seats"]]
    return request


def test_every_game_at_its_defaults_is_created_again_from_what_it_shows(
    http: httpx.Client,
) -> None:
    """For every game and every option left at its default: the table a create request
    opens shows options that, sent back, open a table showing the same again."""
    refused = []
    for game in offered(http):
        for how, request in requests_of(game):
            answer = http.post("/api/tables", json=request)
            if answer.status_code != 201:
                refused.append(f"{game['name']} ({how}), created: {answer.text}")
                continue
            first = detail(http, answer.json()["id"])
            answer = http.post("/api/tables", json=again(first))
            if answer.status_code != 201:
                refused.append(f"{game['name']} ({how}), again: {answer.text}")
                continue
            second = detail(http, answer.json()["id"])
            assert again(second) == again(first), f"{game['name']} ({how})"
    assert not refused, "\n".join(refused)


def with_course_left_to_the_game(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The game whose ``course`` option defaults to ``null`` (left to the game)."""
    for game in games:
        if any(o["name"] == "course" and o["default"] is None for o in game["options"]):
            return game
    pytest.fail("no game leaves its course to the game by default")


def any_legal(snapshot: dict[str, Any], rng: random.Random) -> str:
    """A random legal move of a snapshot (its ``legal``: texts, or objects with a ``text``)."""
    move = rng.choice(snapshot["legal"])
    return str(move["text"] if isinstance(move, dict) else move)


def test_the_rematch_of_a_table_whose_course_was_left_to_the_game(
    server: Server, http: httpx.Client
) -> None:
    """A Cyclo table at the lobby's defaults (the course left to the game: ``null``),
    played to its end by a person and a bot, opens its rematch: ``200``, with the same
    options shown. (Before the fix: ``400`` "option 'course' must be one of ...".)"""
    game = with_course_left_to_the_game(offered(http))
    seats = ["human"] + [game["bots"][0]] * (seat_count(game) - 1)
    table_id = create(http, game=game["name"], seats=seats, options={"course": None})
    token = join(http, table_id, "A")
    rng = random.Random(32)
    ws = WS(server, table_id)
    try:
        message = ws.hello(token)
        for _ in range(5000):
            snap = message["snapshot"]
            if message["table"]["status"] == "finished":
                break
            if snap.get("current_player") == "A" and snap.get("legal"):
                ws.send({"type": "move", "move": any_legal(snap, rng)})
            message = ws.recv()
            while message["type"] not in ("update", "welcome"):
                message = ws.recv()
        else:
            pytest.fail("the game did not end")
    finally:
        ws.close()
    first = detail(http, table_id)
    assert first["status"] == "finished" and first["options"]["course"] is None
    answer = http.post(
        f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    rematch = detail(http, answer.json()["id"])
    assert answer.json()["seat"] == "A" and answer.json()["token"]
    assert again(rematch) == again(first)
