"""Seeded randomness.

Every random decision in Peloton (dice, random bots, random setups) draws from an
explicit :class:`Rng` built from an integer seed, so that a game or a simulation can be
reproduced exactly from its record.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import TypeVar

T = TypeVar("T")


class Rng:
    """A small, explicit wrapper over :class:`random.Random` that remembers its seed."""

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed = int(seed)
        self._random = random.Random(self.seed)

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence, uniformly."""
        return items[int(self._random.random() * len(items))]

    def randint(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``, both included."""
        return self._random.randint(low, high)

    def random(self) -> float:
        """A float in ``[0, 1)``."""
        return self._random.random()

    def roll(self, dice: int, sides: int = 6) -> tuple[int, ...]:
        """Roll ``dice`` dice of ``sides`` faces (a chance outcome of the dice games)."""
        return tuple(self._random.randint(1, sides) for _ in range(dice))

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place."""
        self._random.shuffle(items)

    def getstate(self) -> tuple[object, ...]:
        """The generator's internal state (:meth:`random.Random.getstate`): a native
        playout draws from it and hands it back with :meth:`setstate`."""
        return self._random.getstate()

    def setstate(self, state: tuple[object, ...]) -> None:
        """Restore a state from :meth:`getstate`."""
        self._random.setstate(state)

    def spawn(self, salt: int) -> Rng:
        """A new independent generator derived from this seed and ``salt``.

        Used to give game number ``salt`` of a simulation its own stream, so results do
        not depend on how games are spread over processes.
        """
        return Rng((self.seed * 1_000_003 + salt * 7_919) % (2**63))


@cache
def roll_outcomes(dice: int, sides: int = 6) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every outcome of rolling ``dice`` dice of ``sides`` faces, written ascending (as
    the dice games write a roll), with its probability.

    Sorted combinations are not equally likely: ``(1, 2)`` comes from two of the 36
    ordered rolls, ``(1, 1)`` from one. The probabilities sum to 1.
    """
    total = sides**dice
    out = []
    for combo in combinations_with_replacement(range(1, sides + 1), dice):
        orders = factorial(dice)
        for count in Counter(combo).values():
            orders //= factorial(count)
        out.append((combo, orders / total))
    return tuple(out)
