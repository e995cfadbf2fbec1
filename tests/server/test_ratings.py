"""How one finished table moves ratings (:meth:`Ratings.rate`), without a server: ties
stay ties, a better place never gains less, bots bring their fixed ratings and keep
them, anonymous players count as newcomers and keep nothing, and unrated, solo and
competition tables rate nobody."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from peloton.server.games import HUMAN, spec
from peloton.server.live.ratings import MODEL, START, Ratings, bot_rating
from peloton.server.live.table import LiveTable, Seat
from peloton.server.storage import database, store

WHEN = datetime(2026, 12, 1, tzinfo=UTC)


def table(seats: list[Seat], **extra: Any) -> LiveTable:
    return LiveTable(
        id="t1", created=WHEN, spec=spec("mind-cycling"), options={},
        seats={s.seat: s for s in seats}, state=None, **extra,
    )  # fmt: skip


def ratings(tmp_path: Path | None = None) -> Ratings:
    # rate() reads and writes nothing: no engine needed until something is stored.
    return Ratings(None, None)  # type: ignore[arg-type]


def human(letter: str, profile: str | None) -> Seat:
    return Seat(letter, HUMAN, profile or f"guest {letter}", "hash", profile)


def test_ties_stay_ties_and_only_profiles_keep_ratings() -> None:
    r = ratings()
    seats = [human("A", "Ada"), human("B", "Bo"), Seat("C", "random", "random"), human("D", None)]
    place = {"A": 1, "B": 1, "C": 2, "D": 3}
    changes = r.rate(table(seats), place, WHEN)
    assert [(c.player, c.place) for c in changes] == [("Ada", 1), ("Bo", 1)]
    ada, bo = changes
    assert ada.after == bo.after and ada.before == bo.before == START
    assert ada.after[0] > START[0]  # ahead of the bot and the anonymous player
    # The same update by hand: the bot at its fixed rating, the guest a newcomer.
    model = MODEL
    bot = bot_rating("mind-cycling", "random")
    teams = [[model.rating()], [model.rating()], [model.rating(mu=bot[0], sigma=bot[1])],
             [model.rating()]]  # fmt: skip
    expected = model.rate(teams, ranks=[1, 1, 2, 3])[0][0]
    assert abs(ada.after[0] - expected.mu) < 1e-9 and abs(ada.after[1] - expected.sigma) < 1e-9


def test_a_second_game_starts_from_the_first_ones_rating() -> None:
    r = ratings()
    seats = [human("A", "Ada"), Seat("B", "greedy", "greedy")]
    first = r.rate(table(seats), {"A": 1, "B": 2}, WHEN)
    r._remember(first)
    again = table(seats)
    again.id = "t2"
    [second] = r.rate(again, {"A": 2, "B": 1}, WHEN)
    assert second.before == first[0].after and second.seq == first[0].seq + 1
    assert r.current[("mind-cycling", "Ada")].games == 1  # remembered only when stored
    assert r.rate(table(seats), {"A": 1, "B": 2}, WHEN) == []  # t1 is rated already


def test_unrated_solo_competition_and_anonymous_tables_rate_nobody() -> None:
    r = ratings()
    pair = [human("A", "Ada"), Seat("B", "greedy", "greedy")]
    place = {"A": 1, "B": 2}
    assert r.rate(table(pair, rated=False), place, WHEN) == []
    assert r.rate(table(pair, competition="c1"), place, WHEN) == []
    assert r.rate(table([human("A", "Ada")]), {"A": 1}, WHEN) == []
    assert r.rate(table([human("A", None), Seat("B", "greedy", "greedy")]), place, WHEN) == []


@given(st.lists(st.integers(1, 4), min_size=2, max_size=5))
def test_a_better_place_never_gains_less(ranks: list[int]) -> None:
    letters = "ABCDE"[: len(ranks)]
    seats = [human(letter, f"P{letter}") for letter in letters]
    changes = ratings().rate(table(seats), dict(zip(letters, ranks, strict=True)), WHEN)
    after = {c.player: c.after[0] for c in changes}
    for a, ra in zip(letters, ranks, strict=True):
        for b, rb in zip(letters, ranks, strict=True):
            if ra < rb:
                assert after[f"P{a}"] >= after[f"P{b}"] - 1e-9
            elif ra == rb:
                assert abs(after[f"P{a}"] - after[f"P{b}"]) < 1e-9


def test_nothing_is_stored_by_rating(tmp_path: Path) -> None:
    engine = database.create_db_engine(f"sqlite:///{tmp_path / 'r.db'}")
    r = Ratings(store.Writer(engine, inline=True), engine)
    r.load()
    r.rate(table([human("A", "Ada"), Seat("B", "greedy", "greedy")]), {"A": 1, "B": 2}, WHEN)
    r2 = Ratings(r.writer, engine)
    r2.load()
    assert r2.current == {} and r2.rated == set()
    r.writer.close()
    engine.dispose()
