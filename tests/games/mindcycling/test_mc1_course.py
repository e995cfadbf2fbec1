"""MC-1: the road and the course."""

from __future__ import annotations

import json

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import FLAT, MIXED, cone, course, legal, of_kind, play


def problems_of(data: dict[str, object]) -> list[str]:
    with pytest.raises(peloton.CourseError) as info:
        mc.Course.from_dict(data)
    return info.value.problems


def base(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "t",
        "lanes": 5,
        "finish": 30,
        "sections": [[3, "plain"], [10, "sprint"], [20, "mountain"]],
        "feed": [],
        "rocks": [],
    }
    data.update(changes)
    return data


# ---------------------------------------------------------------- MC-1.1


def test_mc_1_1_squares_are_lane_letter_and_row() -> None:
    """MC-1.1: lanes a, b, c ... left to right, rows from 1; a square is lane + row."""
    c = course([[3, "plain"]], 20, lanes=7)
    assert c.lanes == 7
    assert c.square_name(c.parse_square("g5")) == "g5"  # type: ignore[arg-type]
    assert c.parse_square("a1") is not None
    assert c.parse_square("h5") is None  # an eighth lane does not exist
    assert c.parse_square("a0") is None  # rows start at 1
    assert c.parse_square("a20") is None  # row `finish` is past the line


def test_mc_1_1_lanes_bound_the_road() -> None:
    """MC-1.1: a rider on the leftmost / rightmost lane cannot step off the road."""
    c = course([[3, "plain"]], 30, lanes=3)
    # Sprinter in plain, alone: 5 - 1 = 4; a-lane and c-lane edges.
    s = mc.from_mcn(c, "1 AC1:a1,AD1:b1+,AS1:a10,BC1:c1,BD1:c2+,BS1:a2 / - / -")
    assert s.current_rider == "AS1"
    assert of_kind(s) == {
        "a11", "b11",
        "a12", "b12", "c12",
        "a13", "b13", "c13",
        "a14", "b14", "c14",
    }  # fmt: skip


# ---------------------------------------------------------------- MC-1.2


def test_mc_1_2_road_rows_end_before_finish() -> None:
    """MC-1.2: rows 1..finish-1 are the road; reaching row >= finish crosses the line."""
    c = course([[3, "plain"]], 20)
    assert c.parse_square("c19") is not None
    assert c.parse_square("c20") is None
    s = mc.from_mcn(c, "1 AC1:a1,AD1:c17+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    # Domestique alone in plain: 6 steps, but the road ends after row 19.
    dests = of_kind(s)
    assert "#" in dests
    assert max(int(d[1:]) for d in dests if d != "#") == 19
    assert not any(d.endswith("20") or d.endswith("21") for d in dests)


def test_mc_1_2_sections_run_from_tab_to_next_tab() -> None:
    """MC-1.2: a tab at row r starts a section running to the next tab or the finish;
    rows before the first tab are the start zone, which is plain."""
    c = MIXED
    assert [c.section_of(r) for r in (1, 2)] == ["start", "start"]
    assert {c.section_of(r) for r in range(3, 10)} == {"plain"}
    assert {c.section_of(r) for r in range(10, 20)} == {"sprint"}
    assert {c.section_of(r) for r in range(20, 30)} == {"mountain"}
    assert {c.section_of(r) for r in range(30, 40)} == {"plain"}
    assert c.start_rows == 2
    assert c.last_row_of("sprint") == 19
    assert c.last_row_of("mountain") == 29
    assert FLAT.last_row_of("sprint") is None


def test_mc_1_2_start_zone_rides_as_plain() -> None:
    """MC-1.2, MC-2.1: the start zone is plain: a domestique there has 7 (6 against the
    wind), a sprinter 5 (4), like in the plain."""
    c = course([[4, "plain"], [10, "sprint"]], 30)
    s = mc.from_mcn(c, "1 AC1:a1,AD1:c3+,AS1:e3,BC1:b1,BD1:d1+,BS1:e1 / - / -")
    assert s.current_rider == "AD1"
    assert of_kind(s) >= {"c9"} and not {sq for sq in of_kind(s) if sq[1:] == "10"}
    play(s, "AD1-a9")
    assert s.current_rider == "AS1"
    assert max(int(sq[1:]) for sq in of_kind(s)) == 7


def test_mc_1_2_rocks_cannot_be_entered_or_crossed() -> None:
    """MC-1.2: nobody may stop on or pass through a rock square."""
    c = course([[3, "plain"]], 30, rocks=["b12", "c12"])
    # Sprinter in plain against the wind: 4 steps from c10.
    s = mc.from_mcn(c, "1 AC1:a1,AD1:b1+,AS1:c10,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    dests = of_kind(s)
    assert "b12" not in dests and "c12" not in dests
    assert {d for d in dests if d[1:] == "11"} == {"b11", "c11", "d11"}
    assert {d for d in dests if d[1:] == "12"} == {"a12", "d12", "e12"}
    assert {d for d in dests if d[1:] == "13"} == {"a13", "b13", "c13", "d13", "e13"}
    assert dests == cone("c10", 4, blocked=["b12", "c12"])


def test_mc_1_2_rocks_force_detours() -> None:
    """MC-1.2: with rocks on c11 and c12, a rider on c10 goes round them."""
    c = course([[3, "plain"]], 30, rocks=["c11", "c12"])
    s = mc.from_mcn(c, "1 AC1:c10,AD1:b1+,AS1:a1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    dests = of_kind(s)
    assert {d for d in dests if d[1:] == "11"} == {"b11", "d11"}
    assert {d for d in dests if d[1:] == "12"} == {"a12", "b12", "d12", "e12"}
    assert "c13" in dests
    assert dests == cone("c10", 4, blocked=["c11", "c12"])


def test_mc_1_2_feed_and_rock_counts() -> None:
    """MC-1.2: 0 to 2 feed squares and 0 to 6 rocks."""
    ok = course(
        [[3, "plain"]], 40, feed=["a5", "e9"], rocks=["a10", "c12", "e14", "a16", "c18", "e20"]
    )
    assert len(ok.feed) == 2 and len(ok.rocks) == 6
    assert any("feed" in p for p in problems_of(base(feed=["a5", "b5", "c5"])))
    rocks = ["a11", "c11", "e11", "a15", "c15", "e15", "a19"]
    assert any("rocks" in p for p in problems_of(base(rocks=rocks)))


# ---------------------------------------------------------------- MC-1.3


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"sections": []}, ["at least one"]),
        ({"sections": [[3, "plain"], [10, "sprint"], [10, "mountain"]]}, ["increase"]),
        ({"sections": [[3, "plain"], [12, "sprint"], [10, "mountain"]]}, ["increase"]),
        ({"sections": [[1, "plain"], [10, "sprint"]]}, ["row 1"]),
        ({"sections": [[3, "plain"], [30, "sprint"]]}, ["finish", "30"]),
        ({"finish": 15, "sections": [[3, "plain"], [20, "sprint"]]}, ["finish", "15"]),
        ({"sections": [[3, "sprint"], [10, "plain"], [20, "sprint"]]}, ["sprint", "at most one"]),
        (
            {"sections": [[3, "mountain"], [10, "plain"], [20, "mountain"]]},
            ["mountain", "at most one"],
        ),
        ({"sections": [[3, "plain"], [10, "hills"]]}, ["hills"]),
        ({"feed": ["f12"]}, ["f12", "off the road"]),
        ({"feed": ["c30"]}, ["c30", "off the road"]),
        ({"rocks": ["c31"]}, ["c31", "off the road"]),
        ({"rocks": ["z12"]}, ["z12"]),
        ({"feed": ["c2"]}, ["c2", "start zone"]),
        ({"rocks": ["a1"]}, ["a1", "start zone"]),
        ({"feed": ["c12"], "rocks": ["c12"]}, ["c12", "both"]),
        ({"rocks": ["a12", "b12", "c12", "d12", "e12"]}, ["row 12"]),
        ({"rocks": ["b12", "c12", "d12"]}, ["c11"]),
        ({"lanes": 3, "rocks": ["a15", "b15"]}, ["a14", "walled"]),
    ],
)
def test_mc_1_3_each_problem_is_named(changes: dict[str, object], words: list[str]) -> None:
    """MC-1.3: every invalid course is rejected with an error naming the problem."""
    problems = problems_of(base(**changes))
    assert problems, "CourseError.problems must not be empty"
    text = " ".join(problems)
    for w in words:
        assert w in text, f"{w!r} not in {problems}"


def test_mc_1_3_problems_listed_at_once() -> None:
    """MC-1.3: all problems of a course are reported together, one sentence each."""
    sections = problems_of(
        base(finish=8, sections=[[1, "sprint"], [6, "sprint"], [6, "mountain"], [9, "mountain"]])
    )
    assert len(sections) >= 4
    joined = " ".join(sections)
    for w in ("row 1", "increase", "finish 8", "sprint", "mountain"):
        assert w in joined, (w, sections)

    squares = problems_of(base(feed=["c2", "d15", "q12"], rocks=["a40", "b1", "d15"]))
    joined = " ".join(squares)
    for w in ("'c2'", "'q12'", "'a40'", "'b1'", "'d15'"):
        assert w in joined, (w, squares)
    assert len(squares) >= 5


def test_mc_1_3_problems_listed_at_once_across_kinds() -> None:
    """MC-1.3 / CourseError: independent problems of the tabs and of the squares are
    all listed in one error (not only the first kind found)."""
    problems = problems_of(
        base(sections=[[3, "sprint"], [10, "sprint"]], rocks=["z99"], feed=["a99"])
    )
    joined = " ".join(problems)
    assert "sprint" in joined
    assert "'z99'" in joined
    assert "'a99'" in joined


def test_mc_1_3_error_message_names_problem() -> None:
    """MC-1.3: the error's text (not only .problems) names the problem and the course."""
    with pytest.raises(peloton.CourseError) as info:
        mc.Course.from_dict(base(name="hilly", rocks=["a1"]))
    assert "hilly" in str(info.value)
    assert "a1" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_mc_1_3_walls_checked_per_free_square() -> None:
    """MC-1.3: diagonal steps count: rocks straight ahead with a free diagonal are fine."""
    ok = course([[3, "plain"]], 30, rocks=["c12", "a14", "c14"])
    assert ok.rocks == ("c12", "a14", "c14")
    # Rocks on b13/c13/d13 wall in c12 (its three forward squares).
    with pytest.raises(peloton.CourseError, match="c12"):
        course([[3, "plain"]], 30, rocks=["b13", "c13", "d13"])


def test_mc_1_3_start_zone_room_for_all_riders() -> None:
    """MC-1.3: the start zone must hold every rider of the game."""
    small = course([[3, "plain"]], 30, lanes=3)  # 2 rows x 3 lanes = 6 squares
    mc.new_game(small, teams={"A": "DSC", "B": "DSC"})
    with pytest.raises(peloton.CourseError) as info:
        mc.new_game(small, teams={"A": "DSC", "B": "DSC", "C": "DSC"})
    assert "9" in str(info.value) and "start zone" in str(info.value)
    with pytest.raises(peloton.CourseError):
        mc.new_game(small, teams={"A": "DDSC", "B": "DDSC"})


def test_mc_1_3_valid_edge_cases_accepted() -> None:
    """MC-1.3: the limits themselves are valid: finish just past the last tab, tab at row 2."""
    c = course([[2, "sprint"], [3, "mountain"]], 4, lanes=5)
    assert c.start_rows == 1
    assert c.section_of(2) == "sprint" and c.section_of(3) == "mountain"


# ---------------------------------------------------------------- MC-1.4


def test_mc_1_4_section_of_rider_is_its_row() -> None:
    """MC-1.4: a sprinter on the last plain row rides as in the plain (5, 4 against the
    wind) even though its path enters the sprint; on the first sprint row it has 7 (6)."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:b1+,AS1:c9,BC1:c1,BD1:d1+,BS1:e10 / - / -")
    assert s.current_rider == "BS1"
    assert max(int(d[1:]) for d in of_kind(s)) == 16  # 10 + 6
    play(s, "BS1-e16")
    assert s.current_rider == "AS1"
    assert max(int(d[1:]) for d in of_kind(s)) == 13  # 9 + 4


def test_mc_1_4_climber_entering_mountain() -> None:
    """MC-1.4: a climber on the last sprint row has 3 (2 against the wind), not 7."""
    s = mc.from_mcn(MIXED, "1 AC1:c19,AD1:b1+,AS1:a1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    assert of_kind(s) == {"b20", "c20", "d20", "a21", "b21", "c21", "d21", "e21"}


# ---------------------------------------------------------------- MC-1.5


def test_mc_1_5_course_files_toml_and_json(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """MC-1.5: the same keys in TOML and JSON give the same course."""
    toml = tmp_path / "hill.toml"
    toml.write_text(
        'name = "hill"\nlanes = 5\nfinish = 30\n'
        'sections = [[3, "plain"], [10, "mountain"]]\nfeed = ["c5"]\nrocks = ["b12"]\n',
        encoding="utf-8",
    )
    js = tmp_path / "hill.json"
    js.write_text(
        json.dumps(
            {
                "name": "hill",
                "lanes": 5,
                "finish": 30,
                "sections": [[3, "plain"], [10, "mountain"]],
                "feed": ["c5"],
                "rocks": ["b12"],
            }
        ),
        encoding="utf-8",
    )
    a, b = mc.Course.from_file(toml), mc.Course.from_file(js)
    assert a == b
    assert a.to_dict() == {
        "name": "hill",
        "lanes": 5,
        "finish": 30,
        "sections": [[3, "plain"], [10, "mountain"]],
        "feed": ["c5"],
        "rocks": ["b12"],
    }
    assert mc.Course.load(str(toml)) == a


def test_mc_1_5_bundled_standard_course_is_the_example() -> None:
    """MC-1.5: the bundled `standard` course is the spec's example."""
    std = mc.Course.load("standard")
    assert std.to_dict() == {
        "name": "standard",
        "lanes": 5,
        "finish": 67,
        "sections": [[9, "plain"], [27, "sprint"], [37, "plain"], [49, "mountain"]],
        "feed": ["c42"],
        "rocks": [],
    }
    assert set(mc.bundled_names()) >= {"standard", "short", "solo"}


def test_mc_1_5_lanes_default_to_five_and_round_trip() -> None:
    """MC-1.5: `lanes` defaults to 5; to_dict/from_dict round-trips."""
    c = mc.Course.from_dict({"finish": 20, "sections": [[3, "plain"]]})
    assert c.lanes == 5
    assert mc.Course.from_dict(c.to_dict()) == c
    assert legal(mc.from_mcn(c, "1 AC1:a1,AD1:e19+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1")) == {
        "AD1-#",
        "AD1-#!",
    }
