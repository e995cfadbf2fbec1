"""Ratings in cluster mode (:attr:`Ratings.shared`): several nodes rate finished tables
into one PostgreSQL database. Each rating starts from the player's current rating,
whichever node stored the last one, and no two updates share a number, even when
the nodes rate at the same moment; a node's pages read the others' updates."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import Engine, select

from peloton.server.games import HUMAN, spec
from peloton.server.live.ratings import START, Ratings, rated_games
from peloton.server.live.table import LiveTable, Seat
from peloton.server.storage import database, store

WHEN = datetime(2026, 12, 2, tzinfo=UTC)
PLAYERS = ["Ada", "Bo", "Cy"]


def finished_table(table_id: str, first: str, second: str, seed: int) -> LiveTable:
    """A Mind Twist table of two signed-in players played to the end at random."""
    game = spec("mind-twist")
    state = game.new_state({}, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.play(rng.choice(list(state.legal_moves())))
    seats = {
        letter: Seat(letter, HUMAN, name, "hash", name)
        for letter, name in zip(game.letters, [first, second], strict=True)
    }
    return LiveTable(id=table_id, created=WHEN, spec=game, options={}, seats=seats, state=state)


@pytest.fixture()
def engines(pg_url: str) -> Iterator[tuple[Engine, Engine]]:
    """Two engines on one PostgreSQL database: two nodes' connections."""
    first, second = database.create_db_engine(pg_url), database.create_db_engine(pg_url)
    yield first, second
    first.dispose()
    second.dispose()


def node(engine: Engine) -> Ratings:
    ratings = Ratings(store.Writer(engine), engine)
    ratings.load()
    ratings.shared = True
    return ratings


def test_a_node_rates_from_the_rating_another_node_stored(
    engines: tuple[Engine, Engine],
) -> None:
    one, two = node(engines[0]), node(engines[1])
    one._rate_shared(finished_table("t1", "Ada", "Bo", 1), WHEN)
    [ada_first] = one.history["Ada"]
    two._rate_shared(finished_table("t2", "Ada", "Bo", 2), WHEN)
    ada_second = two.history["Ada"][-1]
    assert ada_second.table_id == "t2"
    assert ada_second.before == ada_first.after  # not a newcomer's 25 ± 8.33
    assert ada_second.seq > ada_first.seq
    # The first node's pages see the second node's update once they read it.
    assert one.current[("mind-twist", "Ada")].games == 1
    one.refresh()
    assert one.current[("mind-twist", "Ada")].games == 2
    assert one.leaderboard("mind-twist") == two.leaderboard("mind-twist")


def test_nodes_rating_at_once_number_every_update_apart_and_chain_them(
    engines: tuple[Engine, Engine],
) -> None:
    nodes = [node(engines[0]), node(engines[1])]
    rng = random.Random(7)
    tables = []
    for i in range(24):
        first, second = rng.sample(PLAYERS, 2)
        tables.append(finished_table(f"t{i}", first, second, i))
    errors: list[BaseException] = []

    def rate(ratings: Ratings, mine: list[LiveTable]) -> None:
        try:
            for table in mine:
                ratings._rate_shared(table, WHEN)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=rate, args=(nodes[k], tables[k::2])) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with engines[0].connect() as conn:
        rows = list(conn.execute(select(rated_games).order_by(rated_games.c.seq)))
    assert len(rows) == 2 * len(tables)  # every table, both players, once
    assert len({r.seq for r in rows}) == len(rows)
    last: dict[str, tuple[float, float]] = {}
    for r in rows:  # each update starts where the player's previous one ended
        assert (r.mu_before, r.sigma_before) == pytest.approx(last.get(r.player, START))
        last[r.player] = (r.mu, r.sigma)
    for ratings in nodes:
        ratings.refresh()
    assert nodes[0].current == nodes[1].current
