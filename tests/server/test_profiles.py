"""Profiles and ratings (issue 18, item 4) on a real server, SQLite and PostgreSQL:
register, sign in, take seats signed in, finish games, and see each rated player's
rating move once, by openskill's update from the game's places."""

from __future__ import annotations

import random

import httpx

from peloton.server.live.ratings import MODEL, bot_rating, bot_ratings, ordinal

from .helpers import Server, create
from .profile_support import Signer, play_to_end, register, sign_in


def test_a_profile_signs_in_again_with_its_key(http: httpx.Client) -> None:
    signer = Signer()
    first = register(http, "Anquetil", signer)
    answer = sign_in(http, "anquetil", signer)  # any case finds the profile
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"] == "Anquetil"
    assert answer.json()["session"] != first
    player = http.get("/api/players/Anquetil").json()
    assert player["name"] == "Anquetil" and player["ratings"] == [] and player["tables"] == []


def test_a_seat_taken_signed_in_remembers_the_profile_and_the_game_rates_it(
    server: Server, http: httpx.Client
) -> None:
    session = register(http, "Merckx", Signer())
    answer = http.post(
        "/api/tables",
        json={
            "game": "mind-twist",
            "seats": ["human", "random"],
            "creator": {"seat": "R", "name": "whatever", "profile": session},
        },
    )
    assert answer.status_code == 201, answer.text
    table_id, token = answer.json()["id"], answer.json()["token"]
    seat = http.get(f"/api/tables/{table_id}").json()["seats"][0]
    assert seat["profile"] == "Merckx" and seat["name"] == "Merckx"
    running = http.get("/api/players/Merckx").json()["tables"]
    assert [(t["id"], t["status"], t["seat"]) for t in running] == [(table_id, "running", "R")]

    play_to_end(server, table_id, {"R": token}, random.Random(1))

    detail = http.get(f"/api/tables/{table_id}").json()
    assert detail["status"] == "finished" and detail["rated"] is True
    place = 1 if detail["result"] == "R" else 2
    model = MODEL
    bot = bot_rating("mind-twist", "random")
    new = model.rate(
        [[model.rating()], [model.rating(mu=bot[0], sigma=bot[1])]],
        ranks=[place, 3 - place],
    )[0][0]
    player = http.get("/api/players/Merckx").json()
    [rated] = player["ratings"]
    assert rated["game"] == "mind-twist" and rated["games"] == 1
    assert abs(rated["mu"] - new.mu) < 1e-3 and abs(rated["sigma"] - new.sigma) < 1e-3
    assert rated["rating"] == round(ordinal(new.mu, new.sigma), 2)
    [table] = player["tables"]
    assert table["status"] == "finished"
    assert table["rating"]["place"] == place and table["rating"]["after"] == rated["rating"]
    board = http.get("/api/leaderboard/mind-twist").json()
    assert "Merckx" in [p["name"] for p in board["players"]]
    fixed = bot_ratings().get("mind-twist", {})
    assert {b["name"]: b["mu"] for b in board["bots"]} == {
        bot: round(mu, 3) for bot, (mu, _) in fixed.items()
    }


def test_two_signed_in_players_are_rated_against_each_other_once(
    server: Server, http: httpx.Client
) -> None:
    sessions = {"R": register(http, "Hinault", Signer()), "B": register(http, "Fignon", Signer())}
    table_id = create(http, game="mind-twist", seats=["human", "human"])
    tokens = {}
    for seat, session in sessions.items():
        answer = http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "profile": session})
        assert answer.status_code == 200, answer.text
        tokens[seat] = answer.json()["token"]
    play_to_end(server, table_id, tokens, random.Random(2))
    result = http.get(f"/api/tables/{table_id}").json()["result"]
    places = {"R": 1, "B": 2} if result == "R" else {"R": 2, "B": 1}
    model = MODEL
    new = model.rate([[model.rating()], [model.rating()]], ranks=[places["R"], places["B"]])
    for (seat, name), team in zip({"R": "Hinault", "B": "Fignon"}.items(), new, strict=True):
        [rated] = http.get(f"/api/players/{name}").json()["ratings"]
        assert rated["games"] == 1
        assert abs(rated["mu"] - team[0].mu) < 1e-3, seat
    board = [p["name"] for p in http.get("/api/leaderboard/mind-twist").json()["players"]]
    winner, loser = ("Hinault", "Fignon") if result == "R" else ("Fignon", "Hinault")
    assert board.index(winner) < board.index(loser)


def test_an_unrated_table_changes_no_rating(server: Server, http: httpx.Client) -> None:
    session = register(http, "Coppi", Signer())
    answer = http.post(
        "/api/tables",
        json={
            "game": "mind-twist",
            "seats": ["human", "random"],
            "rated": False,
            "creator": {"seat": "R", "name": "Coppi", "profile": session},
        },
    )
    assert answer.status_code == 201, answer.text
    table_id, token = answer.json()["id"], answer.json()["token"]
    assert http.get(f"/api/tables/{table_id}").json()["rated"] is False
    play_to_end(server, table_id, {"R": token}, random.Random(3))
    player = http.get("/api/players/Coppi").json()
    assert player["ratings"] == []
    assert [(t["status"], t["rated"], t["rating"]) for t in player["tables"]] == [
        ("finished", False, None)
    ]
    # Its rematch is unrated too, and seats Coppi signed in again.
    rematch = http.post(
        f"/api/tables/{table_id}/rematch", headers={"Authorization": f"Bearer {token}"}
    )
    assert rematch.status_code == 200, rematch.text
    detail = http.get(f"/api/tables/{rematch.json()['id']}").json()
    assert detail["rated"] is False and detail["seats"][0]["profile"] == "Coppi"


def test_anonymous_seats_play_as_before(server: Server, http: httpx.Client) -> None:
    table_id = create(http, game="mind-twist", seats=["human", "random"])
    answer = http.post(f"/api/tables/{table_id}/join", json={"seat": "R", "name": "Nobody"})
    assert answer.status_code == 200, answer.text
    assert http.get(f"/api/tables/{table_id}").json()["seats"][0]["profile"] is None
    play_to_end(server, table_id, {"R": answer.json()["token"]}, random.Random(4))
    assert http.get(f"/api/tables/{table_id}").json()["status"] == "finished"


def test_one_profile_takes_one_seat_of_a_table(http: httpx.Client) -> None:
    session = register(http, "Bartali", Signer())
    table_id = create(http, game="mind-twist", seats=["human", "human"])
    first = http.post(f"/api/tables/{table_id}/join", json={"seat": "R", "profile": session})
    assert first.status_code == 200, first.text
    second = http.post(f"/api/tables/{table_id}/join", json={"seat": "B", "profile": session})
    assert second.status_code == 409, second.text
    assert "already sits at seat R" in second.json()["error"]["message"]
    assert http.get(f"/api/tables/{table_id}").json()["seats"][1]["taken"] is False
