"""Move notation (CY-14.1): every move is a small frozen value whose ``str()`` is its
text; :func:`parse_move` is the inverse and accepts exactly that text.

========  ==============  ================================================
roll      chance          ``roll:2,5`` (dice ascending)
draw      chance          ``draw:moto``
ride      X's team        ``AS1-56``, ``BC1-70/t``, ``AH1-#4/rt`` (target, tokens)
swap      X's team        ``AS1~BH1`` (propose), ``AS1~-`` (ride on)
answer    Y's team        ``BH1~yes``, ``BH1~no``
wheel     Y's team        ``AH1>BC1`` (follow), ``AH1>-`` (decline)
fall      drawer's team   ``fall:-``, ``fall:BH1``, ``fall:AH1,BH1``
========  ==============  ================================================

>>> parse_move("AH1-#4/rt")
Ride(rider='AH1', target=4, tokens='rt', runout=True)
>>> str(parse_move("roll:1,4,4")), parse_move("BH1~yes")
('roll:1,4,4', Answer(rider='BH1', accept=True))
>>> parse_move("roll:4,1")
Traceback (most recent call last):
...
peloton.core.errors.NotationError: 'roll:4,1' is not a Cyclo move: a roll lists its dice in ascending order, e.g. roll:1,4
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ...core.errors import NotationError
from .cards import CARD_IDS
from .riders import RIDER_RE

GAME = "cyclo"
#: Token choices (CY-4.3): ``r`` one own token, ``t`` one team token.
TOKEN_CHOICES = ("", "r", "t", "rr", "rt", "tt")


@dataclass(frozen=True, slots=True)
class Roll:
    """A roll (chance): the dice, ascending."""

    dice: tuple[int, ...]
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        return "roll:" + ",".join(map(str, self.dice))


@dataclass(frozen=True, slots=True)
class Draw:
    """A card drawn (chance)."""

    card: str
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        return "draw:" + self.card


@dataclass(frozen=True, slots=True)
class Ride:
    """A ride to ``target`` (a course position, or run-out square ``#target`` when
    ``runout``), spending ``tokens`` (one of :data:`TOKEN_CHOICES`)."""

    rider: str
    target: int
    tokens: str = ""
    runout: bool = False
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        where = f"#{self.target}" if self.runout else str(self.target)
        return f"{self.rider}-{where}/{self.tokens}" if self.tokens else f"{self.rider}-{where}"


@dataclass(frozen=True, slots=True)
class Swap:
    """The swap window: propose a swap to ``partner``, or ride on (``None``)."""

    rider: str
    partner: str | None
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        return f"{self.rider}~{self.partner or '-'}"


@dataclass(frozen=True, slots=True)
class Answer:
    """The answer of a proposed partner: accept or decline the swap."""

    rider: str
    accept: bool
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        return f"{self.rider}~{'yes' if self.accept else 'no'}"


@dataclass(frozen=True, slots=True)
class Wheel:
    """Take ``leader``'s wheel, or decline (``None``)."""

    rider: str
    leader: str | None
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        return f"{self.rider}>{self.leader or '-'}"


@dataclass(frozen=True, slots=True)
class Fall:
    """The riders a fall brings down beside the drawer (0 to 2, ascending)."""

    picks: tuple[str, ...] = ()
    game: ClassVar[str] = GAME

    def __str__(self) -> str:
        return "fall:" + (",".join(self.picks) or "-")


Move = Roll | Draw | Ride | Swap | Answer | Wheel | Fall
MOVE_TYPES = (Roll, Draw, Ride, Swap, Answer, Wheel, Fall)

_ID = RIDER_RE.pattern
_MOVE_RE = re.compile(
    r"roll:(?P<dice>[1-6](?:,[1-6])*)"
    r"|draw:(?P<card>[a-z]+)"
    rf"|(?P<rider>{_ID})(?:"
    r"-(?:(?P<pos>0|[1-9][0-9]*)|#(?P<run>[1-9]))(?:/(?P<tok>rr|rt|tt|r|t))?"
    rf"|~(?:(?P<partner>{_ID}|-)|(?P<answer>yes|no))"
    rf"|>(?P<leader>{_ID}|-))"
    rf"|fall:(?:-|(?P<picks>{_ID}(?:,{_ID})?))"
)

FORMS = "roll:2,5, draw:moto, AS1-56, AS1-56/rt, AS1-#4, AS1~BH1, AS1~-, BH1~yes, BH1~no, AH1>BC1, AH1>-, fall:-, fall:AH1,BH1"


def parse_move(text: str) -> Move:
    """The move written ``text`` (exact, case-sensitive); :class:`NotationError` saying
    why for anything else. Parsing needs no state: whether the move is legal is the
    state's question."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {text!r}")
    m = _MOVE_RE.fullmatch(text)
    if m is None:
        raise NotationError(f"{text!r} is not a Cyclo move ({_why_not(text)})")
    g = m.group
    if g("dice"):
        dice = tuple(int(d) for d in g("dice").split(","))
        if list(dice) != sorted(dice):
            raise NotationError(
                f"{text!r} is not a Cyclo move: a roll lists its dice in ascending order, e.g. roll:1,4"
            )
        return Roll(dice)
    if g("card"):
        if g("card") not in CARD_IDS:
            raise NotationError(
                f"{text!r} is not a Cyclo move: no card is called {g('card')!r} "
                f"(cards: {', '.join(CARD_IDS)})"
            )
        return Draw(g("card"))
    if text.startswith("fall:"):
        picks = tuple(g("picks").split(",")) if g("picks") else ()
        if len(picks) == 2 and not picks[0] < picks[1]:
            raise NotationError(
                f"{text!r} is not a Cyclo move: a fall lists two different riders in "
                "ascending order, e.g. fall:AH1,BH1"
            )
        return Fall(picks)
    rider = g("rider")
    if g("pos") is not None or g("run") is not None:
        tokens = g("tok") or ""
        if g("run") is not None:
            return Ride(rider, int(g("run")), tokens, True)
        return Ride(rider, int(g("pos")), tokens)
    if g("answer"):
        return Answer(rider, g("answer") == "yes")
    if g("partner"):
        return Swap(rider, None if g("partner") == "-" else g("partner"))
    leader = g("leader")
    return Wheel(rider, None if leader == "-" else leader)


def _why_not(text: str) -> str:
    if text.startswith("roll"):
        return "a roll is 'roll:' and dice 1-6 in ascending order, e.g. roll:2,5"
    if text.startswith("draw"):
        return f"a draw is 'draw:' and a card id: {', '.join(CARD_IDS)}"
    if text.startswith("fall"):
        return "a fall pick is fall:-, fall:ID or fall:ID,ID with rider ids ascending, e.g. fall:AH1,BH1"
    if not RIDER_RE.fullmatch(text[:3]):
        return "a move starts with roll:, draw:, fall: or a rider id: team A-F then S1, C1, H1 or H2, e.g. AS1"
    rest = text[3:]
    if rest.startswith("-"):
        return (
            "a ride is ID-T or ID-T/TOK: T a position without leading zeros or #1-#9 past the finish, "
            "TOK one of r, t, rr, rt, tt; e.g. AS1-56/rt"
        )
    if rest.startswith("~"):
        return "a swap is ID~ID or ID~-, an answer ID~yes or ID~no"
    if rest.startswith(">"):
        return "a wheel is ID>ID (follow) or ID>- (decline)"
    return f"expected one of: {FORMS}"
