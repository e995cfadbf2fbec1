"""What an analysis says about one position: each seat's chance to win, the engine's
best move, what the played move cost, and the class of that cost.

An :class:`Analyst` is the engine behind an analysis: the generic one searches with
MCTS (:mod:`.search`); a game may declare its own (``GameInfo.analyst``: Mind Twist's
is exact, from its solver)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ...core.protocol import GameState
from ...core.rng import Rng

#: The mover's chance lost from which a move is an inaccuracy, a mistake, a blunder
#: (the highest class reached wins). Chosen so that a blunder gives away a fifth of
#: the game and a mistake a tenth; see docs/analysis.md for the measured shares.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)
#: A move within this much of the best move's value counts as accurate.
ACCURATE = 0.02


@dataclass(frozen=True)
class Budget:
    """How much thought one position gets: CPU ``seconds`` or a fixed number of search
    ``iterations`` (the same on every machine, for tests). Exact analysts ignore it."""

    seconds: float | None = 0.2
    iterations: int | None = None

    def scaled(self, share: float) -> Budget:
        """A ``share`` of this budget (at least one iteration)."""
        return Budget(
            None if self.seconds is None else self.seconds * share,
            None if self.iterations is None else max(1, int(self.iterations * share)),
        )


@dataclass(frozen=True)
class Assessment:
    """One decision position as the engine sees it.

    ``chances``: each seat's chance to win (they sum to 1); ``best``: the engine's best
    move (notation); ``best_value`` and ``played_value``: the mover's chance after the
    best and after the played move; ``cost``: ``best_value - played_value`` (0 or
    more)."""

    chances: Mapping[str, float]
    best: str
    best_value: float
    played_value: float

    @property
    def cost(self) -> float:
        """The mover's chance the played move gave away."""
        return self.best_value - self.played_value


class Analyst(Protocol):
    """The engine of an analysis. ``state`` is what the mover could see (its view,
    never the full state of a game with hidden information)."""

    #: What the engine is, for reports ("mcts", "mind-twist solver").
    engine: str

    def assess(self, state: GameState, played: Any, budget: Budget, rng: Rng) -> Assessment:
        """The position before ``played``, and ``played``'s cost."""
        ...

    def chances(self, state: GameState, budget: Budget, rng: Rng) -> dict[str, float]:
        """Each seat's chance to win from ``state`` (a chance step among them)."""
        ...


def classify(cost: float) -> str:
    """The class of a move that cost the mover ``cost`` of its chance to win: one of
    :data:`THRESHOLDS`' names, ``"best"`` within :data:`ACCURATE`, else ``"good"``."""
    for name, threshold in THRESHOLDS:
        if cost >= threshold:
            return name
    return "best" if cost < ACCURATE else "good"


def normalised(values: Mapping[str, float]) -> dict[str, float]:
    """``values`` scaled to sum to 1 (an equal share each if they sum to 0), each in
    [0, 1]: a search's mean rewards as chances to win."""
    clipped = {seat: min(1.0, max(0.0, v)) for seat, v in values.items()}
    total = sum(clipped.values())
    if total <= 0:
        return {seat: 1.0 / len(clipped) for seat in clipped}
    return {seat: v / total for seat, v in clipped.items()}
