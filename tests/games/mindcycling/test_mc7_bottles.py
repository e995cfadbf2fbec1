"""MC-7: bottles, attacks, fatigue and feed zones."""

from __future__ import annotations

import pytest

import peloton
from peloton.games import mindcycling as mc

from .helpers import FLAT, MIXED, cone, course, legal, max_row, of_kind, play

FEED = course([[3, "plain"], [20, "sprint"]], 40, feed=["c12"], name="feed")


def finish_round(state: mc.State) -> None:
    """Let every remaining rider of the round make its shortest listed move."""
    r = state.round
    while state.round == r and not state.is_over:
        moves = [m for m in state.legal_moves() if ">" not in str(m)]
        state.play(moves[0])


# ---------------------------------------------------------------- MC-7.1


def test_mc_7_1_give_to_teammate_directly_behind() -> None:
    """MC-7.1: a rider with a bottle may give it, before moving, to the teammate
    directly behind who holds none; it costs no move and at most one per turn."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:c12+,AS1:c11,BC1:b1,BD1:d1+,BS1:e1 / - / -")
    assert "AD1>AS1" in legal(s)
    play(s, "AD1>AS1")
    assert s.current_rider == "AD1"
    assert s.rider("AD1").has_bottle is False and s.rider("AS1").has_bottle is True
    assert not any(">" in m for m in legal(s))
    with pytest.raises(peloton.IllegalMoveError, match="already given"):
        s.play("AD1>AS1")
    # The giver is not exhausted before the next assessment: sprint 5 - 1 (wind).
    assert max_row(s) == 16
    assert of_kind(s, "!") == set()  # and it no longer holds a bottle to attack with
    play(s, "AD1-c13")
    # The receiver held no bottle at the assessment: no attack this round.
    assert s.current_rider == "AS1"
    assert of_kind(s, "!") == set()
    play(s, "AS1-c12w")
    finish_round(s)
    assert s.round == 2
    assert s.to_mcn().startswith("2 ") and "AS1:c12+" in s.to_mcn() and "AD1:c13," in s.to_mcn()
    # Next round: AD1 exhausted (sprint 5 - 1 wind - 1), AS1 may attack.
    assert s.current_rider == "AD1"
    assert s.assessment("AD1").exhausted is True  # type: ignore[union-attr]
    assert max_row(s) == 16
    play(s, "AD1-c14")
    assert s.current_rider == "AS1"
    assert s.assessment("AS1").held_bottle is True  # type: ignore[union-attr]
    assert max_row(s, "!") == 12 + 7 + 3  # sheltered sprinter in the sprint, + 3


def test_mc_7_1_giver_may_still_wheel() -> None:
    """MC-7.1, MC-7.4: a domestique that has just given its bottle is not exhausted
    before the next assessment, so it may still wheel."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c11+,AS1:c10,BC1:b1,BD1:c12+,BS1:e1 / - / -")
    play(s, "BD1-c18")
    assert s.current_rider == "AD1"
    play(s, "AD1>AS1")
    assert of_kind(s, "w") == {"c17"} and of_kind(s, "r") == {"c19"}


def test_mc_7_1_never_to_an_opponent() -> None:
    """MC-7.1: no bottle for an opponent, even directly behind."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:a2,BD1:d1+,BS1:c9 / - / -")
    assert not any(">" in m for m in legal(s))
    before = s.copy()
    with pytest.raises(peloton.IllegalMoveError, match="opponent"):
        s.play("AD1>BS1")
    assert s == before


def test_mc_7_1_only_directly_behind() -> None:
    """MC-7.1: same lane, previous row: not diagonally behind, not two rows back."""
    s = mc.from_mcn(FLAT, "1 AC1:c8,AD1:c10+,AS1:b9,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    assert not any(">" in m for m in legal(s))
    with pytest.raises(peloton.IllegalMoveError, match="directly behind"):
        s.play("AD1>AS1")


def test_mc_7_1_only_at_the_start_of_own_turn() -> None:
    """MC-7.1: the give happens in the giver's own turn, before it moves."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c10+,AS1:c9,BC1:a2,BD1:b12+,BS1:e1 / - / -")
    assert s.current_rider == "BD1"
    with pytest.raises(peloton.IllegalMoveError, match="turn"):
        s.play("AD1>AS1")
    play(s, "BD1-b13", "AD1-c11")
    assert s.current_rider == "AS1"
    assert s.rider("AS1").has_bottle is False


def test_mc_7_1_sprinter_passes_on_a_bottle() -> None:
    """MC-7.1: any rider holding a bottle may give it (here a sprinter to a domestique)."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c9,AS1:c10+,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    assert "AS1>AD1" in legal(s)


# ---------------------------------------------------------------- MC-7.2, MC-7.3


def test_mc_7_2_attack_range() -> None:
    """MC-7.2: an attack is a normal move with allowance + 3; any destination in that
    range is legal, short ones included; the bottle is thrown away."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    assert of_kind(s) == cone("c10", 6)
    assert of_kind(s, "!") == cone("c10", 9)
    play(s, "AD1-c11!")
    assert s.rider("AD1").has_bottle is False
    assert s.group("AD1") == (1, True)


@pytest.mark.parametrize(
    ("rider", "square", "attacks"),
    [
        ("AD1", "c5", True),  # domestique in the plain
        ("AD1", "c2", True),  # the start zone is plain
        ("AD1", "c12", False),  # domestique in the sprint
        ("AD1", "c22", False),  # domestique in the mountain
        ("AS1", "c5", False),  # sprinter in the plain
        ("AS1", "c12", True),  # sprinter in the sprint
        ("AS1", "c22", False),
        ("AC1", "c12", False),
        ("AC1", "c22", True),  # climber in the mountain
        ("AC1", "c32", False),
    ],
)
def test_mc_7_2_attack_own_section_only(rider: str, square: str, attacks: bool) -> None:
    """MC-7.2: domestique in plain, sprinter in sprint, climber in mountain."""
    spots = iter(["a1", "b1", "c1", "d1", "e1"])
    entries = [
        f"{rid}:{square if rid == rider else next(spots)}{'+' if rid == rider or rid == 'BD1' else ''}"
        for rid in ("AC1", "AD1", "AS1", "BC1", "BD1", "BS1")
    ]
    s = mc.from_mcn(MIXED, "1 " + ",".join(entries))
    assert s.current_rider == rider
    assert bool(of_kind(s, "!")) is attacks
    if attacks:
        assert max_row(s, "!") == max_row(s) + 3


def test_mc_7_2_no_bottle_at_assessment_no_attack() -> None:
    """MC-7.2: the attacker must have held a bottle at the assessment."""
    s = mc.from_mcn(MIXED, "1 AC1:a1,AD1:b1+,AS1:c12,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    assert of_kind(s, "!") == set()
    with pytest.raises(peloton.IllegalMoveError, match="bottle"):
        s.play("AS1-c13!")


def test_mc_7_2_attack_across_the_line() -> None:
    """MC-7.2, MC-5.6: an attack may cross the line (`ID-#!`) where a normal move cannot."""
    s = mc.from_mcn(FLAT, "1 AC1:a1,AD1:c31+,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    assert "#" not in of_kind(s)
    assert "#" in of_kind(s, "!")
    play(s, "AD1-#!")
    assert s.result.places == ("AD1",)


def test_mc_7_3_no_wheel_behind_attacker() -> None:
    """MC-7.3: nobody may wheel or relay behind an attacker (its group is closed)."""
    s = mc.from_mcn(FLAT, "1 AC1:c11,AD1:c12+,AS1:a1,BC1:b1,BD1:e1+,BS1:e2 / - / -")
    play(s, "AD1-c21!")
    assert s.current_rider == "AC1"  # next in order; no priority behind an attack
    assert of_kind(s, "w") == set() and of_kind(s, "r") == set()
    with pytest.raises(peloton.IllegalMoveError, match="closed"):
        s.play("AC1-c20w")


# ---------------------------------------------------------------- MC-7.4


def test_mc_7_4_fatigue() -> None:
    """MC-7.4: a domestique without a bottle at the assessment is exhausted (allowance
    - 1, no wheel, no relay); sprinters and climbers never are."""
    s = mc.from_mcn(FLAT, "1 AC1:b10,AD1:c10,AS1:d10,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    a = {rid: s.assessment(rid) for rid in ("AD1", "AS1", "AC1", "BD1")}
    assert {rid: x.exhausted for rid, x in a.items()} == {  # type: ignore[union-attr]
        "AD1": True, "AS1": False, "AC1": False, "BD1": False,
    }  # fmt: skip
    assert a["AD1"].allowance == 5  # type: ignore[union-attr]
    assert a["AS1"].allowance == 4 and a["AC1"].allowance == 4  # type: ignore[union-attr]


# ---------------------------------------------------------------- MC-7.5


@pytest.mark.parametrize(
    ("dest", "fed"),
    [
        ("c12", True),  # stopping on the feed square
        ("c14", True),  # passing through it (some path does)
        ("b13", True),  # c11, c12, b13 enters it
        ("a12", False),  # no path to a12 enters c12
        ("e12", False),
        ("a14", True),  # c11, c12, b13, a14
        ("e15", True),  # c11, c12, d13, e14, e15
        ("b11", False),
    ],
)
def test_mc_7_5_feed_zone_refills_domestique(dest: str, fed: bool) -> None:
    """MC-7.5: a domestique without a bottle whose path enters a feed square takes a
    bottle; if some path to the destination enters one, that path is used."""
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    play(s, f"AD1-{dest}")
    assert s.rider("AD1").has_bottle is fed


def test_mc_7_5_refilled_domestique_is_fresh_next_round() -> None:
    """MC-7.5, MC-7.4: the bottle taken counts at the next assessment."""
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-c14")
    finish_round(s)
    assert s.assessment("AD1").exhausted is False  # type: ignore[union-attr]
    assert "AD1:c14+" in s.to_mcn()


def test_mc_7_5_attacker_refills() -> None:
    """MC-7.5: an attacking domestique has thrown its bottle before it rides, so its
    path can refill it."""
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-c18!")
    assert s.rider("AD1").has_bottle is True
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-e18!")  # c10-d11-e12-...: but c11-c12-d13-e14 also reaches e18
    assert s.rider("AD1").has_bottle is True
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-e12!")
    assert s.rider("AD1").has_bottle is False


@pytest.mark.parametrize("rider", ["AS1", "AC1"])
def test_mc_7_5_sprinters_and_climbers_never_refill(rider: str) -> None:
    """MC-7.5: sprinters and climbers never take a bottle at a feed zone."""
    text = "1 AC1:a1,AD1:b1+,AS1:e1,BC1:a2,BD1:d1+,BS1:e2 / - / -".replace(
        f"{rider}:{'a1' if rider == 'AC1' else 'e1'}", f"{rider}:c10"
    )
    s = mc.from_mcn(FEED, text)
    assert s.current_rider == rider
    play(s, f"{rider}-c12")
    assert s.rider(rider).has_bottle is False


def test_mc_7_5_occupied_feed_square_cannot_be_entered() -> None:
    """MC-7.5, MC-5.1: a rider on the feed square blocks it; paths round it do not feed."""
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10,AS1:b1,BC1:a2,BD1:d1+,BS1:c11 / - / -")
    play(s, "BS1-c12")
    assert s.current_rider == "AD1"
    play(s, "AD1-c14")
    assert s.rider("AD1").has_bottle is False


@pytest.mark.parametrize(("move", "fed"), [("AD1-c15w", False), ("AD1-c15", True)])
def test_mc_7_5_wheel_onto_feed_square_takes_nothing(move: str, fed: bool) -> None:
    """MC-7.5: only a normal move or an attack path feeds, not a wheel. (AD1 gives its
    bottle away first, so it is empty-handed yet not exhausted and may wheel.)"""
    c = course([[3, "plain"]], 40, feed=["c15"])
    s = mc.from_mcn(c, "1 AC1:a1,AD1:c13+,AS1:c12,BC1:a2,BD1:c14+,BS1:e1 / - / -")
    play(s, "BD1-c16", "AD1>AS1")
    assert s.rider("AD1").has_bottle is False
    play(s, move)
    assert s.rider("AD1").has_bottle is fed


def test_mc_7_5_holder_passes_feed_unchanged() -> None:
    """MC-2.4, MC-7.5: a domestique holding a bottle still holds exactly one."""
    s = mc.from_mcn(FEED, "1 AC1:a1,AD1:c10+,AS1:b1,BC1:a2,BD1:d1+,BS1:e1 / - / -")
    play(s, "AD1-c14")
    assert s.rider("AD1").has_bottle is True
    assert s.copy().rider("AD1").has_bottle is True
