"""Issue 11, item 8: finished tables leave memory. A server keeps the state of every
running table and of only the last ``FINISHED_IN_MEMORY`` finished tables asked for;
any other finished table is replayed from the database when it is asked for again.
Checked in-process on a real SQLite database, with bots playing the games (on a
short Mind Twist path, whose default milestones follow the length: a table must be
rebuilt from the options it was made with, not from the defaults)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from peloton.server.limits import FINISHED_IN_MEMORY
from peloton.server.live import finished_tables
from peloton.server.live.tables import Tables
from peloton.server.storage import database, store

#: A short all-bot game: Mind Twist on a 4-space path ends in a few moves.
SHORT_GAME = {"game": "mind-twist", "seats": ["random", "random"], "options": {"length": 4}}


def test_only_the_last_finished_tables_asked_for_stay_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A finished table asked for a moment ago is kept for KEEP_SECONDS; here every table
    # is asked for within a second, so that grace is set to nothing.
    monkeypatch.setattr(finished_tables, "KEEP_SECONDS", 0.0)
    extra = 6

    async def scenario() -> None:
        engine = database.create_db_engine(f"sqlite:///{tmp_path / 'db.sqlite'}")
        writer = store.Writer(engine)
        tables = Tables(writer, engine, bot_delay=0)
        made = [await tables.create(dict(SHORT_GAME)) for _ in range(FINISHED_IN_MEMORY + extra)]
        for _ in range(2000):
            if all(t.final is not None for t in made):
                break
            await asyncio.sleep(0.01)
        assert all(t.final is not None for t in made), "every short game ends"
        histories = []
        for table in made:  # a spectator asks for each finished table in turn
            histories.append([str(m) for m in (await tables.ensure_state(table)).history])
        kept = [t for t in made if t.state is not None]
        assert len(kept) == FINISHED_IN_MEMORY
        assert all(t.state is None for t in made[:extra]), "the least recently asked go first"

        # A table let go is replayed from the database, the same game move for move.
        again = await tables.ensure_state(made[0])
        assert [str(m) for m in again.history] == histories[0]
        assert again.is_over
        assert made[extra].state is None, "asking again counts it, and lets the oldest go"
        await tables.stop()
        writer.close()
        engine.dispose()

    asyncio.run(scenario())
