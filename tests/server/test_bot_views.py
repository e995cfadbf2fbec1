"""A bot at a table of a game with hidden information is given its own view of the
game, never the full state (docs/games.md): checked in-process with a spy bot."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, ClassVar

from peloton.bots import register_bot
from peloton.games import mindtwist as mt
from peloton.server.live import messages as p
from peloton.server.live.tables import Connection, Tables
from peloton.server.storage import database, store


class SpyBot:
    """Guesses 1 (or dials 1) and remembers every state it was given."""

    name = "spy"
    games = ("mind-twist",)
    seen: ClassVar[list[Any]] = []

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, state: Any) -> Any:
        SpyBot.seen.append(state.copy())
        moves = state.legal_moves()
        return next((m for m in moves if str(m) in ("guess:1", "dial:1")), moves[0])


class FakeSocket:
    """What :class:`Connection` sends to, kept as text."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)


def test_a_bot_gets_its_view_not_the_full_state(tmp_path: Path) -> None:
    register_bot("spy", SpyBot)
    SpyBot.seen.clear()

    async def scenario() -> None:
        engine = database.create_db_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
        writer = store.Writer(engine)
        tables = Tables(writer, engine, bot_delay=0)
        table = await tables.create({"game": "mind-twist", "seats": ["human", "spy"]})
        token = (await tables.join(table, {"seat": "R", "name": "Rae"}))["token"]
        conn = Connection(FakeSocket())  # type: ignore[arg-type]
        await tables.hello(table, conn, p.Hello(token))
        for move in ("dial:3", "dial:2", "dial:3"):  # the spy (B) answers each: guess:1, wrong
            while table.state.current_player != "R" and not table.state.is_over:
                await asyncio.sleep(0.01)
            await tables.move(table, conn, p.MoveMessage(move, None))
            while table.state.current_player != "R" and not table.state.is_over:
                await asyncio.sleep(0.01)
        await tables.stop()
        writer.close()
        engine.dispose()

    asyncio.run(scenario())
    assert sum(1 for s in SpyBot.seen if s.phase == "guess") == 3, "the spy answered every dial"
    for state in SpyBot.seen:
        assert isinstance(state, mt.State)
        if state.phase == "guess":
            assert state.dial is None and state.dial_hidden  # R's pending dial is hidden
            assert str(state.history[-1]) == "dial:?"
