"""CY-18: the acceptance scenarios of the road race (CY-18.1 to 18.7, 18.11, 18.12;
18.8 is in test_cy10_time_trials.py, 18.9 and 18.10 in test_cy11_track.py)."""

from __future__ import annotations

from peloton.games import cyclo as cy
from peloton.games.cyclo.scoring import leg_times

from .helpers import at, legal, play, square


def test_cy_18_1_room() -> None:
    """CY-4.5: three sprinters fill 51; AH1's 11 from 40 lands on a50."""
    state = at("2 AH1:a40,AS1:a44,BS1:b44,CS1:c44", level="starter")
    play(state, "roll:3,4", "AS1-51", "roll:3,4", "BS1-51", "roll:3,4", "CS1-51", "roll:5,6")
    assert legal(state) == {"AH1-51"}
    state.play("AH1-51")
    assert square(state, "AH1") == "a50"


def test_cy_18_2_dark_squares_and_panels() -> None:
    """CY-4.6, CY-1.1: cobbles (helper panel 2, no holding back) and a slope."""
    state = play(at("3 AH1:a75*4 / A*4"), "roll:1,1")
    assert legal(state) == {"AH1-77", "AH1-83/r", "AH1-83/t", "AH1-89/rr", "AH1-89/rt", "AH1-89/tt"}
    assert square(play(state.copy(), "AH1-77"), "AH1") == "a74"
    assert square(play(state.copy(), "AH1-83/r"), "AH1") == "a80"  # dark too: one penalty only
    slope = play(at("3 AS1:a63*4 / A*4"), "roll:2")
    assert legal(slope) == {"AS1-65", "AS1-71/r", "AS1-71/t"}
    assert square(play(slope, "AS1-65"), "AS1") == "a64"


def test_cy_18_3_hold_back_wheel_attack() -> None:
    """CY-4.4, CY-5: holding back, then the wheel of an accelerating rider; none after
    an attack."""
    state = play(at("7 AH1:a43*4,BC1:a50*4 / A*4,B*4"), "roll:2,3", "BC1-55", "roll:6,6", "AH1-54")
    assert state.round == 8 and legal(state) == {"BC1~-", "BC1~AH1"}
    attack = state.copy()
    play(state, "BC1~-", "roll:4,5", "BC1-70/t")
    assert state.current_player == "A" and legal(state) == {"AH1>BC1", "AH1>-"}
    state.play("AH1>BC1")
    assert square(state, "AH1") == "a69"
    assert state.to_cyn() == "9 AH1:a69*4,BC1:a70*4 / A*4,B*3 / - / - / -"
    play(attack, "BC1~-", "roll:4,5", "BC1-76/rr")
    assert attack.phase == "roll" and attack.due == "AH1"


def test_cy_18_4_swap_with_consent() -> None:
    """CY-6: a proposal to a rival goes to its team; accepted, squares and slots swap."""
    state = play(at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4"), "AS1~BH1")
    assert state.current_player == "B" and legal(state) == {"BH1~yes", "BH1~no"}
    declined = state.copy()
    state.play("BH1~yes")
    assert square(state, "BH1") == "a30" and square(state, "AS1") == "a29"
    assert state.phase == "roll" and state.due == "BH1"
    play(state, "roll:3,4", "BH1-43/t", "AS1>BH1")
    assert state.to_cyn() == "10 AS1:a42*4,BH1:a43*4 / A*4,B*3 / - / - / -"
    declined.play("BH1~no")
    assert declined.phase == "roll" and declined.due == "AS1" and square(declined, "AS1") == "a30"


def test_cy_18_5_fall() -> None:
    """CY-7.2, CY-7.5: the drawer may bring down a rider beside it, not a rival ahead."""
    state = play(at("4 BH1:a52s,BS1:a53,CC1:a40", level="starter"), "roll:1,1", "BS1-55")
    assert state.due == "CC1"  # BH1 lost its turn on 52
    play(state, "roll:6,6", "CC1-52")
    assert square(state, "CC1") == "b52" and state.phase == "draw" and len(state.legal_moves()) == 8
    state.play("draw:fall")
    assert state.current_player == "C" and legal(state) == {"fall:-", "fall:BH1"}
    state.play("fall:BH1")
    assert state.to_cyn() == "5 BH1:a52s,BS1:a55,CC1:b52s / - / - / - / fall"
    play(state, "roll:1,1", "BS1-57")
    assert state.round == 6  # only BS1 moved in round 5
    ahead = at("4 BH1:a51,BS1:a53,CC1:a40", level="starter")
    play(ahead, "roll:1,1", "BS1-55", "roll:1,1", "BH1-53", "roll:6,6", "CC1-52", "draw:fall")
    assert legal(ahead) == {"fall:-"}
    last_km = play(at("4 AS1:a100", level="starter"), "roll:4,4")
    last_km.play("AS1-108")  # a sprinter on 100 (flat): 2 dice
    last_km.play("draw:technical")
    assert not last_km.rider("AS1").technical


def test_cy_18_6_leg_times_and_finish_points() -> None:
    """CY-9: round 14's finishers get 0; later ones 10·(r − r0) − p, or the time of the
    rider before them on its square or one behind; finish points 15, 10, 5, 3, 2, 1."""
    state = at(
        "14 AC1:a100s,AH2:a115s,AS1:a118,BH1:b117s,BS1:a117,CH1:b118s,CS1:a116s",
        "leg",
        level="starter",
    )
    play(state, "roll:1,2,4", "AS1-#5", "roll:1,2,2", "BS1-#2")
    play(
        state,
        "roll:4,6",
        "CH1-#8",
        "roll:4,6",
        "BH1-#7",
        "roll:1,1,6",
        "CS1-#4",
        "roll:6,6",
        "AH2-#7",
    )
    play(state, "roll:4,6", "AC1-110", "roll:4,6", "AC1-120", "roll:6,6")
    assert "AC1-#9" in legal(state)  # aiming at #12, it stops on #9
    state.play("AC1-#9")
    result = state.result
    assert state.is_over and result.places == ("AS1", "BS1", "CH1", "BH1", "AH2", "CS1", "AC1")
    assert result.times == {"AS1": 0, "BS1": 0, "CH1": 2, "BH1": 2, "AH2": 2, "CS1": 6, "AC1": 21}
    assert result.points == {"AS1": 15, "BS1": 10, "CH1": 5, "BH1": 3, "AH2": 2, "CS1": 1, "AC1": 0}
    finishers = [
        ("AS1", 14, 5),
        ("BS1", 14, 2),
        ("CH1", 15, 8),
        ("BH1", 15, 7),
        ("AH2", 15, 7),
        ("CS1", 15, 4),
        ("AC1", 17, 9),
    ]
    assert state.position.finishers == finishers and leg_times(finishers) == result.times


def test_cy_18_7_mountain_points() -> None:
    """CY-9.3: the list of the line after 70 (category 3) pays 3, 2, 1."""
    state = at("10 AC1:a69,AS1:a72^3,BH1:a66,CS1:b66 / - / - / 2=AS1 / -", "leg", level="starter")
    assert state.position.order == ["AS1", "AC1", "BH1", "CS1"]
    play(state, "roll:1,1", "AS1-74", "roll:3", "AC1-72", "roll:5", "BH1-71", "roll:5", "CS1-71")
    assert [square(state, r) for r in ("AC1", "BH1", "CS1")] == ["a72", "a71", "b71"]
    assert state.position.lists[1] == ["AS1", "AC1", "BH1", "CS1"]
    assert state.result.mountain == {"AS1": 3, "AC1": 2, "BH1": 1, "CS1": 0}


def test_cy_18_11_chance_sets_and_climbs() -> None:
    """CY-13.1, CY-4.4: 56 rolls for a sprinter on the last km, 6 for a climber on a
    climb (+1 space); a sprinter there may spend no token."""
    assert len(at("3 AS1:a110*4 / A*4").legal_moves()) == 56
    assert len(at("3 AC1:a40", course="italian-4").legal_moves()) == 6
    climber = play(at("3 AC1:a40", course="italian-4"), "roll:3")
    assert legal(climber) == {"AC1-41", "AC1-42", "AC1-43", "AC1-44"}
    sprinter = play(at("3 AS1:a40*4 / A*4", course="italian-4"), "roll:3")
    assert legal(sprinter) == {"AS1-41", "AS1-42", "AS1-43"}


def test_cy_18_12_start() -> None:
    """CY-2.5, CY-3.1, CY-4.5: everyone on the line, leaving it by round 1's rides."""
    state = cy.new_game("classic", players=2, level="starter", events=False)
    squares = {r: square(state, r) for r in state.setup.riders}
    assert squares == {
        "AS1": "a0",
        "BS1": "b0",
        "AC1": "c0",
        "BC1": "d0",
        "AH1": "e0",
        "BH1": "f0",
        "AH2": "g0",
        "BH2": "h0",
    }
    assert state.position.order == ["AS1", "AC1", "AH1", "AH2", "BS1", "BC1", "BH1", "BH2"]
    for rider in ("AS1", "AC1", "AH1", "AH2"):
        play(state, "roll:3,4", f"{rider}-7")
    assert [square(state, r) for r in ("AS1", "AC1", "AH1", "AH2")] == ["a7", "b7", "c7", "a6"]
    pro = cy.new_game("classic", players=2, events=False)
    assert pro.phase == "roll" and pro.due == "AS1" and len(pro.legal_moves()) == 21
    pro.play("roll:1,2")
    targets = {int(str(m).split("-")[1].split("/")[0]) for m in pro.legal_moves()}
    assert targets == set(range(1, 16))
    assert "AS1-15/rr" in legal(pro) and "AS1-1" in legal(pro)
