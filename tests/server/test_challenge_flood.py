"""Sign-in challenges a flood cannot spoil (issue 32, point 3).

The issue: 10,100 ``POST /api/profiles/challenge`` from one client in 14 s were all
answered, and pushed a victim's pending challenge out of the 10,000 the server kept:
her sign-in then failed. Now one client (address) gets
:attr:`~peloton.server.limits.Limits.challenges_per_minute` challenges a minute
(``429 rate_limited`` with ``Retry-After`` beyond), and a challenge is stateless:
signed by the server (HMAC, with a secret kept once in the database), carrying its
name and expiry, used once. No number of challenges asked by others can make hers
fail; a replayed, expired or forged one is refused.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from peloton.server.limits import Limits
from peloton.server.storage import database, store
from peloton.server.storage.challenges import challenge_text, challenge_token
from peloton.server.storage.profiles import Profiles, name_key, server_keys_table

from .hostile_support import ArgServer, running
from .profile_support import Signer, challenge, register

ALLOWED = Limits().challenges_per_minute


@pytest.fixture(scope="module")
def guarded(db_url: str) -> Iterator[ArgServer]:
    """A server with its default per-client limits (the challenge limit on)."""
    with running(db_url) as srv:
        yield srv


def refused(answer: httpx.Response, status: int, code: str, words: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and words in error["message"], error


def answer_of(name: str, asked: dict[str, str], signer: Signer) -> dict[str, str]:
    return {"name": name, "challenge": asked["challenge"], "signature": signer.sign(asked["text"])}


def test_a_flood_of_challenges_is_limited_and_spoils_nobody_elses(guarded: ArgServer) -> None:
    """One address asks for challenges as fast as it can: it gets its share, then
    ``429`` with ``Retry-After``; the victim (another address) asked hers before the
    flood and signs in with it after."""
    assert ALLOWED is not None
    victim = Signer()
    with guarded.from_address("127.0.0.3") as mine, guarded.from_address("127.0.0.2") as hog:
        register(mine, "Victim", victim)
        pending = challenge(mine, "Victim")
        statuses = []
        for i in range(ALLOWED + 10):
            answer = hog.post("/api/profiles/challenge", json={"name": f"Flood{i}"})
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                refused(answer, 429, "rate_limited", "wait")
                assert "challenges" in answer.json()["error"]["message"]
                assert int(answer.headers["retry-after"]) >= 1
        assert statuses[:ALLOWED] == [200] * ALLOWED, statuses
        assert statuses[ALLOWED:] == [429] * 10, (
            f"one client got {statuses.count(200)} challenges at once (limit {ALLOWED} a minute)"
        )
        signed_in = mine.post("/api/profiles/session", json=answer_of("Victim", pending, victim))
        assert signed_in.status_code == 200, signed_in.text
    with guarded.from_address("127.0.0.4") as other:  # another client is not limited
        assert other.post("/api/profiles/challenge", json={"name": "Other"}).status_code == 200


def test_no_number_of_challenges_spoils_a_pending_one(tmp_path: Path) -> None:
    """In process, with no rate limit at all: twice the 10,000 challenges the server
    used to keep are asked for after the victim's; she still registers with hers."""
    engine = database.create_db_engine(f"sqlite:///{tmp_path / 'p.db'}")
    profiles = Profiles(store.Writer(engine, inline=True), engine)
    profiles.load()
    signer = Signer()
    mine = profiles.challenge({"name": "Patient"})
    for i in range(20_000):
        profiles.challenge({"name": f"Flood{i}"})
    body = answer_of("Patient", mine, signer) | {"key": signer.jwk()}
    assert asyncio.run(profiles.register(body))["name"] == "Patient"
    profiles.writer.close()
    engine.dispose()


def test_a_replayed_challenge_is_refused(guarded: ArgServer) -> None:
    signer = Signer()
    with guarded.from_address("127.0.0.5") as http:
        register(http, "Replayed", signer)
        body = answer_of("Replayed", challenge(http, "Replayed"), signer)
        assert http.post("/api/profiles/session", json=body).status_code == 200
        refused(http.post("/api/profiles/session", json=body), 403, "bad_challenge", "already used")
        # A challenge that registered a profile does not sign in again either.
        other = Signer()
        asked = challenge(http, "Replayed2")
        made = http.post(
            "/api/profiles", json=answer_of("Replayed2", asked, other) | {"key": other.jwk()}
        )
        assert made.status_code == 201, made.text
        again = http.post("/api/profiles/session", json=answer_of("Replayed2", asked, other))
        refused(again, 403, "bad_challenge", "already used")


def _secret(db_url: str) -> str:
    """The server's challenge secret, as the database keeps it (what every node of a
    cluster reads)."""
    engine = database.create_db_engine(db_url)
    try:
        with engine.connect() as conn:
            found = conn.execute(select(server_keys_table.c.secret)).scalar_one()
    finally:
        engine.dispose()
    return str(found)


def test_an_expired_challenge_is_refused(guarded: ArgServer, db_url: str) -> None:
    """A challenge the server did sign (made here with its secret) whose time is over."""
    signer = Signer()
    with guarded.from_address("127.0.0.6") as http:
        register(http, "Late", signer)
        token = challenge_token(_secret(db_url), name_key("Late"), time.time() - 1)
        body = {
            "name": "Late",
            "challenge": token,
            "signature": signer.sign(challenge_text("Late", token)),
        }
        refused(http.post("/api/profiles/session", json=body), 403, "bad_challenge", "too old")
        # The same made in time signs in: only the expiry was wrong.
        token = challenge_token(_secret(db_url), name_key("Late"), time.time() + 60)
        body = {
            "name": "Late",
            "challenge": token,
            "signature": signer.sign(challenge_text("Late", token)),
        }
        assert http.post("/api/profiles/session", json=body).status_code == 200


def test_a_forged_challenge_is_refused(guarded: ArgServer) -> None:
    signer = Signer()
    with guarded.from_address("127.0.0.7") as http:
        register(http, "Forged", signer)
        real = challenge(http, "Forged")["challenge"]
        expires, rest = real.split(".", 1)
        forgeries = [
            "made-up",
            "",
            "1.2.3.4",
            f"{int(expires) + 3600}.{rest}",  # its time pushed back: the seal breaks
            challenge_token("not the server's secret", name_key("Forged"), time.time() + 60),
            real[:-2] + ("AA" if not real.endswith("AA") else "BB"),
        ]
        for token in forgeries:
            body = {
                "name": "Forged",
                "challenge": token,
                "signature": signer.sign(challenge_text("Forged", token)),
            }
            refused(http.post("/api/profiles/session", json=body), 403, "bad_challenge", "unknown")
        # A challenge of another name is refused as such.
        theirs = challenge(http, "Someone")
        body = answer_of("Forged", theirs, signer)
        refused(http.post("/api/profiles/session", json=body), 403, "bad_challenge", "another name")
