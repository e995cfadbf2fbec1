"""MC-8: finish, classification, points, medals, trophy and the end of the game."""

from __future__ import annotations

from peloton.games import mindcycling as mc
from peloton.games.mindcycling import scoring

from .helpers import FLAT, MIXED, course, legal, play

#: Start zone rows 1-3 (15 squares), plain 4-9, sprint 10-19, mountain 20-29, plain 30-39.
BIG = course([[4, "plain"], [10, "sprint"], [20, "mountain"], [30, "plain"]], 40, name="big")
#: No sprint and no mountain section.
BIG_FLAT = course([[4, "plain"]], 40, name="bigflat")

FIFTEEN = [f"{t}{k}" for t in "ABC" for k in ("D1", "D2", "S1", "S2", "C1")]


def test_mc_8_1_classified_in_crossing_order() -> None:
    """MC-8.1: riders are classified in the order they cross (move order)."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:d36+,AS1:b1,BC1:c1,BD1:c37+,BS1:e1 / - / -")
    play(s, "BD1-#", "AD1-#")
    assert s.result.places == ("BD1", "AD1")
    assert s.rider("BD1").square is None and s.rider("BD1").finished


def test_mc_8_1_crossed_rider_leaves_the_road() -> None:
    """MC-8.1: a rider that has crossed no longer shelters, blocks or takes turns."""
    s = mc.from_mcn(FLAT, "1 AC1:c36,AD1:c38+,AS1:c37,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-#")
    assert s.current_rider == "AS1"
    assert "AS1-c38" in legal(s)  # AD1's square is free at once
    play(s, "AS1-d38")
    while s.round == 1:
        s.play(s.legal_moves()[0])
    assert "AD1" not in s.turn_order()
    assert s.assessment("AD1") is None
    assert "AD1:" not in s.to_mcn()


def test_mc_8_2_points() -> None:
    """MC-8.2: places 1 to 12 earn 12 .. 1 points; later places 0."""
    assert [scoring.place_points(p) for p in range(1, 15)] == [
        12,
        11,
        10,
        9,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
        0,
        0,
    ]
    finished = [
        "AD1",
        "BD1",
        "CD1",
        "AD2",
        "BD2",
        "CD2",
        "AS1",
        "BS1",
        "CS1",
        "AS2",
        "BS2",
        "CS2",
        "AC1",
    ]
    s = mc.from_mcn(BIG, "9 BC1:c35,CC1:d35 / " + ",".join(finished) + " / sprint=AD1,mountain=AD1")
    assert s.result.points == {"A": 12 + 9 + 6 + 3 + 0, "B": 11 + 8 + 5 + 2, "C": 10 + 7 + 4 + 1}


def test_mc_8_3_best_cyclist_is_the_stage_winner() -> None:
    """MC-8.3: Best Cyclist = place 1, awarded as it crosses."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:d36+,AS1:b1,BC1:c1,BD1:c37+,BS1:e1 / - / -")
    assert "cyclist" not in s.result.medals
    play(s, "BD1-#", "AD1-#")
    assert s.result.medals["cyclist"] == "BD1"


def test_mc_8_3_sprint_medal_for_first_past_last_sprint_row() -> None:
    """MC-8.3: Best Sprinter = first rider whose move takes it from the last sprint row
    or before to beyond it; landing on the last row is not enough; later riders take
    nothing."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:b1+,AS1:c17,BC1:c1,BD1:d16+,BS1:e18 / - / -")
    play(s, "BS1-e19")  # onto the last sprint row: no medal
    assert "sprinter" not in s.result.medals
    play(s, "AS1-c20")
    assert s.result.medals["sprinter"] == "AS1"
    play(s, "BD1-d20")
    assert s.result.medals["sprinter"] == "AS1"
    while s.round == 1:
        s.play(s.legal_moves()[0])
    assert s.to_mcn().endswith("/ - / sprint=AS1")


def test_mc_8_3_medal_for_jumping_the_whole_section() -> None:
    """MC-8.3: 'from the last row or before': a move from before the section to beyond
    it wins the medal."""
    c = course([[3, "plain"], [10, "sprint"], [12, "plain"]], 40)
    s = mc.from_mcn(c, "1 AC1:a1,AD1:c8+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-c13")
    assert s.result.medals == {"sprinter": "AD1"}


def test_mc_8_3_medal_by_relay_and_across_finish() -> None:
    """MC-8.3: any move counts (here a relay past a leader that stopped on the last
    row), and crossing the finish from inside the last section wins its medal."""
    c = course([[3, "plain"], [10, "sprint"], [20, "mountain"]], 30)
    s = mc.from_mcn(c, "1 AC1:c17,AD1:a1+,AS1:b1,BC1:e1,BD1:c18+,BS1:d1 / - / -")
    play(s, "BD1-c19")
    assert s.result.medals == {}
    assert s.current_rider == "AC1"
    play(s, "AC1-c20r")
    assert s.result.medals == {"sprinter": "AC1"}
    s = mc.from_mcn(c, "1 AC1:c18,AD1:a1+,AS1:b1,BC1:e1,BD1:c19+,BS1:d20 / - / -")
    play(s, "BS1-d21", "BD1-c20", "AC1-c19w")
    assert s.result.medals == {"sprinter": "BD1"}  # BD1 passed first; wheels onto 19
    s = mc.from_mcn(c, "4 AC1:c28,AD1:a1+,AS1:b1,BC1:e1,BD1:c22+,BS1:d1 / - / sprint=BD1")
    play(s, "AC1-#")
    assert s.result.medals == {"sprinter": "BD1", "climber": "AC1", "cyclist": "AC1"}


def test_mc_8_3_mountain_medal() -> None:
    """MC-8.3: Best Climber, likewise for the mountain section (rows 20-29 here)."""
    s = mc.from_mcn(MIXED, "5 AC1:c27,AD1:a21+,AS1:b1,BC1:c1,BD1:d1+,BS1:e1 / - / sprint=AD1")
    play(s, "AC1-c31")
    assert s.result.medals == {"sprinter": "AD1", "climber": "AC1"}


def test_mc_8_3_best_team_most_points_then_best_placed() -> None:
    """MC-8.3 [decision]: Best Team = most points; ties to the team whose best-placed
    rider finished higher."""
    assert scoring.best_team(["AD1", "BS1", "AS1"], ["A", "B"]) == "A"  # 22 v 11
    assert scoring.best_team(["AD1", "BS1", "BD1", "AS1"], ["A", "B"]) == "A"  # 21 v 21
    assert scoring.best_team(["BS1", "AD1", "AS1", "BD1"], ["A", "B"]) == "B"  # 21 v 21
    assert scoring.best_team(["CS1", "AD1", "AS1", "BD1", "BS1"], ["A", "B", "C"]) == "A"


def test_mc_8_3_best_team_awarded_at_the_end() -> None:
    """MC-8.3: Best Team is awarded when the game ends (absent before)."""
    s = mc.from_mcn(FLAT, "8 BD1:c39+ / AS1,BS1,AD1,BC1,AC1 / -")
    assert "team" not in s.result.medals and s.result.trophy is None
    play(s, "BD1-#")
    assert s.is_over
    # A: 12 + 10 + 8 = 30; B: 11 + 9 + 7 = 27.
    assert s.result.points == {"A": 30, "B": 27}
    assert s.result.medals == {"cyclist": "AS1", "team": "A"}
    assert s.result.trophy == "A"


def test_mc_8_3_no_section_medals_without_sections() -> None:
    """MC-8.3: a course without sprint (mountain) section awards no such medal."""
    s = mc.from_mcn(FLAT, "8 BD1:c39+ / BS1,AS1,AD1,BC1,AC1 / -")
    play(s, "BD1-#")
    assert set(s.result.medals) == {"cyclist", "team"}
    assert s.result.points == {"A": 11 + 10 + 8, "B": 12 + 9 + 7}
    assert s.result.medals["team"] == "A"


def test_mc_8_4_trophy_most_medals() -> None:
    """MC-8.4: the trophy goes to the team with most medals."""
    medals = {"cyclist": "AD1", "sprinter": "AS1", "climber": "AC1", "team": "B"}
    assert scoring.trophy(medals, ["AD1", "BS1", "BD1", "BC1"], ["A", "B"]) == "A"
    medals = {"cyclist": "AD1", "sprinter": "BS1", "climber": "BC1", "team": "A"}
    assert scoring.trophy(medals, ["AD1", "AS1", "AC1", "BS1"], ["A", "B"]) == "A"


def test_mc_8_4_trophy_tie_to_best_team() -> None:
    """MC-8.4: among tied teams, the one holding Best Team."""
    medals = {"cyclist": "AD1", "sprinter": "AS1", "climber": "BC1", "team": "B"}
    assert scoring.trophy(medals, ["AD1", "BC1", "BS1", "BD1"], ["A", "B"]) == "B"
    medals = {"cyclist": "AD1", "sprinter": "BS1", "climber": "CC1", "team": "C"}
    assert scoring.trophy(medals, ["AD1", "CC1", "CS1", "BS1"], ["A", "B", "C"]) == "C"


def test_mc_8_4_trophy_tie_to_points_then_best_placed() -> None:
    """MC-8.4 [decision]: otherwise more points, then the better best-placed rider."""
    medals = {"sprinter": "AS1", "climber": "BC1"}
    assert scoring.trophy(medals, ["BD1", "AD1", "AS1"], ["A", "B"]) == "A"  # 21 v 12
    assert scoring.trophy(medals, ["BD1", "AD1", "AS1", "BS1"], ["A", "B"]) == "B"  # 21 v 21
    medals = {"sprinter": "AS1", "climber": "BC1", "team": "C"}
    # One medal each: C, holding Best Team, wins before points count.
    assert scoring.trophy(medals, ["AD1", "CD1"], ["A", "B", "C"]) == "C"


def test_mc_8_4_trophy_in_a_finished_game() -> None:
    """MC-8.4: the result's trophy is the team with most medals once the game is over."""
    s = mc.from_mcn(MIXED, "9 AC1:c39 / BS1,AS1,BD1,BC1,AD1 / sprint=AS1,mountain=BC1")
    assert s.result.trophy is None
    play(s, "AC1-#")
    r = s.result
    assert s.is_over and r.over
    # Medals: cyclist BS1 (B), sprinter AS1 (A), climber BC1 (B), team: B (12+10+9=31
    # v 11+8+7=26) -> B holds 3.
    assert r.medals == {"cyclist": "BS1", "sprinter": "AS1", "climber": "BC1", "team": "B"}
    assert r.trophy == "B"


def fifteen(
    on_road: dict[str, str], finished: list[str], medals: str, c: mc.Course = BIG
) -> mc.State:
    riders = ",".join(f"{rid}:{sq}" for rid, sq in sorted(on_road.items()))
    assert sorted([*on_road, *finished]) == sorted(FIFTEEN)
    return mc.from_mcn(c, f"9 {riders} / {','.join(finished)} / {medals}")


def test_mc_8_5_early_end_twelve_across_and_medals() -> None:
    """MC-8.5: the game ends as soon as twelve riders have crossed and every section
    medal has been awarded, even mid-round and with riders on the road."""
    road = {"AC1": "c38", "BC1": "c30", "CC1": "d30", "CS2": "e30"}
    done = [r for r in FIFTEEN if r not in road]
    s = fifteen(road, done, "sprint=AD1,mountain=BD1")
    assert not s.is_over and s.current_rider == "AC1"
    play(s, "AC1-#")
    assert s.is_over
    assert s.current_rider is None and s.legal_moves() == []
    assert s.rider("BC1").square == "c30"
    assert len(s.result.places) == 12
    assert s.result.trophy is not None and "team" in s.result.medals


def test_mc_8_5_twelfth_rider_taking_last_medal_ends() -> None:
    """MC-8.5: the move that gives the twelfth place and the last section medal ends it."""
    road = {"AC1": "c28", "BC1": "c20", "CC1": "d20", "CS2": "e20"}
    done = [r for r in FIFTEEN if r not in road]
    hilltop = course([[4, "plain"], [10, "sprint"], [20, "mountain"]], 30)
    s = fifteen(road, done, "sprint=AD1", c=hilltop)
    assert not s.is_over
    play(s, "AC1-#")
    assert s.result.medals["climber"] == "AC1"
    assert s.is_over


def test_mc_8_5_no_early_end_while_a_medal_is_missing() -> None:
    """MC-8.5: twelve across is not enough while a section medal is not awarded."""
    road = {"AC1": "c38", "BC1": "c30", "CC1": "d30", "CS2": "e30"}
    done = [r for r in FIFTEEN if r not in road]
    s = fifteen(road, done, "sprint=AD1")
    play(s, "AC1-#")
    assert not s.is_over
    assert s.current_rider == "BC1"


def test_mc_8_5_early_end_without_sections() -> None:
    """MC-8.5: on a course without sprint and mountain, twelve across ends the game."""
    road = {"AC1": "c38", "BC1": "c30", "CC1": "d30", "CS2": "e30"}
    done = [r for r in FIFTEEN if r not in road]
    s = fifteen(road, done, "-", c=BIG_FLAT)
    play(s, "AC1-#")
    assert s.is_over
    assert set(s.result.medals) == {"cyclist", "team"}


def test_mc_8_5_eleven_across_goes_on() -> None:
    """MC-8.5: fewer than twelve across (and riders left): the race goes on."""
    road = {"AC1": "c38", "BC1": "c30", "CC1": "d30", "CS2": "e30", "CS1": "a30"}
    done = [r for r in FIFTEEN if r not in road]
    s = fifteen(road, done, "sprint=AD1,mountain=BD1")
    play(s, "AC1-#")
    assert len(s.result.places) == 11 and not s.is_over


def test_mc_8_5_end_when_every_rider_has_crossed() -> None:
    """MC-8.5: a small game ends when every rider has crossed."""
    s = mc.from_mcn(FLAT, "7 AD1:c39+,BD1:d39+ / AS1,BS1,AC1,BC1 / -")
    play(s, "AD1-#")
    assert not s.is_over
    play(s, "BD1-#")
    assert s.is_over
    assert s.result.places == ("AS1", "BS1", "AC1", "BC1", "AD1", "BD1")


def test_mc_8_5_position_already_decided() -> None:
    """MC-8.5: a position in which every rider has crossed is over at once."""
    s = mc.from_mcn(FLAT, "9 - / AS1,BS1,AC1,BC1,AD1,BD1 / -")
    assert s.is_over and s.legal_moves() == []
    assert s.result.points == {"A": 12 + 10 + 8, "B": 11 + 9 + 7}
    assert s.result.trophy == "A"
