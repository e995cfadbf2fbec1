"""A game's turns and moves as one viewer may see them (MT-4.1, MT-4.2), kept up to
date as the game goes on: :class:`PublicLog`.

Reading them afresh walks the whole history, and a table's log, a snapshot and a
replay read them after every move: a replay of ``n`` moves cost ``n²`` (issue 32: 0.03 s
for 300 moves, 0.42 s for 1,200). A log reads each answered turn once; only the turn
still open (a dial awaiting its guess) is read again, since its answer decides
whether its dial is ever shown.
"""

from __future__ import annotations

from typing import NamedTuple

from .notation import GUESS, HIDDEN_DIAL, PASS, PLAYERS, Move


class Turn(NamedTuple):
    """One turn as a viewer sees it: who dialled, the dial (``dial:?`` if unseen), the
    other player's response (``None`` while due) and whether it was a correct guess."""

    dialer: str
    dial: Move
    response: Move | None
    correct: bool


class PublicLog:
    """The answered turns of ``history`` as ``viewer`` sees them, with their moves and
    the moves' texts, read up to :attr:`done` moves.

    ``history`` is the state's own list: the log reads what was appended since it last
    looked. The rules only append to it, and change its last move only while that dial
    is unanswered (:meth:`State.suppose_dial`), which the log never keeps; a history
    that shrank or was replaced is read again from the start.
    """

    __slots__ = ("active", "done", "first", "history", "moves", "texts", "turns", "viewer")

    def __init__(self, history: list[Move], first: int, viewer: str | None) -> None:
        self.history = history
        self.viewer = viewer
        self.first = first
        self._restart()

    def _restart(self) -> None:
        self.active = self.first
        self.done = 0
        self.turns: list[Turn] = []
        self.moves: list[Move] = []
        self.texts: list[str] = []

    def read(self, history: list[Move]) -> Turn | None:
        """Bring the log up to ``history`` (the state's list); the open turn, if a dial
        awaits its answer."""
        if history is not self.history or len(history) < self.done:
            self.history = history
            self._restart()
        n, i, viewer = len(history), self.done, self.viewer
        while i + 1 < n:
            dial, response = history[i], history[i + 1]
            if dial.amount is None:
                # A hidden dial followed by a guess was guessed right: only that hides it.
                correct = response.kind == GUESS
            else:
                correct = response.amount == dial.amount
            dialer = PLAYERS[self.active]
            shown = HIDDEN_DIAL if correct and dialer != viewer else dial
            self.turns.append(Turn(dialer, shown, response, correct))
            self.moves += (shown, response)
            self.texts += (str(shown), str(response))
            if correct or response.kind == PASS:
                self.active = 1 - self.active
            i += 2
        self.done = i
        if i == n:
            return None
        dialer = PLAYERS[self.active]
        return Turn(dialer, history[i] if dialer == viewer else HIDDEN_DIAL, None, False)
