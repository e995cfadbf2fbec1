"""The Pistard layout builder's check (PI-1.1): each problem of a layout in the loader's
own words, placed on its key or row; each design rule of the default layout broken on
purpose in a copy of it; the default layout breaking none; a draft written as TOML and
read back."""

from __future__ import annotations

import doctest
import tomllib
from typing import Any

import pytest

from peloton.core.registry import get
from peloton.games.pistard import layout_design as design
from peloton.games.pistard.layout_design import (
    DESIGN_RULES,
    EDITOR,
    layout_advice,
    layout_draft,
    layout_place,
    layout_problems,
    layout_summary,
    layout_toml,
)
from peloton.games.pistard.track import Layout, LayoutError, _bundled_text

DEFAULT: dict[str, Any] = Layout.load("default").to_dict()


def with_rows(**changed: str) -> dict[str, Any]:
    """A copy of the default layout with some rows changed: ``r12="yygr"``."""
    rows = list(DEFAULT["rows"])
    for key, row in changed.items():
        rows[int(key[1:]) - 1] = row
    return {**DEFAULT, "name": "changed", "rows": rows}


def loader_words(data: Any) -> list[str]:
    with pytest.raises(LayoutError) as caught:
        Layout.from_dict(data)
    return list(caught.value.problems)


def test_pistard_offers_its_layout_builder() -> None:
    info = get("pistard")
    assert info.editor == "peloton.games.pistard.layout_design:EDITOR"
    assert EDITOR.page == "pistard_editor.html"
    assert doctest.testmod(design).failed == 0


@pytest.mark.parametrize(
    ("data", "says", "place"),
    [
        # PI-1.1: four lanes, each one of the four colours.
        (
            with_rows(r12="yxgr"),
            "row 12 is 'yxgr': it must be 4 colour letters",
            {"row": 12, "square": None, "key": "rows", "rule": "PI-1.1"},
        ),
        (
            with_rows(r3="ygb"),
            "row 3 is 'ygb': it must be 4 colour letters",
            {"row": 3, "square": None, "key": "rows", "rule": "PI-1.1"},
        ),
        # PI-1.1: the loop's length.
        (
            {"name": "short", "rows": DEFAULT["rows"][:12]},
            "the track must have 20 to 120 rows, not 12",
            {"row": None, "square": None, "key": "length", "rule": "PI-1.1"},
        ),
        (
            {**DEFAULT, "length": 41},
            "'length' is 41 but 'rows' lists 40 rows",
            {"row": None, "square": None, "key": "length", "rule": "PI-1.1"},
        ),
        (
            {**DEFAULT, "name": ""},
            "'name' must be a non-empty string",
            {"row": None, "square": None, "key": "name", "rule": "PI-1.1"},
        ),
        (
            {**DEFAULT, "colours": 4},
            "unknown key(s) 'colours'",
            {"row": None, "square": None, "key": "file", "rule": "PI-1.1"},
        ),
        (
            {"name": "empty"},
            "'rows' is missing",
            {"row": None, "square": None, "key": "rows", "rule": "PI-1.1"},
        ),
    ],
)
def test_each_problem_is_the_loaders_own_words_placed_pi_1_1(
    data: dict[str, Any], says: str, place: dict[str, Any]
) -> None:
    problems = layout_problems(data)
    assert problems == loader_words(data)
    found = [p for p in problems if says in p]
    assert found, problems
    assert layout_place(found[0]) == place
    assert layout_advice(data) == []  # no design advice on a track that cannot be raced


def test_a_bundled_name_opens_and_an_unknown_one_is_named() -> None:
    assert layout_draft("default") == (DEFAULT, [])
    assert layout_problems("default") == []
    assert layout_problems("banked") == ["no bundled layout called 'banked' (bundled: default)"]
    assert layout_draft("banked")[0] is None
    # A name is never read as a file's path on the server.
    assert layout_problems("/etc/passwd.toml")[0].startswith("no bundled layout")


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ([1, 2], "a layout must be a table of keys, not list"),
        ({"rows": "ygbr"}, "'rows' is not a list of strings"),
        ({"rows": ["ygbr"] * 500}, "'rows' lists 500 rows (a track has 1 to 120)"),
        ({"rows": ["y" * 100] * 20}, "a row is over 16 letters long"),
        ({"rows": ["ygbr"] * 20, "length": "long"}, "'length' is not a whole number"),
        ({"rows": ["ygbr"] * 20, "name": 3}, "'name' is not text"),
    ],
)
def test_a_draft_that_cannot_be_drawn_says_why(data: Any, why: str) -> None:
    draft, notes = layout_draft(data)
    assert draft is None and any(why in n for n in notes), notes
    assert layout_problems(data)  # and the loader refuses it


def test_a_draft_keeps_what_can_be_drawn_and_notes_unknown_keys() -> None:
    draft, notes = layout_draft({**with_rows(r5="ygx"), "lanes": 4})
    assert draft is not None and draft["rows"][4] == "ygx"
    assert notes == ["unknown key 'lanes' left out"]


def test_the_default_layout_keeps_every_design_rule() -> None:
    assert layout_advice(DEFAULT) == []
    assert layout_advice("default") == []
    assert layout_summary(DEFAULT)[1:] == [f"{title}: yes" for _, title in DESIGN_RULES]


@pytest.mark.parametrize(
    ("rows", "key", "advice", "square"),
    [
        # Row 1 was "rgyb": now yellow twice, no blue.
        (
            {"r1": "rgyy"},
            "row-colours",
            "every row holds the four colours: row 1 is 'rgyy', without blue",
            None,
        ),
        # Lane a of rows 1-8 is r b g r r y g r: no blue left once row 2 is green.
        (
            {"r2": "gryb"},
            "block-colours",
            "each lane shows the four colours in every block of 8 rows: "
            "lane a shows no blue in rows 1-8",
            "a1",
        ),
        # Lane a of rows 4-5 is red, red: a red row 6 makes three running.
        (
            {"r6": "rygb"},
            "no-triples",
            "no lane repeats a colour three rows running: lane a is red on rows 4, 5 and 6",
            "a4",
        ),
    ],
)
def test_each_design_rule_broken_on_purpose_is_advised(
    rows: dict[str, str], key: str, advice: str, square: str | None
) -> None:
    data = with_rows(**rows)
    assert layout_problems(data) == []  # playable: advice, not a problem
    found = layout_advice(data)
    assert advice in found, found
    place = layout_place(advice)
    assert place["key"] == key and place["square"] == square and place["rule"] is None
    title = dict(DESIGN_RULES)[key]
    assert f"{title}: no" in "\n".join(layout_summary(data))


def test_the_loop_counts_for_three_rows_running() -> None:
    # Lane a of rows 39, 40 is g, y; row 1 yellow-first makes y y in lane a round the line,
    # and row 2 yellow-first makes three: rows 40, 1 and 2.
    data = with_rows(r1="ygbr", r2="ygbr")
    advice = [a for a in layout_advice(data) if a.startswith("no lane repeats")]
    assert "no lane repeats a colour three rows running: lane a is yellow on rows 40, 1 and 2" in (
        advice
    )


def test_too_few_or_too_many_doubles_are_advised() -> None:
    # Every row the same: each lane is one colour all round, 40 places twice running.
    same = {"name": "stripes", "rows": ["ygbr"] * 40}
    doubles = [a for a in layout_advice(same) if a.startswith("each lane has 3 or 4")]
    assert len(doubles) == 4
    assert doubles[0].startswith(
        "each lane has 3 or 4 places where a colour comes twice running: lane a has 40 (rows 1-2, "
    )
    assert layout_place(doubles[0]) == {"row": 1, "square": "a1", "key": "doubles", "rule": None}
    # A lane that never repeats a colour: "none", placed on its lane only.
    turning = {"name": "turning", "rows": ["ygbr", "gbry", "bryg", "rygb"] * 5}
    none = [a for a in layout_advice(turning) if a.startswith("each lane has 3 or 4")]
    assert none[0].endswith("lane a has 0 (none)")
    assert layout_place(none[0])["row"] is None


def test_the_draft_written_as_toml_reads_back_as_the_default_file() -> None:
    text = layout_toml(DEFAULT)
    body = [line for line in _bundled_text("default").splitlines() if line and line[0] != "#"]
    assert text.splitlines() == body  # written as the default file writes its rows
    assert Layout.from_text(text, toml=True) == Layout.load("default")
    odd = {"name": 'a "quoted"\x7f name', "length": 25, "rows": DEFAULT["rows"][:25]}
    text = layout_toml(odd)
    assert text.splitlines()[-2] == '    "gbry",  # row 25'
    assert tomllib.loads(text) == odd
