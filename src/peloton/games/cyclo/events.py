"""Event cards (CY-7): the deck, draws and every card's effect at both levels, and the
fall's pick (CY-7.5). Functions of the game's facts and its position."""

from __future__ import annotations

from itertools import combinations

from .cards import CARD, CARDS
from .notation import Fall
from .position import Position
from .rules import move_rider
from .setup import MAX_TOKENS, Setup

#: The outcomes of a draw from a full deck, in table order.
FULL_DECK = tuple((card.id, card.count) for card in CARDS)
_INDEX = {card.id: i for i, card in enumerate(CARDS)}


def cards_left(position: Position) -> dict[str, int]:
    """The cards left in the deck by id (CY-7.6: the 24 less those drawn since the
    last reshuffle; all 0 until a draw finds the deck empty, CY-19.9)."""
    return {card.id: card.count - position.drawn[i] for i, card in enumerate(CARDS)}


def draw_outcomes(position: Position) -> list[tuple[str, int]]:
    """The cards a draw may show, each with its copies left: after the reshuffle a
    draw from an empty deck makes first (CY-7.6)."""
    left = [(card.id, card.count - position.drawn[i]) for i, card in enumerate(CARDS)]
    if not any(n for _, n in left):
        return list(FULL_DECK)
    return [(card, n) for card, n in left if n]


def draw(position: Position, card: str) -> None:
    """Take ``card`` from the deck, reshuffling first when it is empty (CY-7.6)."""
    if all(n == card.count for n, card in zip(position.drawn, CARDS, strict=True)):
        position.drawn = [0] * len(CARDS)
    position.drawn[_INDEX[card]] += 1
    position.last_card = card


def resolve(setup: Setup, position: Position, rider: str, card: str) -> bool:
    """CY-7.4: apply ``card`` drawn by ``rider``; true when the drawer's player must now
    pick who falls with it (CY-7.5). A card drawn where its limit says does nothing."""
    where = position.pos[rider]
    if CARD[card].discarded_on(setup.course.kinds[where], setup.course.board_at(where)):
        return False
    pro = setup.pro
    if card == "recovery":
        if not pro:
            move_rider(setup, position, rider, where + 6)
        elif position.own.get(rider, 0) < MAX_TOKENS:
            position.own[rider] = position.own.get(rider, 0) + 1
    elif card == "bidon":
        move_rider(setup, position, rider, where + 2)
    elif card == "moto":
        move_rider(setup, position, rider, where + 4)
    elif card == "cars":
        ahead = group_ahead(setup, position, rider)
        if ahead is not None:
            move_rider(setup, position, rider, min(ahead, where + 8))
    elif card == "hunger":
        if not pro:
            if not position.hunger.get(rider):  # a flag already set changes nothing (CY-19.8)
                position.hunger[rider] = 2
        elif position.own.get(rider, 0):
            position.own[rider] -= 1
        elif position.team.get(rider[0], 0):
            position.team[rider[0]] -= 1
    elif card == "puncture":
        position.skip.add(rider)
    elif card == "technical":
        position.technical.add(rider)
    else:
        return True
    return False


def group_ahead(setup: Setup, position: Position, rider: str) -> int | None:
    """``cars``: the lowest position ahead of ``rider`` on the course (up to N) holding
    a rider of its world: the back of the nearest group ahead; ``None`` if nobody."""
    here, world, finish = position.pos[rider], setup.world[rider], setup.finish
    ahead = [
        y for other, y in position.pos.items() if here < y <= finish and setup.world[other] == world
    ]
    return min(ahead) if ahead else None


def fall_moves(setup: Setup, position: Position, drawer: str) -> list[Fall]:
    """CY-7.5: the picks open to the drawer's player: 0 to 2 other riders on the course
    in its world, each a teammate or a rider on the drawer's position, all within 3
    consecutive positions of the drawer."""
    here, world, finish = position.pos[drawer], setup.world[drawer], setup.finish
    team = drawer[0]
    near = sorted(
        other
        for other, y in position.pos.items()
        if other != drawer
        and 1 <= y <= finish
        and setup.world[other] == world
        and abs(y - here) <= 2
        and (other[0] == team or y == here)
    )
    moves = [Fall(())]
    for size in (1, 2):
        for picks in combinations(near, size):
            spots = [here, *(position.pos[r] for r in picks)]
            if max(spots) - min(spots) <= 2:
                moves.append(Fall(picks))
    return moves


def fall(position: Position, drawer: str, picks: tuple[str, ...]) -> None:
    """The drawer and the picked riders get the skip flag (CY-7.5)."""
    position.skip.add(drawer)
    position.skip.update(picks)
