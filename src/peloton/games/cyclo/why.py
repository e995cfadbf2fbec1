"""Why a well-formed move is not legal now (CY-17), citing the rule: functions of the
game's facts and its position, for the state's :class:`IllegalMoveError`."""

from __future__ import annotations

from .events import draw_outcomes, fall_moves
from .notation import Answer, Draw, Fall, Move, Ride, Roll, Swap, Wheel
from .position import ANSWER, DRAW, FALL, OVER, RIDE, ROLL, SWAP, WHEEL, Position
from .rules import dice_count, ride_moves, swap_partners, target_of, token_choices
from .setup import Setup


def pending(position: Position) -> str:
    """What the game waits for, in words."""
    due = position.due
    return {
        SWAP: f"{due}'s swap window is open ({due}~ID or {due}~-, CY-6.2)",
        ANSWER: f"{due} must answer {position.proposer}'s swap ({due}~yes or {due}~no, CY-6.3)",
        ROLL: f"{due}'s roll is due (CY-4.1)",
        RIDE: f"{due} must ride (CY-4.1)",
        WHEEL: f"{due} is asked whether to take {position.leader}'s wheel ({due}>{position.leader} or {due}>-, CY-5.2)",
        DRAW: f"a card is drawn for {due} (CY-7.3)",
        FALL: f"team {due[0] if due else '?'} picks who falls with {due} (CY-7.5)",
        OVER: "the game is over",
    }[position.phase]


def _riders_named(move: Move) -> list[str]:
    if isinstance(move, Ride | Answer):
        return [move.rider]
    if isinstance(move, Swap):
        return [move.rider] + ([move.partner] if move.partner else [])
    if isinstance(move, Wheel):
        return [move.rider] + ([move.leader] if move.leader else [])
    if isinstance(move, Fall):
        return list(move.picks)
    return []


def why_illegal(setup: Setup, position: Position, move: Move) -> str:
    """A sentence saying why ``move`` is not legal in ``position``."""
    if position.phase == OVER:
        return "the game is over (CY-8.5)"
    unknown = [r for r in _riders_named(move) if r not in setup.world]
    if unknown:
        return f"there is no rider {unknown[0]} in this game (riders: {', '.join(setup.riders)})"
    due = position.due
    assert due is not None
    if isinstance(move, Roll):
        if position.phase != ROLL:
            return f"no roll is due: {pending(position)}"
        k = dice_count(setup, position, due)
        return f"{due} rolls {k} {'die' if k == 1 else 'dice'} here (CY-4.2), not {len(move.dice)}"
    if isinstance(move, Draw):
        if position.phase != DRAW:
            return f"no card is drawn now: {pending(position)}"
        left = ", ".join(card for card, _ in draw_outcomes(position))
        return f"no {move.card!r} card is left in the deck (CY-7.6; left: {left})"
    if isinstance(move, Ride):
        return _why_ride(setup, position, move)
    if isinstance(move, Swap):
        if position.phase != SWAP or move.rider != due:
            return f"{move.rider} has no swap window now: {pending(position)}"
        partners = swap_partners(setup, position, due)
        return (
            f"{move.partner} may not swap with {due}: a partner stands on its position or one less, in "
            f"its world, turn not over, no skip flag, neither having swapped this round, neither on "
            f"climb, cobbles or slope (CY-6.1); {due} may propose to {', '.join(partners) or 'nobody'}"
        )
    if isinstance(move, Answer):
        if position.phase != ANSWER or move.rider != due:
            return f"no swap was proposed to {move.rider} (CY-6.3): {pending(position)}"
        return pending(position)  # pragma: no cover - both answers are legal when asked
    if isinstance(move, Wheel):
        if position.phase != WHEEL:
            return f"no wheel is offered now (CY-5.1): {pending(position)}"
        if move.rider != due:
            return f"{due} is asked first, in lane order (CY-5.2), not {move.rider}"
        return f"{due} may only follow {position.leader}, the rider who just rode (CY-5.1)"
    assert isinstance(move, Fall)
    if position.phase != FALL:
        return f"no fall is being picked (CY-7.5): {pending(position)}"
    options = " ".join(str(m) for m in fall_moves(setup, position, due))
    return (
        f"the drawer may bring down up to 2 teammates or riders on its position, all within 3 "
        f"consecutive positions of it (CY-7.5); legal picks: {options}"
    )


def _why_ride(setup: Setup, position: Position, move: Ride) -> str:
    due = position.due
    if position.phase == ROLL and move.rider == due:
        return f"{due} must roll first (CY-4.1)"
    if position.phase != RIDE:
        return f"no ride is due: {pending(position)}"
    if move.rider != due:
        return f"{due} is due to ride, not {move.rider} (CY-3.3)"
    if not move.runout and move.target > setup.finish:
        return (
            f"a target past the finish line (after {setup.finish}) is written "
            f"#{move.target - setup.finish} (CY-14.1)"
        )
    pacer = position.pacer
    if pacer is not None and (move.runout or move.target >= pacer):
        return (
            f"the keirin pacer rides on {pacer}: no move may end at or past it (CY-11.4); "
            f"{due} may aim at {pacer - 1} at most"
        )
    if pacer is not None and move.tokens:
        return "no token is spent while the keirin pacer rides (CY-11.4, CY-4.3)"
    choices = token_choices(setup, position, due)
    if move.tokens not in choices:
        spend = ", ".join(repr(c) for c in choices if c) or "none"
        return f"{due} may not spend {move.tokens!r} here (tokens it may spend: {spend}; CY-4.3)"
    targets = sorted(
        {target_of(setup, m) for m in ride_moves(setup, position, due) if m.tokens == move.tokens}
    )
    names = [
        str(m).split("-", 1)[1].split("/")[0]
        for m in ride_moves(setup, position, due)
        if m.tokens == move.tokens
    ]
    spent = f"spending {move.tokens!r}" if move.tokens else "without tokens"
    where = names[0] if len(targets) == 1 else f"{names[0]} to {names[-1]}"
    return f"with this roll, {spent}, {due} may aim at {where} (CY-4.4)"
