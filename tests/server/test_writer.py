"""Issue 19: database commits never block the event loop, and they stay grouped. The
writer commits in its own thread (SQLite as PostgreSQL): while a commit runs the loop
serves everything else, and every write queued meanwhile goes in the next commit, one
transaction. Checked on a real SQLite file whose commits are made slow on purpose."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from peloton.server.storage import store

INSERT = sa.text("INSERT INTO marks (n) VALUES (:n)")


def test_the_loop_runs_while_a_commit_runs_and_queued_writes_share_the_next(
    tmp_path: Path,
) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'writer.db'}")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE marks (n INTEGER NOT NULL)"))
    committing = threading.Event()
    commits: list[str] = []

    @sa.event.listens_for(engine, "commit")
    def slow_commit(conn: Any) -> None:
        if threading.current_thread().name == "peloton-db-checkpoint":
            return  # the log's checkpoints, in their own thread
        commits.append(threading.current_thread().name)
        committing.set()
        time.sleep(0.3)  # a commit that fsyncs on a slow disk
        committing.clear()

    async def scenario() -> tuple[int, list[str]]:
        writer = store.Writer(engine)
        seen_during_commit = 0

        async def ticker() -> None:
            nonlocal seen_during_commit
            while True:
                await asyncio.sleep(0.005)
                seen_during_commit += committing.is_set()

        ticking = asyncio.create_task(ticker())
        first = asyncio.create_task(writer.write([(INSERT, {"n": 0})]))
        deadline = time.monotonic() + 30
        while not committing.is_set():  # the first commit has begun (beside the loop)
            assert time.monotonic() < deadline, "no commit ran while the loop went on"
            await asyncio.sleep(0.001)
        await asyncio.gather(*(writer.write([(INSERT, {"n": n})]) for n in range(1, 101)))
        await first
        ticking.cancel()
        made = list(commits)
        writer.close()
        return seen_during_commit, made

    seen, made = asyncio.run(scenario())
    assert seen > 0, "the event loop ran while the writer committed"
    assert made == ["peloton-db-writer"] * 2, "the writes queued meanwhile share one commit"
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM marks")).scalar() == 101
    engine.dispose()


def test_a_bad_write_fails_alone_and_the_others_of_its_commit_are_kept(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'writer.db'}")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE marks (n INTEGER NOT NULL)"))

    async def scenario() -> list[Any]:
        writer = store.Writer(engine)
        outcomes = await asyncio.gather(
            writer.write([(INSERT, {"n": 1})]),
            writer.write([(INSERT, {"n": None})]),  # NOT NULL: refused
            writer.write([(INSERT, {"n": 3})]),
            return_exceptions=True,
        )
        writer.close()
        return outcomes

    outcomes = asyncio.run(scenario())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], sa.exc.IntegrityError)
    with engine.connect() as conn:
        kept = sorted(conn.execute(sa.text("SELECT n FROM marks")).scalars())
    assert kept == [1, 3]
    engine.dispose()


@pytest.mark.parametrize("inline", [True])
def test_an_inline_writer_still_commits_once_per_loop_turn(tmp_path: Path, inline: bool) -> None:
    """The inline mode some unit tests use: in the loop's own thread, one commit for
    the writes of a loop turn."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'writer.db'}")
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE marks (n INTEGER NOT NULL)"))
    commits: list[str] = []
    sa.event.listen(engine, "commit", lambda conn: commits.append(threading.current_thread().name))

    async def scenario() -> list[str]:
        writer = store.Writer(engine, inline=inline)
        await asyncio.gather(*(writer.write([(INSERT, {"n": n})]) for n in range(10)))
        made = [name for name in commits if name == "MainThread"]
        writer.close()
        return made

    assert asyncio.run(scenario()) == ["MainThread"]
    engine.dispose()
