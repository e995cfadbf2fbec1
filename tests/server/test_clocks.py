"""Issue 18, clocks: time controls chosen at table creation, charged by the server on
a clock the tests move by hand (never by sleeping), enforced (a fallen flag gives the
seat to the table's stand-in bot), and durable across a restart, which charges nobody
for the downtime. The pure arithmetic of :mod:`peloton.server.live.clocks` first, then
tables in-process on SQLite and PostgreSQL, then a real server process."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from peloton.server.live.clocks import (
    PRESETS,
    REALTIME,
    RECLAIM_GRACE,
    TURN,
    Clock,
    ClockError,
    TimeControl,
    parse_time_control,
)

from .clock_support import TWO_HUMANS, HandClock, bots_done, seated, served
from .helpers import WS, Server, create, join, random_move

RAPID = TimeControl(REALTIME, bank=600, increment=10)

# ---------------------------------------------------------------- pure arithmetic


def test_presets_and_objects_parse() -> None:
    assert parse_time_control(None) == TimeControl()
    assert parse_time_control("rapid") == RAPID
    assert parse_time_control("daily") == TimeControl(TURN, hours=24)
    assert parse_time_control({"kind": "realtime", "bank": 300, "increment": 5}) == TimeControl(
        REALTIME, bank=300, increment=5
    )
    assert parse_time_control({"kind": "realtime", "bank": 300}).increment == 0
    assert parse_time_control({"kind": "turn", "hours": 1.5}).per_move == 5400
    assert parse_time_control({"kind": "none"}).clocked is False
    assert all(parse_time_control(p.to_json()) == p for p in PRESETS.values())
    assert RAPID.describe() == "10 min + 10 s"


@pytest.mark.parametrize(
    ("given_clock", "says"),
    [
        ("bullet", "no time control 'bullet'"),
        (5, "must be a preset's name or an object"),
        ({"kind": "sudden"}, "'kind' must be one of none, realtime, turn"),
        ({"kind": "realtime"}, "'bank' must be a number of seconds, not None"),
        ({"kind": "realtime", "bank": 10}, "'bank' must be 30 to 14400 seconds, not 10"),
        ({"kind": "realtime", "bank": True}, "'bank' must be a number"),
        ({"kind": "realtime", "bank": float("nan")}, "'bank' must be a number"),
        ({"kind": "realtime", "bank": 60, "increment": -1}, "'increment' must be 0 to 600"),
        ({"kind": "realtime", "bank": 60, "hours": 2}, "a realtime clock has no 'hours'"),
        ({"kind": "turn", "hours": 0.5}, "'hours' must be 1 to 336 hours, not 0.5"),
        ({"kind": "turn", "hours": "24"}, "'hours' must be a number of hours, not '24'"),
    ],
)
def test_bad_time_controls_say_what_is_wrong(given_clock: Any, says: str) -> None:
    with pytest.raises(ClockError) as caught:
        parse_time_control(given_clock)
    assert says in str(caught.value)


def test_a_realtime_clock_charges_its_turns_and_adds_increments() -> None:
    now = HandClock()
    clock = Clock(RAPID, ["A", "B"], now)
    clock.start("A")
    now.advance(42)
    assert clock.left("A") == 558 and clock.left("B") == 600
    clock.moved("A")
    assert clock.remaining["A"] == 568 and clock.running is None
    now.advance(1000)  # nobody's clock runs: nothing is charged
    clock.start("B")
    now.advance(599)
    assert clock.fallen() is None
    now.advance(1)
    assert clock.fallen() == "B" and clock.left("B") == 0
    assert clock.deadline() == now.t


def test_a_turn_clock_gives_each_turn_its_hours() -> None:
    now = HandClock()
    clock = Clock(TimeControl(TURN, hours=24), ["A", "B"], now)
    clock.start("A")
    now.advance(23 * 3600)
    clock.moved("A")
    clock.start("B")
    clock.moved("B")
    clock.start("A")  # a new turn: the full 24 h again, however long the last one took
    assert clock.left("A") == 24 * 3600
    now.advance(24 * 3600)
    assert clock.fallen() == "A"


def test_a_resumed_turn_keeps_what_it_had_and_a_reclaimed_seat_gets_grace() -> None:
    now = HandClock()
    clock = Clock(TimeControl(TURN, hours=2), ["A", "B"], now, {"A": 600})
    clock.resume("A")
    assert clock.left("A") == 600
    rt = Clock(RAPID, ["A"], now, {"A": 0})
    rt.grace("A")
    assert rt.remaining["A"] == RECLAIM_GRACE


@given(
    st.lists(
        st.tuples(st.sampled_from(["A", "B", None]), st.floats(0, 400), st.booleans()),
        max_size=30,
    )
)
def test_time_is_charged_once_and_never_below_zero(
    steps: list[tuple[str | None, float, bool]],
) -> None:
    """Whatever the turns: the time charged is exactly the time some clock ran (a
    flag at zero charges no further), increments aside, and no seat goes below zero."""
    now = HandClock()
    clock = Clock(RAPID, ["A", "B"], now)
    credited = ran = 0.0
    for seat, seconds, move in steps:
        clock.start(seat)
        if seat is not None:
            ran += min(seconds, clock.left(seat))
        now.advance(seconds)
        assert all(clock.left(s) >= 0 for s in "AB")
        if move and seat is not None:
            credited += RAPID.increment
            clock.moved(seat)
    clock.stop()
    total = sum(clock.remaining.values())
    assert total == pytest.approx(1200 - ran + credited)


# ---------------------------------------------------------------- tables in-process


async def fallen(tables: Any, table: Any) -> list[str]:
    """The seats of ``table`` whose flag falls now (the database holds other tests'
    tables too, whose clocks the same check sees)."""
    return [seat for table_id, seat in await tables.presence.check_flags() if table_id == table.id]


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_a_flag_falls_and_the_stand_in_bot_plays(db_url: str) -> None:
    async def scenario() -> None:
        now = HandClock()
        async with served(db_url, now) as tables:
            request = {**TWO_HUMANS, "clock": {"kind": "realtime", "bank": 60, "increment": 5}}
            table, players = await seated(tables, request | {"standin": "greedy"})
            assert table.clock is not None and table.clock.running == "A"
            now.advance(30)
            await players["A"].move()
            assert table.clock.remaining["A"] == 35, "60 s - 30 s + the 5 s increment"
            assert table.clock.running == "B"
            now.advance(59.9)
            assert await fallen(tables, table) == []
            now.advance(0.1)
            assert await fallen(tables, table) == ["B"]
            seat = table.seats["B"]
            assert (seat.away, seat.standin) == ("timeout", "greedy")
            await bots_done(table)
            assert len(table.texts) == 2, "the stand-in played B's move at once"
            assert table.clock.running == "A" and table.clock.left("B") == 0
            # Every viewer was told: a welcome whose seat B is played by the bot.
            said = [m for m in players["A"].socket.sent if m["type"] == "welcome"][-1]
            b = said["table"]["seats"][1]
            assert b["away"] == "timeout" and b["standin"] == "greedy"
            assert players["B"].conn.seat == "B"
            assert (await players["B"].refused()).code in ("away", "not_your_turn")

    run(scenario())


def test_a_tables_timer_lets_its_flag_fall_by_itself(db_url: str) -> None:
    """Nobody asks: the table's own timer, set for its running clock's deadline, lets
    the flag fall. (The timer is armed again, as at start-up, once the hand-moved clock
    is past the deadline, so that it is due at once instead of in real minutes.)"""

    async def scenario() -> None:
        now = HandClock()
        async with served(db_url, now) as tables:
            request = {**TWO_HUMANS, "clock": "blitz", "standin": "greedy"}
            table, _ = await seated(tables, request)
            now.advance(181)
            assert table.seats["A"].away is None, "nothing happens before the timer is due"
            tables.presence.start()
            for _ in range(2000):  # the event loop runs the timer, then the stand-in
                if table.texts:
                    break
                await asyncio.sleep(0.01)
            assert table.seats["A"].away == "timeout"
            assert len(table.texts) == 1, "the stand-in played A's move"

    run(scenario())


def test_a_move_after_the_deadline_is_refused_before_the_watcher_notices(db_url: str) -> None:
    async def scenario() -> None:
        now = HandClock()
        async with served(db_url, now) as tables:
            request = {**TWO_HUMANS, "clock": "blitz", "standin": "greedy"}
            table, players = await seated(tables, request)
            now.advance(180)
            error = await players["A"].refused()
            assert error.code == "away" and "your time ran out" in error.message
            assert table.texts == [] or table.seats["A"].away == "timeout"
            await bots_done(table)
            assert len(table.texts) == 1, "the stand-in played A's move instead"

    run(scenario())


def test_a_turn_based_deadline(db_url: str) -> None:
    async def scenario() -> None:
        now = HandClock()
        async with served(db_url, now) as tables:
            request = {**TWO_HUMANS, "clock": {"kind": "turn", "hours": 1}, "standin": "greedy"}
            table, players = await seated(tables, request)
            assert table.clock is not None
            now.advance(3000)
            await players["A"].move()
            now.advance(3599)  # B's own hour, whatever A took
            assert await fallen(tables, table) == []
            await players["B"].move()
            assert table.clock.running == "A" and table.clock.left("A") == 3600
            now.advance(3600)
            assert await fallen(tables, table) == ["A"]

    run(scenario())


def test_bots_have_no_clock_and_unclocked_tables_are_unchanged(db_url: str) -> None:
    async def scenario() -> None:
        now = HandClock()
        async with served(db_url, now) as tables:
            table, players = await seated(
                tables, {"game": "mind-cycling", "seats": ["human", "greedy"], "clock": "blitz"}
            )
            assert table.clock is not None
            now.advance(20)
            await players["A"].move()
            await bots_done(table)
            # The bot's seat has no clock: B keeps its whole bank; A's runs again.
            assert table.clock.left("B") == 180 and table.clock.running == "A"
            assert table.clock.left("A") == 180 - 20 + 2
            now.advance(162)
            assert await fallen(tables, table) == ["A"]

            plain, _ = await seated(tables, dict(TWO_HUMANS))
            assert plain.clock is None
            from peloton.server.live import views

            summary = views.summary(plain)
            assert "clock" not in summary and summary["standin"] == "medium"
            now.advance(10**7)
            assert await fallen(tables, table) == []

    run(scenario())


def test_a_restart_keeps_the_clocks_and_charges_no_downtime(db_url: str) -> None:
    async def scenario() -> None:
        now = HandClock()
        async with served(db_url, now) as tables:
            request = {**TWO_HUMANS, "clock": {"kind": "realtime", "bank": 300, "increment": 0}}
            table, players = await seated(tables, request)
            now.advance(10)
            await players["A"].move()
            now.advance(20)
            assert table.clock is not None and table.clock.left("B") == 280
            table_id = table.id
        now.advance(5 * 3600)  # five hours down
        async with served(db_url, now) as again:
            table = again.get(table_id)
            assert table.clock is not None
            assert table.clock.running == "B"
            assert table.clock.left("A") == 290 and table.clock.left("B") == 280
            now.advance(279)
            assert await fallen(again, table) == []
            now.advance(1)
            assert await fallen(again, table) == ["B"]

    run(scenario())


# ---------------------------------------------------------------- a real server process


def test_invalid_time_controls_are_refused_at_creation(http: httpx.Client) -> None:
    before = len(http.get("/api/tables").json()["tables"])
    for clock, says in [
        ("bullet", "no time control 'bullet'"),
        ({"kind": "realtime", "bank": 5}, "'bank' must be 30 to 14400 seconds"),
        ({"kind": "turn", "hours": -1}, "'hours' must be 1 to 336 hours"),
    ]:
        answer = http.post("/api/tables", json={**TWO_HUMANS, "clock": clock})
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"]["code"] == "bad_options"
        assert says in answer.json()["error"]["message"]
    answer = http.post("/api/tables", json={**TWO_HUMANS, "standin": "grandmaster"})
    assert answer.status_code == 400 and "'standin' must be" in answer.text
    assert len(http.get("/api/tables").json()["tables"]) == before, "nothing was created"


def test_a_restarted_server_process_keeps_the_clocks(db_url: str) -> None:
    server = Server(db_url).start()
    try:
        with server.http() as http:
            table_id = create(http, **TWO_HUMANS, clock={"kind": "realtime", "bank": 900})
            token = join(http, table_id, "A")
            join(http, table_id, "B")
            ws = WS(server, table_id)
            welcome = ws.hello(token)
            assert welcome["table"]["clock"]["running"] == "A"
            ws.send(
                {
                    "type": "move",
                    "move": random_move(welcome["snapshot"], random.Random(1)),
                }
            )
            update = ws.expect("update")
            assert update["table"]["clock"]["running"] == "B"
            ws.close()
            before = http.get(f"/api/tables/{table_id}").json()["clock"]
        server.stop()
        server = Server(db_url).start()
        with server.http() as http:
            after = http.get(f"/api/tables/{table_id}").json()["clock"]
        assert after["kind"] == "realtime" and after["bank"] == 900
        assert after["running"] == "B"
        assert after["remaining"]["A"] == before["remaining"]["A"]
        # B's clock ran only while a server ran: never more than it had before the stop.
        assert 0 < after["remaining"]["B"] <= before["remaining"]["B"]
    finally:
        server.stop()
