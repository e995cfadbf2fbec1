"""The Mind Twist board (MT-1) and what a move does to the two tokens (MT-2.3, MT-3).

Both paths are numbered alike from space 0 (the start) to ``length`` (the finish), so a
token's place is one number. :class:`Board` holds the board's two options, ``length``
and the milestone spaces, and applies a move: :meth:`Board.advance`. The options
themselves are read in :mod:`.start`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from ...core.errors import ConfigError

#: MT-1.1 **[decision]**: the finish space by default.
DEFAULT_LENGTH = 30
#: MT-1.2 **[decision]**: the three milestones by default.
DEFAULT_MILESTONES = (8, 16, 24)


def default_milestones(length: int) -> tuple[int, ...]:
    """The milestones a board of ``length`` gets when none are given: (8, 16, 24) on
    the default 30 spaces, and the same proportions (each at ``4/15`` of the path
    further) on another length, so that ``length=20`` alone makes a playable board.
    Spaces that round together or onto 0 or the finish are dropped."""
    marks = sorted({round(length * 4 * i / 15) for i in (1, 2, 3)})
    return tuple(m for m in marks if 0 < m < length)


#: Twice the printed board: room for house rules, while the optimal bot's solve (its
#: tables grow as length², value iteration with them) stays within seconds: about 7 s
#: of CPU at 60 spaces against 1.6 s at 30 (issue 11: a table must not be able to ask
#: the server for minutes of solving).
MAX_LENGTH = 60
#: A milestone every 5 spaces on the longest board; checked before the list is read.
MAX_MILESTONES = 12
#: The game ends after ``TURNS_PER_SPACE * length`` answered dials (300 on the default
#: board) if no token has finished: see :attr:`Board.turn_limit`.
TURNS_PER_SPACE = 10
#: What :meth:`Board.advance` returns as the mover's space when it reaches the finish.
FINISHED = -1


@dataclass(frozen=True)
class Board:
    """The finish space ``length`` and the ``milestones`` (MT-1), validated on creation."""

    length: int = DEFAULT_LENGTH
    milestones: tuple[int, ...] = DEFAULT_MILESTONES
    #: **[decision]** How many answered dials a game may last: right guesses (and
    #: tokens sideswiping each other) could go on for ever, so after
    #: ``TURNS_PER_SPACE * length`` turns the game ends and the token further along
    #: wins (level: the player who did not start). Optimal players reach it with a
    #: chance below 1e-54 on the default board (``Solution.unfinished``).
    turn_limit: int = field(init=False, repr=False, compare=False)
    #: The same limit in moves (a dial and its answer a turn), as the rules count it.
    move_limit: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        length = self.length
        if isinstance(length, bool) or not isinstance(length, int):
            raise ConfigError(f"option 'length' must be a whole number, not {length!r}")
        if not 2 <= length <= MAX_LENGTH:
            raise ConfigError(f"option 'length' must be 2 to {MAX_LENGTH}, not {length}")
        marks = self.milestones
        if isinstance(marks, str | bytes) or not isinstance(marks, Sequence):
            raise ConfigError(f"option 'milestones' must be a list of spaces, not {marks!r}")
        if len(marks) > MAX_MILESTONES:
            raise ConfigError(
                f"option 'milestones' lists {len(marks)} spaces; at most {MAX_MILESTONES}"
            )
        for space in marks:
            if isinstance(space, bool) or not isinstance(space, int):
                raise ConfigError(f"option 'milestones' must hold whole numbers, not {space!r}")
            if not 1 <= space <= length - 1:
                raise ConfigError(
                    f"option 'milestones': space {space} is off the path (1 to {length - 1})"
                )
        if any(b <= a for a, b in pairwise(marks)):
            raise ConfigError(
                f"option 'milestones' must be strictly increasing, not {', '.join(map(str, marks))}"
            )
        object.__setattr__(self, "milestones", tuple(marks))
        object.__setattr__(self, "turn_limit", TURNS_PER_SPACE * length)
        object.__setattr__(self, "move_limit", 2 * TURNS_PER_SPACE * length)

    @classmethod
    def from_options(
        cls, length: Any = DEFAULT_LENGTH, milestones: Any = DEFAULT_MILESTONES
    ) -> Board:
        """A board from option values as JSON gives them (lists for milestones)."""
        return cls(length, milestones)

    def is_protected(self, space: int) -> bool:
        """MT-3.1: a token on a milestone, or on the start **[decision]**, is never
        sideswiped."""
        return space == 0 or space in self.milestones

    def fallback(self, space: int) -> int:
        """MT-3.2: where a token sideswiped on ``space`` goes back to: the nearest
        milestone behind it, else the start."""
        behind = 0
        for mark in self.milestones:
            if mark >= space:
                break
            behind = mark
        return behind

    def advance(self, mover: int, opponent: int, amount: int) -> tuple[int, int]:
        """The spaces of the mover and of its opponent after the mover goes ``amount``
        spaces forward: MT-2.3 (:data:`FINISHED` when it reaches or passes the finish)
        and MT-3 (the opponent sideswiped when landed on, unless protected)."""
        to = mover + amount
        if to >= self.length:
            return FINISHED, opponent
        if to == opponent and not self.is_protected(opponent):
            return to, self.fallback(opponent)
        return to, opponent

    def options(self) -> dict[str, Any]:
        """The JSON options this board is made from."""
        return {"length": self.length, "milestones": list(self.milestones)}
