"""CY-11 (with CY-1.6, CY-2.1, CY-2.4, CY-18.9, CY-18.10, CY-19.1, CY-19.4, CY-19.11,
CY-19.12, CY-19.17): the track events on the velodrome, 20 spaces a lap, 4 lanes.

Positions are distances: distance d lies on loop space ((d − 1) mod 20) + 1, and in one
world ``a5`` and ``a25`` are one square."""

from __future__ import annotations

from typing import Any

import pytest

from peloton.core import ConfigError, CourseError, IllegalMoveError, NotationError
from peloton.games import cyclo as cy

from .helpers import legal, play, square, unchanged


def track(text: str, mode: str = "scratch", **options: Any) -> cy.State:
    """The state of a CYN on the velodrome."""
    return cy.from_cyn(text, mode, **options)


def rides(state: cy.State) -> set[str]:
    """The legal moves now, without their rider id (``25``, ``#9/rr``)."""
    return {m.split("-", 1)[1] for m in legal(state)}


# ----------------------------------------------------------------- CY-1.6 the velodrome


def test_cy_1_6_loop_spaces_share_lanes() -> None:
    """CY-1.6, CY-19.1: a distance lies on a loop space; riders of one world on one
    loop space share its four lanes, a lap apart or not. With loop space 5 full, a
    rider aiming at 25 lands on 24."""
    state = track("2 AS1:a20,BS1:a5,CS1:b5,DS1:c5,ES1:d5", level="starter")
    assert state.setup.slots[25] == state.setup.slots[5] == 5 and state.setup.slots[20] == 20
    play(state, "roll:2,3", "AS1-25")
    assert square(state, "AS1") == "a24"
    free = track("2 AS1:a20,BS1:a5,CS1:b5,DS1:c5", level="starter")
    assert square(play(free, "roll:2,3", "AS1-25"), "AS1") == "d25"  # the fourth lane
    with pytest.raises(NotationError, match="AS1 and BS1 are both on a5"):
        track("2 AS1:a25,BS1:a5")
    assert track("2 AS1:b25,BS1:a5").rider("AS1").square == "b25"


def test_cy_1_6_race_distance_and_run_out() -> None:
    """CY-1.6, CY-11.2: each event fixes its distance D; D+1 … D+9 is the run-out and
    no move goes past D+9 (#9)."""
    distances = {
        ("sprint", 2): 40,
        ("keirin", 3): 40,
        ("scratch", 3): 60,
        ("elimination", 3): 20,
        ("elimination", 6): 50,
        ("tempo", 2): 100,
        ("points", 2): 120,
        ("pursuit", 2): 40,
        ("team-pursuit", 2): 40,
        ("team-sprint", 2): 60,
    }
    for (mode, players), distance in distances.items():
        setup = cy.new_game(mode, players=players).setup
        assert (setup.finish, setup.cap) == (distance, distance + 9), mode
        assert setup.course.name == "velodrome" and setup.team_tokens() == 0
    state = track("5 AS1:a58*3,BS1:a10*3")
    play(state, "roll:1,5,6")  # 3 dice from 40 in a scratch
    assert rides(state) == {
        "59", "60", *(f"#{k}" for k in range(1, 10)),
        *(f"{t}/{c}" for c in ("r", "rr") for t in ("59", "60", *(f"#{k}" for k in range(1, 10)))),
    }  # fmt: skip
    play(state, "AS1-#9/rr")
    assert state.rider("AS1").square == "a#9"


# ----------------------------------------------------------------- CY-11.1, CY-11.2 rides


def test_cy_11_1_two_dice_whatever_the_rider() -> None:
    """CY-11.1: a ride rolls 2 dice and rider types change nothing: a climber gets no
    +1, every rider's panel is 2 tokens."""
    sprinter = play(track("2 AS1:a10*3,BS1:a5*3 / - / - / - / -", entries=2), "roll:2,3")
    climber = play(track("2 AC1:a10*3,BS1:a5*3", entries=2), "roll:2,3")
    assert climber.due == "AC1" and len(climber.position.dice) == 2
    assert rides(climber) == rides(sprinter)
    assert "15/rr" in rides(climber) and "16" not in rides(climber)  # no climber's +1


def test_cy_11_1_wheel_swap_and_holding_back_on_the_track() -> None:
    """CY-11.1: on the velodrome a rider may swap, hold back and take a wheel."""
    state = track("2 AS1:a10*3,BS1:a9*3")
    assert state.phase == "swap" and legal(state) == {"AS1~-", "AS1~BS1"}
    play(state, "AS1~-", "roll:2,3")
    assert {"11", "15", "21/r", "27/rr"} <= rides(state)  # holding back from 11
    play(state, "AS1-15")
    assert state.phase == "wheel" and legal(state) == {"BS1>AS1", "BS1>-"}
    play(state, "BS1>AS1")
    assert square(state, "BS1") == "a14"


def test_cy_19_4_on_the_start_line_no_wheel_no_swap_but_holding_back() -> None:
    """CY-11.1, CY-19.4: on the start line holding back is allowed, wheel and swap
    are not."""
    state = cy.new_game("scratch", players=2)
    assert state.phase == "roll" and state.due == "AS1"  # no swap window on a0
    play(state, "roll:1,2")
    assert rides(state) == {
        *map(str, range(1, 4)), *(f"{t}/r" for t in range(1, 10)), *(f"{t}/rr" for t in range(1, 16))
    }  # fmt: skip
    play(state, "AS1-3")
    assert state.phase == "roll" and state.due == "BS1"  # BS1 on the line follows no wheel


def test_cy_11_2_three_dice_from_the_given_distance() -> None:
    """CY-11.2: a ride starting at a distance at least the value given rolls 3 dice:
    from 2 laps (40) in a scratch, from a lap (20) in a sprint; never in a tempo."""
    scratch = track("2 AS1:a40,BS1:a39", level="starter")
    assert "roll:1,1,1" in legal(scratch) and len(legal(scratch)) == 56
    play(scratch, "roll:1,1,1", "AS1-43")
    assert len(legal(scratch)) == 21  # BS1 on 39: 2 dice
    sprint = track("2 AS1:a20,BS1:a19", "sprint", level="starter")
    assert len(legal(sprint)) == 56
    tempo = track("9 AS1:a90,BS1:a19", "tempo", level="starter")
    assert len(legal(tempo)) == 21


# ----------------------------------------------------------------- CY-2.1, CY-2.4


def test_cy_2_1_track_players_and_entries() -> None:
    """CY-2.1: sprint 2 teams of 1, team sprint 1-2 of 3, pursuit and team pursuit 1-2
    of 1 and of 4, the bunch races 2-6 of ``entries`` (1 or 2); an elimination race
    needs 3 riders at least."""
    fixed = {"sprint": (2, 2, 1), "team-sprint": (1, 2, 3), "pursuit": (1, 2, 1)}
    fixed |= {"team-pursuit": (1, 2, 4)}
    for mode, (low, high, riders) in fixed.items():
        for n in range(low, high + 1):
            assert len(cy.new_game(mode, players=n).setup.riders) == n * riders
        for bad in (low - 1, high + 1):
            with pytest.raises(ConfigError, match="option 'players' must be"):
                cy.new_game(mode, players=bad)
        with pytest.raises(ConfigError, match="option 'entries'"):
            cy.new_game(mode, players=low, entries=2)
    for mode in ("keirin", "scratch", "elimination", "tempo", "points"):
        state = cy.new_game(mode, players=3, entries=2)
        assert state.setup.riders == ("AS1", "BS1", "CS1", "AC1", "BC1", "CC1")
        assert len(cy.new_game(mode, players=6).setup.riders) == 6
        for bad_players in (1, 7):
            with pytest.raises(ConfigError, match="option 'players' must be 2 to 6"):
                cy.new_game(mode, players=bad_players)
        for bad_entries in (0, 3, True, "2"):
            with pytest.raises(ConfigError, match="option 'entries' must be 1 or 2"):
                cy.new_game(mode, players=2, entries=bad_entries)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="an elimination race needs at least 3 riders, not 2"):
        cy.new_game("elimination", players=2)
    assert len(cy.new_game("elimination", players=2, entries=2).setup.riders) == 4
    with pytest.raises(ConfigError, match="at least 3 riders, not 2"):
        track("2 AS1:a10,BS1:a9", "elimination")


def test_cy_2_4_track_tokens() -> None:
    """CY-2.4: on the track each rider has min(5, 3 + saved) own tokens and no team
    has team tokens; Starter has none."""
    state = cy.new_game("points", players=2, entries=2, tokens={"AS1": 4, "BC1": 1})
    assert {r: state.rider(r).tokens for r in state.setup.riders} == {
        "AS1": 5, "BS1": 3, "AC1": 3, "BC1": 4,
    }  # fmt: skip
    assert state.team_tokens == {"A": 0, "B": 0}
    starter = cy.new_game("sprint", level="starter")
    assert all(not starter.rider(r).tokens for r in starter.racing)
    play(state, "roll:1,1")
    assert not any("t" in m.split("/")[-1] for m in legal(state) if "/" in m)  # no team token
    with pytest.raises(NotationError, match="only Pro road races have"):
        track("2 AS1:a10*3,BS1:a9*3 / A*2")


def test_cy_17_bad_courses_and_options() -> None:
    """CY-1.7, CY-17: a road course in a track mode, the velodrome on the road, event
    cards on the track."""
    with pytest.raises(
        CourseError, match="is a road course; mode 'scratch' races on the velodrome"
    ):
        cy.new_game("scratch", course="flemish-4")
    with pytest.raises(CourseError, match="is the velodrome; mode 'classic' races on the road"):
        cy.new_game("classic", course="velodrome")
    with pytest.raises(ConfigError, match="has no event cards"):
        cy.new_game("tempo", events=True)
    with pytest.raises(CourseError, match="lap is 21"):
        cy.new_game("scratch", course={"name": "v", "lap": 21, "width": 4})
    small = cy.new_game("scratch", course={"name": "small", "lap": 10, "width": 2})
    assert small.setup.finish == 30 and small.setup.slots[11] == 1


# ----------------------------------------------------------------- CY-11.4 keirin


def test_cy_18_9_keirin() -> None:
    """CY-18.9, CY-11.4: round 1 puts the pacer on 7; AS1 on a0 has no swap window;
    after ``roll:5,6`` its legal moves are exactly AS1-1 … AS1-6. From round 3 the
    pacer is gone and a ride from distance 20 or more rolls 3 dice."""
    state = cy.from_options({"mode": "keirin", "players": 3})
    assert state.position.pacer == 7 and state.to_cyn().endswith("CS1:c0*3,P:7 / - / - / - / -")
    assert state.phase == "roll" and state.due == "AS1"
    play(state, "roll:5,6")
    assert legal(state) == {f"AS1-{k}" for k in range(1, 7)}
    late = track("3 AS1:a20*3,BS1:a12*3,CS1:a6*3", "keirin")
    assert late.position.pacer is None and len(legal(late)) == 56
    play(late, "roll:1,1,1")
    assert "AS1-29/rr" in legal(late)  # tokens again, and no cap but D+9


def test_cy_11_4_the_pacer_leads_two_rounds() -> None:
    """CY-11.4, CY-19.17: the pacer moves 7 at the start of each round while it stays
    within the first lap: 7 in round 1, 14 in round 2, gone from round 3; the CYN
    writes it after its move for the round."""
    state = cy.new_game("keirin", players=2, level="starter")
    seen = []
    while state.round <= 3:
        if state.at_round_start:
            seen.append((state.round, state.position.pacer, state.to_cyn().split(" / ")[0]))
            assert cy.snapshot(state)["track"]["pacer"] == (
                None
                if state.position.pacer is None
                else {"distance": state.position.pacer, "loop": state.position.pacer}
            )
        play(state, "roll:1,1" if state.is_chance else str(state.legal_moves()[-1]))
    assert seen == [
        (1, 7, "1 AS1:a0,BS1:b0,P:7"),
        (2, 14, "2 AS1:a2,BS1:b2,P:14"),
        (3, None, "3 AS1:a4,BS1:b4"),
    ]


def test_cy_11_4_no_move_at_or_past_the_pacer_and_no_token() -> None:
    """CY-11.4, CY-4.4: while the pacer rides no move ends at or past it (the target is
    capped at P−1, a capped target at or below the rider keeps it there) and no token
    is spent; a ride past the pacer is refused and changes nothing."""
    state = track("2 AS1:a13*3,BS1:a5*3,P:14", "keirin")
    play(state, "roll:4,5")
    assert legal(state) == {"AS1-13"}  # capped at 13, where it stands
    unchanged(state, "AS1-14", IllegalMoveError, "pacer rides on 14")
    unchanged(state, "AS1-13/r", IllegalMoveError, "no token is spent while the keirin pacer")
    play(state, "AS1-13", "roll:6,6")
    assert rides(state) == {str(k) for k in range(6, 14)}  # 17 capped at 13, held back
    play(state, "BS1-13")
    assert square(state, "BS1") == "b13"  # the pacer's cap, beside AS1
    assert state.result.places == ("AS1", "BS1")


# ----------------------------------------------------------------- CY-11.5 elimination


def test_cy_18_10_two_lines_in_one_round_put_two_riders_out() -> None:
    """CY-18.10, CY-11.5: 4 riders, D = 30, lines after 10 and 20. A round in which
    the leader passes both puts the two rearmost riders out at its end, one a line:
    at equal distance the higher lane goes first. The CYN writes ``ID:out`` in DONE
    and the elimination lines' lists in LINES."""
    state = track("2 AS1:a9,BS1:a5,CS1:a4,DS1:a3", "elimination", level="starter")
    assert state.setup.finish == 30 and [line.after for line in state.setup.scoring] == [10, 20]
    play(state, "roll:6,6", "AS1-21", "roll:1,1", "BS1-7", "roll:1,1", "CS1-6", "roll:1,2")
    play(state, "DS1-6")
    assert state.round == 3 and state.result.eliminated == ("DS1", "CS1")
    assert state.to_cyn() == "3 AS1:a21,BS1:a7 / - / DS1:out,CS1:out / 1=AS1,2=AS1 / -"
    assert state.result.places == ("AS1", "BS1", "CS1", "DS1")  # last out last
    assert cy.snapshot(state)["track"]["lines"][:2] == [
        {"at": 10, "kind": "elimination", "pays": [], "list": ["AS1"]},
        {"at": 20, "kind": "elimination", "pays": [], "list": ["AS1"]},
    ]
    assert state.rider("DS1").out and state.rider("DS1").square is None
    # CY-11.5: the race ends in the round one of the last two finishes
    play(state, "roll:6,6", "AS1-#3", "roll:1,1", "BS1-9")
    result = state.result
    assert state.is_over and result.places == ("AS1", "BS1", "CS1", "DS1")
    assert result.winner == "AS1" and result.eliminated == ("DS1", "CS1")


def test_cy_11_5_one_line_a_round() -> None:
    """CY-11.5: five riders, D = 40, lines after 10, 20, 30; each line first passed
    puts the rearmost rider out at the end of that round; a round in which nobody
    passes a new line puts nobody out."""
    state = track("2 AS1:a8,BS1:a6,CS1:a5,DS1:a4,ES1:a3", "elimination", level="starter")
    assert state.setup.finish == 40
    play(state, "roll:1,2", "AS1-11", *["roll:1,1", "BS1-8"], *["roll:1,1", "CS1-7"])
    play(state, "roll:1,1", "DS1-6", "roll:1,2", "ES1-6")
    assert square(state, "DS1") == "a6" and state.result.eliminated == ("ES1",)  # on b6
    assert state.to_cyn() == "3 AS1:a11,BS1:a8,CS1:a7,DS1:a6 / - / ES1:out / 1=AS1 / -"
    play(state, "roll:1,2", "AS1-14", "roll:1,1", "BS1-10", "roll:1,1", "CS1-9", "roll:1,1")
    play(state, "DS1-8")
    assert state.result.eliminated == ("ES1",) and state.round == 4  # no new line passed


def test_cy_11_5_cyn_checks() -> None:
    """CY-14.2: ``ID:out`` only in an elimination race, one rider out a line passed."""
    with pytest.raises(NotationError, match="eliminates nobody"):
        track("3 AS1:a21,BS1:a7 / - / CS1:out")
    with pytest.raises(NotationError, match="each puts one rider out"):
        track("3 AS1:a21,BS1:a7,DS1:a3 / - / CS1:out / 1=AS1,2=AS1", "elimination")
    ok = track("3 AS1:a21,BS1:a7 / - / DS1:out,CS1:out / 1=AS1,2=AS1", "elimination")
    assert ok.to_cyn() == "3 AS1:a21,BS1:a7 / - / DS1:out,CS1:out / 1=AS1,2=AS1 / -"
    with pytest.raises(NotationError, match="LINES names line 3"):
        track("3 AS1:a21,BS1:a7 / - / DS1:out,CS1:out / 1=AS1,3=AS1", "elimination")


# ----------------------------------------------------------------- points


def test_cy_11_2_tempo_pays_2_1_every_half_lap() -> None:
    """CY-11.2, CY-8.2: a tempo race's lines lie after every half lap and pay 2, 1;
    riders crossing in one round are listed furthest first."""
    state = track("3 AS1:a8,BS1:a9", "tempo", level="starter")
    assert [line.after for line in state.setup.scoring] == [10 * k for k in range(1, 10)]
    play(state, "roll:1,2", "BS1-12", "roll:3,4", "AS1-15")
    assert state.to_cyn() == "4 AS1:a15+2,BS1:a12+1 / - / - / 1=AS1+BS1 / -"
    assert state.result.points == {"AS1": 2, "BS1": 1}


def test_cy_19_11_the_tempo_finish_pays_2_1_and_ties_go_to_the_finishing_order() -> None:
    """CY-19.11, CY-11.2: the finish line of a tempo race pays 2, 1 like its other
    lines; riders rank by points, then finishing order."""
    state = track("20 AS1:a98+4,BS1:a97+3", "tempo", level="starter")
    play(state, "roll:1,2", "AS1-#1", "roll:3,4", "BS1-#4")
    result = state.result
    assert state.is_over and result.points == {"AS1": 5, "BS1": 5}
    assert result.places == ("BS1", "AS1") and result.winner == "BS1"  # BS1 finished first


def test_cy_11_2_points_race_tables() -> None:
    """CY-11.2: the points race pays 5, 3, 2, 1 every lap; its 3rd sprint (after 60)
    pays double, 10, 6, 4, 2, and its 6th, the finish line, triple: 15, 9, 6, 3."""
    facts = cy.new_game("points", players=5).setup
    assert [line.after for line in facts.scoring] == [20, 40, 60, 80, 100]
    assert facts.pays == ((5, 3, 2, 1), (5, 3, 2, 1), (10, 6, 4, 2), (5, 3, 2, 1), (5, 3, 2, 1))
    assert facts.finish_pays == (15, 9, 6, 3)
    first = track("2 AS1:a18,BS1:a17,CS1:a16", "points", level="starter")
    play(
        first,
        *[
            m
            for r in ("AS1", "BS1", "CS1")
            for m in ("roll:3,4", f"{r}-{first.position.pos[r] + 7}")
        ],
    )
    assert first.result.points == {"AS1": 5, "BS1": 3, "CS1": 2}
    text = "10 AS1:a58,BS1:a57,CS1:a56,DS1:a55,ES1:a54"
    third = track(text, "points", level="starter")
    for rider in ("AS1", "BS1", "CS1", "DS1", "ES1"):
        play(third, "roll:3,4", f"{rider}-{third.position.pos[rider] + 7}")
    assert third.to_cyn() == (
        "11 AS1:a65+10,BS1:a64+6,CS1:a63+4,DS1:a62+2,ES1:a61 / - / - / 3=AS1+BS1+CS1+DS1+ES1 / -"
    )
    last = track("30 AS1:a118+1,BS1:a117", "points", level="starter")
    play(last, "roll:1,2", "AS1-#1", "roll:5,6", "BS1-#8")
    assert last.is_over and last.result.points == {"AS1": 10, "BS1": 15}
    assert last.result.places == ("BS1", "AS1")
    assert cy.snapshot(last)["track"]["lines"][-1] == {
        "at": 120, "kind": "finish", "pays": [15, 9, 6, 3], "list": ["BS1", "AS1"],
    }  # fmt: skip


def test_cy_8_2_line_ties_at_one_distance_go_by_lane() -> None:
    """CY-8.2: riders crossing a line in one round and ending on one distance are
    listed in lane order."""
    state = track("3 AS1:a9,BS1:a8", "tempo", level="starter")
    play(state, "roll:1,2", "AS1-12", "roll:1,3", "BS1-12")
    assert square(state, "BS1") == "b12" and state.position.lists[0] == ["AS1", "BS1"]


# ----------------------------------------------------------------- timed events


def test_cy_11_3_team_pursuit_time_is_the_third_riders() -> None:
    """CY-11.3, CY-19.12: a team pursuit's team time is its third rider's, and every
    finished rider's time; the CYN keeps own times (``=t``)."""
    state = track("5 AH2:a39*3 / - / AS1:3.5=25*3,AC1:4.2=38*3,AH1:4.1=39*3", "team-pursuit")
    assert state.result.team_times == {"A": 39}
    assert state.result.times == {"AS1": 39, "AC1": 39, "AH1": 39}
    play(state, "roll:1,2", "AH2-#2")
    result = state.result
    assert state.is_over and result.times == {"AS1": 39, "AC1": 39, "AH1": 39, "AH2": 39}
    assert result.winner is None and result.winner_team == "A"


def test_cy_11_3_team_sprint_time_is_the_last_riders() -> None:
    """CY-11.3, CY-10.4: a team sprint's team time is its last (third) rider's; places
    go by time, ties by seat then rider order, teams by team time."""
    done = "BS1:3.3=27,AC1:3.2=28,AS1:3.1=29,AH1:4.5=35,BC1:4.2=38"
    state = track(f"5 BH1:a58 / - / {done}", "team-sprint", level="starter")
    assert state.to_cyn() == f"5 BH1:a58 / - / {done} / - / -"
    play(state, "roll:3,4", "BH1-#5")
    result = state.result
    assert result.team_times == {"A": 35, "B": 45} and result.teams == ("A", "B")
    assert result.places == ("AS1", "AC1", "AH1", "BS1", "BC1", "BH1")
    assert set(result.times.values()) == {35, 45} and result.winner is None


def test_cy_11_pursuit_riders_never_meet() -> None:
    """CY-2.6: in a pursuit each rider is a world: two riders share a square."""
    state = track("3 AS1:a10,BS1:a10", "pursuit", level="starter")
    play(state, "roll:1,2", "AS1-13", "roll:1,2", "BS1-13")
    assert square(state, "AS1") == square(state, "BS1") == "a13"


# ----------------------------------------------------------------- sprint and scratch


def test_cy_8_5_a_sprint_ends_in_the_round_a_rider_finishes() -> None:
    """CY-8.5, CY-11.2: a sprint heat ends at the end of the round in which a rider
    finishes; the first in finishing order wins it."""
    state = track("6 AS1:a37,BS1:a30", "sprint", level="starter")
    play(state, "roll:1,1,2", "AS1-#1")
    assert not state.is_over  # the round goes on: BS1 rides
    play(state, "roll:1,1,1", "BS1-33")
    assert state.is_over and state.result.places == ("AS1", "BS1")
    assert state.result.winner == "AS1" and state.result.times == {}


def test_cy_11_2_scratch_ranks_by_finishing_order() -> None:
    """CY-11.2, CY-8.3: the furthest past the line once everyone has ridden wins."""
    state = track("9 AS1:a58,BS1:a57", level="starter")
    play(state, "roll:1,1,1", "AS1-#1", "roll:1,2,5", "BS1-#5")
    assert state.is_over and state.result.places == ("BS1", "AS1")
    assert state.result.winner == "BS1" and state.result.points == {}


# ----------------------------------------------------------------- notation, records


@pytest.mark.parametrize(
    ("mode", "text"),
    [
        ("scratch", "7 AS1:a45*2,BS1:b25*3 / - / - / - / -"),
        ("keirin", "2 AS1:a12*3,BS1:b12*3,P:14 / - / - / - / -"),
        ("tempo", "6 AC1:a30+3,AS1:b30+1,BS1:c50+4 / - / - / 1=BS1+AS1+AC1,2=BS1 / -"),
        ("elimination", "3 AS1:a21,BS1:a7 / - / DS1:out,CS1:out / 1=AS1,2=AS1 / -"),
        ("pursuit", "4 BS1:a30 / - / AS1:3.4=26 / - / -"),
    ],
)
def test_cy_14_2_track_positions_round_trip(mode: str, text: str) -> None:
    """CY-14.2: a track position's CYN reads back to the same text."""
    entries = 2 if "C1" in text else 1
    assert track(text, mode, entries=entries).to_cyn() == text


@pytest.mark.parametrize(
    ("mode", "text", "why"),
    [
        ("scratch", "2 AS1:a61,BS1:a9", "off the course"),
        ("scratch", "2 AS1:e10,BS1:a9", "is 4 lanes wide"),
        ("scratch", "2 AS1:a10+3,BS1:a9", "has points, which a scratch does not give"),
        ("keirin", "2 AS1:a5,BS1:a9", "pacer rides at P:14, not None"),
        ("keirin", "1 AS1:a0,BS1:b0,P:9", "pacer rides at P:7, not 9"),
        ("keirin", "3 AS1:a10,BS1:a9,P:21", "pacer has left the track"),
        ("keirin", "2 AS1:a15,BS1:a9,P:14", "AS1 is at or past the pacer"),
        ("scratch", "2 AS1:a10,BS1:a9,P:7", "only a keirin has a pacer"),
        ("sprint", "4 BS1:a30 / - / AS1:3.4", "ends in the round its first rider finishes"),
        ("pursuit", "4 BS1:a30 / - / AS1:3.4", "has no time"),
        ("sprint", "4 AC1:a30,BS1:a20", "AC1 is not a rider of a sprint team .1 a team.$"),
        ("team-sprint", "4 AH2:a30 / - / AS1:3.4=26", "AH2 is not a rider of a team-sprint team"),
    ],
)
def test_cy_14_2_impossible_track_positions(mode: str, text: str, why: str) -> None:
    """CY-14.2, CY-17: ``from_cyn`` refuses impossible track positions, saying why."""
    with pytest.raises(NotationError, match=why):
        track(text, mode)


def test_cy_14_2_a_track_position_names_its_entries() -> None:
    """CY-14.2, CY-2.1: a CYN naming a team's second rider (``C1``) is a race of two
    entries a team, unless ``entries`` says otherwise, which is refused, saying why."""
    assert track("4 AC1:a30,BS1:a20", "tempo").options()["entries"] == 2
    assert track("4 AS1:a30,BS1:a20", "tempo").options()["entries"] == 1
    assert cy.from_position("4 AC1:a30,BS1:a20", {"mode": "tempo"}).options()["entries"] == 2
    with pytest.raises(
        NotationError, match=r"AC1 is not a rider of a tempo team \(1 a team\) \(option"
    ):
        track("4 AC1:a30,BS1:a20", "tempo", entries=1)
    with pytest.raises(NotationError, match="AC1 is not a rider of a tempo team"):
        cy.from_position("4 AC1:a30,BS1:a20", {"mode": "tempo", "entries": 1})


@pytest.mark.parametrize(
    ("mode", "options"),
    [
        ("sprint", {}),
        ("keirin", {"players": 3}),
        ("scratch", {"players": 4, "entries": 2}),
        ("elimination", {"players": 5}),
        ("tempo", {"players": 3, "level": "starter"}),
        ("points", {"players": 2, "entries": 2}),
        ("pursuit", {"players": 1}),
        ("team-pursuit", {"players": 2}),
        ("team-sprint", {"players": 2, "level": "starter"}),
    ],
)
def test_cy_15_track_records_replay(mode: str, options: dict[str, Any]) -> None:
    """CY-15: a track event's record holds the velodrome and replays exactly."""
    from peloton.bots import make_bot
    from peloton.core.rng import Rng

    state = cy.from_options({"mode": mode, **options})
    state.seed = 11
    kind = "greedy" if len(mode) % 2 else "random"  # both bots ride every event
    rng, bot = Rng(11), make_bot(kind, seed=11)
    while not state.is_over:
        state.play(state.chance_move(rng) if state.is_chance else bot.choose(state))
    record = cy.Record.from_json(cy.Record.from_state(state).to_json())
    assert record.options["course"] == {"name": "velodrome", "lap": 20, "width": 4}
    replayed = record.replay()
    assert replayed == state and replayed.history == state.history
    assert record.result == state.result.to_dict()


# ----------------------------------------------------------------- the snapshot


def test_the_track_snapshot_has_what_a_loop_drawing_needs() -> None:
    """The snapshot of a track event keeps the road's shape and adds ``track`` and,
    per rider, its distance, loop space, laps ridden and whether it is out; on the
    road ``track`` is None."""
    state = track("4 AS1:a27*3,BS1:b7*3,CS1:a45*3 / - / - / - / -", "points")
    snap = cy.snapshot(state)
    assert snap["mode"] == "points" and cy.snapshot(cy.new_game())["track"] is None
    assert snap["track"] == {
        "lap": 20,
        "width": 4,
        "distance": 120,
        "half": 10,
        "run_out": 9,
        "three_dice_from": None,
        "pacer": None,
        "lines": [
            {"at": 20 * k, "kind": "sprint", "pays": [n * (2 if k == 3 else 1) for n in (5, 3, 2, 1)], "list": []}
            for k in range(1, 6)
        ]
        + [{"at": 120, "kind": "finish", "pays": [15, 9, 6, 3], "list": []}],
    }  # fmt: skip
    riders = {r["id"]: r for r in snap["riders"]}
    assert {k: riders["AS1"][k] for k in ("distance", "loop", "laps", "lane", "square", "out")} == {
        "distance": 27, "loop": 7, "laps": 1, "lane": "a", "square": "a27", "out": False,
    }  # fmt: skip
    assert (riders["BS1"]["loop"], riders["BS1"]["laps"], riders["CS1"]["laps"]) == (7, 0, 2)
    course = snap["course"]
    assert course["length"] == 120 and course["run_out"] == 9 and course["boards"] == []
    assert course["spaces"][26] == {
        "position": 27, "type": "track", "width": 4, "dark": False, "event": False,
        "board": "velodrome", "loop": 7,
    }  # fmt: skip
    assert [line["kind"] for line in course["lines"]] == ["sprint"] * 5 + ["finish"]
    start = {r["id"]: r for r in cy.snapshot(cy.new_game("sprint"))["riders"]}
    assert (start["AS1"]["distance"], start["AS1"]["loop"], start["AS1"]["laps"]) == (0, None, 0)
    keirin = cy.snapshot(cy.new_game("keirin", players=2))["track"]
    assert keirin["pacer"] == {"distance": 7, "loop": 7} and keirin["three_dice_from"] == 20
