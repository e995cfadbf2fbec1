"""The rules of Mind Twist as functions of a :class:`~.position.Duel`: the moves of
each phase (:data:`PHASE_MOVES`, MT-2.1, MT-2.2), why a move is refused now, and what
a move does (MT-2.2, MT-2.3, MT-3, and the turn limit). Nothing here imports the
state, which alone calls these.

A turn has two phases. In the *dial* phase the active player turns the dial (MT-2.1);
in the *guess* phase the other player challenges with a guess or passes (MT-2.2), and
the dial takes effect through :meth:`Board.advance` (MT-2.3, MT-3).
"""

from __future__ import annotations

from ...core.errors import IllegalMoveError, StateError
from .board import FINISHED
from .notation import DIAL, DIALS, GUESS, PASS, PLAYERS, RESPONSES, Move
from .position import Duel

#: The legal moves of each phase, by whether the active player has dialled: the
#: dials (MT-2.1), then the guesses and the pass (MT-2.2); none once the game is over.
PHASE_MOVES: dict[bool, tuple[Move, ...]] = {False: DIALS, True: RESPONSES}


def why_illegal(duel: Duel, move: Move) -> str | None:
    """Why ``move`` cannot be played now, in the game's words; ``None`` if it can."""
    if duel.winner is not None:
        return f"{move} is illegal: the game is over ({PLAYERS[duel.winner]} won)"
    if move.kind == DIAL:
        if move.amount is None:
            return "dial:? is not a move: dial 1, 2 or 3 (dial:1, dial:2, dial:3)"
        if duel.dialled:
            dialer, challenger = PLAYERS[duel.active], PLAYERS[1 - duel.active]
            return f"{move} is illegal: {dialer} has dialled; {challenger} must guess (guess:1..3) or pass"
    elif not duel.dialled:
        return (
            f"{move} is illegal: {PLAYERS[duel.active]} must dial first (dial:1, dial:2 or dial:3)"
        )
    return None


def play_move(duel: Duel, move: Move) -> None:
    """Play ``move`` on ``duel``: a dial, or the answer to one and its effect.

    :class:`IllegalMoveError` (saying why) for a move not allowed now, and on a view
    whose dial is hidden :class:`StateError` for a guess or a pass (their effect
    depends on that dial); ``duel`` is unchanged after either. One call does the
    check and the effect: a Mind Twist move costs little more than a call.
    """
    if move.kind == DIAL:
        if duel.winner is not None or duel.dialled or move.amount is None:
            raise IllegalMoveError(why_illegal(duel, move))
        duel.dialled = True
        duel.pending = move.amount
        duel.history.append(move)
        return
    if duel.winner is not None or not duel.dialled:
        raise IllegalMoveError(why_illegal(duel, move))
    dial = duel.pending
    me = duel.active
    if dial is None:
        raise StateError(
            f"{move} cannot be played on this view: its effect depends on {PLAYERS[me]}'s hidden dial"
        )
    history = duel.history
    history.append(move)
    duel.dialled = False
    duel.pending = None
    if move.kind == GUESS and move.amount == dial:
        duel.active = 1 - me  # MT-2.2 correct guess: no move, the challenger is active
    else:
        spaces = duel.spaces
        to, other = duel.board.advance(spaces[me], spaces[1 - me], dial)
        if to == FINISHED:  # MT-2.3
            spaces[me] = duel.board.length
            duel.winner = me
            return
        spaces[me], spaces[1 - me] = to, other
        if move.kind == PASS:
            duel.active = 1 - me  # MT-2.2 no challenge: the other player becomes active
        # MT-2.2 wrong guess: the active player stays active and dials again.
    if len(history) >= duel.board.move_limit:
        duel.winner = winner_at_limit(duel)


def winner_at_limit(duel: Duel) -> int:
    """Who wins when the turn limit ends the game (:attr:`Board.turn_limit`): the token
    further along; level tokens, the player who did not start (starting is worth
    about 53% under optimal play)."""
    red, blue = duel.spaces
    if red != blue:
        return 0 if red > blue else 1
    return 1 if duel.start[2] == PLAYERS[0] else 0
