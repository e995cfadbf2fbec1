"""The rules of Mind Twist as functions of the board and the position: the moves of
each phase (MT-2.1, MT-2.2), why a move is refused now, and what an answered dial does
(MT-2.2, MT-2.3, MT-3). Nothing here imports the state, which alone calls these.

Players are indices here: 0 is red, 1 is blue (``notation.PLAYERS``).
"""

from __future__ import annotations

from .board import FINISHED, Board
from .notation import DIAL, DIALS, GUESS, PASS, PLAYERS, RESPONSES, Move


def legal_moves(*, dialled: bool, over: bool) -> list[Move]:
    """``dial:1..3`` while a dial is due, ``guess:1..3`` and ``pass`` once the active
    player has dialled, nothing once the game is over (a new list every call)."""
    if over:
        return []
    return list(RESPONSES) if dialled else list(DIALS)


def why_illegal(move: Move, *, dialled: bool, active: int, winner: int | None) -> str | None:
    """Why ``move`` cannot be played now, in the game's words; ``None`` if it can."""
    if winner is not None:
        return f"{move} is illegal: the game is over ({PLAYERS[winner]} won)"
    dialer, challenger = PLAYERS[active], PLAYERS[1 - active]
    if move.kind == DIAL:
        if move.amount is None:
            return "dial:? is not a move: dial 1, 2 or 3 (dial:1, dial:2, dial:3)"
        if dialled:
            return f"{move} is illegal: {dialer} has dialled; {challenger} must guess (guess:1..3) or pass"
    elif not dialled:
        return f"{move} is illegal: {dialer} must dial first (dial:1, dial:2 or dial:3)"
    return None


def winner_at_limit(spaces: list[int], first: int) -> int:
    """Who wins when the turn limit ends the game (:attr:`Board.turn_limit`): the token
    further along; level tokens, the player who did not start (starting is worth
    about 53% under optimal play)."""
    red, blue = spaces
    if red != blue:
        return 0 if red > blue else 1
    return 1 - first


def answer(board: Board, spaces: list[int], active: int, dial: int, response: Move) -> tuple[int, int | None]:
    """Apply ``response`` (a guess or a pass) to ``active``'s ``dial``: move the tokens
    in ``spaces`` (red's, blue's) in place and return ``(active player after, winner or
    None)``. A finished token stands on ``length`` (MT-2.3)."""
    if response.kind == GUESS and response.amount == dial:
        return 1 - active, None  # MT-2.2 correct guess: no move, the challenger is active
    to, other = board.advance(spaces[active], spaces[1 - active], dial)
    if to == FINISHED:  # MT-2.3
        spaces[active] = board.length
        return active, active
    spaces[active], spaces[1 - active] = to, other
    if response.kind == PASS:
        return 1 - active, None  # MT-2.2 no challenge: the other player becomes active
    return active, None  # MT-2.2 wrong guess: the active player stays active, dials again
