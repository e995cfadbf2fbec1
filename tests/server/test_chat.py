"""The table chat (issue 18, item 3): seated players and spectators write, everyone at
the table reads; messages are checked, limited per writer and kept with the table
(a restarted server shows them again, as does the replay); the players may mute the
spectators. On SQLite and PostgreSQL, through a real ``peloton serve``."""

from __future__ import annotations

import asyncio
import json
import os
import string
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, inspect, select

from peloton.server.errors import ProtocolError
from peloton.server.limits import RateLimit
from peloton.server.live import chat
from peloton.server.live.chat import CHAT_RATE, CHAT_RATE_SECONDS, MAX_CHAT_CHARS, MAX_CHAT_KEPT
from peloton.server.live.messages import ChatMute, ChatPost
from peloton.server.storage import database, store

from .conftest import PG_ENV
from .helpers import WS, Server, create, drop_pg_database, join, pg_database

XSS = "<img src=x onerror=alert(1)>"


@dataclass
class Table:
    """A two-seat table with both seats joined, and a connection per seat."""

    id: str
    tokens: dict[str, str]
    a: WS
    b: WS

    def close(self) -> None:
        self.a.close()
        self.b.close()


@pytest.fixture()
def table(server: Server, http: httpx.Client) -> Iterator[Table]:
    table_id = create(http, game="mind-twist", seats=["human", "human"])
    tokens = {"R": join(http, table_id, "R", "Ada"), "B": join(http, table_id, "B", "Bo")}
    a, b = WS(server, table_id), WS(server, table_id)
    a.hello(tokens["R"])
    b.hello(tokens["B"])
    found = Table(table_id, tokens, a, b)
    yield found
    found.close()


def chat_of(ws: WS) -> dict[str, Any]:
    """The ``chat_log`` a connection is sent when it asks for it."""
    ws.send({"type": "chat_log"})
    return ws.expect("chat_log")


def say(ws: WS, text: str, **extra: Any) -> dict[str, Any]:
    """Send a chat message; the message as the server sent it back to everyone."""
    ws.send({"type": "chat", "text": text, **extra})
    message: dict[str, Any] = ws.expect("chat")["message"]
    return message


def stored(db_url: str, table_id: str) -> list[str]:
    """A table's chat texts as the database holds them, oldest first."""
    engine = database.create_db_engine(db_url)
    try:
        rows = store.chat_messages
        with engine.connect() as conn:
            query = select(rows.c.text).where(rows.c.table_id == table_id).order_by(rows.c.idx)
            return [r.text for r in conn.execute(query)]
    finally:
        engine.dispose()


# ---------------------------------------------------------------- players and spectators


def test_two_players_chat_and_both_read_every_message(
    server: Server, table: Table, db_url: str
) -> None:
    first = say(table.a, "good luck!")
    assert table.b.expect("chat")["message"] == first
    assert first["seat"] == "R" and first["name"] == "Ada" and first["text"] == "good luck!"
    assert first["id"] == 0 and first["move"] == 0
    assert first["at"].endswith("Z")
    answer = say(table.b, "you too")
    assert table.a.expect("chat")["message"] == answer
    assert answer["seat"] == "B" and answer["name"] == "Bo" and answer["id"] == 1
    # A new connection (a reload) is given the chat so far, in order.
    again = WS(server, table.id)
    again.hello(table.tokens["R"])
    log = chat_of(again)
    assert [m["text"] for m in log["messages"]] == ["good luck!", "you too"]
    assert log["muted"] is False and "spectator" not in log
    assert log["limits"] == {
        "chars": MAX_CHAT_CHARS,
        "messages": CHAT_RATE,
        "seconds": CHAT_RATE_SECONDS,
    }
    again.close()
    assert stored(db_url, table.id) == ["good luck!", "you too"]


def test_a_spectator_reads_and_writes_as_spectator_n_or_by_name(
    server: Server, table: Table
) -> None:
    watcher = WS(server, table.id)
    watcher.hello()
    assert "spectator" not in chat_of(watcher)  # numbered when it first writes
    mine = say(watcher, "nice move")
    number = chat_of(watcher)["spectator"]
    assert isinstance(number, int) and number >= 1
    assert mine["seat"] is None and mine["name"] == f"spectator {number}"
    for ws in (table.a, table.b):
        assert ws.expect("chat")["message"] == mine
    named = say(watcher, "hello from the rail", name="  Eddy   M ")
    assert named["seat"] is None and named["name"] == "Eddy M"
    for ws in (table.a, table.b):
        assert ws.expect("chat")["message"] == named
    # A player's message reaches the spectator too.
    said = say(table.a, "thanks")
    table.b.expect("chat")
    assert watcher.expect("chat")["message"] == said
    watcher.close()


def test_players_mute_the_spectators_and_the_setting_is_kept(
    server: Server, table: Table, db_url: str
) -> None:
    watcher = WS(server, table.id)
    watcher.hello()
    chat_of(watcher)
    # A spectator cannot mute.
    assert watcher.error({"type": "chat_mute", "muted": True})["code"] == "spectator"
    table.a.send({"type": "chat_mute", "muted": True})
    for ws in (table.a, table.b, watcher):
        assert ws.expect("chat_muted") == {"type": "chat_muted", "muted": True, "by": "R"}
    refused = watcher.error({"type": "chat", "text": "let me speak"})
    assert refused["code"] == "chat_muted"
    assert "muted" in refused["message"]
    table.a.quiet()  # nothing reached the players
    assert "let me speak" not in stored(db_url, table.id)
    # Players still write; a new spectator connection learns the table is muted.
    say(table.b, "quiet on the rail")
    table.a.expect("chat")
    watcher.expect("chat")
    late = WS(server, table.id)
    late.hello()
    assert chat_of(late)["muted"] is True and chat_of(late)["muted_by"] == "R"
    # The other player unmutes: spectators write again.
    table.b.send({"type": "chat_mute", "muted": False})
    for ws in (table.a, table.b, watcher, late):
        assert ws.expect("chat_muted")["muted"] is False
    say(watcher, "thank you")
    assert table.a.expect("chat")["message"]["text"] == "thank you"
    assert table.a.error({"type": "chat_mute", "muted": "yes"})["code"] == "bad_request"
    watcher.close()
    late.close()


# ---------------------------------------------------------------- limits and bad input


def test_a_flood_is_refused_to_its_sender_only_and_nothing_is_kept(
    table: Table, db_url: str
) -> None:
    sent = 3 * CHAT_RATE
    for i in range(sent):
        table.a.send({"type": "chat", "text": f"spam {i}"})
    answers = [table.a.recv() for _ in range(sent)]
    accepted = [m["message"]["text"] for m in answers if m["type"] == "chat"]
    refused = [m for m in answers if m["type"] == "error"]
    # A window of 10 s: the first five go through, every later one is refused (the
    # sends take far less than 10 s; were they slower, fewer would be refused, and
    # the count below would still hold).
    assert accepted == [f"spam {i}" for i in range(len(accepted))]
    assert len(accepted) >= CHAT_RATE and refused
    assert all(m["code"] == "chat_flood" for m in refused)
    assert f"at most {CHAT_RATE} messages in {CHAT_RATE_SECONDS:g} s" in refused[0]["message"]
    # The other seat got the accepted ones only, and no error.
    seen = [m["message"]["text"] for m in table.b.drain()]
    assert seen == accepted
    assert stored(db_url, table.id) == accepted
    # The limit is per writer: the other seat still writes.
    say(table.b, "calm down")


@pytest.mark.parametrize(
    ("message", "code", "why"),
    [
        ({"type": "chat", "text": "x" * (MAX_CHAT_CHARS + 1)}, "bad_chat", "over the limit"),
        ({"type": "chat", "text": ""}, "bad_chat", "empty"),
        ({"type": "chat", "text": " \t\n "}, "bad_chat", "empty"),
        ({"type": "chat", "text": "\x00\x07\u202e"}, "bad_chat", "empty"),
        ({"type": "chat", "text": 42}, "bad_chat", "must be the message as a string"),
        ({"type": "chat", "text": None}, "bad_chat", "must be the message as a string"),
        ({"type": "chat", "text": ["hi"]}, "bad_chat", "must be the message as a string"),
        ({"type": "chat"}, "bad_chat", "must be the message as a string"),
        ({"type": "chat", "text": "hi", "name": 7}, "bad_chat", "'name' must be a string"),
        ('{"type": "chat", "text": "hi"', "bad_json", "not valid JSON"),
        ({"type": "chat", "text": "x" * 5000}, "too_large", "over the limit"),
    ],
)
def test_a_bad_message_is_refused_clearly_and_nothing_is_kept(
    table: Table, db_url: str, message: Any, code: str, why: str
) -> None:
    refused = table.a.error(message)
    assert refused["code"] == code and why in refused["message"], refused
    table.b.quiet()
    table.a.quiet()
    assert stored(db_url, table.id) == []
    # The connection still works.
    assert say(table.a, "still here")["text"] == "still here"


def test_a_spectator_name_is_checked(server: Server, table: Table) -> None:
    watcher = WS(server, table.id)
    watcher.hello()
    refused = watcher.error({"type": "chat", "text": "hi", "name": "x" * 41})
    assert refused["code"] == "bad_chat" and "1 to 40 characters" in refused["message"]
    refused = watcher.error({"type": "chat", "text": "hi", "name": "Spectator  1"})
    assert refused["code"] == "bad_chat" and "unnamed spectators" in refused["message"]
    refused = watcher.error('{"type": "chat", "text": "hi", "name": "\\ud800"}')
    assert refused["code"] == "bad_chat" and "printable" in refused["message"]
    # A seated player's messages carry the seat's name: a 'name' of theirs is not used.
    assert say(table.a, "me", name="Mallory")["name"] == "Ada"
    watcher.close()


def test_chat_before_hello_is_refused(server: Server, table: Table) -> None:
    early = WS(server, table.id)
    for kind in ({"type": "chat", "text": "hi"}, {"type": "chat_log"}):
        assert early.error(kind)["code"] == "hello_first"
    assert early.error({"type": "chat_mute", "muted": True})["code"] == "hello_first"
    early.close()


def test_the_longest_message_is_kept_whole_and_controls_are_dropped(table: Table) -> None:
    longest = "é" * MAX_CHAT_CHARS
    assert say(table.a, longest)["text"] == longest
    assert say(table.a, " a\x00b\nc\u202ed\x1b ")["text"] == "ab cd"
    table.a.send('{"type": "chat", "text": "lone \\ud800surrogate"}')
    assert table.a.expect("chat")["message"]["text"] == "lone surrogate"
    # HTML is text: kept and sent as written (the page shows it as text).
    assert say(table.a, XSS)["text"] == XSS


# ---------------------------------------------------------------- replay and download


def test_the_replay_and_the_download_carry_the_chat(
    server: Server, http: httpx.Client, table: Table
) -> None:
    say(table.a, "before any move")
    table.b.expect("chat")
    # Mind Twist: R dials, B answers (a pass).
    table.a.send({"type": "move", "move": "dial:2", "index": 0})
    table.a.expect("update")
    table.b.expect("update")
    say(table.b, "after one move")
    replay = http.get(f"/api/tables/{table.id}/replay").json()
    assert [(m["text"], m["move"]) for m in replay["chat"]] == [
        ("before any move", 0),
        ("after one move", 1),
    ]
    assert len(replay["moves"]) == 1  # the replay itself is untouched
    answer = http.get(f"/api/tables/{table.id}/chat")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert data["format"] == "peloton-chat/1" and data["table"] == table.id
    assert [m["text"] for m in data["messages"]] == ["before any move", "after one move"]
    assert http.get("/api/tables/nosuchtb/chat").status_code == 404


# ---------------------------------------------------------------- restart


@pytest.fixture()
def fresh_db(db_url: str, tmp_path: Path) -> Iterator[str]:
    """An empty database of the same kind as ``db_url`` (the module's server keeps its
    own)."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restart.db'}"
        return
    admin = os.environ[PG_ENV]
    url, name = pg_database(admin)
    yield url
    drop_pg_database(admin, name)


def test_a_restarted_server_keeps_the_chat_and_the_mute(fresh_db: str) -> None:
    first = Server(fresh_db).start()
    try:
        with first.http() as http:
            table_id = create(http, game="mind-twist", seats=["human", "human"])
            token = join(http, table_id, "R", "Ada")
        a = WS(first, table_id)
        a.hello(token)
        say(a, "see you after the restart")
        say(a, XSS)
        a.send({"type": "chat_mute", "muted": True})
        a.expect("chat_muted")
        a.close()
    finally:
        first.kill()  # no clean shutdown: what was committed must be there
    second = Server(fresh_db).start()
    try:
        a = WS(second, table_id)
        a.hello(token)
        log = chat_of(a)
        assert [m["text"] for m in log["messages"]] == ["see you after the restart", XSS]
        assert log["messages"][0]["name"] == "Ada"
        assert log["muted"] is True and log["muted_by"] == "R"
        assert say(a, "and on we go")["id"] == 2
        a.close()
    finally:
        second.stop()


def test_a_database_from_before_the_chat_gets_its_tables(fresh_db: str) -> None:
    """A database made by a server without the chat (no chat tables) keeps its tables
    and gets the chat's at start-up."""
    first = Server(fresh_db).start()
    try:
        with first.http() as http:
            table_id = create(http, game="mind-twist", seats=["human", "human"])
            token = join(http, table_id, "R", "Ada")
    finally:
        first.stop()
    engine = database.create_db_engine(fresh_db)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE chat_messages")
        conn.exec_driver_sql("DROP TABLE chat_settings")
        # A server from before the chat was also from before versioned migrations.
        conn.exec_driver_sql("DROP TABLE alembic_version")
    assert not {"chat_messages", "chat_settings"} & set(inspect(engine).get_table_names())
    engine.dispose()
    second = Server(fresh_db).start()
    try:
        with second.http() as http:
            assert http.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == "Ada"
        a = WS(second, table_id)
        a.hello(token)
        assert chat_of(a)["messages"] == []
        assert say(a, "a chat at last")["id"] == 0
        a.close()
    finally:
        second.stop()
    assert stored(fresh_db, table_id) == ["a chat at last"]


# ---------------------------------------------------------------- the rules, in process


@dataclass
class FakeConn:
    """What the chat needs of a connection: its seat, its client's address and a mailbox."""

    seat: str | None
    greeted: bool = True
    sent: list[str] = field(default_factory=list)
    address: str = "?"

    def send(self, text: str) -> None:
        self.sent.append(text)

    __hash__ = object.__hash__


@dataclass
class FakeSeat:
    name: str | None


@dataclass
class FakeTable:
    id: str
    connections: set[Any]
    seats: dict[str, FakeSeat]
    moves_played: int = 0


def test_the_rate_window_and_the_kept_messages_with_an_injected_clock(db_url: str) -> None:
    """A writer gets :data:`CHAT_RATE` messages a window, again once the window has
    passed; a table keeps its last :data:`MAX_CHAT_KEPT` messages (older ones are
    deleted), which a fresh start reads back."""

    async def run() -> None:
        now = [1000.0]
        engine = database.create_db_engine(db_url)
        writer = store.Writer(engine)
        try:
            chats = chat.Chats(writer, engine, clock=lambda: now[0])
            conn = FakeConn("A")
            table: Any = FakeTable("kept" + os.urandom(4).hex(), {conn}, {"A": FakeSeat("Ada")})
            for i in range(CHAT_RATE):
                await chats.post(table, conn, ChatPost(f"m{i}", None))  # type: ignore[arg-type]
            with pytest.raises(ProtocolError) as refused:
                await chats.post(table, conn, ChatPost("one too many", None))  # type: ignore[arg-type]
            assert refused.value.code == "chat_flood"
            now[0] += CHAT_RATE_SECONDS
            total = MAX_CHAT_KEPT + 12
            for i in range(CHAT_RATE, total):
                if i % CHAT_RATE == 0:
                    now[0] += CHAT_RATE_SECONDS
                await chats.post(table, conn, ChatPost(f"m{i}", None))  # type: ignore[arg-type]
            kept = await chats.log(table)
            assert [m["text"] for m in kept] == [
                f"m{i}" for i in range(total - MAX_CHAT_KEPT, total)
            ]
            rows = store.chat_messages
            with engine.connect() as c:
                count = c.execute(
                    select(func.count()).where(rows.c.table_id == table.id)
                ).scalar_one()
            assert count == MAX_CHAT_KEPT
            # A fresh server's chats read the same from the database.
            again = await chat.Chats(writer, engine).log(table)
            assert again == kept
            # Muting is a seated player's, and kept.
            await chats.mute(table, conn, ChatMute(True))  # type: ignore[arg-type]
            spectator = FakeConn(None)
            with pytest.raises(ProtocolError) as muted:
                await chats.post(table, spectator, ChatPost("hi", None))  # type: ignore[arg-type]
            assert muted.value.code == "chat_muted"
            assert (await chat.Chats(writer, engine).room(table)).muted is True
        finally:
            writer.close()
            engine.dispose()

    asyncio.run(run())


TEXT = st.text(alphabet=st.characters(exclude_categories=()), max_size=80) | st.text(
    alphabet=string.printable + "\u202e\u2066\x00\x85\u2028", max_size=80
)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_a_kept_message_never_holds_a_control_character(text: str) -> None:
    """Whatever a client sends, what the chat keeps is one line of printable text
    (no control character, lone surrogate or direction override), trimmed, and cleaning
    it again changes nothing."""
    cleaned = chat.clean_text(text)
    assert cleaned == cleaned.strip() and chat.clean_text(cleaned) == cleaned
    for ch in cleaned:
        assert ch not in "\n\r\t\x85\u2028\u2029"
        assert not ("\ud800" <= ch <= "\udfff")
        assert ch not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
        assert ord(ch) >= 0x20 and not (0x7F <= ord(ch) < 0xA0)
    try:
        kept = chat.checked_text(text)
    except ProtocolError as exc:
        assert exc.code == "bad_chat"
        assert not cleaned or len(cleaned) > MAX_CHAT_CHARS
    else:
        assert kept == cleaned and 1 <= len(kept) <= MAX_CHAT_CHARS


def test_messages_are_sent_in_their_numbers_order_whatever_commits_first() -> None:
    """Messages commit concurrently (a busy table's share commits): one committed before
    an earlier-numbered one waits for it, and a failed one (never kept) holds none up."""
    room = chat.Room(
        entries=deque(maxlen=MAX_CHAT_KEPT),
        next_idx=0,
        muted=False,
        muted_by=None,
        rate=RateLimit(CHAT_RATE, CHAT_RATE_SECONDS),
    )
    conn = FakeConn("A")
    at = store.now()
    entries = [chat.ChatEntry(i, at, "A", "Ada", f"m{i}", 0) for i in range(4)]
    room.settle(2, entries[2], {conn})
    room.settle(1, None, {conn})  # failed: its writer was told, nobody else
    assert conn.sent == []
    room.settle(0, entries[0], {conn})
    assert [m["message"]["text"] for m in map(json.loads, conn.sent)] == ["m0", "m2"]
    room.settle(3, entries[3], {conn})
    assert [m["text"] for m in room.log()] == ["m0", "m2", "m3"]
