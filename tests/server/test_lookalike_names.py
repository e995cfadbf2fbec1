"""Names that look like another's (issue 32, point 5).

The issue: a profile "Аda", with a Cyrillic "А", was registered beside "Ada", and a
spectator could sign the chat with a seated player's or a profile's name. Names are
now compared by what they look like too: their confusable skeleton (Unicode TS #39,
as ICU computes it: :func:`~peloton.server.storage.profiles.name_looks`), kept for each
profile (each look one profile's), given to the profiles of an older database at
start-up.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import (
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    insert,
    select,
)

from peloton.server.errors import ApiError
from peloton.server.storage import database, store
from peloton.server.storage.profiles import Profiles, looks_table, name_looks

from .helpers import WS, Server, create, join
from .hostile_support import fresh_db
from .profile_support import Signer, challenge, register


def refused(answer: httpx.Response, status: int, code: str, words: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and words in error["message"], error


def registering(http: httpx.Client, name: str, signer: Signer) -> httpx.Response:
    asked = challenge(http, name)
    body = {
        "name": name,
        "key": signer.jwk(),
        "challenge": asked["challenge"],
        "signature": signer.sign(asked["text"]),
    }
    return http.post("/api/profiles", json=body)


# Latin letters and the Cyrillic or Greek ones drawn alike.
HOMOGLYPHS = {
    "a": "а",
    "e": "е",
    "o": "о",
    "p": "р",
    "c": "с",
    "x": "х",
    "y": "у",
    "A": "А",
    "B": "В",
    "O": "Ο",
}


@given(st.from_regex(r"[a-zA-Z][a-zA-Z0-9]{1,12}", fullmatch=True), st.data())
def test_a_homoglyph_keeps_the_skeleton(name: str, data: st.DataObject) -> None:
    """Any of the name's letters swapped for its look-alike of another script: the same
    skeleton; and in any case too."""
    places = [i for i, c in enumerate(name) if c in HOMOGLYPHS]
    chosen = data.draw(st.sets(st.sampled_from(places)) if places else st.just(set()))
    twin = "".join(HOMOGLYPHS[c] if i in chosen else c for i, c in enumerate(name))
    assert name_looks(twin) & name_looks(name)
    assert name_looks(twin.upper()) & name_looks(name.lower())


def test_names_that_only_look_alike_are_told_apart_by_ts39() -> None:
    assert name_looks("Аda") == name_looks("Ada") == {"ada"}
    assert name_looks("АNQUETIL") & name_looks("Anquetil")  # a Cyrillic А, in capitals
    assert name_looks("AnquetiI") & name_looks("Anquetil")  # a capital I for the l
    # A Cyrillic В in capitals beside a capital I: its small letter (в) is drawn as a small
    # capital, not as b, so only the capitals show the likeness (found by Hypothesis).
    assert name_looks("IВ") & name_looks("ib")
    assert name_looks("I11") & name_looks("lll")  # capital i, ones, small L
    assert not name_looks("Ada") & name_looks("Eda")
    assert not name_looks("Merckx") & name_looks("Merck")


def test_a_profile_name_that_looks_like_another_is_refused(http: httpx.Client) -> None:
    owner = Signer()
    register(http, "Anquetil", owner)
    # Cyrillic А, all capitals with a Cyrillic А, a Cyrillic і, a capital I for the l.
    for twin in ("Аnquetil", "АNQUETIL", "Anquetіl", "AnquetiI"):
        refused(registering(http, twin, Signer()), 409, "name_taken", "looks like")
    assert http.get("/api/players/Аnquetil").status_code == 404
    # A name that looks different is free.
    assert registering(http, "Anquetil2", Signer()).status_code == 201


@pytest.fixture()
def seated(server: Server, http: httpx.Client) -> Iterator[tuple[str, WS]]:
    """A table whose seats are Ada's and Bo's, and a spectator greeted at it."""
    table = create(http, game="mind-twist", seats=["human", "human"])
    join(http, table, "R", "Ada")
    join(http, table, "B", "Bo Jan")
    watcher = WS(server, table)
    watcher.hello()
    yield table, watcher
    watcher.close()


def _name_error(watcher: WS, name: str) -> dict[str, Any]:
    return watcher.error({"type": "chat", "text": "hello", "name": name})


@pytest.mark.parametrize("name", ["Ada", "ada", "Аda", "АDA", " Bo   Jan ", "ВО jan"])
def test_a_spectator_cannot_sign_with_a_seats_name(seated: tuple[str, WS], name: str) -> None:
    _, watcher = seated
    error = _name_error(watcher, name)
    assert error["code"] == "bad_chat" and "player at seat" in error["message"], error


def test_a_spectator_cannot_sign_with_a_profiles_name(
    http: httpx.Client, seated: tuple[str, WS]
) -> None:
    register(http, "Kelly", Signer())
    _, watcher = seated
    for name in ("Kelly", "KELLY", "KeIly", "Kе11y"):
        error = _name_error(watcher, name)
        assert error["code"] == "bad_chat" and "registered player 'Kelly'" in error["message"], (
            error
        )
    # Another name is kept as before.
    watcher.send({"type": "chat", "text": "hello", "name": "Eddy"})
    assert watcher.expect("chat")["message"]["name"] == "Eddy"


def _before_skeletons() -> MetaData:
    """The profiles table just before looks were kept (and no ``profile_looks``)."""
    old = MetaData()
    Table(
        "profiles",
        old,
        Column("name", String(24), primary_key=True),
        Column("name_key", String(96), nullable=False, unique=True),
        Column("public_key", Text, nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )
    return old


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_older_database_gets_its_looks(kind: str, tmp_path: Path) -> None:
    """Profiles registered before looks were kept get theirs at start-up, the oldest
    first: of two that look alike (registered before the rule), the younger keeps its
    name but not the look, and no third look-alike can come; a second start changes
    nothing."""
    with fresh_db(kind, tmp_path) as url:
        engine = create_engine(database.normalise_url(url))
        _before_skeletons().create_all(engine)
        keys = {name: Signer() for name in ("Ada", "Аda", "Bo")}
        with engine.begin() as conn:
            for n, (name, signer) in enumerate(keys.items()):
                conn.execute(insert(_before_skeletons().tables["profiles"]), {
                    "name": name, "name_key": name.casefold(), "public_key": _jwk_text(signer),
                    "created": store.now().replace(microsecond=0, second=n),
                })  # fmt: skip
        engine.dispose()
        for _ in range(2):  # the second start finds everything done
            engine = database.create_db_engine(url)
            profiles = Profiles(store.Writer(engine, inline=True), engine)
            profiles.load()
            with engine.connect() as conn:
                rows = dict(conn.execute(select(looks_table.c.look, looks_table.c.name)).all())
            assert rows == {"ada": "Ada", "bo": "Bo"}
            # Both old profiles still sign in; no new look-alike registers.
            assert profiles.get("Аda") is not None and profiles.get("Ada") is not None
            error = _register_error(profiles, "Adа")  # a Cyrillic а last
            assert error is not None and "looks like the profile 'Ada'" in error, error
            profiles.writer.close()
            engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_look_added_since_is_given_at_start(kind: str, tmp_path: Path) -> None:
    """A profile stored before the capitals' skeleton was a look (so without it) gets it
    at the next start, and then its look-alike in capitals cannot register."""
    with fresh_db(kind, tmp_path) as url:
        engine = database.create_db_engine(url)
        profiles = Profiles(store.Writer(engine, inline=True), engine)
        profiles.load()
        assert _register_error(profiles, "ib") is None
        profiles.writer.close()
        with engine.begin() as conn:  # as a server of before stored it
            conn.execute(delete(looks_table).where(looks_table.c.look == "lb"))
        engine.dispose()
        engine = database.create_db_engine(url)
        profiles = Profiles(store.Writer(engine, inline=True), engine)
        profiles.load()
        with engine.connect() as conn:
            rows = dict(conn.execute(select(looks_table.c.look, looks_table.c.name)).all())
        assert rows == {"ib": "ib", "lb": "ib"}
        error = _register_error(profiles, "IВ")  # a Cyrillic В
        assert error is not None and "looks like the profile 'ib'" in error, error
        profiles.writer.close()
        engine.dispose()


def _jwk_text(signer: Signer) -> str:
    return json.dumps(signer.jwk())


def _register_error(profiles: Profiles, name: str) -> str | None:
    signer = Signer()
    asked = profiles.challenge({"name": name})
    body = {"name": name, "key": signer.jwk(), "challenge": asked["challenge"],
            "signature": signer.sign(asked["text"])}  # fmt: skip
    try:
        asyncio.run(profiles.register(body))
    except ApiError as exc:
        return exc.message
    return None
