"""The event deck (CY-7.1): 24 cards of 8 kinds, each with its Pro and Starter effect
and the terrain where it is discarded without effect.

>>> sum(card.count for card in CARDS), [card.id for card in CARDS][:3]
(24, ['recovery', 'bidon', 'cars'])
>>> CARD["moto"].discarded_on("climb", "C2"), CARD["recovery"].discarded_on("flat", "A1")
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of event card."""

    id: str
    name: str
    #: Copies in the deck.
    count: int
    #: What it does, in words, at each level.
    pro: str
    starter: str
    #: Discarded without effect when drawn on these track types …
    limit_types: tuple[str, ...] = ()
    #: … or on this board.
    limit_board: str | None = None

    def discarded_on(self, kind: str, board: str) -> bool:
        """Whether the card has no effect for a rider drawing it on a space of track
        type ``kind`` on board ``board`` (its limit, CY-7.1)."""
        return kind in self.limit_types or board == self.limit_board

    @property
    def limit(self) -> str:
        """Where it is discarded, in words ("" when nowhere)."""
        if self.limit_board:
            return f"on board {self.limit_board}"
        return ", ".join(self.limit_types)


_SLOWING = ("climb", "cobbles", "slope")

#: CY-7.1, in table order (the order of DECK and of a draw's outcomes).
CARDS = (
    Card("recovery", "good recovery", 3, "+1 own token (none at 5)", "forward 6", limit_board="A1"),
    Card("bidon", "bidon collé", 4, "forward 2", "forward 2", ("cobbles", "slope")),
    Card(
        "cars",
        "back between the team cars",
        3,
        "to the back of the nearest group ahead, at most 8 forward",
        "to the back of the nearest group ahead, at most 8 forward",
        _SLOWING,
    ),
    Card("moto", "television motorbike", 2, "forward 4", "forward 4", _SLOWING),
    Card("hunger", "hunger knock", 3, "lose a token", "next 2 rides with 1 die"),
    Card("puncture", "flat tyre", 4, "lose the next turn", "lose the next turn"),
    Card(
        "technical",
        "technical problem",
        3,
        "next ride: one die less, no token",
        "next ride: one die less",
        ("lastkm",),
    ),
    Card(
        "fall",
        "fall",
        2,
        "the drawer and up to 2 riders beside it or of its team lose their next turn",
        "the drawer and up to 2 riders beside it or of its team lose their next turn",
    ),
)
CARD = {card.id: card for card in CARDS}
CARD_IDS = tuple(card.id for card in CARDS)
DECK_SIZE = sum(card.count for card in CARDS)
