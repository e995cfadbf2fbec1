"""The Mind Cycling game state: setup, rounds, turns and the core protocol (MC-3, MC-4).

Move generation and the effects of each kind of move live in :mod:`.rules`; this module
holds the data, the turn order and the public API of MC-10.4.

Internally a square is the int ``row << 5 | lane`` (see :mod:`.course`), the road's
occupancy is one bitmask of lanes per row, and everything fixed by the round's
assessment (MC-4.2) is kept in small dicts and sets, so that a random playout of a
full game of 36 riders costs a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from ...core.errors import ConfigError, IllegalMoveError, NotationError, StateError
from ...core.rng import Rng
from . import rules
from .course import Course, lane_of, row_of
from .notation import Move, Position, parse_move
from .riders import (
    STEPS,
    Rider,
    check_teams,
    team_rider_ids,
)
from .scoring import Result, best_team, team_points, trophy

WINDS = {"front": 0, "left": -1, "right": 1}
DEFAULT_RELAY_LIMIT = 3
#: MC-8.5: the early end needs this many riders across the line.
SCORING_PLACES = 12
#: MC-9.3: the solo game ends in the round the fourth rider crosses.
SOLO_TARGET = 4


def check_rules(wind: object, relay_limit: object) -> None:
    """Raise :class:`ConfigError` unless the rule options are valid (MC-5.5, MC-6.5)."""
    if wind not in WINDS:
        raise ConfigError(f"wind must be one of {', '.join(WINDS)}, not {wind!r}")
    if isinstance(relay_limit, bool) or not isinstance(relay_limit, int) or relay_limit < 0:
        raise ConfigError(f"relay_limit must be a whole number >= 0, not {relay_limit!r}")


class Assessment(NamedTuple):
    """What MC-4.2 fixed for one rider at the start of the round."""

    section: str
    allowance: int
    against_wind: bool
    leader: str | None  # the rider on this rider's shelter square (MC-6.1)
    held_bottle: bool
    exhausted: bool
    #: The rider's place in its train (MC-6.1): 1 for the front rider, 2 for the rider
    #: linked to it, and so on; ``None`` for a rider in no train.
    train_place: int | None = None


class State:
    """A Mind Cycling position, played forward in place with :meth:`play`.

    Build one with :func:`new_game`, :func:`new_solo` or :func:`from_mcn`.
    """

    game = "mind-cycling"

    __slots__ = (
        "_allow",
        "_done",
        "_follower",
        "_gave",
        "_group_of",
        "_groups",
        "_held",
        "_leader",
        "_legal",
        "_order",
        "_order_i",
        "_sect",
        "_tired",
        "_train_place",
        "_unplaced",
        "_windy",
        "at",
        "bottles",
        "course",
        "current",
        "dl",
        "finished",
        "history",
        "ids",
        "medals",
        "over",
        "pos",
        "relay_limit",
        "round",
        "rows",
        "solo",
        "start_mcn",
        "teams",
        "wind",
    )

    # ------------------------------------------------------------ construction

    def __init__(
        self,
        course: Course,
        teams: Mapping[str, str],
        *,
        wind: str = "front",
        relay_limit: int = DEFAULT_RELAY_LIMIT,
        solo: bool = False,
    ) -> None:
        if not isinstance(course, Course):
            raise ConfigError(f"course must be a Course, not {course!r}")
        check_rules(wind, relay_limit)
        self.course = course
        self.wind = wind
        self.dl = WINDS[wind]
        self.relay_limit = relay_limit
        self.solo = solo
        self.teams = check_teams(teams, solo=solo)
        self.ids: tuple[str, ...] = tuple(
            sorted(rid for t, comp in self.teams.items() for rid in team_rider_ids(t, comp))
        )
        self.pos: dict[str, int] = {}
        self.at: dict[int, str] = {}
        # Per row, a bitmask of the lanes a rider may not enter: riders and rocks.
        self.rows = [*course.rock_mask]
        self.bottles = {rid for rid in self.ids if rid[1] == "D"}  # MC-2.4
        self.finished: list[str] = []
        self.medals: dict[str, str] = {}
        self.round = 0
        self.history: list[Move] = []
        self.start_mcn: str | None = None
        self.over = False
        self.current: str | None = None
        self._unplaced = {t: team_rider_ids(t, c) for t, c in self.teams.items()}
        self._order: list[str] = []
        self._order_i = 0
        self._done: set[str] = set()
        self._gave = False
        self._allow: dict[str, int] = {}
        self._sect: dict[str, str] = {}
        self._windy: set[str] = set()
        self._tired: set[str] = set()
        self._held: set[str] = set()
        self._leader: dict[str, str] = {}
        self._follower: dict[str, str] = {}
        self._train_place: dict[str, int] = {}
        self._groups: list[list[Any]] = []
        self._group_of: dict[str, int] = {}
        self._legal: list[Move] | None = None
        if solo:
            if course.lanes < len(self.ids):
                raise ConfigError(
                    f"the solo team's {len(self.ids)} riders start side by side; course "
                    f"{course.name!r} has only {course.lanes} lanes"
                )
        else:
            course.check_room(len(self.ids))

    def copy(self) -> State:
        """An independent copy (nothing mutable is shared)."""
        new = State.__new__(State)
        new.course = self.course
        new.wind = self.wind
        new.dl = self.dl
        new.relay_limit = self.relay_limit
        new.solo = self.solo
        new.teams = self.teams
        new.ids = self.ids
        new.start_mcn = self.start_mcn
        new.pos = self.pos.copy()
        new.at = self.at.copy()
        new.rows = self.rows.copy()
        new.bottles = self.bottles.copy()
        new.finished = self.finished.copy()
        new.medals = self.medals.copy()
        new.round = self.round
        new.history = self.history.copy()
        new.over = self.over
        new.current = self.current
        # Placement lists only change during setup; afterwards they can be shared.
        new._unplaced = (
            {t: ids.copy() for t, ids in self._unplaced.items()} if self.round == 0 else self._unplaced
        )
        # The assessment tables are replaced, never mutated, during a round: share them.
        new._order = self._order
        new._allow = self._allow
        new._sect = self._sect
        new._windy = self._windy
        new._tired = self._tired
        new._held = self._held
        new._leader = self._leader
        new._follower = self._follower
        new._train_place = self._train_place
        new._order_i = self._order_i
        new._done = self._done.copy()
        new._gave = self._gave
        new._groups = [g.copy() for g in self._groups]
        new._group_of = self._group_of.copy()
        new._legal = self._legal
        return new

    # ------------------------------------------------------------ protocol

    @property
    def players(self) -> tuple[str, ...]:
        """The team letters in seat order."""
        return tuple(self.teams)

    @property
    def current_player(self) -> str | None:
        """The team that must act now (the placing team during setup); None once over."""
        if self.over:
            return None
        if self.round == 0:
            return self._setup_team()
        assert self.current is not None
        return self.current[0]

    @property
    def current_rider(self) -> str | None:
        """The rider whose turn it is; ``None`` during setup (the team chooses whom to
        place) and once the game is over."""
        return None if self.over or self.round == 0 else self.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (MC-8.5, MC-9.3)."""
        return self.over

    @property
    def is_chance(self) -> bool:
        """Mind Cycling has no chance steps."""
        return False

    def chance_move(self, rng: Rng) -> Move:
        """Mind Cycling has no chance steps; always raises :class:`StateError`."""
        raise StateError("Mind Cycling is deterministic: it has no chance step")

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Mind Cycling has no chance steps; always raises :class:`StateError`."""
        raise StateError("Mind Cycling is deterministic: it has no chance step")

    @property
    def in_setup(self) -> bool:
        """Whether riders are still being placed (MC-3)."""
        return self.round == 0 and not self.over

    def legal_moves(self) -> list[Move]:
        """Every legal move now, in a stable order (empty once the game is over)."""
        if self._legal is None:
            self._legal = rules.legal_moves(self)
        return list(self._legal)

    def parse_move(self, text: str) -> Move:
        """Parse MC-10.1 move text (see :func:`.notation.parse_move`)."""
        return parse_move(text)

    def play(self, move: Move | str) -> None:
        """Validate and apply a move (or its text) in place.

        Raises :class:`peloton.NotationError` for text that does not parse and
        :class:`peloton.IllegalMoveError` (saying why) for a move not legal now; the
        state is unchanged after either.
        """
        move = self.check(move)
        self._legal = None
        self.history.append(move)
        if self.round == 0:
            self._place(move)
        else:
            rules.apply(self, move)

    def check(self, move: Move | str) -> Move:
        """The legal :class:`Move` meant by ``move`` (a Move or its text), without
        playing it; the same errors as :meth:`play` otherwise."""
        if type(move) is not Move:
            if isinstance(move, str):
                move = parse_move(move)
            elif not isinstance(move, Move):
                raise NotationError(f"a move must be a Move or its text, not {move!r}")
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal_moves(self)
        if move not in legal:
            raise IllegalMoveError(f"{move} is illegal: {rules.why_illegal(self, move)}")
        return move

    def view(self, player: str | None = None) -> State:
        """What ``player`` may see: Mind Cycling hides nothing, so a full copy."""
        return self.copy()

    # ------------------------------------------------------------ setup (MC-3)

    def _setup_team(self) -> str:
        # MC-3.1: equal team sizes make the placing order strictly round the table.
        placed = len(self.pos)
        return self.players[placed % len(self.teams)]

    def unplaced(self, team: str) -> list[str]:
        """The riders of ``team`` still to be placed (empty once the race is on)."""
        return list(self._unplaced.get(team, ()))

    def _place(self, move: Move) -> None:
        rid = move[1]
        sq = self.course.codes[move[2]]  # type: ignore[index]
        self._unplaced[rid[0]].remove(rid)
        self._put(rid, sq)
        if len(self.pos) == len(self.ids):  # MC-3.3
            self.round = 1
            self._assess()

    # ------------------------------------------------------------ rounds (MC-4)

    def _put(self, rid: str, sq: int) -> None:
        self.pos[rid] = sq
        self.at[sq] = rid
        self.rows[sq >> 5] |= 1 << (sq & 31)

    def _assess(self) -> None:
        """MC-4.2/4.3: fix every rider's section, wind, link, bottle, fatigue and order."""
        pos, at, bottles, dl = self.pos, self.at, self.bottles, self.dl
        section_by_row = self.course.section_by_row
        allow: dict[str, int] = {}
        sect: dict[str, str] = {}
        windy: set[str] = set()
        tired: set[str] = set()
        leader: dict[str, str] = {}
        follower: dict[str, str] = {}
        for rid, sq in pos.items():
            section = section_by_row[sq >> 5]
            a = STEPS[rid[1]][section]
            # The shelter square (MC-5.5). A lane off the road has code lane 31 or
            # ``lanes``, which no rider occupies, so no bounds check is needed.
            x = at.get(sq + 32 + dl)
            if x is None:
                windy.add(rid)
                a -= 1
            else:
                leader[rid] = x
                follower[x] = rid
            if rid[1] == "D" and rid not in bottles:  # MC-7.4
                tired.add(rid)
                a -= 1
            allow[rid] = a
            sect[rid] = section
        self._allow, self._sect, self._windy, self._tired = allow, sect, windy, tired
        self._leader, self._follower = leader, follower
        self._held = bottles & pos.keys()
        order = self._order = sorted(pos, key=lambda r: (-(pos[r] >> 5), pos[r] & 31))
        # MC-6.1: train places. A leader stands one row ahead, so it comes first in the
        # order and its place is known when its follower's is counted.
        place: dict[str, int] = {}
        for rid in order:
            x = leader.get(rid)
            if x is not None:
                place[rid] = place[x] + 1
            elif rid in follower:
                place[rid] = 1
        self._train_place = place
        self._order_i = 0
        self._done = set()
        self._gave = False
        self._groups = []
        self._group_of = {}
        self.current = self._order[0] if self._order else None

    def _end_turn(self, rid: str) -> None:
        """Mark ``rid``'s turn done and hand the turn on (MC-4.4, MC-4.5, MC-8.5)."""
        done = self._done
        done.add(rid)
        self._gave = False
        # The cheap length test first: this runs after every turn.
        if (len(self.finished) >= SCORING_PLACES or not self.pos) and not self.solo and self._race_decided():
            self._finish_game()
            return
        # MC-4.4: the rider linked to ``rid`` takes its turn at once if it may follow.
        y = self._follower.get(rid)
        if y is not None and y not in done and rules.may_follow(self, y, rid):
            self.current = y
            return
        order = self._order
        i = self._order_i
        while i < len(order) and order[i] in done:
            i += 1
        self._order_i = i
        if i < len(order):
            self.current = order[i]
            return
        self._end_round()

    def _solo_done(self) -> bool:
        """MC-9.3: the fourth rider is across (checked at the end of a round)."""
        return (self.solo and len(self.finished) >= SOLO_TARGET) or not self.pos

    def _end_round(self) -> None:
        if self._solo_done():
            self._finish_game()
            return
        self.round += 1
        self._assess()

    def _race_decided(self) -> bool:
        """MC-8.5: every rider across, or twelve across and every section medal given."""
        if not self.pos:
            return True
        if len(self.finished) < SCORING_PLACES:
            return False
        return all(key in self.medals for key, _ in self.course.medal_lines)

    def _finish_game(self) -> None:
        self.over = True
        self.current = None
        if self.finished:
            self.medals["team"] = best_team(self.finished, self.players)

    # ------------------------------------------------------------ queries

    @property
    def result(self) -> Result:
        """Places, points, medals, trophy and solo score (MC-10.4)."""
        medals = dict(self.medals)
        win = None
        if self.over and not self.solo and self.finished:
            win = trophy(medals, self.finished, self.players)
        return Result(
            places=tuple(self.finished),
            points=team_points(self.finished, self.players),
            medals=medals,
            trophy=win,
            solo_score=self.solo_score,
            over=self.over,
        )

    @property
    def solo_score(self) -> tuple[int, int] | None:
        """MC-9.4 ``(rounds, remaining)`` of a finished solo game, else ``None``."""
        if not (self.solo and self.over):
            return None
        remaining = 0
        for sq in self.pos.values():
            remaining = max(remaining, self.course.finish - row_of(sq))
        return (self.round, remaining)

    def rider(self, rid: str) -> Rider:
        """A snapshot of one rider (MC-10.4); ``KeyError`` names unknown ids."""
        if rid not in self.ids:
            raise KeyError(f"no rider {rid!r} in this game")
        sq = self.pos.get(rid)
        name = None if sq is None else self.course.names[row_of(sq)][lane_of(sq)]
        return Rider(rid, rid[0], rid[1], name, rid in self.bottles)

    def riders(self) -> list[Rider]:
        """Snapshots of every rider, in id order."""
        return [self.rider(rid) for rid in self.ids]

    def assessment(self, rid: str) -> Assessment | None:
        """What the round's assessment fixed for a rider on the road (None otherwise)."""
        if self.round == 0 or rid not in self._allow:
            return None
        return Assessment(
            self._sect[rid],
            self._allow[rid],
            rid in self._windy,
            self._leader.get(rid),
            rid in self._held,
            rid in self._tired,
            self._train_place.get(rid),
        )

    def has_moved(self, rid: str) -> bool:
        """Whether ``rid`` has had its turn this round."""
        return rid in self._done

    def group(self, rid: str) -> tuple[int, bool] | None:
        """``(size, closed)`` of the group ``rid`` rode in this round (MC-6.2), if any."""
        gi = self._group_of.get(rid)
        if gi is None:
            return None
        g = self._groups[gi]
        return (g[1], g[2])

    def turn_order(self) -> list[str]:
        """The round's order (MC-4.3), fixed at its start."""
        return list(self._order)

    @property
    def at_round_start(self) -> bool:
        """Whether no rider has acted yet in the current round (MC-10.2 snapshots)."""
        return self.round >= 1 and not self._done and not self._gave and not self.over

    def to_mcn(self) -> str:
        """MCN of this position (MC-10.2); :class:`StateError` unless at a round's start."""
        if not self.at_round_start:
            raise StateError(
                "MCN describes the start of a round; this state is "
                + ("in setup" if self.round == 0 else "over" if self.over else "mid-round")
            )
        names = self.course.names
        pos = Position(self.round)
        for rid, sq in self.pos.items():
            pos.riders[rid] = (names[sq >> 5][sq & 31], rid in self.bottles)
        pos.finished = list(self.finished)
        pos.medals = {
            k: self.medals[m] for k, m in (("sprint", "sprinter"), ("mountain", "climber")) if m in self.medals
        }
        return pos.to_text()

    def _key(self) -> tuple[Any, ...]:
        return (
            self.round,
            tuple(sorted(self.pos.items())),
            frozenset(self.bottles),
            tuple(self.finished),
            tuple(sorted(self.medals.items())),
            self.current,
            self._gave,
            frozenset(self._done),
            tuple(tuple(g) for g in self._groups),
            tuple(sorted(self._group_of.items())),
            tuple((t, tuple(ids)) for t, ids in self._unplaced.items()),
            self.over,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.course == other.course
            and self.wind == other.wind
            and self.relay_limit == other.relay_limit
            and self.teams == other.teams
            and self._key() == other._key()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        where = "setup" if self.round == 0 else f"round {self.round}"
        turn = "over" if self.over else f"{self.current_rider or self.current_player} to play"
        return f"<mind-cycling {self.course.name} {len(self.teams)} teams, {where}, {turn}>"
