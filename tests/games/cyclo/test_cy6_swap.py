"""CY-6: the position swap (Pro), proposed by one player, answered by the other."""

from __future__ import annotations

from .helpers import at, legal, play, square


def test_cy_6_1_who_may_be_proposed_to() -> None:
    """A partner on X's position or one less, off the start line, turn not over, no
    skip flag, neither having swapped, neither on climb, cobbles or slope."""
    state = at("9 AC1:a28*4,AH1:b30*4,AS1:a30*4,BH1:a29*4,BS1:c30*4 / A*4,B*4")
    assert state.due == "AS1" and state.phase == "swap"
    assert legal(state) == {"AS1~-", "AS1~AH1", "AS1~BS1", "AS1~BH1"}  # not AC1, two behind
    assert at("9 AS1:a30*4,BH1:a29*4s / A*4,B*4").phase == "roll"  # skip flag
    assert (
        at("9 AS1:a36*4,BH1:a35*4 / A*4,B*4", course="italian-4").phase == "roll"
    )  # both on a climb
    assert (
        at("9 AS1:a47*4,BH1:a46*4 / A*4,B*4", course="italian-4").phase == "roll"
    )  # BH1 on the climb
    assert at("9 AS1:a77*4,BH1:a76*4 / A*4,B*4").phase == "roll"  # cobbles
    assert at("2 AS1:a1*4,BH1:a0*4 / A*4,B*4").phase == "roll"  # start line
    over = play(at("1 AH1:a5*4,BS1:a10*4 / A*4,B*4"), "roll:1,3", "AH1-9")
    assert over.due == "BS1" and over.phase == "roll"  # AH1 on 9 has had its turn


def test_cy_6_1_swapped_riders_swap_no_more() -> None:
    state = play(
        at("9 AS1:a30*4,BH1:a29*4,CH1:b29*4 / A*4,B*4,C*4"),
        "AS1~BH1",
        "BH1~yes",
        "roll:1,1",
        "BH1-32",
        "AS1>-",
        "CH1>-",
    )
    assert state.due == "AS1" and state.phase == "roll"  # AS1 swapped: no window in its new slot
    assert square(state, "AS1") == "a29" and square(state, "CH1") == "b29"


def test_cy_6_2_the_window_opens_only_with_a_partner() -> None:
    """CY-6.2: no partner, no window (the roll is due); with one, X's player plays
    ``X~Y`` or ``X~-``, and ``X~-`` goes on to the roll."""
    assert at("9 AS1:a30*4,BH1:a27*4 / A*4,B*4").phase == "roll"
    state = at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4")
    assert state.current_player == "A" and legal(state) == {"AS1~-", "AS1~BH1"}
    state.play("AS1~-")
    assert state.phase == "roll" and state.due == "AS1"


def test_cy_6_3_a_teammate_swaps_at_once_a_rival_answers() -> None:
    mate = play(at("9 AH1:a29*4,AS1:a30*4 / A*4"), "AS1~AH1")
    assert mate.phase == "roll" and mate.due == "AH1" and square(mate, "AH1") == "a30"
    rival = play(at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4"), "AS1~BH1")
    assert rival.phase == "answer" and rival.current_player == "B" and rival.due == "BH1"
    assert rival.position.proposer == "AS1"


def test_cy_6_4_accepted_or_declined() -> None:
    state = at("9 AS1:a30*4,BH1:a29*4,CH1:a25*4 / A*4,B*4,C*4")
    assert state.position.order == ["AS1", "BH1", "CH1"]
    play(state, "AS1~BH1", "BH1~yes")
    assert (
        state.position.order == ["BH1", "AS1", "CH1"]
        and state.due == "BH1"
        and state.phase == "roll"
    )
    play(state, "roll:1,1", "BH1-32")
    assert state.phase == "wheel" and state.due == "AS1"  # from behind, AS1 may take its wheel
    play(state, "AS1>-")
    assert state.due == "AS1" and state.phase == "roll"  # AS1 rides in BH1's old slot
    declined = play(at("9 AS1:a30*4,BH1:a29*4 / A*4,B*4"), "AS1~BH1", "BH1~no")
    assert declined.due == "AS1" and declined.phase == "roll" and square(declined, "AS1") == "a30"


def test_cy_6_5_a_swap_is_not_a_move() -> None:
    """CY-6.5: a swap is not a move: no line or event counts for it (and no dark
    square: swaps never happen on cobbles or slopes, CY-6.1)."""
    leg = play(at("9 AS1:a46*4+5,BH1:a45*4 / A*4,B*4 / - / 1=AS1", "leg"), "AS1~BH1", "BH1~yes")
    assert square(leg, "BH1") == "a46" and leg.phase == "roll" and leg.position.crossed[0] == []
    play(leg, "roll:1,1", "BH1-48", "AS1>-", "roll:1,1", "AS1-47")
    assert leg.round == 10 and leg.position.lists[0] == [
        "AS1"
    ]  # BH1 went past 45 by the swap: never listed
    assert leg.result.points == {"AS1": 5, "BH1": 0}  # AS1 paid once, when it first crossed
    event = play(at("9 AS1:a38*4,BH1:a37*4 / A*4,B*4"), "AS1~BH1", "BH1~yes")
    assert square(event, "BH1") == "a38" and event.phase == "roll" and event.due == "BH1"
