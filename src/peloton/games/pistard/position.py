"""The data of a Pistard game in progress, and no rules: :class:`Race`.

A :class:`Race` holds where every rider is, what each player has rolled and scored,
and where the round has got to. Keeping it in step with itself (a rider's square, the
occupancy of its row and the leader's distance change together) is all it does; what
may happen next and what a move does are the rules' business (:mod:`.rules`), and the
core protocol is :class:`~.state.State`, which extends this class.

Internally a square is ``(row - 1) * 4 + lane``; ``occupied[i]`` is the bitmask of the
lanes taken on row ``i + 1``. A rider's ``lane`` is -1 while it stands behind the start
line or once it is out.
"""

from __future__ import annotations

from typing import Any, Self

from .notation import Move
from .riders import team_riders
from .track import Layout

#: Every field of a :class:`Race`, in the order :meth:`Race.copy` copies them.
FIELDS = (
    "assign_seq",
    "assigned",
    "at",
    "bonus",
    "dice",
    "dist",
    "first_rolls",
    "history",
    "idx",
    "lane",
    "laps",
    "layout",
    "lead",
    "length",
    "moved",
    "occupied",
    "order",
    "out",
    "over",
    "points",
    "progressed",
    "reason",
    "recency",
    "rolls",
    "round",
    "seed",
    "start",
    "target",
    "target_at_round_end",
    "teams",
)


class Race:
    """A Pistard game in progress as plain data (see the module docstring).

    ``bonus`` and ``target`` are the game's options; ``target_at_round_end`` is true
    only for games replayed from records written before PI-4.3 was corrected (the
    target was then checked at the end of the round). ``start`` is the position text a
    game began from, ``None`` for a game from its first move.
    """

    __slots__ = FIELDS

    def __init__(
        self,
        teams: tuple[str, ...],
        layout: Layout,
        *,
        bonus: str,
        target: int,
        target_at_round_end: bool = False,
    ) -> None:
        """A game at its first move (PI-2); options are validated by ``start.new_game``."""
        self.teams = teams
        self.layout = layout
        self.length = layout.length
        self.bonus = bonus
        self.target = target
        self.target_at_round_end = target_at_round_end
        self.seed: int | None = None
        self.start: str | None = None
        riders = [r for t in teams for r in team_riders(t)]
        self.dist = dict.fromkeys(riders, 0)
        self.lane = dict.fromkeys(riders, -1)
        #: The rider on each occupied square code.
        self.at: dict[int, str] = {}
        self.occupied = [0] * self.length
        #: The leader's distance (it only grows: the leader is never lapped).
        self.lead = 0
        self.out: list[str] = []
        self.points = dict.fromkeys(teams, 0)
        #: How many riders have crossed the line into lap ``k`` (``k`` from 2).
        self.laps: dict[int, int] = {}
        #: The players who have scored, the one whose rider scored last first.
        self.recency: list[str] = []
        self.round = 1
        self.history: list[Move] = []
        self.over = False
        self.reason: str | None = None
        # The first move (round 1): each player's roll and the dice given so far.
        self.first_rolls: dict[str, tuple[int, ...]] = {}
        self.assigned: dict[str, int] = {}
        self.assign_seq: list[str] = []
        # A later round: its race order, the index of the rider due, the rolls and
        # the dice still unused, the riders that moved, whether any rider advanced.
        self.order: list[str] = []
        self.idx = 0
        self.rolls: dict[str, tuple[int, ...]] = {}
        self.dice: dict[str, list[int]] = {}
        self.moved: set[str] = set()
        self.progressed = False

    def copy(self) -> Self:
        """An independent copy (moves, the layout and texts are immutable and shared)."""
        new = type(self).__new__(type(self))
        new.teams, new.layout, new.length = self.teams, self.layout, self.length
        new.bonus, new.target, new.target_at_round_end = (
            self.bonus,
            self.target,
            self.target_at_round_end,
        )
        new.seed, new.start = self.seed, self.start
        new.dist, new.lane, new.at = dict(self.dist), dict(self.lane), dict(self.at)
        new.occupied, new.out, new.lead = list(self.occupied), list(self.out), self.lead
        new.points, new.laps, new.recency = dict(self.points), dict(self.laps), list(self.recency)
        new.round, new.history, new.over, new.reason = (
            self.round,
            list(self.history),
            self.over,
            self.reason,
        )
        new.first_rolls, new.assigned = dict(self.first_rolls), dict(self.assigned)
        new.assign_seq, new.order, new.idx = list(self.assign_seq), list(self.order), self.idx
        new.rolls = dict(self.rolls)
        new.dice = {t: list(d) for t, d in self.dice.items()}
        new.moved, new.progressed = set(self.moved), self.progressed
        return new

    # ------------------------------------------------------------ keeping in step

    def place(self, rider: str, distance: int, lane: int) -> None:
        """Put ``rider`` at ``distance`` in ``lane`` (-1: off the track), keeping the
        squares, the occupancy and the leader's distance in step."""
        old = self.lane[rider]
        if old >= 0:
            sq = self.layout.square_at(self.dist[rider], old)
            del self.at[sq]
            self.occupied[sq >> 2] &= ~(1 << old)
        self.dist[rider], self.lane[rider] = distance, lane
        if distance > self.lead:
            self.lead = distance
        if lane >= 0:
            sq = self.layout.square_at(distance, lane)
            self.at[sq] = rider
            self.occupied[sq >> 2] |= 1 << lane

    # ------------------------------------------------------------ reading

    @property
    def players(self) -> tuple[str, ...]:
        """The team letters in seat order."""
        return self.teams

    @property
    def riders(self) -> tuple[str, ...]:
        """Every rider id, eliminated ones included."""
        return tuple(self.dist)

    @property
    def due(self) -> str | None:
        """The rider whose turn it is in a later round: the one at the round's place in
        its order (``None`` in the first move or once over)."""
        if self.over or self.round == 1:
            return None
        return self.order[self.idx]

    @property
    def racing(self) -> list[str]:
        """The riders still in the race."""
        out = self.out
        return [r for r in self.dist if r not in out]

    def unassigned_dice(self, team: str) -> list[int]:
        """The dice of ``team``'s first roll not yet given to a rider."""
        left = list(self.first_rolls.get(team, ()))
        for r in team_riders(team):
            if r in self.assigned:
                left.remove(self.assigned[r])
        return left

    def lap_of(self, rider: str) -> int:
        """The lap a rider is on (0 behind the start line), PI-1.3."""
        d = self.dist[rider]
        return 0 if d == 0 else (d - 1) // self.length + 1

    def square_of(self, rider: str) -> str | None:
        """The square name a rider stands on (``None`` behind the line or out)."""
        lane = self.lane[rider]
        if lane < 0 or rider in self.out:
            return None
        return self.layout.names[self.layout.square_at(self.dist[rider], lane)]

    def rider_at(self, square: str) -> str | None:
        """The rider on a square name, if any."""
        sq = self.layout.parse_square(square)
        return None if sq is None else self.at.get(sq)

    def key(self) -> tuple[Any, ...]:
        """Everything that makes two games the same game now (the history, the seed
        and the start text aside), for ``==``."""
        maps = (
            self.dist,
            self.lane,
            self.points,
            self.laps,
            self.first_rolls,
            self.assigned,
            self.rolls,
        )
        return (
            self.teams,
            self.layout.rows,
            self.bonus,
            self.target,
            self.target_at_round_end,
            self.out,
            self.recency,
            self.round,
            self.over,
            self.assign_seq,
            self.order,
            self.idx,
            *(sorted(m.items()) for m in maps),
            sorted((t, sorted(d)) for t, d in self.dice.items()),
            sorted(self.moved),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Race):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable
