"""Scenario tests of the greedy bot's Mind Cycling heuristic, named after the rules
they exercise. Positions are on the standard course: start zone rows 1-8, plain
9-26, sprint 27-36, plain 37-48 (feed zone c42), mountain 49-66, finish row 67."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from peloton.bots import make_bot
from peloton.games import mindcycling as mc
from peloton.games.mindcycling.move_scores import Weights, best_moves, score_moves

#: Team B, out of the way, so that the A rider under test moves first.
TEAM_B = "BD1:a20+,BS1:b20,BC1:d20"


def position(mcn: str, *, played: Iterable[str] = (), **options: object) -> mc.State:
    state = mc.from_mcn("standard", mcn, **options)  # type: ignore[arg-type]
    for move in played:
        state.play(move)
    return state


def greedy_choices(state: mc.State, rider: str | None = None) -> set[str]:
    """Every move the greedy bot plays here, over several tie-breaking seeds; ``rider``
    is the rider (or, in setup, team) expected to act."""
    if rider is not None:
        assert (state.current_rider or state.current_player) == rider
    return {str(make_bot("greedy", seed).choose(state)) for seed in range(8)}


def test_scores_follow_the_legal_moves() -> None:
    state = position(f"5 AS1:c28+,AD1:a10+,AC1:b10,{TEAM_B}")
    moves = state.legal_moves()
    scores = score_moves(state, moves)
    assert len(scores) == len(moves)
    assert all(isinstance(s, float) for s in scores)
    assert score_moves(state, []) == []
    assert set(best_moves(state)) <= set(moves)


def test_mc_5_6_a_rider_that_can_cross_the_line_crosses() -> None:
    state = position(f"12 AC1:c62+,AD1:a40,AS1:b40,{TEAM_B}")
    assert greedy_choices(state, "AC1") == {"AC1-#"}  # no need to throw the bottle


def test_mc_5_1_the_greedy_rider_rides_its_full_allowance() -> None:
    # AD1 rides against the wind in the plain: 6 squares, to row 18 (MC-5.2).
    state = position("3 AD1:c12+,AS1:a5,AC1:b5,BD1:a10+,BS1:b9,BC1:d9")
    choices = greedy_choices(state, "AD1")
    assert all(c.startswith("AD1-") and c.endswith("18") for c in choices), choices


def test_mc_7_2_no_attack_early_in_the_race() -> None:
    # A domestique's bottle saves it from exhaustion for the rounds to come: not
    # thrown away for three rows at row 12.
    state = position("3 AD1:c12+,AS1:a5,AC1:b5,BD1:a10+,BS1:b9,BC1:d9")
    assert not any(c.endswith("!") for c in greedy_choices(state, "AD1"))


@pytest.mark.parametrize("square", ["c28", "c30"])
def test_mc_8_3_the_sprinter_attacks_to_win_the_sprint_medal(square: str) -> None:
    # Against the wind in the sprint: 6 squares reach row 34 or 36 at most; attacking
    # (+3) takes AS1 past row 36, the sprint's last row, first.
    state = position(f"5 AS1:{square}+,AD1:a10+,AC1:b10,{TEAM_B}")
    for choice in greedy_choices(state, "AS1"):
        assert choice.endswith("!")
        state_after = state.copy()
        state_after.play(choice)
        assert state_after.result.medals.get("sprinter") == "AS1"


def test_mc_7_2_the_sprinter_keeps_its_bottle_while_it_cannot_win_yet() -> None:
    # Still in the plain: it may not attack; once in the sprint it should.
    state = position(f"5 AS1:c24+,AD1:a10+,AC1:b10,{TEAM_B}")
    assert all(c.endswith("28") for c in greedy_choices(state, "AS1"))


def test_mc_7_2_the_climber_attacks_to_cross_the_line() -> None:
    # c58 against the wind in the mountain: 6 reach row 64; attacking reaches 67.
    state = position(f"12 AC1:c58+,AD1:a40,AS1:b40,{TEAM_B}")
    assert greedy_choices(state, "AC1") == {"AC1-#!"}


def test_mc_7_2_the_climber_saves_its_bottle_far_from_the_line() -> None:
    state = position(f"12 AC1:c50+,AD1:a40,AS1:b40,{TEAM_B}")
    choices = greedy_choices(state, "AC1")
    assert not any(c.endswith("!") for c in choices)
    assert all(c.endswith("56") for c in choices)


def test_mc_6_5_relay_when_it_beats_riding_alone() -> None:
    # AS1 is linked to AD1 (same lane, row behind); AD1 rides 6 to c26. AS1 alone
    # would ride 5 (sheltered); the relay puts it on c27, 8 rows on.
    state = position("3 AD1:c20+,AS1:c19,AC1:e5,BD1:a10+,BS1:b9,BC1:d9", played=["AD1-c26"])
    assert greedy_choices(state, "AS1") == {"AS1-c27r"}


def test_mc_6_4_wheel_when_relays_are_off() -> None:
    # With relay_limit 0 only the wheel remains: c25, 6 rows, better than 5 alone.
    state = position(
        "3 AD1:c20+,AC1:c19,AS1:e5,BD1:a10+,BS1:b9,BC1:d9", played=["AD1-c26"], relay_limit=0
    )
    assert greedy_choices(state, "AC1") == {"AC1-c25w"}


def test_mc_7_1_the_domestique_gives_its_bottle_to_the_sprinter_before_the_line() -> None:
    state = position(f"5 AD1:c30+,AS1:c29,AC1:e5,{TEAM_B}")
    assert greedy_choices(state, "AD1") == {"AD1>AS1"}
    state.play("AD1>AS1")
    # The giver then rides on (it is still its turn).
    assert all(c.startswith("AD1-") for c in greedy_choices(state, "AD1"))


def test_mc_7_1_no_gift_once_the_medal_is_won() -> None:
    state = position("5 AD1:c30+,AS1:c29,AC1:e5,BS1:b20,BC1:d20 / BD1 / sprint=BD1")
    assert not any(">" in c for c in greedy_choices(state, "AD1"))


def test_mc_7_1_no_gift_when_the_weights_forbid_it() -> None:
    state = position(f"5 AD1:c30+,AS1:c29,AC1:e5,{TEAM_B}")
    moves = state.legal_moves()
    scores = score_moves(state, moves, Weights(give=0.0))
    best = max(zip(scores, map(str, moves), strict=True))
    assert best[1] != "AD1>AS1"


def test_mc_7_5_a_domestique_without_bottle_rides_through_the_feed_zone() -> None:
    # Exhausted and against the wind: 5 squares from c38, through the feed on c42.
    state = position(f"7 AD1:c38,AS1:e5,AC1:e6,{TEAM_B}")
    for choice in greedy_choices(state, "AD1"):
        after = state.copy()
        after.play(choice)
        assert after.rider("AD1").has_bottle, choice


def test_mc_3_setup_puts_a_domestique_on_the_front_row_first() -> None:
    state = mc.new_game("standard", mc.default_teams(2, 6))
    for choice in greedy_choices(state, "A"):
        assert choice.startswith("AD") and choice.endswith("8"), choice


@pytest.mark.parametrize(("wind", "behind"), [("front", "c7"), ("left", "d7"), ("right", "b7")])
def test_mc_6_1_setup_forms_trains(wind: str, behind: str) -> None:
    # After A's domestique takes c8, B's rider goes where c8 is its shelter square
    # (MC-5.5): straight behind, or diagonally behind in the expert winds.
    state = mc.new_game("standard", mc.default_teams(2, 6), wind=wind)
    state.play("AD1@c8")
    for choice in greedy_choices(state, "B"):
        assert choice.split("@")[1] == behind, choice
