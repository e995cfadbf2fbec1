"""Bad input to profiles (issue 18, item 5): a taken name, impersonation with a wrong
key, a replayed, stale or borrowed challenge, malformed keys and signatures, names too
long, empty, with control characters or markup, a session the server does not know,
a bad ``rated`` flag: each is refused with a clear error and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from peloton.server.errors import ApiError
from peloton.server.storage import database, store
from peloton.server.storage.profiles import CHALLENGE_SECONDS, Profiles

from .helpers import create
from .profile_support import Signer, b64, challenge, register, sign_in


def refused(answer: httpx.Response, status: int, code: str, words: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code, error
    assert words in error["message"], error


def registering(http: httpx.Client, name: str, signer: Signer, **changed: Any) -> httpx.Response:
    asked = challenge(http, name)
    body = {
        "name": name,
        "key": signer.jwk(),
        "challenge": asked["challenge"],
        "signature": signer.sign(asked["text"]),
    }
    return http.post("/api/profiles", json=body | changed)


def test_a_taken_name_is_refused_in_any_case(http: httpx.Client) -> None:
    owner = Signer()
    register(http, "Poulidor", owner)
    for name in ("Poulidor", "POULIDOR", "poulidor"):
        refused(registering(http, name, Signer()), 409, "name_taken", "is taken")
    # The profile is still its owner's, and only theirs.
    assert sign_in(http, "Poulidor", owner).status_code == 200


def test_impersonation_with_another_key_is_refused(http: httpx.Client) -> None:
    register(http, "Kelly", Signer())
    refused(sign_in(http, "Kelly", Signer()), 403, "bad_signature", "does not match")
    refused(sign_in(http, "Nobody-here", Signer()), 404, "not_found", "no profile")


def test_a_replayed_challenge_is_refused(http: httpx.Client) -> None:
    signer = Signer()
    register(http, "Roche", signer)
    asked = challenge(http, "Roche")
    body = {
        "name": "Roche",
        "challenge": asked["challenge"],
        "signature": signer.sign(asked["text"]),
    }
    assert http.post("/api/profiles/session", json=body).status_code == 200
    refused(http.post("/api/profiles/session", json=body), 403, "bad_challenge", "already used")
    refused(
        http.post("/api/profiles/session", json=body | {"challenge": "made-up"}),
        403,
        "bad_challenge",
        "unknown",
    )


def test_a_challenge_given_for_another_name_is_refused(http: httpx.Client) -> None:
    signer = Signer()
    register(http, "Lemond", signer)
    asked = challenge(http, "Someone-else")
    body = {
        "name": "Lemond",
        "challenge": asked["challenge"],
        "signature": signer.sign(asked["text"]),
    }
    refused(http.post("/api/profiles/session", json=body), 403, "bad_challenge", "another name")


def test_an_old_challenge_is_refused(tmp_path: Path) -> None:
    """The clock is injected: the challenge is answered a second too late."""
    engine = database.create_db_engine(f"sqlite:///{tmp_path / 'p.db'}")
    now = [1000.0]
    profiles = Profiles(store.Writer(engine, inline=True), engine, clock=lambda: now[0])
    profiles.load()
    signer = Signer()

    async def scenario() -> None:
        asked = profiles.challenge({"name": "Zoetemelk"})
        now[0] += CHALLENGE_SECONDS + 1
        body = {"name": "Zoetemelk", "key": signer.jwk(), "challenge": asked["challenge"],
                "signature": signer.sign(asked["text"])}  # fmt: skip
        with pytest.raises(ApiError) as caught:
            await profiles.register(body)
        assert caught.value.code == "bad_challenge" and "too old" in caught.value.message
        # In time, the same request registers.
        asked = profiles.challenge({"name": "Zoetemelk"})
        now[0] += CHALLENGE_SECONDS - 1
        body |= {"challenge": asked["challenge"], "signature": signer.sign(asked["text"])}
        assert (await profiles.register(body))["name"] == "Zoetemelk"

    asyncio.run(scenario())
    assert profiles.get("Zoetemelk") is not None
    profiles.writer.close()
    engine.dispose()


BAD_KEYS = [
    ("not a key", "JWK object"),
    ({"kty": "RSA", "n": "AQAB", "e": "AQAB"}, "P-256"),
    ({"kty": "EC", "crv": "P-384", "x": b64(bytes(48)), "y": b64(bytes(48))}, "P-256"),
    ({"kty": "EC", "crv": "P-256", "x": "!!!", "y": b64(bytes(32))}, "base64url"),
    ({"kty": "EC", "crv": "P-256", "x": b64(bytes(31)), "y": b64(bytes(32))}, "32 bytes"),
    ({"kty": "EC", "crv": "P-256", "x": b64(bytes(32)), "y": b64(bytes(32))}, "not a point"),
]


@pytest.mark.parametrize(("key", "words"), BAD_KEYS)
def test_malformed_keys_are_refused(http: httpx.Client, key: Any, words: str) -> None:
    refused(registering(http, "Keyless", Signer(), key=key), 400, "bad_key", words)
    assert http.get("/api/players/Keyless").status_code == 404


def test_a_private_key_sent_by_mistake_is_refused(http: httpx.Client) -> None:
    signer = Signer()
    private = signer.jwk() | {"d": b64(bytes(32))}
    refused(registering(http, "Careless", signer, key=private), 400, "bad_key", "private key")
    assert http.get("/api/players/Careless").status_code == 404


@pytest.mark.parametrize(
    ("signature", "status", "words"),
    [
        ("%%%", 400, "base64url"),
        (b64(bytes(10)), 400, "64 bytes"),
        (12, 400, "base64url"),
        (b64(bytes(64)), 403, "does not match"),
    ],
)
def test_malformed_or_wrong_signatures_are_refused(
    http: httpx.Client, signature: Any, status: int, words: str
) -> None:
    refused(
        registering(http, "Unsigned", Signer(), signature=signature), status, "bad_signature", words
    )
    assert http.get("/api/players/Unsigned").status_code == 404


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "2 to 24 characters"),
        ("x", "2 to 24 characters"),
        ("y" * 25, "2 to 24 characters"),
        ("bell\x07", "'\\x07'"),
        ("tab\there", "'\\t'"),
        ("<b>bold</b>", "'<'"),
        ("a&b", "'&'"),
        ("two words", "' '"),
        ("-dash", "starts with a letter or a digit"),
        (None, "a name is text"),
    ],
)
def test_bad_names_are_refused(http: httpx.Client, name: Any, words: str) -> None:
    refused(http.post("/api/profiles/challenge", json={"name": name}), 400, "bad_name", words)


def test_a_name_never_given_a_challenge_cannot_register(http: httpx.Client) -> None:
    signer = Signer()
    body = {"name": "Sneaky", "key": signer.jwk(), "challenge": "x", "signature": signer.sign("x")}
    refused(http.post("/api/profiles", json=body), 403, "bad_challenge", "unknown")
    refused(http.post("/api/profiles", json=["not", "an", "object"]), 400, "bad_key", "JWK")


def test_an_unknown_session_takes_no_seat(http: httpx.Client) -> None:
    table_id = create(http, game="mind-twist", seats=["human", "human"])
    answer = http.post(f"/api/tables/{table_id}/join", json={"seat": "R", "profile": "forged"})
    refused(answer, 403, "not_signed_in", "sign in again")
    creating = http.post(
        "/api/tables",
        json={"game": "mind-twist", "seats": ["human", "random"],
              "creator": {"seat": "R", "name": "x", "profile": "forged"}},
    )  # fmt: skip
    refused(creating, 403, "not_signed_in", "sign in again")
    assert all(not s["taken"] for s in http.get(f"/api/tables/{table_id}").json()["seats"])


def test_signed_out_sessions_take_no_seat(http: httpx.Client) -> None:
    session = register(http, "Gimondi", Signer())
    assert http.post("/api/profiles/sign-out", json={"session": session}).status_code == 200
    table_id = create(http, game="mind-twist", seats=["human", "human"])
    answer = http.post(f"/api/tables/{table_id}/join", json={"seat": "R", "profile": session})
    refused(answer, 403, "not_signed_in", "sign in again")


def test_rated_must_be_true_or_false(http: httpx.Client) -> None:
    answer = http.post(
        "/api/tables", json={"game": "mind-twist", "seats": ["human", "random"], "rated": "no"}
    )
    refused(answer, 400, "bad_options", "'rated' must be true or false")


def test_unknown_players_and_games_are_404(http: httpx.Client) -> None:
    refused(http.get("/api/players/Ghost"), 404, "not_found", "no player")
    refused(http.get("/api/leaderboard/tiddlywinks"), 404, "not_found", "no game")
    refused(http.get("/api/leaderboard/mind-twist?limit=0"), 400, "bad_request", "'limit'")
    assert http.get("/players/Ghost").status_code == 404
