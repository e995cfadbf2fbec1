"""The Mind Twist game state: the core protocol over a :class:`~.position.Duel`, and
views (MT-4.1). What a move does is :mod:`.rules`' business, which this module alone
calls.

**Hidden information** (MT-4.1). :meth:`State.view` gives a state of the same class
in which the dial is gone unless the viewer turned it, and in whose history every dial
the viewer has not seen is ``dial:?``. A view plays on like any state until the
hidden dial would take effect: then :meth:`State.play` raises :class:`StateError`.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import IllegalMoveError, NotationError, StateError
from ...core.rng import Rng
from . import rules
from .notation import (
    AMOUNTS,
    DIALS,
    HIDDEN_DIAL,
    PLAYERS,
    Move,
    format_position,
    parse_move,
)
from .position import INDEX, Duel
from .public_log import PublicLog, Turn
from .rules import PHASE_MOVES, play_move

GAME = "mind-twist"


def _as_move(move: object) -> Move:
    """A move given as text (or a Move of a subclass) as a :class:`Move`."""
    if isinstance(move, str):
        return parse_move(move)
    if not isinstance(move, Move):
        raise NotationError(f"a move must be a Move or its text, not {move!r}")
    return move


class State(Duel):
    """A Mind Twist game, played forward in place with :meth:`play`.

    Build one with :func:`~.start.new_game`, :func:`~.start.from_position` or
    :func:`~.start.from_options`. ``history`` lists the moves played
    (as this state's holder may see them); the data is :class:`~.position.Duel`'s.
    """

    game = GAME

    #: Each viewer's :class:`PublicLog`, made when first asked for; a copy starts
    #: without (it may be played differently, or its history rewritten).
    __slots__ = ("_logs",)
    _logs: dict[str | None, PublicLog]

    def copy(self) -> State:
        """An independent copy (see :meth:`Duel.copy`)."""
        new = super().copy()
        new._logs = {}
        return new

    def _log(self, viewer: str | None) -> tuple[PublicLog, Turn | None]:
        try:
            logs = self._logs
        except AttributeError:  # made by Duel's constructor, which knows no logs
            logs = self._logs = {}
        log = logs.get(viewer)
        if log is None:
            log = logs[viewer] = PublicLog(self.history, INDEX[self.start[2]], viewer)
        return log, log.read(self.history)

    # ------------------------------------------------------------ the protocol

    @property
    def players(self) -> tuple[str, str]:
        """``("R", "B")``: red, player 1, and blue."""
        return PLAYERS

    @property
    def current_player(self) -> str | None:
        """Who acts now: the active player to dial, then the other to guess or pass;
        ``None`` once the game is over."""
        if self.winner is not None:
            return None
        return PLAYERS[1 - self.active if self.dialled else self.active]

    @property
    def is_over(self) -> bool:
        """Whether a token has reached the finish (MT-2.3) or the turn limit ended the
        game (:attr:`Board.turn_limit`)."""
        return self.winner is not None

    @property
    def end(self) -> str | None:
        """How the game ended: ``finish`` (a token reached it, MT-2.3), ``limit`` (the
        turn limit), ``None`` while it goes on."""
        if self.winner is None:
            return None
        return "finish" if self.spaces[self.winner] == self.board.length else "limit"

    @property
    def is_chance(self) -> bool:
        """Always false: Mind Twist has no chance, only hidden information."""
        return False

    @property
    def result(self) -> str | None:
        """The winner's letter, ``None`` while the game goes on."""
        return None if self.winner is None else PLAYERS[self.winner]

    def legal_moves(self) -> list[Move]:
        """``dial:1..3`` in the dial phase, ``guess:1..3`` and ``pass`` in the guess
        phase, nothing once the game is over (a new list every call). Works on a view
        with a hidden dial."""
        # The rules' table of each phase's moves, read here without a call: a call
        # costs as much as the rest of a Mind Twist move (measured, docs/mind-twist.md).
        return [] if self.winner is not None else list(PHASE_MOVES[self.dialled])

    def parse_move(self, text: str) -> Move:
        """The move written ``text`` (MT-4.2); :class:`NotationError` if none."""
        return parse_move(text)

    def check(self, move: Move | str) -> Move:
        """The legal :class:`Move` meant by ``move`` (a Move or its text), without
        playing it: :class:`NotationError` for text that does not parse,
        :class:`IllegalMoveError` saying why for a move not allowed now."""
        if type(move) is not Move:
            move = _as_move(move)
        reason = rules.why_illegal(self, move)
        if reason is not None:
            raise IllegalMoveError(reason)
        return move

    def play(self, move: Move | str) -> None:
        """Validate and apply a move (or its text) in place (MT-2, MT-3).

        Raises :class:`NotationError`, :class:`IllegalMoveError` (the move is not
        allowed now) or, on a view whose dial is hidden, :class:`StateError` for a
        guess or a pass (their effect depends on that dial); the state is unchanged
        after any of them.
        """
        play_move(self, move if type(move) is Move else _as_move(move))

    def play_unseen_dial(self) -> None:
        """The active player dials an amount this state's holder has not seen: what a
        public record's last ``dial:?`` says. The state becomes a view whose dial is
        hidden; :class:`IllegalMoveError` unless a dial is due."""
        self.check(DIALS[0])
        self.dialled = True
        self.pending = None
        self.history.append(HIDDEN_DIAL)

    def suppose_dial(self, amount: int) -> None:
        """On a view whose pending dial is hidden, take ``amount`` as that dial: the
        view becomes a full state (what ``determinize`` draws for a search).
        :class:`StateError` unless a hidden dial is pending, :class:`IllegalMoveError`
        for an amount that is no dial."""
        if not self.dial_hidden:
            raise StateError("no hidden dial is pending on this state")
        if amount not in AMOUNTS:
            raise IllegalMoveError(f"a dial is 1, 2 or 3, not {amount!r}")
        self.pending = amount
        self.history[-1] = DIALS[amount - 1]

    def chance_move(self, rng: Rng) -> Any:
        """Mind Twist has no chance step."""
        raise StateError("Mind Twist has no chance step")

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Mind Twist has no chance step; always raises :class:`StateError`."""
        raise StateError("Mind Twist has no chance step")

    def view(self, player: str | None = None) -> State:
        """What ``player`` (``"R"``, ``"B"``, ``None`` for a spectator) may see
        (MT-4.1): the dial only if ``player`` turned it, and every dial of the history
        ``player`` has not seen as ``dial:?``."""
        if player is not None and player not in INDEX:
            raise StateError(f"unknown Mind Twist player {player!r} (players: R, B)")
        new = self.copy()
        new.history = self.public_history(player)
        if self.dialled and player != PLAYERS[self.active]:
            new.pending = None
        return new

    # ------------------------------------------------------------ the game's own API

    @property
    def active_player(self) -> str:
        """The player whose token the current dial moves (MT-2.1); once over, the last
        one (the winner, unless the turn limit ended the game)."""
        return PLAYERS[self.active]

    @property
    def first(self) -> str:
        """The player who was active when the game started (option ``first``)."""
        return self.start[2]

    @property
    def phase(self) -> str:
        """``dial``, ``guess`` or ``over``."""
        if self.winner is not None:
            return "over"
        return "guess" if self.dialled else "dial"

    @property
    def dial(self) -> int | None:
        """The dial awaiting a guess, if this state holds it (not on a view hiding it)."""
        return self.pending

    @property
    def dial_hidden(self) -> bool:
        """Whether a dial awaits a guess and this state does not know it (a view)."""
        return self.dialled and self.pending is None

    @property
    def red(self) -> int:
        """Red's space."""
        return self.spaces[0]

    @property
    def blue(self) -> int:
        """Blue's space."""
        return self.spaces[1]

    def space(self, player: str) -> int:
        """The space of ``player``'s token (``length`` once it has finished)."""
        return self.spaces[INDEX[player]]

    @property
    def position(self) -> str:
        """MT-4.3 text of the position (the dial is not part of it)."""
        return format_position(self.spaces[0], self.spaces[1], PLAYERS[self.active])

    def turns(self, viewer: str | None = None) -> list[Turn]:
        """The turns played so far as ``viewer`` may see them (MT-4.2): a dial stays
        ``dial:?`` to everyone but its dialer unless a wrong guess or a pass revealed
        it. The last turn's ``response`` is ``None`` while a guess is due."""
        log, open_turn = self._log(viewer)
        return [*log.turns, open_turn] if open_turn is not None else list(log.turns)

    def last_answered_turn(self, viewer: str | None = None) -> Turn | None:
        """The last turn whose dial was answered, as ``viewer`` sees it (``None``
        before the first answer)."""
        log, _ = self._log(viewer)
        return log.turns[-1] if log.turns else None

    def public_history(self, viewer: str | None) -> list[Move]:
        """The moves as ``viewer`` may see them (the moves of :meth:`turns`)."""
        log, open_turn = self._log(viewer)
        return [*log.moves, open_turn.dial] if open_turn is not None else list(log.moves)

    def public_texts(self, viewer: str | None) -> list[str]:
        """The texts of :meth:`public_history` (MT-4.2 notation)."""
        log, open_turn = self._log(viewer)
        return [*log.texts, str(open_turn.dial)] if open_turn is not None else list(log.texts)

    def __repr__(self) -> str:
        turn = f"{self.result} won" if self.is_over else f"{self.current_player} to {self.phase}"
        return f"<mind-twist {self.position}, {turn}>"
