"""core.rng: seeded, reproducible randomness."""

from __future__ import annotations

import math

import pytest

from peloton.core import Rng
from peloton.core.rng import roll_outcomes


def draws(rng: Rng) -> list[object]:
    items = list(range(20))
    rng.shuffle(items)
    return [
        rng.random(),
        rng.randint(1, 6),
        rng.choice("abcdefg"),
        rng.roll(3),
        rng.roll(2, sides=20),
        items,
    ]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**62 + 7])
def test_same_seed_same_stream(seed: int) -> None:
    """Two generators built from one seed produce the same draws."""
    assert draws(Rng(seed)) == draws(Rng(seed))
    assert Rng(seed).seed == seed


def test_different_seeds_differ() -> None:
    assert draws(Rng(1)) != draws(Rng(2))


def test_ranges() -> None:
    rng = Rng(7)
    for _ in range(500):
        assert 0.0 <= rng.random() < 1.0
        assert 3 <= rng.randint(3, 5) <= 5
        assert rng.choice([9]) == 9
        dice = rng.roll(4, sides=6)
        assert len(dice) == 4 and all(1 <= d <= 6 for d in dice)
    seen = {Rng(s).choice("xyz") for s in range(200)}
    assert seen == {"x", "y", "z"}


def test_unseeded_rng_remembers_its_seed() -> None:
    """An Rng without a seed picks one and records it, so the game can be replayed."""
    rng = Rng()
    assert isinstance(rng.seed, int)
    assert draws(Rng(rng.seed)) == draws(rng)


def test_spawn_is_reproducible_and_independent() -> None:
    """spawn(salt) derives a stream from the seed and the salt only."""
    base = Rng(123)
    base.random()  # consuming the parent does not change its children
    assert draws(base.spawn(5)) == draws(Rng(123).spawn(5))
    assert draws(Rng(123).spawn(5)) != draws(Rng(123).spawn(6))
    assert Rng(123).spawn(5).seed != Rng(124).spawn(5).seed
    assert 0 <= Rng(2**63 - 1).spawn(2**40).seed < 2**63


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_roll_outcomes_are_the_ascending_rolls_with_their_odds(dice: int) -> None:
    """Sorted dice are not equally likely: (1, 2) is twice as likely as (1, 1)."""
    outcomes = roll_outcomes(dice)
    assert [list(d) for d, _ in outcomes] == [sorted(d) for d, _ in outcomes]
    assert len(outcomes) == {1: 6, 2: 21, 3: 56, 4: 126}[dice]
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    odds = dict(outcomes)
    if dice == 2:
        assert odds[(1, 2)] == 2 / 36 and odds[(1, 1)] == 1 / 36
