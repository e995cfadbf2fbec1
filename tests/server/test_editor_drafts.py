"""The editor's check as its worker runs it (:func:`peloton.server.work.drafts.check_draft`),
for any JSON a client may send: it always answers, never raises (a job that raises
is a server bug), and what it answers holds together."""

from __future__ import annotations

import json
import tomllib
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from peloton import CourseError
from peloton.games.mindcycling import Course
from peloton.server.work.drafts import check_draft

KEYS = ("name", "lanes", "finish", "sections", "feed", "rocks", "rock", "extra")

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["plain", "sprint", "mountain", "c12", "a3", "e40"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)
    ),
    max_leaves=30,
)
near_courses = st.fixed_dictionaries(
    {
        "finish": st.integers(-3, 260),
        "sections": st.lists(
            st.tuples(
                st.integers(-2, 250), st.sampled_from(["plain", "sprint", "mountain", "x"])
            ).map(list),
            max_size=5,
        ),
    },
    optional={
        "name": st.text(max_size=70),
        "lanes": st.integers(-1, 12),
        "feed": st.lists(st.sampled_from(["a5", "c12", "e40", "b1", "zz"]), max_size=4),
        "rocks": st.lists(st.sampled_from(["a9", "b9", "c9", "d9", "e9", "c30", "j4"]), max_size=8),
        "rock": json_values,
    },
)


def holds_together(body: dict[str, Any], data: Any) -> None:
    outcome, answer = check_draft(body)
    assert outcome == "ok"
    json.dumps(answer)  # what the server sends
    try:
        Course.from_dict(data)
        expected: list[str] = []
    except CourseError as exc:
        expected = list(exc.problems)
    assert [p["message"] for p in answer["problems"]] == expected
    assert answer["ok"] is (not expected)
    if answer["draft"] is None:
        assert answer["toml"] is None and answer["notes"]
    else:
        assert tomllib.loads(answer["toml"]) == answer["draft"]


@settings(max_examples=200)
@given(st.one_of(json_values, near_courses))
def test_any_json_course_gets_an_answer_mc_1_3(data: Any) -> None:
    holds_together({"course": data}, data)


@settings(max_examples=100)
@given(near_courses)
def test_a_course_file_reads_as_its_data(data: dict[str, Any]) -> None:
    holds_together({"text": json.dumps(data), "format": "json"}, data)
