"""Move notation (MT-4.2) and position text (MT-4.3).

A :class:`Move` is a tiny frozen value: ``dial:N`` (the active player's secret dial),
``guess:N`` (a challenge) or ``pass`` (no challenge); ``dial:?`` is a dial as a
player who has not seen it knows it. Its ``str()`` is the notation and
:func:`parse_move` is the inverse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...core.errors import NotationError

DIAL, GUESS, PASS = "dial", "guess", "pass"
#: The players: red (player 1, active first, MT-2.1) and blue.
RED, BLUE = "R", "B"
PLAYERS = (RED, BLUE)
#: How far a dial can be turned (MT-2.1).
AMOUNTS = (1, 2, 3)


@dataclass(frozen=True, slots=True)
class Move:
    """A Mind Twist move. ``amount`` is 1-3 for dials and guesses, ``None`` for a pass
    and for an unseen dial (``dial:?``)."""

    kind: str
    amount: int | None = None
    #: The game this move belongs to (the core ``Move`` protocol).
    game: ClassVar[str] = "mind-twist"

    def __str__(self) -> str:
        if self.kind == PASS:
            return PASS
        return f"{self.kind}:{'?' if self.amount is None else self.amount}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"

    @property
    def is_dial(self) -> bool:
        """Whether the active player made this move."""
        return self.kind == DIAL

    @property
    def is_hidden(self) -> bool:
        """Whether this is a dial whose amount the holder of the record has not seen."""
        return self.kind == DIAL and self.amount is None


DIALS = tuple(Move(DIAL, n) for n in AMOUNTS)
GUESSES = tuple(Move(GUESS, n) for n in AMOUNTS)
NO_CHALLENGE = Move(PASS)
#: ``dial:?``: a dial not revealed to whoever reads it.
HIDDEN_DIAL = Move(DIAL)
#: The responses of the other player, in the solver's column order.
RESPONSES = (*GUESSES, NO_CHALLENGE)

_BY_TEXT = {str(m): m for m in (*DIALS, *RESPONSES, HIDDEN_DIAL)}


def parse_move(text: str) -> Move:
    """The move written ``text`` (exact, lower case); :class:`NotationError` if none.

    ``dial:?`` parses (records shown to opponents hold it) but is never a legal move.
    """
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {text!r}")
    move = _BY_TEXT.get(text)
    if move is None:
        raise NotationError(
            f"{text!r} is not a Mind Twist move (expected dial:1, dial:2, dial:3, "
            "guess:1, guess:2, guess:3 or pass)"
        )
    return move


# ----------------------------------------------------------------------- positions

_POSITION_RE = re.compile(r"R(0|[1-9][0-9]*) B(0|[1-9][0-9]*) ([RB])")


def format_position(red: int, blue: int, active: str) -> str:
    """MT-4.3 text: ``R<red space> B<blue space> <active>``, e.g. ``R12 B9 B``."""
    return f"R{red} B{blue} {active}"


def parse_position(text: str) -> tuple[int, int, str]:
    """``(red space, blue space, active player)`` from MT-4.3 text (syntax only)."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be text, not {text!r}")
    m = _POSITION_RE.fullmatch(text)
    if m is None:
        raise NotationError(
            f"{text!r} is not a Mind Twist position: write 'R<red space> B<blue space> <R|B>', "
            "e.g. 'R12 B9 B'"
        )
    return int(m.group(1)), int(m.group(2)), m.group(3)
