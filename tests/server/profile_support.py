"""Helpers of the profile tests: a player's key pair signing as a browser's WebCrypto
does (ECDSA P-256 over SHA-256, the signature as ``r || s``), registering and signing
in through the HTTP API, and a game played to its end against bots."""

from __future__ import annotations

import base64
import random
from typing import Any

import httpx
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

from .helpers import WS, Server


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class Signer:
    """A player's key pair, as a browser keeps it."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())

    def jwk(self) -> dict[str, str]:
        """The public key as a JWK (what the browser registers)."""
        numbers = self.key.public_key().public_numbers()
        return {
            "kty": "EC",
            "crv": "P-256",
            "x": b64(numbers.x.to_bytes(32, "big")),
            "y": b64(numbers.y.to_bytes(32, "big")),
        }

    def sign(self, text: str) -> str:
        """A WebCrypto-style signature of ``text``."""
        r, s = decode_dss_signature(self.key.sign(text.encode(), ec.ECDSA(hashes.SHA256())))
        return b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def challenge(http: httpx.Client, name: str) -> dict[str, Any]:
    answer = http.post("/api/profiles/challenge", json={"name": name})
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def register(http: httpx.Client, name: str, signer: Signer) -> str:
    """Register ``name`` with ``signer``'s key; the session token."""
    asked = challenge(http, name)
    answer = http.post(
        "/api/profiles",
        json={
            "name": name,
            "key": signer.jwk(),
            "challenge": asked["challenge"],
            "signature": signer.sign(asked["text"]),
        },
    )
    assert answer.status_code == 201, answer.text
    session: str = answer.json()["session"]
    return session


def sign_in(http: httpx.Client, name: str, signer: Signer) -> httpx.Response:
    """Sign in as ``name`` with ``signer``'s key; the server's answer."""
    asked = challenge(http, name)
    return http.post(
        "/api/profiles/session",
        json={
            "name": name,
            "challenge": asked["challenge"],
            "signature": signer.sign(asked["text"]),
        },
    )


def pick(snapshot: dict[str, Any], rng: random.Random) -> str:
    """A random legal move of a snapshot (listed as texts or as objects)."""
    move = rng.choice(snapshot["legal"])
    return move if isinstance(move, str) else str(move["text"])


def play_to_end(
    server: Server, table_id: str, tokens: dict[str, str], rng: random.Random
) -> dict[str, Any]:
    """Play random moves for the human seats of ``tokens`` (the bots play theirs) until
    the game is over; the last table summary."""
    sockets = {seat: WS(server, table_id) for seat in tokens}
    try:
        snaps = {seat: ws.hello(tokens[seat])["snapshot"] for seat, ws in sockets.items()}
        table: dict[str, Any] = {}
        for _ in range(5000):
            if any(s["is_over"] for s in snaps.values()):
                return table
            mover = next(
                (s for s, snap in snaps.items() if snap["current_player"] == s and snap["legal"]),
                None,
            )
            if mover is not None:
                sockets[mover].send({"type": "move", "move": pick(snaps[mover], rng)})
            for seat, ws in sockets.items():
                update = ws.expect("update")
                snaps[seat], table = update["snapshot"], update["table"]
        raise AssertionError("the game did not end in 5000 moves")
    finally:
        for ws in sockets.values():
            ws.close()
