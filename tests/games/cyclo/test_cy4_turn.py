"""CY-4: a turn — its steps, dice, tokens, targets, room, dark squares, crossings."""

from __future__ import annotations

from typing import Any

from peloton.games import cyclo as cy

from .helpers import at, legal, play, square

#: A short course: flat 1-10 (event 10), cobbles 11-20 (2 wide, dark 12 and 13), end 21-30.
CARDS_COURSE: dict[str, Any] = {
    "name": "cards",
    "boards": [
        {
            "name": "Y",
            "runs": [["flat", 10, 3], ["cobbles", 10, 2], ["end", 10, 3]],
            "dark": [12, 13],
            "events": [10],
            "finish": True,
        }
    ],
}
#: A mountain line after a slope, right before a dark cobble.
BEHIND: dict[str, Any] = {
    "name": "behind",
    "boards": [
        "A1",
        "C1",
        {
            "name": "Z",
            "runs": [["slope", 10, 2], ["cobbles", 5, 2], ["end", 15, 3]],
            "dark": [11],
            "lines": [[10, "mountain", "2"]],
        },
        "E1",
    ],
}
#: One lane on spaces 1-6 (cobbles 2-6, dark 5), then flat.
NARROW: dict[str, Any] = {
    "name": "narrow",
    "boards": [
        {
            "name": "X",
            "runs": [["flat", 1, 1], ["cobbles", 5, 1], ["end", 24, 3]],
            "dark": [5],
            "finish": True,
        }
    ],
}


def test_cy_4_1_the_steps_of_a_pro_turn() -> None:
    """CY-4.1: swap window, roll (a chance step), ride, wheel step, then the draws; the
    ride is chosen by X's player even when forced."""
    state = at("5 AH1:a35*4,AS1:a36*4,BS1:b36*4 / A*4,B*4")
    phases = [(state.phase, state.due, state.current_player)]
    for move in ("AS1~-", "roll:1,1", "AS1-38", "AH1>AS1"):
        state.play(move)
        phases.append((state.phase, state.due, state.current_player))
    assert phases == [
        ("swap", "AS1", "A"),
        ("roll", "AS1", "chance"),
        ("ride", "AS1", "A"),
        ("wheel", "AH1", "A"),
        ("draw", "AS1", "chance"),
    ]
    state.play("draw:moto")
    assert (state.phase, state.due) == ("roll", "BS1") and square(state, "AS1") == "a42"
    forced = play(at("5 AH1:a76"), "roll:1,1")  # cobbles, no token: one ride, still A's to play
    assert legal(forced) == {"AH1-78"} and (forced.phase, forced.current_player) == ("ride", "A")


def test_cy_4_2_dice() -> None:
    """By the terrain; one fewer with the technical flag, never fewer than 1; exactly 1
    with a hunger flag (the climber's +1 on a climb still counts)."""
    assert len(at("3 AS1:a110").legal_moves()) == 56  # last km, sprinter: 3 dice
    assert len(at("3 AS1:a110x").legal_moves()) == 21  # technical: 2
    assert len(at("3 AH1:a65x").legal_moves()) == 6  # slope 1 die, never fewer
    assert len(at("3 AH1:a48x", course="italian-4").legal_moves()) == 21  # top 3 dice, technical 2
    assert len(at("3 AH1:a48h2", course="italian-4", level="starter").legal_moves()) == 6
    climber = play(at("3 AC1:a40h1", course="italian-4", level="starter"), "roll:4")
    assert legal(climber) == {"AC1-45"}
    climber.play("AC1-45")
    assert climber.rider("AC1").hunger == 0


def test_cy_4_3_tokens() -> None:
    """None, r, t, rr, rt, tt within the panel, the tokens held, no technical flag."""
    climber = play(at("3 AC1:a40*1 / A*1", course="italian-4"), "roll:3")
    assert {m.split("/")[1] for m in legal(climber) if "/" in m} == {"r", "t", "rt"}
    helper = play(at("3 AH1:a40*4 / A*4", course="italian-4"), "roll:3")  # climb: helper panel 1
    assert {m.split("/")[1] for m in legal(helper) if "/" in m} == {"r", "t"}
    technical = play(at("3 AH1:a20*4x / A*4"), "roll:3")
    assert all("/" not in m for m in legal(technical))
    spent = play(at("3 AH1:a20*4 / A*4"), "roll:3,3", "AH1-38/rt")
    assert spent.rider("AH1").tokens == 3 and spent.team_tokens == {"A": 3}
    assert spent.rider("AH1").square == "a38"  # 20 + 6 + 12


def test_cy_4_4_targets_and_holding_back() -> None:
    held = play(at("3 AH1:a20*1"), "roll:2,3")
    assert legal(held) == {f"AH1-{t}" for t in range(21, 26)} | {
        f"AH1-{t}/r" for t in range(21, 32)
    }
    exact = play(at("3 AH1:a76*1"), "roll:2,3")  # cobbles: no holding back
    assert legal(exact) == {"AH1-81", "AH1-87/r"}
    capped = play(at("3 AH1:a118", level="starter"), "roll:6,6")
    assert legal(capped) == {"AH1-#9"}  # 130 is capped to #9
    start = play(cy.new_game("classic", level="starter"), "roll:3,4")
    assert legal(start) == {"AS1-7"}


def test_cy_4_5_room() -> None:
    """Highest free position up to the target, lowest free lane; riders never block
    passing; no room at all: the rider stays; the run-out has room for all, in order."""
    passing = play(
        at("3 AS1:a43,BC1:b50s,BH1:c50s,BS1:a50s", level="starter"), "roll:6,6", "AS1-55"
    )
    assert square(passing, "AS1") == "a55"
    stuck = play(at("3 AS1:a0,BS1:a1s,CS1:a2s", course=NARROW, level="starter"), "roll:1,1")
    assert legal(stuck) == {"AS1-2"}
    stuck.play("AS1-2")
    assert square(stuck, "AS1") == "a0" and stuck.round == 4
    runout = at("3 AS1:a119,BS1:a118,CS1:a100", level="starter")
    play(runout, "roll:3,3,4", "AS1-#9", "roll:3,4,4", "BS1-#9")
    assert square(runout, "AS1") == "a#9" and square(runout, "BS1") == "b#9"
    play(runout, "roll:1,1", "CS1-102")
    assert [r for r, _, _ in runout.position.finishers] == ["AS1", "BS1"]


def test_cy_4_6_dark_squares() -> None:
    """Back 3 on cobbles, 1 on a slope, to the highest free position at or below
    max(1, q - k), else the lowest above; for rides, wheels and card moves, once."""
    state = play(
        at("3 AS1:a0,BS1:a1s,CS1:a2s", course=NARROW, level="starter"), "roll:2,3", "AS1-5"
    )
    assert square(state, "AS1") == "a3"  # back to max(1, 2) = 2: full, so is 1: the lowest above, 3
    card = play(
        at("3 AS1:a8", course=CARDS_COURSE, level="starter"), "roll:1,1", "AS1-10", "draw:bidon"
    )
    assert square(card, "AS1") == "a9"  # forward 2 to 12 (dark), back 3
    wheel = play(
        at("3 AH1:a9*4,BS1:a10*4 / A*4,B*4", course=CARDS_COURSE), "BS1~-", "roll:1,3", "BS1-14"
    )
    assert legal(wheel) == {"AH1>BS1", "AH1>-"}
    wheel.play("AH1>BS1")
    assert (
        square(wheel, "AH1") == "a10" and wheel.phase == "draw"
    )  # aimed at 13 (dark); 10 is an event
    once = play(at("3 AH1:a75*4 / A*4"), "roll:1,1", "AH1-83/r")
    assert square(once, "AH1") == "a80"


def test_cy_4_7_crossing_a_line() -> None:
    """A move crosses the line after L when it takes the rider from L or less beyond L,
    dark squares applied; a finisher has crossed the finish line."""
    state = at("9 AH1:a69,BH1:a70,CH1:a66", "leg", level="starter")
    play(state, "roll:6", "BH1-76", "roll:6", "AH1-75", "roll:4", "CH1-70")
    assert state.position.lists[1] == ["BH1", "AH1"]  # CH1 reached 70: not beyond it
    back = at("9 AH1:a67", "leg", level="starter", course=BEHIND)
    play(back, "roll:4")
    back.play("AH1-71")  # 71 is dark: back 3 to 68, behind the line after 70 again
    assert square(back, "AH1") == "a68" and back.position.lists == [[], []]
