"""Player profiles: a name picked once, the public key that proves it, and sessions.

There is no password. The player's browser makes an ECDSA key pair (P-256, WebCrypto)
and keeps the private key; the server keeps the public key with the name. To prove
the name the browser signs a challenge of the server's: :meth:`Profiles.challenge`
gives one for one name, good once and for :data:`CHALLENGE_SECONDS`, and the text to
sign (:func:`challenge_text`). A challenge is stateless (:func:`challenge_token`): it
carries its name and expiry, sealed with a secret of the server's that the database
keeps once for every node (:data:`server_keys_table`), so the server keeps nothing
for a challenge it gives and no flood of challenges can spoil another's; only the
challenges used up are remembered until they expire (a flood cannot add to those: it
takes a good signature). Registering (:meth:`Profiles.register`)
and signing in (:meth:`Profiles.sign_in`) both send the signature back and get a
*session*: a random token the browser then shows when it takes a seat, so that the
seat remembers the profile (``seats.profile``). The database keeps only each
session's hash.

Names are 2 to :data:`NAME_MAX` letters, digits, ``-``, ``_`` or ``.``, starting with
a letter or digit: no spaces, no markup, no control character, nothing a page must
escape or an address must quote. Two names that differ only in case (or in Unicode
compatibility forms) are the same name (:func:`name_key`), and a name that looks like
another's (their confusable skeletons, Unicode TS #39: :func:`name_looks`) is not
given to a second profile.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import icu  # type: ignore[import-untyped]
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from sqlalchemy import (
    Column,
    Connection,
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
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from ..errors import NOT_FOUND, ApiError
from . import store
from .challenges import Challenge, challenge_text, challenge_token, opened_challenge
from .profile_requests import (  # the codes are named here too, where they are used
    BAD_CHALLENGE,
    BAD_KEY,
    BAD_NAME,
    BAD_SIGNATURE,
    JWK_SHAPE,
    NAME_TAKEN,
    NOT_SIGNED_IN,
    ProfileRequest,
    Register,
    SignIn,
    read_request,
)

NAME_MIN, NAME_MAX = 2, 24
#: Characters a name may hold besides letters and digits.
NAME_MARKS = "-_."
#: Seconds a challenge may be answered in.
CHALLENGE_SECONDS = 120.0

log = logging.getLogger("peloton.server")

#: The longest look kept (a character's TS #39 prototype may be a few characters).
LOOK_MAX = 8 * NAME_MAX

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

#: What each profile's name looks like (:func:`name_looks`: one to three looks a name),
#: each look one profile's (the primary key): no two profiles look alike. A profile
#: registered beside an older look-alike before looks were kept has none of the looks
#: the older one holds (:func:`fill_looks`).
looks_table = Table(
    "profile_looks",
    SCHEMA,
    Column("look", String(LOOK_MAX), primary_key=True),
    Column("name", String(NAME_MAX), nullable=False),
)

sessions_table = Table(
    "profile_sessions",
    SCHEMA,
    Column("token_hash", String(64), primary_key=True),
    Column("name", String(NAME_MAX), nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


#: The challenges used up, in cluster mode (:attr:`Profiles.shared`), until they
#: expire: a challenge answered on one node is not answered again on another.
#: ``nonce``: the challenge's random part; ``expires``: Unix seconds.
challenges_table = Table(
    "profile_challenges",
    SCHEMA,
    Column("nonce", String(64), primary_key=True),
    Column("name_key", String(4 * NAME_MAX), nullable=False),
    Column("expires", Float, nullable=False),
)

#: The server's secrets, made once and shared by every node through the database:
#: ``challenges`` seals the challenges (:func:`challenge_token`).
server_keys_table = Table(
    "server_keys",
    SCHEMA,
    Column("name", String(32), primary_key=True),
    Column("secret", String(128), nullable=False),
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


# ICU's implementation of Unicode TS #39 (its confusables.txt, as the ICU bundled with
# PyICU has it): the reference one. A checker is safe to share between threads once
# made.
_SPOOF = icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_SPOOF.getSkeleton(0, text)).casefold()


@functools.lru_cache(maxsize=4096)
def name_looks(name: str) -> frozenset[str]:
    """What a name looks like: two names that share a look may be taken for each other
    (``Аda``, with a Cyrillic ``А``, and ``Ada``; ``AnquetiI``, a capital ``I`` last,
    and ``Anquetil``).

    The TS #39 skeleton of the name (in compatibility form) as written, and the ones of
    the name case-folded and in capitals, each case-folded: the first catches the letters
    alike in the case written (capital ``I`` and ``l``), the others a look-alike in another
    case (``АNQUETIL``; ``IВ``, a Cyrillic ``В``, and ``ib``, whose small letters differ,
    ``в`` being drawn as a small capital, but whose capitals do not). Names that differ only
    in case are one name already (:func:`name_key`)."""
    shown = unicodedata.normalize("NFKC", name)
    return frozenset((_skeleton(shown), _skeleton(shown.casefold()), _skeleton(shown.upper())))


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
        raise ApiError(400, BAD_KEY, JWK_SHAPE)
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


def _aware(at: datetime) -> datetime:
    """A stored time, in UTC (SQLite gives it back without its zone)."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def hash_session(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


#: The secret that seals challenges, in :data:`server_keys_table`.
CHALLENGE_SECRET = "challenges"


def fill_looks(conn: Connection, profiles: Sequence[tuple[str, frozenset[str]]]) -> None:
    """Give every profile the looks it lacks (:data:`looks_table`): all of them for a
    profile of a server from before looks were kept, and a kind of look added since (the
    capitals' skeleton) for one stored before it. ``profiles`` are each name with its
    looks (:func:`name_looks`), oldest first, so that of two registered alike before, the
    older keeps the look and both keep their names; no third comes."""
    looks = looks_table
    stored = conn.execute(select(looks.c.look, looks.c.name)).all()
    held = {look for look, _ in stored}
    own: dict[str, set[str]] = {}
    for look, name in stored:
        own.setdefault(name, set()).add(look)
    alike = []
    for name, its_looks in profiles:
        lacking = its_looks - own.get(name, set())
        free = lacking - held
        if free != lacking:
            alike.append(name)
        for look in sorted(free):
            conn.execute(insert(looks), {"look": look, "name": name})
        held |= free
    if alike:  # one line a start: these stay as they are, and are said at every start
        log.warning("%d profiles look like older ones: %s", len(alike), ", ".join(alike[:5]))


class Profiles:
    """Every profile of the server, its sessions, and the challenges used up."""

    def __init__(
        self,
        writer: store.Writer,
        engine: Engine,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.writer = writer
        self.engine = engine
        #: Unix seconds (a challenge's expiry is read on every node alike).
        self.clock = clock
        #: name_key -> profile.
        self.profiles: dict[str, Profile] = {}
        #: look (:func:`name_looks`) -> name_key: what each profile's name looks like.
        self.looks: dict[str, str] = {}
        #: session hash -> profile name.
        self.sessions: dict[str, str] = {}
        #: The secret sealing challenges (:func:`challenge_token`), read by :meth:`load`.
        self.secret = ""
        #: nonce -> expiry of the challenges used up here (one process: see ``shared``).
        self._used: dict[str, float] = {}
        self._pruned = 0.0
        #: Cluster mode: several processes share the profiles, so the challenges used up
        #: are kept in the database, and a session or profile not known here is looked
        #: up there (these lookups block: the API calls them in a thread).
        self.shared = False

    def load(self) -> None:
        """Create the profile tables if missing (or migrate older ones) and read them,
        and the challenge secret, made once for every node (blocking)."""
        SCHEMA.create_all(self.engine)
        self.secret = self._read_secret()
        p = profiles_table
        with self.engine.begin() as conn:
            # One read of the profiles, oldest first: their looks are computed once, for
            # the rows a stored profile lacks and for the lookup here.
            rows = conn.execute(select(p).order_by(p.c.created, p.c.name)).all()
            looks = [(r.name, name_looks(r.name)) for r in rows]
            fill_looks(conn, looks)
            for r, (_, its_looks) in zip(rows, looks, strict=True):
                profile = Profile(r.name, json.loads(r.public_key), _aware(r.created))
                self._keep(profile, its_looks)
            for r in conn.execute(select(sessions_table)):
                self.sessions[r.token_hash] = r.name

    def _read_secret(self) -> str:
        query = select(server_keys_table.c.secret).where(
            server_keys_table.c.name == CHALLENGE_SECRET
        )
        with self.engine.begin() as conn:
            found = conn.execute(query).scalar()
            if found is not None:
                return str(found)
        made = secrets.token_urlsafe(32)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(server_keys_table), {"name": CHALLENGE_SECRET, "secret": made})
        except IntegrityError:  # another node made it meanwhile: theirs holds
            with self.engine.connect() as conn:
                return str(conn.execute(query).scalar_one())
        return made

    def _keep(self, profile: Profile, looks: frozenset[str] | None = None) -> None:
        """Know a profile here (its look: the oldest profile's, when two look alike);
        ``looks`` are its :func:`name_looks` when already computed."""
        key = name_key(profile.name)
        self.profiles[key] = profile
        for look in name_looks(profile.name) if looks is None else looks:
            self.looks.setdefault(look, key)

    def get(self, name: str) -> Profile | None:
        """The profile of ``name`` (any case), if registered."""
        if not isinstance(name, str):
            return None
        found = self.profiles.get(name_key(name))
        if found is None and self.shared:  # registered on another node
            found = self._stored(profiles_table.c.name_key == name_key(name))
        return found

    def look_alike(self, name: str) -> Profile | None:
        """The profile whose name is ``name`` or looks like it (:func:`name_looks`), if
        any (blocking in cluster mode)."""
        found = self.get(name)
        if found is not None:
            return found
        for look in sorted(name_looks(name)):
            key = self.looks.get(look)
            if key is not None:
                return self.profiles.get(key)
        if not self.shared:
            return None
        holder = select(looks_table.c.name).where(looks_table.c.look.in_(name_looks(name)))
        return self._stored(profiles_table.c.name.in_(holder))

    def _stored(self, where: Any) -> Profile | None:
        """A profile as the database has it (registered on another node), now known here."""
        with self.engine.connect() as conn:
            r = conn.execute(select(profiles_table).where(where)).first()
        if r is None:
            return None
        found = Profile(r.name, json.loads(r.public_key), _aware(r.created))
        self._keep(found)
        return found

    def challenge(self, request: Any) -> dict[str, Any]:
        """``{"name": ...}`` → a new challenge for that name (as registered, when it is),
        the text to sign and the seconds left to answer. Nothing is kept."""
        name = checked_name(read_request(ProfileRequest, request).name)
        known = self.get(name)
        name = known.name if known is not None else name  # as registered, in its case
        token = challenge_token(self.secret, name_key(name), self.clock() + CHALLENGE_SECONDS)
        return {
            "name": name,
            "challenge": token,
            "text": challenge_text(name, token),
            "expires_in": CHALLENGE_SECONDS,
        }

    def _was_used(self, asked: Challenge) -> bool:
        if not self.shared:
            return asked.nonce in self._used
        query = select(challenges_table.c.nonce).where(challenges_table.c.nonce == asked.nonce)
        with self.engine.connect() as conn:
            return conn.execute(query).first() is not None

    def _use(self, asked: Challenge) -> bool:
        """Use a challenge up; whether it was still unused (another request, or node,
        may have used it a moment ago). Those expired are forgotten."""
        now = self.clock()
        if not self.shared:
            if now - self._pruned > CHALLENGE_SECONDS:
                self._used = {n: t for n, t in self._used.items() if t >= now}
                self._pruned = now
            if asked.nonce in self._used:
                return False
            self._used[asked.nonce] = asked.expires
            return True
        row = {"nonce": asked.nonce, "name_key": asked.key, "expires": asked.expires}
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(challenges_table).where(challenges_table.c.expires < now))
                conn.execute(insert(challenges_table), row)
        except IntegrityError:
            return False
        return True

    def _answer(self, request: Any, key: ec.EllipticCurvePublicKey | None) -> str:
        """The name of a register or sign-in request whose challenge and signature hold,
        its challenge used up; ``key`` verifies the signature (``None``: the profile's
        own). Blocking in cluster mode."""
        answer = read_request(SignIn, request)
        name, token = checked_name(answer.name), answer.challenge
        asked = opened_challenge(self.secret, token)
        if asked is None:
            raise ApiError(
                403,
                BAD_CHALLENGE,
                "this challenge is unknown: not one this server gave; ask for a new one",
            )
        if asked.key != name_key(name):
            raise ApiError(
                403, BAD_CHALLENGE, f"this challenge was given for another name, not {name}"
            )
        if asked.expires < self.clock():
            raise ApiError(403, BAD_CHALLENGE, "this challenge is too old: ask for a new one")
        used = ApiError(403, BAD_CHALLENGE, "this challenge is already used: ask for a new one")
        if self._was_used(asked):
            raise used
        if key is None:
            profile = self.get(name)
            if profile is None:
                raise ApiError(404, NOT_FOUND, f"no profile {name!r}")
            key, _ = public_key(profile.public_key)
            name = profile.name
        verify(key, challenge_text(name, token), answer.signature)
        # A good answer uses it up; a bad one may be retried.
        if not self._use(asked):
            raise used
        return name

    async def _blocking(self, call: Callable[..., Any], *args: Any) -> Any:
        """``call(*args)``: in a thread in cluster mode (it reads the database then)."""
        return await run_in_threadpool(call, *args) if self.shared else call(*args)

    def _free(self, name: str) -> None:
        """``409 name_taken`` when ``name`` is a profile's, in any case, or looks like one
        (blocking in cluster mode)."""
        taken = self.look_alike(name)
        if taken is None:
            return
        if name_key(taken.name) == name_key(name):
            raise ApiError(409, NAME_TAKEN, f"the name {taken.name!r} is taken: pick another")
        raise ApiError(
            409,
            NAME_TAKEN,
            f"the name {name!r} looks like the profile {taken.name!r}'s (letters of other "
            "scripts or look-alike signs): pick another",
        )

    async def register(self, request: Any) -> dict[str, Any]:
        """``{"name", "key", "challenge", "signature"}`` → a new profile and a session
        (``409 name_taken`` when the name, in any case, is another profile's, or looks
        like it)."""
        asked = read_request(Register, request)
        key, jwk = public_key(asked.key)
        name = checked_name(asked.name)
        await self._blocking(self._free, name)
        name = await self._blocking(self._answer, request, key)
        await self._blocking(self._free, name)  # registered while this request was checked
        created = store.now().replace(microsecond=0)
        token = secrets.token_urlsafe(32)
        looks = name_looks(name)
        row = {
            "name": name,
            "name_key": name_key(name),
            "public_key": json.dumps(jwk),
            "created": created,
        }
        digest = hash_session(token)
        session = {"token_hash": digest, "name": name, "created": created}
        # Claimed before the commit: no twin, nor look-alike, meanwhile.
        self.profiles[name_key(name)] = Profile(name, jwk, created)
        self.looks.update(dict.fromkeys(looks, name_key(name)))
        seen = [(insert(looks_table), {"look": look, "name": name}) for look in sorted(looks)]
        try:
            await self.writer.write([
                (insert(profiles_table), row),
                *seen,
                (insert(sessions_table), session),
            ])  # fmt: skip
        except Exception as exc:
            del self.profiles[name_key(name)]
            for look in looks:
                del self.looks[look]
            if isinstance(exc, IntegrityError):  # taken on another node meanwhile
                raise ApiError(
                    409, NAME_TAKEN, f"the name {name!r}, or one like it, is taken: pick another"
                ) from None
            raise
        self.sessions[digest] = name
        return {"name": name, "session": token}

    async def sign_in(self, request: Any) -> dict[str, Any]:
        """``{"name", "challenge", "signature"}`` → a new session for that profile."""
        name = await self._blocking(self._answer, request, None)
        token = secrets.token_urlsafe(32)
        digest = hash_session(token)
        session = {"token_hash": digest, "name": name, "created": store.now()}
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
