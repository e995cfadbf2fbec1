"""The data of a Mind Twist game in progress, and no rules: :class:`Duel`.

Players are indices here: 0 is red, 1 is blue (``notation.PLAYERS``). What a move does
is the rules' business (:mod:`.rules`); the core protocol is :class:`~.state.State`,
which extends this class.
"""

from __future__ import annotations

from typing import Self

from .board import Board
from .notation import PLAYERS, Move

#: A player's index from its letter.
INDEX = {player: i for i, player in enumerate(PLAYERS)}


class Duel:
    """A Mind Twist game in progress as plain data.

    ``spaces`` are red's and blue's spaces (``length`` for a finished token);
    ``active`` the index of the player whose dial moves; ``dialled`` whether that
    player has dialled and a guess or a pass is due; ``pending`` the dial awaiting it
    (``None`` when none is due, or on a view that hides it); ``winner`` the winner's
    index once the game is over; ``history`` the moves as this holder may see them;
    ``start`` the position the game began from: (red space, blue space, active player).
    """

    __slots__ = ("active", "board", "dialled", "history", "pending", "spaces", "start", "winner")

    def __init__(
        self, board: Board | None = None, red: int = 0, blue: int = 0, active: str = "R"
    ) -> None:
        self.board = board if board is not None else Board()
        self.start = (red, blue, active)
        self.spaces = [red, blue]
        self.active = INDEX[active]
        self.dialled = False
        self.pending: int | None = None
        self.winner: int | None = None
        self.history: list[Move] = []

    def copy(self) -> Self:
        """An independent copy (the board and the moves are immutable and shared)."""
        new = type(self).__new__(type(self))
        new.board = self.board
        new.start = self.start
        new.spaces = list(self.spaces)
        new.active = self.active
        new.dialled = self.dialled
        new.pending = self.pending
        new.winner = self.winner
        new.history = list(self.history)
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Duel):
            return NotImplemented
        return (
            self.board == other.board
            and self.spaces == other.spaces
            and self.active == other.active
            and self.dialled == other.dialled
            and self.pending == other.pending
            and self.winner == other.winner
            and self.start == other.start
            and self.history == other.history
        )

    __hash__ = None  # type: ignore[assignment]  # mutable
