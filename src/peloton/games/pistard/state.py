"""The Pistard game state: the first move, later rounds and the core protocol.

A *round* is the first move (round 1, PI-2) or one pass of every racing rider in
race order (rounds 2 on, PI-3). Inside a round:

* round 1: every player rolls 4 dice (chance steps, seat order), then every player in
  seat order assigns its dice rider by rider (``A3=5``); after the last assignment the
  riders enter the track, highest values first (PI-2.2);
* later rounds: the race order is fixed at the start of the round (PI-3.1); when a
  player's first rider is due, its roll is a chance step (PI-3.2), then each of its
  riders in turn plays ``A3=5:c22`` (PI-3.3 to 3.5). Eliminations (PI-4.1) and lap
  points (PI-4.2) follow every move; the target (PI-4.3) is checked at the end of a
  round, so that every player has had as many turns.

Internally a square is ``(row - 1) * 4 + lane``; ``occupied[i]`` is the bitmask of
lanes taken on row ``i + 1``.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from ...core.errors import IllegalMoveError, NotationError, StateError
from ...core.protocol import CHANCE
from ...core.rng import Rng, roll_outcomes
from .notation import ASSIGN, ROLL, Move, parse_move
from .paths import first_move_square, ride_moves
from .riders import RIDERS_PER_TEAM, base_colour, team_riders
from .scoring import Result, lap_points, standings
from .track import LANES, Layout
from .why import why_illegal

_ROLLS: dict[int, tuple[Move, ...]] = {
    n: tuple(Move.roll(d) for d in combinations_with_replacement(range(1, 7), n))
    for n in range(1, RIDERS_PER_TEAM + 1)
}


class State:
    """A Pistard position, played forward in place with :meth:`play`.

    Build one with :func:`peloton.games.pistard.new_game`, ``from_options`` or
    ``from_position``."""

    game = "pistard"

    __slots__ = (
        "_legal", "assign_seq", "assigned", "at", "bonus", "dice", "dist", "first_rolls",
        "history", "idx", "lane", "laps", "layout", "lead", "length", "moved", "occupied",
        "order", "out", "over", "points", "progressed", "reason", "recency", "rolls", "round",
        "seed", "target", "teams",
    )

    def __init__(self, teams: tuple[str, ...], layout: Layout, *, bonus: str, target: int) -> None:
        """A new game at the first move; options are validated by ``new_game``."""
        self.teams = teams
        self.layout = layout
        self.length = layout.length
        self.bonus = bonus
        self.target = target
        self.seed: int | None = None
        riders = [r for t in teams for r in team_riders(t)]
        self.dist = dict.fromkeys(riders, 0)
        self.lane = dict.fromkeys(riders, -1)
        self.at: dict[int, str] = {}
        self.occupied = [0] * self.length
        #: The leader's distance (it only grows: the leader is never lapped).
        self.lead = 0
        self.out: list[str] = []
        self.points = dict.fromkeys(teams, 0)
        self.laps: dict[int, int] = {}
        self.recency: list[str] = []
        self.round = 1
        self.history: list[Move] = []
        self.over = False
        self.reason: str | None = None
        self.first_rolls: dict[str, tuple[int, ...]] = {}
        self.assigned: dict[str, int] = {}
        self.assign_seq: list[str] = []
        self.order: list[str] = []
        self.idx = 0
        self.rolls: dict[str, tuple[int, ...]] = {}
        self.dice: dict[str, list[int]] = {}
        self.moved: set[str] = set()
        self.progressed = False
        self._legal: list[Move] | None = None

    def copy(self) -> State:
        """An independent copy (moves and the layout are immutable and shared)."""
        new = State.__new__(State)
        new.teams, new.layout, new.length = self.teams, self.layout, self.length
        new.bonus, new.target, new.seed = self.bonus, self.target, self.seed
        new.dist, new.lane, new.at = dict(self.dist), dict(self.lane), dict(self.at)
        new.occupied, new.out, new.lead = list(self.occupied), list(self.out), self.lead
        new.points, new.laps, new.recency = dict(self.points), dict(self.laps), list(self.recency)
        new.round, new.history, new.over, new.reason = self.round, list(self.history), self.over, self.reason
        new.first_rolls, new.assigned = dict(self.first_rolls), dict(self.assigned)
        new.assign_seq, new.order, new.idx = list(self.assign_seq), list(self.order), self.idx
        new.rolls = dict(self.rolls)
        new.dice = {t: list(d) for t, d in self.dice.items()}
        new.moved, new.progressed = set(self.moved), self.progressed
        new._legal = self._legal
        return new

    # ------------------------------------------------------------ protocol

    @property
    def players(self) -> tuple[str, ...]:
        """The team letters in seat order."""
        return self.teams

    @property
    def riders(self) -> tuple[str, ...]:
        """Every rider id, eliminated ones included."""
        return tuple(self.dist)

    @property
    def racing(self) -> list[str]:
        """The riders still in the race."""
        out = self.out
        return [r for r in self.dist if r not in out]

    @property
    def due(self) -> str | None:
        """The rider whose move it is in a later round (``None`` in round 1 or over)."""
        if self.over or self.round == 1:
            return None
        return self.order[self.idx]

    @property
    def roller(self) -> str | None:
        """The player whose dice the pending chance step rolls, if any."""
        if self.over:
            return None
        if self.round == 1:
            return next((t for t in self.teams if t not in self.first_rolls), None)
        team = self.order[self.idx][0]
        return None if team in self.rolls else team

    @property
    def current_player(self) -> str | None:
        """The team to act, :data:`CHANCE` at a roll, ``None`` once over."""
        if self.over:
            return None
        if self.roller is not None:
            return CHANCE
        if self.round == 1:
            return next(t for t in self.teams if any(r not in self.assigned for r in team_riders(t)))
        return self.order[self.idx][0]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (PI-4.3)."""
        return self.over

    @property
    def is_chance(self) -> bool:
        """Whether a player's roll is due (PI-2.1, PI-3.2)."""
        return not self.over and self.roller is not None

    def dice_to_roll(self) -> int:
        """How many dice the pending roll throws: 4 in the first move, else one per
        rider the player still has racing (PI-1.2)."""
        team = self.roller
        if team is None:
            raise StateError("no roll is due now")
        if self.round == 1:
            return RIDERS_PER_TEAM
        return sum(1 for r in team_riders(team) if r not in self.out)

    def chance_move(self, rng: Rng) -> Move:
        """The roll drawn from ``rng`` (only at a chance step)."""
        return Move.roll(rng.roll(self.dice_to_roll()))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Every roll of the pending chance step with its probability (they sum to 1);
        :class:`StateError` when no roll is due."""
        return [(Move.roll(dice), p) for dice, p in roll_outcomes(self.dice_to_roll())]

    def legal_moves(self) -> list[Move]:
        """The moves of whoever acts now: every possible roll at a chance step."""
        if self._legal is None:
            self._legal = self._generate()
        return self._legal

    def _generate(self) -> list[Move]:
        if self.over:
            return []
        if self.roller is not None:
            return list(_ROLLS[self.dice_to_roll()])
        if self.round == 1:
            team = self.current_player
            assert team is not None
            free = self.unassigned_dice(team)
            values = sorted(set(free))
            return [Move.assign(r, v) for r in team_riders(team) if r not in self.assigned for v in values]
        rider = self.order[self.idx]
        return ride_moves(
            rider,
            self.dice[rider[0]],
            layout=self.layout,
            occupied=self.occupied,
            distance=self.dist[rider],
            lane=self.lane[rider],
            colour=base_colour(rider),
            bonus=self.bonus,
        )

    def parse_move(self, text: str) -> Move:
        """Parse PI-5.2 text (syntax only)."""
        return parse_move(text)

    def check(self, move: Move | str) -> Move:
        """``move`` (or its text) if legal now; :class:`IllegalMoveError` saying why not."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, Move):
            raise NotationError(f"a move must be text or a Pistard Move, not {move!r}")
        if self.over:
            raise IllegalMoveError(f"{str(move)!r}: the game is over")
        legal = self.legal_moves()
        if move in legal:
            return move
        raise IllegalMoveError(f"{str(move)!r} is not legal now: {why_illegal(self, move)}")

    def play(self, move: Move | str) -> None:
        """Apply a legal move (or its text) in place; illegal moves raise
        :class:`IllegalMoveError` and leave the state unchanged."""
        move = self.check(move)
        self.history.append(move)
        self._legal = None
        if move.kind == ROLL:
            self._roll(move.dice)
        elif move.kind == ASSIGN:
            self._assign(move.rider, move.value)
        else:
            self._ride(move)

    def view(self, player: str | None = None) -> State:
        """What ``player`` sees: everything (Pistard hides nothing)."""
        return self.copy()

    # ------------------------------------------------------------ first move

    def unassigned_dice(self, team: str) -> list[int]:
        """The dice of ``team``'s first roll not yet given to a rider."""
        left = list(self.first_rolls.get(team, ()))
        for r in team_riders(team):
            if r in self.assigned:
                left.remove(self.assigned[r])
        return left

    def _roll(self, dice: tuple[int, ...]) -> None:
        team = self.roller
        assert team is not None
        if self.round == 1:
            self.first_rolls[team] = dice
        else:
            self.rolls[team] = dice
            self.dice[team] = list(dice)

    def _assign(self, rider: str, value: int) -> None:
        self.assigned[rider] = value
        self.assign_seq.append(rider)
        if len(self.assigned) == len(self.dist):
            self._resolve_first_move()

    def first_move_order(self) -> list[str]:
        """PI-2.2: highest values first; among equal values the player with the higher
        sum (equal sums: seat order), then the order the player assigned its dice in."""
        sums = {t: sum(self.first_rolls[t]) for t in self.teams}
        rank = {t: i for i, t in enumerate(sorted(self.teams, key=lambda t: -sums[t]))}
        seq = {r: i for i, r in enumerate(self.assign_seq)}
        return sorted(self.assigned, key=lambda r: (-self.assigned[r], rank[r[0]], seq[r]))

    def _resolve_first_move(self) -> None:
        for rider in self.first_move_order():
            distance, lane = first_move_square(self.occupied, self.assigned[rider])
            if distance:
                self._put(rider, distance, lane)
        self._start_round()

    # ------------------------------------------------------------ later rounds

    def race_order(self) -> list[str]:
        """PI-3.1: racing riders furthest first; level riders inner lane first."""
        return sorted(self.racing, key=lambda r: (-self.dist[r], self.lane[r], r))

    def _start_round(self) -> None:
        self.round += 1
        self.order = self.race_order()
        self.idx = 0
        self.rolls, self.dice = {}, {}
        self.moved = set()
        self.progressed = False

    def _put(self, rider: str, distance: int, lane: int) -> None:
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

    def _ride(self, move: Move) -> None:
        rider, team = move.rider, move.rider[0]
        self.dice[team].remove(move.value)
        self.moved.add(rider)
        before = self.dist[rider]
        if move.path:
            end = self.layout.codes[move.path[-1]]
            ahead = ((end >> 2) - (before - 1)) % self.length
            lead = self.lead
            self._put(rider, before + ahead, end & (LANES - 1))
            self.progressed = True
            self._score(team, before, before + ahead)
            if self.lead > lead:  # only a new lead laps anyone
                self._eliminate()
        self._next_rider()

    def _score(self, team: str, before: int, after: int) -> None:
        """PI-4.2: crossing the line into lap 2 or later (the start does not score)."""
        line = -(-before // self.length) * self.length  # first line at or after `before`
        if line == 0 or line >= after:
            return
        lap = line // self.length + 1
        crossed = self.laps.get(lap, 0)
        if crossed < 3:
            self.laps[lap] = crossed + 1
            self.points[team] += lap_points(crossed)
            if team in self.recency:
                self.recency.remove(team)
            self.recency.insert(0, team)

    def _eliminate(self) -> None:
        """PI-4.1: riders a lap or more behind the leader leave the race."""
        reach = self.lead - self.length
        for rider in sorted(self.racing, key=lambda r: (self.dist[r], r)):
            if self.dist[rider] <= reach:
                self._put(rider, self.dist[rider], -1)
                self.out.append(rider)

    def _next_rider(self) -> None:
        self.idx += 1
        while self.idx < len(self.order) and self.order[self.idx] in self.out:
            self.idx += 1
        if self.idx < len(self.order):
            return
        if any(p >= self.target for p in self.points.values()):
            self._finish("target")
        elif not self.progressed:
            self._finish("stalled")
        else:
            self._start_round()

    def _finish(self, reason: str) -> None:
        self.over = True
        self.reason = reason
        self.idx = 0

    # ------------------------------------------------------------ reading

    @property
    def result(self) -> Result:
        """The standing (PI-4.3); ``winner`` once the game is over."""
        lead: dict[str, int] = {}
        for r in self.racing:
            lead[r[0]] = max(lead.get(r[0], -1), self.dist[r])
        places = tuple(standings(self.teams, self.points, self.recency, lead))
        return Result(
            points=dict(self.points),
            places=places,
            eliminated=tuple(self.out),
            winner=places[0] if self.over else None,
            over=self.over,
            reason=self.reason,
            recency=tuple(self.recency),
        )

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

    @property
    def at_round_start(self) -> bool:
        """Whether no move of the current later round has been played yet."""
        return not self.over and self.round > 1 and self.idx == 0 and not self.rolls

    def _key(self) -> tuple[Any, ...]:
        maps = (self.dist, self.lane, self.points, self.laps, self.first_rolls, self.assigned, self.rolls)
        return (
            self.teams, self.layout.rows, self.bonus, self.target, self.out, self.recency, self.round,
            self.over, self.assign_seq, self.order, self.idx, *(sorted(m.items()) for m in maps),
            sorted((t, sorted(d)) for t, d in self.dice.items()), sorted(self.moved),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<pistard State round {self.round}, {len(self.history)} moves, points {self.points}>"
