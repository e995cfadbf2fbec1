"""The mutable data of a Cyclo game in progress, and no rules.

:class:`Position` holds where every rider stands, its tokens and flags, the line
lists, the deck, and how far the round and the turn have gone; the rules
(:mod:`.rules`, :mod:`.events`, :mod:`.scoring`) read and change it, the state
(:mod:`.state`) drives them. Squares are ``(position, lane)``; ``occupied[w][k]`` is
the bitmask of lanes taken in world ``w`` (CY-2.6) on square set ``k = slots[position]``:
the position itself on the road, its loop space on the velodrome, where distances one
lap apart share their lanes (CY-1.6, CY-19.1).
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS
from .cyn import Cyn, DoneEntry, RiderEntry
from .setup import Setup

#: The phases of a turn (``state.phase``).
SWAP, ANSWER, ROLL, RIDE, WHEEL, DRAW, FALL, OVER = (
    "swap",
    "answer",
    "roll",
    "ride",
    "wheel",
    "draw",
    "fall",
    "over",
)
PHASES = (SWAP, ANSWER, ROLL, RIDE, WHEEL, DRAW, FALL, OVER)


class Position:
    """Everything that changes during a game (see the module docstring)."""

    __slots__ = (
        "crossed",
        "dice",
        "drawn",
        "draws",
        "due",
        "finished",
        "finishers",
        "hunger",
        "lane",
        "last_card",
        "last_roll",
        "leader",
        "lists",
        "occupied",
        "order",
        "out",
        "over",
        "own",
        "pacer",
        "passed_skips",
        "phase",
        "points",
        "pos",
        "proposer",
        "red",
        "ride_from",
        "ride_to",
        "round",
        "round_moves",
        "skip",
        "slot",
        "slots",
        "swapped",
        "team",
        "technical",
        "turn_over",
        "wheel_queue",
    )

    def __init__(self, setup: Setup) -> None:
        self.round = 1
        #: Position and lane of every rider on the course, the start line or the run-out.
        self.pos: dict[str, int] = {}
        self.lane: dict[str, int] = {}
        #: Where each position's lanes are kept in ``occupied`` (shared, immutable).
        self.slots: tuple[int, ...] = setup.slots
        self.occupied: list[list[int]] = [[0] * (setup.cap + 1) for _ in range(setup.worlds)]
        #: The keirin pacer's distance while it rides (CY-11.4), else ``None``.
        self.pacer: int | None = None
        #: Own tokens by rider, team tokens by team (CY-2.4).
        self.own: dict[str, int] = {}
        self.team: dict[str, int] = {}
        #: Flags (CY-7.4): skip, technical, hunger rides left.
        self.skip: set[str] = set()
        self.technical: set[str] = set()
        self.hunger: dict[str, int] = {}
        #: Points of this game (green in a leg) and red (mountain) points.
        self.points: dict[str, int] = {}
        self.red: dict[str, int] = {}
        #: The finish line's list: (rider, round, past) in finishing order (CY-8.3).
        self.finishers: list[tuple[str, int, int]] = []
        self.finished: set[str] = set()
        #: Eliminated riders, first out first (track events).
        self.out: list[str] = []
        #: The lists of the scoring lines (CY-8.2), course order.
        self.lists: list[list[str]] = [[] for _ in setup.scoring]
        #: Riders that crossed each scoring line this round, then the finish line (last).
        self.crossed: list[list[str]] = [[] for _ in range(len(setup.scoring) + 1)]
        #: Cards drawn since the last reshuffle, by index in CARDS (CY-7.6).
        self.drawn: list[int] = [0] * len(CARDS)
        # ---- the round in progress (CY-3)
        self.order: list[str] = []
        self.slot = 0
        self.turn_over: set[str] = set()
        self.swapped: set[str] = set()
        #: Riders whose skip flag was used up by passing their slot this round (the
        #: round's CYN still shows it, CY-19.17).
        self.passed_skips: set[str] = set()
        #: Moves played in this round (a CYN describes a round with none yet).
        self.round_moves = 0
        # ---- the turn in progress (CY-4.1)
        self.phase = ROLL
        #: The rider the pending step is about.
        self.due: str | None = None
        #: The rider who proposed the swap being answered.
        self.proposer: str | None = None
        #: The roll of the ride to come.
        self.dice: tuple[int, ...] = ()
        #: The ride just made (for the wheel step): from, to.
        self.ride_from = 0
        self.ride_to = 0
        #: The rider whose wheel is offered, and the riders still to be asked.
        self.leader: str | None = None
        self.wheel_queue: list[str] = []
        #: Riders still to draw a card this turn, in order (CY-7.3).
        self.draws: list[str] = []
        self.last_roll: tuple[int, ...] = ()
        self.last_card: str | None = None
        self.over = False

    def copy(self) -> Position:
        """An independent copy."""
        new = Position.__new__(Position)
        for name in (
            "round",
            "slot",
            "round_moves",
            "phase",
            "due",
            "proposer",
            "dice",
            "ride_from",
            "ride_to",
            "leader",
            "last_roll",
            "last_card",
            "over",
            "slots",
            "pacer",
        ):
            setattr(new, name, getattr(self, name))
        new.pos, new.lane = dict(self.pos), dict(self.lane)
        new.occupied = [list(w) for w in self.occupied]
        new.own, new.team = dict(self.own), dict(self.team)
        new.skip, new.technical, new.hunger = set(self.skip), set(self.technical), dict(self.hunger)
        new.points, new.red = dict(self.points), dict(self.red)
        new.finishers, new.finished, new.out = (
            list(self.finishers),
            set(self.finished),
            list(self.out),
        )
        new.lists = [list(x) for x in self.lists]
        new.crossed = [list(x) for x in self.crossed]
        new.drawn = list(self.drawn)
        new.order, new.turn_over, new.swapped = (
            list(self.order),
            set(self.turn_over),
            set(self.swapped),
        )
        new.passed_skips = set(self.passed_skips)
        new.wheel_queue, new.draws = list(self.wheel_queue), list(self.draws)
        return new

    def key(self) -> tuple[Any, ...]:
        """Everything, comparable (for equality of states)."""
        return tuple(
            sorted(v.items()) if isinstance(v, dict) else sorted(v) if isinstance(v, set) else v
            for v in (getattr(self, name) for name in self.__slots__)
        )

    # ------------------------------------------------------------ squares

    def put(self, rider: str, world: int, position: int, lane: int) -> None:
        """Stand ``rider`` on a square (which must be free)."""
        self.pos[rider] = position
        self.lane[rider] = lane
        self.occupied[world][self.slots[position]] |= 1 << lane

    def lift(self, rider: str, world: int) -> None:
        """Take ``rider`` off its square (it stays listed nowhere until put back)."""
        self.occupied[world][self.slots[self.pos[rider]]] &= ~(1 << self.lane[rider])

    def remove(self, rider: str, world: int) -> None:
        """Take ``rider`` off the course for good (a finisher leaving the run-out)."""
        self.lift(rider, world)
        del self.pos[rider], self.lane[rider]

    def racing(self, riders: tuple[str, ...]) -> list[str]:
        """The riders of ``riders`` still racing (neither finished nor out)."""
        finished, out = self.finished, self.out
        return [r for r in riders if r not in finished and r not in out]

    # ------------------------------------------------------------ notation

    def to_cyn(self, setup: Setup, times: dict[str, int] | None = None) -> Cyn:
        """The position as CYN data (CY-14.2): meaningful at the start of a round, where
        a skip flag used up by passing a slot still shows (CY-19.17). ``times`` are the
        finishers' own times, written in the timed modes (CY-19.15)."""
        times = times or {}
        riders = {
            r: RiderEntry(
                self.lane[r],
                self.pos[r],
                self.own.get(r, 0),
                r in self.skip or r in self.passed_skips,
                r in self.technical,
                self.hunger.get(r, 0),
                self.points.get(r, 0),
                self.red.get(r, 0),
            )
            for r in self.racing(setup.riders)
        }
        done = [
            DoneEntry(
                r,
                rnd,
                past,
                times.get(r),
                self.own.get(r, 0),
                self.points.get(r, 0),
                self.red.get(r, 0),
            )
            for r, rnd, past in self.finishers
        ]
        done += [
            DoneEntry(
                r, None, None, None, self.own.get(r, 0), self.points.get(r, 0), self.red.get(r, 0)
            )
            for r in self.out
        ]
        return Cyn(
            round=self.round,
            riders=riders,
            team_tokens={t: n for t, n in self.team.items() if n},
            done=done,
            lines={i + 1: list(listed) for i, listed in enumerate(self.lists) if listed},
            deck=[card.id for i, card in enumerate(CARDS) for _ in range(self.drawn[i])],
            pacer=self.pacer,
        )
