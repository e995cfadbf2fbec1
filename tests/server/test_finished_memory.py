"""Issue 19: every finished table leaves memory, however few there are. Its state (and
its moves' texts, its chance stream, its viewers' last snapshots) is let go once
nobody watches it and nobody asked for it in ``KEEP_SECONDS``; asked for again, it is
replayed from the database. Checked in-process on a real SQLite database, with bots
playing the games (short Mind Twist games end in a few moves)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from peloton.server.live import finished_tables
from peloton.server.live.tables import Tables
from peloton.server.storage import database, store

SHORT_GAME = {"game": "mind-twist", "seats": ["random", "random"], "options": {"length": 4}}
KEEP = 0.3


class Watcher:
    """A spectator's connection as the tables see it: it is sent every message."""

    seat: str | None = None
    greeted = True

    def __init__(self) -> None:
        self.texts: list[str] = []

    def send(self, text: str) -> None:
        self.texts.append(text)

    def close(self) -> None:
        pass


async def until(check: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.02)


def test_a_finished_table_leaves_memory_once_nobody_watches_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(finished_tables, "KEEP_SECONDS", KEEP)

    async def scenario() -> None:
        engine = database.create_db_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
        writer = store.Writer(engine)
        tables = Tables(writer, engine, bot_delay=0)
        tables.start_bots()  # the sweeper starts with the bots
        alone, watched = [await tables.create(dict(SHORT_GAME)) for _ in range(2)]
        watcher = Watcher()
        watched.connections.add(watcher)  # type: ignore[arg-type]
        await until(lambda: alone.final is not None and watched.final is not None)
        history = [str(m) for m in alone.state.history]
        assert alone.state is not None and watched.state is not None  # just finished

        # Only two finished tables (far fewer than FINISHED_IN_MEMORY): the one nobody
        # watches is let go after KEEP_SECONDS, with everything it held.
        await until(lambda: alone.state is None)
        assert alone.texts == [] and alone.rng is None and alone.shown == {}
        assert alone.status == "finished" and alone.moves_played == len(history)
        await asyncio.sleep(3 * KEEP)
        assert watched.state is not None, "a table someone watches stays"
        assert watcher.texts, "the watcher was sent the game's updates"

        # The watcher leaves: the table goes too.
        tables.disconnect(watched, watcher)  # type: ignore[arg-type]
        await until(lambda: watched.state is None)

        # Asked for again, a table comes back from the database, move for move, and
        # stays while it is being looked at.
        again = await tables.ensure_state(alone)
        assert [str(m) for m in again.history] == history and again.is_over
        assert alone.state is again
        await until(lambda: alone.state is None)
        await tables.stop()
        writer.close()
        engine.dispose()

    asyncio.run(scenario())
