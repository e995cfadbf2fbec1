"""Course design tools (MC-1.5 files written back, MC-1.3 problems placed on the road):
what the course editor's check answers."""

from __future__ import annotations

import doctest
import tomllib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from peloton import CourseError
from peloton.games.mindcycling import Course
from peloton.games.mindcycling import course_design as design
from peloton.games.mindcycling.course import MAX_FINISH, MAX_LANES, SECTION_TYPES


def problems_of(data: dict[str, Any]) -> list[str]:
    with pytest.raises(CourseError) as caught:
        Course.from_dict(data)
    return list(caught.value.problems)


def test_the_module_examples_run() -> None:
    result = doctest.testmod(design, raise_on_error=False)
    assert result.attempted >= 3 and result.failed == 0


@st.composite
def valid_courses(draw: st.DrawFn) -> Course:
    """Courses of every shape the loader accepts: tabs, feed zones and lone rocks."""
    lanes = draw(st.integers(1, MAX_LANES))
    finish = draw(st.integers(3, MAX_FINISH))
    rows = sorted(draw(st.sets(st.integers(2, finish - 1), min_size=1, max_size=6)))
    kinds = ["plain"] * len(rows)
    for special in ("sprint", "mountain"):
        if len(rows) > 1 and draw(st.booleans()):
            kinds[draw(st.integers(0, len(rows) - 1))] = special
    road = [f"{'abcdefghi'[lane]}{row}" for row in range(rows[0], finish) for lane in range(lanes)]
    chosen = draw(st.lists(st.sampled_from(road), unique=True, max_size=3)) if road else []
    feed = chosen[:2]
    # A rock only where its whole row stays open (a lone rock on a 3+ lane road).
    rocks = [s for s in chosen[2:] if lanes >= 3]
    letters = st.characters(categories=("L", "N", "P", "S"), include_characters=" ")
    name = draw(st.text(letters, min_size=1, max_size=64))
    return Course(
        name, lanes, finish, tuple(zip(rows, kinds, strict=True)), tuple(feed), tuple(rocks)
    )


@given(valid_courses())
def test_a_written_course_reads_back_the_same_mc_1_5(course: Course) -> None:
    text = design.course_toml(course.to_dict())
    assert Course.from_text(text, toml=True) == course
    assert Course.from_text(text, toml=True).to_dict() == course.to_dict()


drafts = st.fixed_dictionaries(
    {
        "name": st.text(max_size=80),
        "lanes": st.integers(-5, 40),
        "finish": st.integers(-5, 400),
        "sections": st.lists(
            st.tuples(st.integers(-3, 300), st.sampled_from([*SECTION_TYPES, "hill", ""])).map(
                list
            ),
            max_size=20,
        ),
        "feed": st.lists(st.text(max_size=5), max_size=5),
        "rocks": st.lists(st.text(max_size=5), max_size=8),
    }
)


@given(drafts)
def test_any_draft_is_written_as_toml_that_reads_back(draft: dict[str, Any]) -> None:
    """Even a draft the loader refuses (a name with control characters, DEL, quotes or
    backslashes; tabs out of order) is a TOML file that reads back as the same data,
    so a designer can save work in progress."""
    assert tomllib.loads(design.course_toml(draft)) == draft


@given(drafts)
def test_every_problem_is_placed_on_what_it_names_mc_1_3(draft: dict[str, Any]) -> None:
    try:
        Course.from_dict(draft)
    except CourseError as exc:
        problems = exc.problems
    else:
        return
    for problem in problems:
        place = design.problem_place(problem)
        assert place["key"] in ("name", "lanes", "finish", "sections", "feed", "rocks", "road")
        if place["square"] is not None:
            assert place["square"] in problem
            assert place["row"] == int(place["square"][1:])
        elif place["row"] is not None:
            assert f"row {place['row']}" in problem


def test_problems_point_at_their_row_or_square_mc_1_3() -> None:
    bad = {
        "name": "bad",
        "lanes": 5,
        "finish": 30,
        "sections": [[6, "plain"], [4, "sprint"], [12, "sprint"], [14, "hill"]],
        "feed": ["a2", "c40", "b20"],
        "rocks": ["b20"],
    }
    walls = {**bad, "sections": [[6, "plain"]], "feed": [], "rocks": [f"{x}25" for x in "abcde"]}
    places = {p: design.problem_place(p) for p in problems_of(bad) + problems_of(walls)}
    by_text = {" ".join(text.split(" ")[:2]): place for text, place in places.items()}
    assert len(places) == 7 + 6, places
    assert places["tab rows must strictly increase, but row 4 follows row 6"] == {
        "row": 4,
        "square": None,
        "key": "sections",
    }
    assert places["feed square 'a2' is in the start zone (rows 1-5)"] == {
        "row": 2,
        "square": "a2",
        "key": "feed",
    }
    assert places["square 'b20' is both a feed square and a rock"]["square"] == "b20"
    assert places["row 25 is all rocks; every row must keep a free square"] == {
        "row": 25,
        "square": None,
        "key": "road",
    }
    walled = [p for text, p in places.items() if "walled in" in text]
    assert {p["square"] for p in walled} == {f"{lane}24" for lane in "abcde"}
    assert by_text["there are"]["key"] == "sections"
    assert design.problem_place("'uploaded course' is not valid TOML: x")["key"] == "file"
    assert design.problem_place("lanes must be between 1 and 9, not 12")["key"] == "lanes"
    finish = design.problem_place("finish 10 must be greater than the last tab row 12")
    assert finish == {"row": 12, "square": None, "key": "finish"}


def test_what_a_problem_quotes_from_the_file_is_never_read_as_a_place() -> None:
    quoting = problems_of({"name": "row 5 \x01", "finish": 20, "sections": [[4, "plain"]]})
    quoting += problems_of(
        {
            "finish": 20,
            "sections": [[4, "plain"], [8, "row 9"], [10, "square c3"]],
            "feed": ["row 7"],
        }
    )
    assert len(quoting) == 4, quoting
    for problem in quoting:
        place = design.problem_place(problem)
        assert place["row"] is None and place["square"] is None, (problem, place)


def test_an_editable_draft_leaves_unknown_keys_out_and_refuses_wrong_types() -> None:
    draft, notes = design.editable_draft({"finish": 20, "sections": [[3, "plain"]], "rock": []})
    assert draft == {
        "name": "custom",
        "lanes": 5,
        "finish": 20,
        "sections": [[3, "plain"]],
        "feed": [],
        "rocks": [],
    }
    assert notes == ["unknown key 'rock' left out"]
    for bad in (
        [],
        {"finish": "20", "sections": []},
        {"finish": 10**6, "sections": []},
        {"finish": 20, "lanes": 0, "sections": []},
        {"finish": 20, "sections": [[3]]},
        {"finish": 20, "sections": [], "feed": "c4"},
        {"finish": 20, "sections": [], "rocks": ["a5"] * 1000},
    ):
        draft, reasons = design.editable_draft(bad)
        assert draft is None and reasons, bad
