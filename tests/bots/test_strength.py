"""The greedy bot is much stronger than the random bot.

Two-team games, seats swapped every other game (team A moves first in setup and
breaks ties); "beat" means holding the trophy (MC-8.4). Measured when written: greedy
held the trophy in 1000 of 1000 games on each of standard 2×6 (front, left and right
wind) and short 2×3 (95% Wilson interval [99.6%, 100%]), so the thresholds below (the
project's target: 95% over 200 games on standard) fail only on a real loss of strength.
"""

from __future__ import annotations

import pytest

from peloton.bots import make_bot, play_out
from peloton.games import mindcycling as mc


def greedy_trophies(course: str, riders: int, games: int, wind: str = "front") -> int:
    wins = 0
    for g in range(games):
        state = mc.new_game(course, mc.default_teams(2, riders), wind=wind)
        greedy, rand = make_bot("greedy", g), make_bot("random", 100_000 + g)
        seats = {"A": greedy, "B": rand} if g % 2 == 0 else {"A": rand, "B": greedy}
        play_out(state, seats)
        wins += state.result.trophy == ("A" if g % 2 == 0 else "B")
    return wins


@pytest.mark.slow
def test_greedy_beats_random_on_standard() -> None:
    assert greedy_trophies("standard", 6, 200) >= 190


@pytest.mark.slow
def test_greedy_beats_random_on_short_with_three_riders() -> None:
    assert greedy_trophies("short", 3, 100) >= 90


def test_greedy_beats_random_in_the_expert_winds() -> None:
    assert greedy_trophies("standard", 4, 20, wind="left") >= 18
    assert greedy_trophies("short", 3, 20, wind="right") >= 18


def test_greedy_solo_beats_random_solo() -> None:
    # MC-9.4: fewer rounds is better. Measured: greedy 14-18 rounds, random 23-30.
    def rounds(name: str, seed: int) -> int:
        score = play_out(mc.new_solo("solo"), make_bot(name, seed)).result.solo_score
        assert score is not None
        return score[0]

    greedy = [rounds("greedy", s) for s in range(10)]
    rand = [rounds("random", s) for s in range(10)]
    assert max(greedy) < min(rand)
