"""Player profiles: a name picked once, the public key that proves it, and sessions.

There is no password. The player's browser makes an ECDSA key pair (P-256, WebCrypto)
and keeps the private key; the server keeps the public key with the name. To prove
the name the browser signs a challenge of the server's: :meth:`Profiles.challenge`
gives a random nonce for one name, good once and for :data:`CHALLENGE_SECONDS`, and
the text to sign (:func:`challenge_text`). Registering (:meth:`Profiles.register`)
and signing in (:meth:`Profiles.sign_in`) both send the signature back and get a
*session*: a random token the browser then shows when it takes a seat, so that the
seat remembers the profile (``seats.profile``). The database keeps only each
session's hash.

Names are 2 to :data:`NAME_MAX` letters, digits, ``-``, ``_`` or ``.``, starting with
a letter or digit: no spaces, no markup, no control character, nothing a page must
escape or an address must quote. Two names that differ only in case (or in Unicode
compatibility forms) are the same name (:func:`name_key`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import (
    Column,
    DateTime,
    Engine,
    Float,
    MetaData,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
)

from . import storage
from .errors import BAD_REQUEST, NOT_FOUND, ApiError

#: Error codes of profiles (docs/protocol.md, "Profiles and ratings").
BAD_NAME = "bad_name"
NAME_TAKEN = "name_taken"
BAD_KEY = "bad_key"
BAD_SIGNATURE = "bad_signature"
BAD_CHALLENGE = "bad_challenge"
NOT_SIGNED_IN = "not_signed_in"

NAME_MIN, NAME_MAX = 2, 24
#: Characters a name may hold besides letters and digits.
NAME_MARKS = "-_."
#: Seconds a challenge may be answered in.
CHALLENGE_SECONDS = 120.0
#: Challenges waiting for an answer at most (the oldest are forgotten beyond).
MAX_CHALLENGES = 10_000

SCHEMA = MetaData()

profiles_table = Table(
    "profiles",
    SCHEMA,
    Column("name", String(NAME_MAX), primary_key=True),
    # The name as compared (name_key): unique, so no two profiles differ by case only.
    Column("name_key", String(4 * NAME_MAX), nullable=False, unique=True),
    Column("public_key", Text, nullable=False),  # JWK JSON {"kty", "crv", "x", "y"}
    Column("created", DateTime(timezone=True), nullable=False),
)

sessions_table = Table(
    "profile_sessions",
    SCHEMA,
    Column("token_hash", String(64), primary_key=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


#: The challenges being answered, in cluster mode (:attr:`Profiles.shared`): a node
#: checks the answer to a challenge another node gave. ``expires``: Unix seconds.
challenges_table = Table(
    "profile_challenges",
    SCHEMA,
    Column("nonce", String(64), primary_key=True),
    Column("name_key", String(4 * NAME_MAX), nullable=False),
    Column("expires", Float, nullable=False),
)


@dataclass(frozen=True)
class Profile:
    """A registered profile."""

    name: str
    public_key: dict[str, str]
    created: datetime


def name_key(name: str) -> str:
    """What two names are compared by: case and compatibility forms folded."""
    return unicodedata.normalize("NFKC", name).casefold()


def checked_name(name: Any) -> str:
    """A profile's name, or ``400 bad_name`` saying what is wrong with it."""
    if not isinstance(name, str):
        raise ApiError(400, BAD_NAME, f"a name is text, not {repr(name)[:60]}")
    shown = repr(name) if len(name) <= 40 else repr(name[:40] + "…")
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise ApiError(
            400, BAD_NAME, f"a name has {NAME_MIN} to {NAME_MAX} characters, not {len(name)}"
        )
    bad = [c for c in name if not (c.isalnum() or c in NAME_MARKS)]
    if bad:
        raise ApiError(
            400,
            BAD_NAME,
            f"a name holds only letters, digits, '-', '_' and '.': {shown} holds {bad[0]!r}",
        )
    if not name[0].isalnum():
        raise ApiError(400, BAD_NAME, f"a name starts with a letter or a digit: {shown}")
    return name


def challenge_text(name: str, nonce: str) -> str:
    """The text a browser signs to prove ``name`` (the nonce makes it good once)."""
    return f"peloton sign-in\n{name}\n{nonce}"


_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def _b64(value: Any, what: str, code: str, size: int | None = None) -> bytes:
    """Bytes from base64url text (padding optional), or ``400 code``."""
    if not isinstance(value, str) or not value or len(value) > 512:
        raise ApiError(400, code, f"{what} must be base64url text")
    if not _BASE64URL.fullmatch(value):
        raise ApiError(400, code, f"{what} is not base64url text (A-Z, a-z, 0-9, '-', '_')")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise ApiError(400, code, f"{what} is not base64url text") from None
    if size is not None and len(raw) != size:
        raise ApiError(400, code, f"{what} must be {size} bytes, not {len(raw)}")
    return raw


def public_key(jwk: Any) -> tuple[ec.EllipticCurvePublicKey, dict[str, str]]:
    """The ECDSA P-256 public key of a JWK, and the JWK as kept; ``400 bad_key``."""
    if not isinstance(jwk, dict):
        raise ApiError(
            400, BAD_KEY, 'a key is a JWK object {"kty": "EC", "crv": "P-256", "x", "y"}'
        )
    if "d" in jwk:
        raise ApiError(400, BAD_KEY, "this is a private key: send only its public part (no 'd')")
    if jwk.get("kty") != "EC" or jwk.get("crv") != "P-256":
        raise ApiError(400, BAD_KEY, "the key must be an ECDSA P-256 key (kty EC, crv P-256)")
    x = _b64(jwk.get("x"), "the key's 'x'", BAD_KEY, 32)
    y = _b64(jwk.get("y"), "the key's 'y'", BAD_KEY, 32)
    numbers = ec.EllipticCurvePublicNumbers(
        int.from_bytes(x, "big"), int.from_bytes(y, "big"), ec.SECP256R1()
    )
    try:
        key = numbers.public_key()
    except ValueError:
        raise ApiError(400, BAD_KEY, "the key is not a point of the P-256 curve") from None
    kept = {"kty": "EC", "crv": "P-256", "x": jwk["x"].rstrip("="), "y": jwk["y"].rstrip("=")}
    return key, kept


def verify(key: ec.EllipticCurvePublicKey, text: str, signature: Any) -> None:
    """Check a WebCrypto ECDSA-SHA256 signature (``r || s``, 64 bytes, base64url) of
    ``text``: ``400 bad_signature`` if malformed, ``403 bad_signature`` if wrong."""
    raw = _b64(signature, "'signature'", BAD_SIGNATURE, 64)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, text.encode("utf-8"), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ApiError(
            403, BAD_SIGNATURE, "the signature does not match this profile's key"
        ) from None


def hash_session(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Profiles:
    """Every profile of the server, its sessions, and the challenges being answered."""

    def __init__(
        self,
        writer: storage.Writer,
        engine: Engine,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.writer = writer
        self.engine = engine
        self.clock = clock
        #: name_key -> profile.
        self.profiles: dict[str, Profile] = {}
        #: session hash -> profile name.
        self.sessions: dict[str, str] = {}
        #: nonce -> (name_key, deadline), oldest first.
        self._challenges: OrderedDict[str, tuple[str, float]] = OrderedDict()
        #: Cluster mode: several processes share the profiles, so challenges are kept
        #: in the database, and a session or profile not known here is looked up there
        #: (these lookups block: the API calls them in a thread).
        self.shared = False

    def load(self) -> None:
        """Create the profile tables if missing and read them (blocking)."""
        SCHEMA.create_all(self.engine)
        with self.engine.connect() as conn:
            for r in conn.execute(select(profiles_table)):
                created = r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC)
                profile = Profile(r.name, json.loads(r.public_key), created)
                self.profiles[r.name_key] = profile
            for r in conn.execute(select(sessions_table)):
                self.sessions[r.token_hash] = r.name

    def get(self, name: str) -> Profile | None:
        """The profile of ``name`` (any case), if registered."""
        if not isinstance(name, str):
            return None
        found = self.profiles.get(name_key(name))
        if found is None and self.shared:  # registered on another node
            query = select(profiles_table).where(profiles_table.c.name_key == name_key(name))
            with self.engine.connect() as conn:
                r = conn.execute(query).first()
            if r is not None:
                created = r.created if r.created.tzinfo else r.created.replace(tzinfo=UTC)
                found = Profile(r.name, json.loads(r.public_key), created)
                self.profiles[r.name_key] = found
        return found

    def challenge(self, request: Any) -> dict[str, Any]:
        """``{"name": ...}`` → a new challenge for that name (as registered, when it is):
        its nonce, the text to sign and the seconds left to answer."""
        name = checked_name(request.get("name") if isinstance(request, dict) else None)
        known = self.get(name)
        name = known.name if known is not None else name  # as registered, in its case
        now = self.clock()
        while self._challenges and (
            len(self._challenges) >= MAX_CHALLENGES
            or next(iter(self._challenges.values()))[1] < now
        ):
            self._challenges.popitem(last=False)
        nonce = secrets.token_urlsafe(32)
        if self.shared:
            self._share(nonce, name_key(name))
        else:
            self._challenges[nonce] = (name_key(name), now + CHALLENGE_SECONDS)
        return {
            "name": name,
            "challenge": nonce,
            "text": challenge_text(name, nonce),
            "expires_in": CHALLENGE_SECONDS,
        }

    def _share(self, nonce: str, key: str) -> None:
        """Keep a challenge in the database (cluster mode), the stale ones dropped."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(challenges_table).where(challenges_table.c.expires < now))
            row = {"nonce": nonce, "name_key": key, "expires": now + CHALLENGE_SECONDS}
            conn.execute(insert(challenges_table), row)

    def _asked(self, nonce: str) -> tuple[str, float] | None:
        """The name key and deadline of a challenge (cluster mode: from the database,
        the deadline on this process's clock)."""
        if not self.shared:
            return self._challenges.get(nonce)
        query = select(challenges_table).where(challenges_table.c.nonce == nonce)
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        if r is None:
            return None
        return r.name_key, self.clock() + (r.expires - time.time())

    def _use(self, nonce: str) -> bool:
        """Use a challenge up; whether it was still there (another node may have used
        it a moment ago)."""
        if not self.shared:
            return self._challenges.pop(nonce, None) is not None
        with self.engine.begin() as conn:
            found = conn.execute(
                delete(challenges_table).where(challenges_table.c.nonce == nonce)
            ).rowcount
        return bool(found)

    def _answer(self, request: Any, key: ec.EllipticCurvePublicKey | None) -> tuple[str, Any]:
        """The name and checked signature of a register or sign-in request, its challenge
        used up; ``key`` verifies the signature (``None``: the profile's own)."""
        if not isinstance(request, dict):
            raise ApiError(
                400, BAD_REQUEST, 'send {"name", "challenge", "signature"} (see docs/protocol.md)'
            )
        name = checked_name(request.get("name"))
        nonce = request.get("challenge")
        if not isinstance(nonce, str):
            raise ApiError(400, BAD_CHALLENGE, "'challenge' is the nonce the server gave")
        asked = self._asked(nonce)
        if asked is None:
            raise ApiError(
                403, BAD_CHALLENGE, "this challenge is unknown or already used: ask for a new one"
            )
        if asked[0] != name_key(name):
            raise ApiError(
                403, BAD_CHALLENGE, f"this challenge was given for another name, not {name}"
            )
        if asked[1] < self.clock():
            self._use(nonce)
            raise ApiError(403, BAD_CHALLENGE, "this challenge is too old: ask for a new one")
        if key is None:
            profile = self.get(name)
            if profile is None:
                raise ApiError(404, NOT_FOUND, f"no profile {name!r}")
            key, _ = public_key(profile.public_key)
            name = profile.name
        verify(key, challenge_text(name, nonce), request.get("signature"))
        # A good answer uses it up; a bad one may be retried.
        if not self._use(nonce):
            raise ApiError(
                403, BAD_CHALLENGE, "this challenge is unknown or already used: ask for a new one"
            )
        return name, request

    async def register(self, request: Any) -> dict[str, Any]:
        """``{"name", "key", "challenge", "signature"}`` → a new profile and a session
        (``409 name_taken`` when the name, in any case, is another profile's)."""
        key, jwk = public_key(request.get("key") if isinstance(request, dict) else None)
        name = checked_name(request.get("name"))
        taken = self.get(name)
        if taken is not None:
            raise ApiError(409, NAME_TAKEN, f"the name {taken.name!r} is taken: pick another")
        name, _ = self._answer(request, key)
        if self.get(name) is not None:  # registered while this request was checked
            raise ApiError(409, NAME_TAKEN, f"the name {name!r} is taken: pick another")
        created = storage.now().replace(microsecond=0)
        token = secrets.token_urlsafe(32)
        row = {
            "name": name,
            "name_key": name_key(name),
            "public_key": json.dumps(jwk),
            "created": created,
        }
        digest = hash_session(token)
        session = {"token_hash": digest, "name": name, "created": created}
        profile = Profile(name, jwk, created)
        self.profiles[name_key(name)] = profile  # claimed before the commit: no twin
        try:
            await self.writer.write(
                [(insert(profiles_table), row), (insert(sessions_table), session)]
            )
        except Exception:
            del self.profiles[name_key(name)]
            raise
        self.sessions[digest] = name
        return {"name": name, "session": token}

    async def sign_in(self, request: Any) -> dict[str, Any]:
        """``{"name", "challenge", "signature"}`` → a new session for that profile."""
        name, _ = self._answer(request, None)
        token = secrets.token_urlsafe(32)
        digest = hash_session(token)
        session = {"token_hash": digest, "name": name, "created": storage.now()}
        await self.writer.write([(insert(sessions_table), session)])
        self.sessions[digest] = name
        return {"name": name, "session": token}

    async def sign_out(self, token: Any) -> None:
        """Forget a session (nothing for an unknown one)."""
        digest = hash_session(token) if isinstance(token, str) else ""
        if self.sessions.pop(digest, None) is not None or (self.shared and digest):
            stmt = delete(sessions_table).where(sessions_table.c.token_hash == digest)
            await self.writer.write([(stmt, {})])

    def session_name(self, token: Any) -> str:
        """The profile name of a session token; ``403 not_signed_in`` for a token that
        is not a session of this server."""
        name = self.sessions.get(hash_session(token)) if isinstance(token, str) else None
        if self.shared and isinstance(token, str):  # made, or ended, on another node
            query = select(sessions_table.c.name).where(
                sessions_table.c.token_hash == hash_session(token)
            )
            with self.engine.connect() as conn:
                name = conn.execute(query).scalar()
        if name is None:
            raise ApiError(
                403, NOT_SIGNED_IN, "this profile session is unknown or over: sign in again"
            )
        return name

    def signed_in(self, body: Any) -> str | None:
        """The profile a join or create request is signed in with (its ``"profile"``
        session token, in the body or in its ``creator``), ``None`` without one;
        ``403 not_signed_in`` for a session the server does not know. The seat is then
        given the profile's name."""
        if not isinstance(body, dict):
            return None
        creator = body.get("creator")
        token = creator.get("profile") if isinstance(creator, dict) else body.get("profile")
        if token is None:
            return None
        name = self.session_name(token)
        if isinstance(creator, dict):
            creator["name"] = name
        else:
            body["name"] = name
        return name
