"""Bounded sizes and bounded games (issue 11): every size a course may choose is capped
at what a real game needs (MC-1.3 [decision]), and no game can run for ever (MC-8.5,
MC-9.3)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import peloton
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.course import MAX_FINISH, MAX_LANES, MAX_NAME, MAX_SECTIONS
from peloton.games.mindcycling.rules import max_rounds

BASE: dict[str, Any] = {"name": "capped", "lanes": 5, "finish": 40, "sections": [[3, "plain"]]}


def problems_of(**changes: Any) -> str:
    """The CourseError message of the base course with some keys changed."""
    with pytest.raises(peloton.CourseError) as info:
        mc.Course.from_dict({**BASE, **changes})
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_caps_leave_real_courses_alone() -> None:
    """The largest course within every cap is valid, and so are the bundled ones."""
    biggest = {
        "name": "x" * MAX_NAME,
        "lanes": MAX_LANES,
        "finish": MAX_FINISH,
        "sections": [[r, "plain"] for r in range(2, 2 + MAX_SECTIONS)],
        "feed": ["a20", "b20"],
        "rocks": ["a30", "c30", "e30", "g30", "i30", "a31"],
    }
    assert mc.Course.from_dict(biggest).finish == MAX_FINISH
    for name in mc.bundled_names():
        assert mc.Course.load(name).finish <= MAX_FINISH


def test_finish_is_capped() -> None:
    """A course has at most MAX_FINISH rows; the message names the value."""
    message = problems_of(finish=1_000_000)
    assert "finish 1000000" in message and f"at most {MAX_FINISH} rows" in message
    assert "201" in problems_of(finish=MAX_FINISH + 1)


def test_lanes_are_capped() -> None:
    """A road has 1 to MAX_LANES lanes; the message names the value."""
    message = problems_of(lanes=MAX_LANES + 1)
    assert f"between 1 and {MAX_LANES}, not {MAX_LANES + 1}" in message
    assert "not 26" in problems_of(lanes=26)


def test_sections_are_capped() -> None:
    """At most MAX_SECTIONS section tabs; a long list is refused as a whole."""
    tabs = [[r, "plain"] for r in range(2, 2 + MAX_SECTIONS + 1)]
    message = problems_of(sections=tabs, finish=60)
    assert f"lists {MAX_SECTIONS + 1} tabs" in message and f"at most {MAX_SECTIONS}" in message
    with pytest.raises(peloton.CourseError, match=f"{MAX_SECTIONS + 1} section tabs"):
        mc.Course("direct", 5, 60, tuple((r, "plain") for r, _ in tabs))


@pytest.mark.parametrize(("key", "limit"), [("feed", 2), ("rocks", 6)])
def test_feed_and_rocks_are_capped(key: str, limit: int) -> None:
    """MC-1.2: at most 2 feed squares and 6 rocks; a huge list is refused as a whole,
    in one sentence, without a problem per square."""
    message = problems_of(**{key: [f"c{r}" for r in range(3, 3 + limit + 1)]})
    assert f"{key} lists {limit + 1} squares; at most {limit}" in message
    huge = [f"a{r}" for r in range(10**5)]
    with pytest.raises(peloton.CourseError) as info:
        mc.Course.from_dict({**BASE, key: huge})
    assert info.value.problems == [f"{key} lists 100000 squares; at most {limit} are allowed"]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("n" * (MAX_NAME + 1), [f"{MAX_NAME + 1} characters", f"at most {MAX_NAME}"]),
        ("bad\x00name", ["printable"]),
        ("\ud800", ["printable"]),
    ],
)
def test_names_are_capped(name: str, words: list[str]) -> None:
    """A course name is at most MAX_NAME printable characters (it is shown and stored)."""
    message = problems_of(name=name)
    for w in words:
        assert w in message, (w, message)


def test_mc_8_5_the_slowest_game_ends() -> None:
    """MC-5.3, MC-8.5: even when every rider crawls (the shortest move, staying when it
    must), a race of 7 teams of 6 on the largest course ends, well within the bound."""
    course = mc.Course.from_dict(
        {
            "name": "long",
            "lanes": MAX_LANES,
            "finish": MAX_FINISH,
            "sections": [[6, "plain"], [120, "mountain"]],
        }
    )
    state = mc.new_game(course, mc.default_teams(7, 6))

    def row(move: mc.Move) -> int:
        if move.square is None:
            return -1 if move.kind == "=" else 10**6  # never a gift: it does not advance
        return 10**5 if move.square == "#" else int(move.square[1:])

    while not state.is_over:
        state.play(min(state.legal_moves(), key=lambda m: (row(m), str(m))))
    assert state.round < MAX_FINISH  # every round, someone advanced
    assert state.round <= max_rounds(course, 42)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 10**6),
    st.sampled_from([("solo", 1), ("short", 2), ("short", 4), ("standard", 3)]),
)
def test_mc_8_5_every_round_brings_the_end_closer(seed: int, game: tuple[str, int]) -> None:
    """The lemma behind :func:`max_rounds`: the rows left to ride, summed over the riders
    on the road, drop by at least one every round, whatever the riders choose."""
    rng = random.Random(seed)
    name, teams = game
    course = mc.Course.load(name)
    state = mc.new_solo(course) if teams == 1 else mc.new_game(course, mc.default_teams(teams, 3))
    riders = len(state.riders())

    def left(s: mc.State) -> int:
        return sum(
            course.finish - course.row_lane(r.square)[0] for r in s.riders() if r.square is not None
        )

    before, round_ = None, 0
    while not state.is_over:
        if state.round != round_:
            now = left(state)
            if before is not None:
                assert now < before, (state.round, now, before)
            before, round_ = now, state.round
        state.play(rng.choice(state.legal_moves()))
    assert state.round <= max_rounds(course, riders)
