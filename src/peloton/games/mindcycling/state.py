"""The Mind Cycling game state: the core protocol, the turn order and the public API of
MC-10.4.

A :class:`State` holds the game's facts (course, teams, wind, relay limit), the moves
played, and a :class:`~.position.Race`: the data of the game in progress. :meth:`play`
checks a move, lets :func:`.rules.apply` play it on the race, then hands the turn on
(setup round the table, MC-3.1; train priority and the round's order, MC-4.4, MC-4.5;
the end, MC-8.5, MC-9.3). This is the one module that calls the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from ...core.errors import ConfigError, IllegalMoveError, NotationError, StateError
from ...core.rng import Rng
from . import native, rules
from .course import Course, lane_of, row_of
from .notation import Move, Position, parse_move
from .position import CLOSED, SIZE, Race
from .riders import Rider, check_teams, team_rider_ids
from .rules import DEFAULT_RELAY_LIMIT, SCORING_PLACES, SOLO_TARGET, WINDS
from .scoring import Result, team_points, trophy

__all__ = [
    "DEFAULT_RELAY_LIMIT",
    "SCORING_PLACES",
    "SOLO_TARGET",
    "WINDS",
    "Assessment",
    "State",
    "check_rules",
]


def check_rules(wind: object, relay_limit: object) -> None:
    """Raise :class:`ConfigError` unless the rule options are valid (MC-5.5, MC-6.5)."""
    if wind not in WINDS:
        raise ConfigError(f"wind must be one of {', '.join(WINDS)}, not {wind!r}")
    if isinstance(relay_limit, bool) or not isinstance(relay_limit, int) or relay_limit < 0:
        raise ConfigError(f"relay_limit must be a whole number >= 0, not {relay_limit!r}")


#: Moves played through :meth:`State.play` without anyone reading ``State.race`` before
#: the native engine (when active) takes the game over: a caller reading the race after
#: every move (the solver, the terminal) keeps the Python engine, which it would
#: otherwise hand back and forth.
_QUIET_MOVES = 2


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
        "_at",
        "_behind",
        "_legal",
        "_quiet",
        "_race",
        "_twin",
        "history",
        "start_mcn",
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
        checked = check_teams(teams, solo=solo)
        ids = tuple(sorted(rid for t, comp in checked.items() for rid in team_rider_ids(t, comp)))
        if solo:
            if course.lanes < len(ids):
                raise ConfigError(
                    f"the solo team's {len(ids)} riders start side by side; course "
                    f"{course.name!r} has only {course.lanes} lanes"
                )
        else:
            course.check_room(len(ids))
        #: The wind the course is played with (MC-5.5).
        self.wind = wind
        #: The moves played, in order.
        self.history: list[Move] = []
        #: The MCN the game started from (MC-10.2), or ``None`` for a normal setup.
        self.start_mcn: str | None = None
        #: The data of the game in progress (see :mod:`.position`), with the facts it is
        #: played under.
        self._race = Race(
            course,
            checked,
            ids,
            {t: team_rider_ids(t, c) for t, c in checked.items()},
            shelter=WINDS[wind],
            relay_limit=relay_limit,
            solo=solo,
        )
        # The legal moves now, once asked for (a list, or the native twin's tuple).
        self._legal: Sequence[Move] | None = None
        # The native engine's twin of the race (see :mod:`.native`), ``(game, C race)``,
        # built once the game is played a few moves without anyone reading ``race``;
        # while it exists, legal_moves() and play() are served by it and ``_race`` is
        # ``_behind`` when moves were played on the twin alone.
        self._twin: tuple[Any, Any] | None = None
        self._at = 0  # the address of the twin's C race (the fast per-move calls take it)
        self._behind = False
        self._quiet = 0

    def copy(self) -> State:
        """An independent copy (nothing mutable is shared)."""
        new = State.__new__(State)
        new.wind = self.wind
        new.start_mcn = self.start_mcn
        new.history = self.history.copy()
        twin = self._twin
        if twin is not None and self._behind:
            # A stale race is never changed nor handed out (``race`` replaces it), so
            # the copies may share it.
            new._race = self._race
        else:
            new._race = self._race.copy()
        if twin is None:
            new._twin = None
            new._at = 0
        else:
            game, r = twin[0], twin[0].copy(twin[1])
            new._twin = (game, r)
            new._at = game.address(r)
        new._behind = self._behind
        new._quiet = self._quiet
        new._legal = self._legal  # never mutated: legal_moves() hands out copies
        return new

    @property
    def race(self) -> Race:
        """The data of the game in progress (see :mod:`.position`), with the facts it is
        played under. Reading it hands the game back to the Python engine (the native
        twin, if any, is written back and dropped), so the race may be changed."""
        twin = self._twin
        if twin is not None:
            if self._behind:
                self._race = twin[0].export(twin[1], self._race)
            self._twin = None
            self._behind = False
        self._quiet = 0
        return self._race

    def native_twin(self) -> tuple[Any, Any] | None:
        """``(NativeGame, C race)`` of the native twin serving this state, if any (read
        only: playouts copy it)."""
        return self._twin

    def _make_twin(self) -> None:
        """Hand the game to the native engine (when it is active)."""
        if native.available():
            game = native.game_for(self._race)
            r = game.load(self._race)
            self._twin = (game, r)
            self._at = game.address(r)
            self._behind = False

    # ------------------------------------------------------------ facts

    @property
    def course(self) -> Course:
        """The course (MC-1)."""
        return self._race.course

    @property
    def teams(self) -> Mapping[str, str]:
        """Team letter -> composition (MC-2.2), in seat order."""
        return self._race.teams

    @property
    def ids(self) -> tuple[str, ...]:
        """Every rider id of the game, sorted."""
        return self._race.ids

    @property
    def relay_limit(self) -> int:
        """The relay limit rule option (MC-6.5)."""
        return self._race.relay_limit

    @property
    def solo(self) -> bool:
        """Whether this is the solo version (MC-9)."""
        return self._race.solo

    def start_round(self, number: int) -> None:
        """Begin round ``number`` from the race as it stands (riders placed on the road,
        bottles, finishers and medals set), as :func:`.start.from_mcn` does: the round is
        assessed, and a position that is already over ends the game (MC-8.5, MC-9.3)."""
        race = self.race
        for team in race.unplaced:
            race.unplaced[team] = []
        race.round = number
        rules.assess(race)
        self._legal = None
        self.start_mcn = self.to_mcn()
        if self.solo and rules.solo_done(race):
            # Four riders across at the start of round n: the game ended with round n - 1.
            race.round = max(1, race.round - 1)
            rules.finish_game(race)
        elif rules.solo_done(race) or (not self.solo and rules.race_decided(race)):
            rules.finish_game(race)

    # ------------------------------------------------------------ protocol

    @property
    def players(self) -> tuple[str, ...]:
        """The team letters in seat order."""
        return tuple(self.teams)

    @property
    def round(self) -> int:
        """The current round (0 during setup)."""
        twin = self._twin
        return int(twin[1].round) if twin is not None else self._race.round

    @property
    def current_player(self) -> str | None:
        """The team that must act now (the placing team during setup); None once over."""
        twin = self._twin
        if twin is not None:
            return twin[0].current_player(twin[1])  # type: ignore[no-any-return]
        race = self._race
        if race.over:
            return None
        if race.round == 0:
            return rules.placing_team(race)
        assert race.current is not None
        return race.current[0]

    @property
    def current_rider(self) -> str | None:
        """The rider whose turn it is; ``None`` during setup (the team chooses whom to
        place) and once the game is over."""
        twin = self._twin
        if twin is not None:
            return twin[0].current_rider(twin[1])  # type: ignore[no-any-return]
        race = self._race
        return None if race.over or race.round == 0 else race.current

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (MC-8.5, MC-9.3)."""
        twin = self._twin
        return bool(twin[1].over) if twin is not None else self._race.over

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
        return self.round == 0 and not self.is_over

    def legal_moves(self) -> list[Move]:
        """Every legal move now, in a stable order (empty once the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return list(legal)

    def _legal_moves(self) -> Sequence[Move]:
        twin = self._twin
        if twin is None and self._quiet >= _QUIET_MOVES:
            self._make_twin()
            twin = self._twin
        if twin is not None:
            return twin[0].legal_at(twin[1], self._at)  # type: ignore[no-any-return]
        return rules.legal_moves(self._race)

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
        twin = self._twin
        if twin is not None:
            # The next move is checked against the new position's legal moves: the
            # twin finds them in the same C call.
            self._legal = twin[0].play_legal(twin[1], self._at, move)
            self._behind = True
            return
        self._quiet += 1
        race = self._race
        if race.round:
            # The race, tested first: this runs for every move of every playout. A gift
            # leaves the same rider to move (MC-7.1), any other move ends its turn.
            if rules.apply(race, move):
                self._end_turn(race, move[1])
        else:
            rules.apply(race, move)  # a placement (MC-3.1)
            if len(race.square_of) == len(race.ids):  # MC-3.3
                race.round = 1
                rules.assess(race)

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
            legal = self._legal = self._legal_moves()
        if move not in legal:
            raise IllegalMoveError(f"{move} is illegal: {rules.why_illegal(self.race, move)}")
        return move

    def view(self, player: str | None = None) -> State:
        """What ``player`` may see: Mind Cycling hides nothing, so a full copy."""
        return self.copy()

    # ------------------------------------------------------------ the turn order (MC-4)

    @staticmethod
    def _end_turn(race: Race, rid: str) -> None:
        """Mark ``rid``'s turn done and hand the turn on (MC-4.4, MC-4.5, MC-8.5)."""
        done = race.done
        done.add(rid)
        race.gave = False
        # The cheap length test first: this runs after every turn.
        if (
            (len(race.finished) >= SCORING_PLACES or not race.square_of)
            and not race.solo
            and rules.race_decided(race)
        ):
            rules.finish_game(race)
            return
        tables = race.tables
        # MC-4.4: the rider linked to ``rid`` takes its turn at once if it may follow.
        y = tables.follower.get(rid)
        if y is not None and y not in done and rules.may_follow(race, y, rid):
            race.current = y
            return
        order = tables.order
        i = race.next_in_order
        while i < len(order) and order[i] in done:
            i += 1
        race.next_in_order = i
        if i < len(order):
            race.current = order[i]
            return
        # The round is over (MC-9.3: a solo game ends with the round of its fourth rider).
        if rules.solo_done(race):
            rules.finish_game(race)
            return
        race.round += 1
        rules.assess(race)

    # ------------------------------------------------------------ queries

    @property
    def result(self) -> Result:
        """Places, points, medals, trophy and solo score (MC-10.4)."""
        race = self.race
        medals = dict(race.medals)
        win = None
        if race.over and not self.solo and race.finished:
            win = trophy(medals, race.finished, self.players)
        return Result(
            places=tuple(race.finished),
            points=team_points(race.finished, self.players),
            medals=medals,
            trophy=win,
            solo_score=self.solo_score,
            over=race.over,
        )

    @property
    def solo_score(self) -> tuple[int, int] | None:
        """MC-9.4 ``(rounds, remaining)`` of a finished solo game, else ``None``."""
        race = self.race
        if not (self.solo and race.over):
            return None
        remaining = 0
        for sq in race.square_of.values():
            remaining = max(remaining, self.course.finish - row_of(sq))
        return (race.round, remaining)

    def rider(self, rid: str) -> Rider:
        """A snapshot of one rider (MC-10.4); ``KeyError`` names unknown ids."""
        if rid not in self.ids:
            raise KeyError(f"no rider {rid!r} in this game")
        sq = self.race.square_of.get(rid)
        name = None if sq is None else self.course.names[row_of(sq)][lane_of(sq)]
        return Rider(rid, rid[0], rid[1], name, rid in self.race.bottles)

    def riders(self) -> list[Rider]:
        """Snapshots of every rider, in id order."""
        return [self.rider(rid) for rid in self.ids]

    def unplaced(self, team: str) -> list[str]:
        """The riders of ``team`` still to be placed (empty once the race is on)."""
        return list(self.race.unplaced.get(team, ()))

    def assessment(self, rid: str) -> Assessment | None:
        """What the round's assessment fixed for a rider on the road (None otherwise)."""
        tables = self.race.tables
        if self.race.round == 0 or rid not in tables.allowance:
            return None
        return Assessment(
            tables.section[rid],
            tables.allowance[rid],
            rid in tables.against_wind,
            tables.leader.get(rid),
            rid in tables.held_bottle,
            rid in tables.exhausted,
            tables.train_place.get(rid),
        )

    def has_moved(self, rid: str) -> bool:
        """Whether ``rid`` has had its turn this round."""
        return rid in self.race.done

    def group(self, rid: str) -> tuple[int, bool] | None:
        """``(size, closed)`` of the group ``rid`` rode in this round (MC-6.2), if any."""
        gi = self.race.group_of.get(rid)
        if gi is None:
            return None
        g = self.race.groups[gi]
        return (g[SIZE], g[CLOSED])

    def turn_order(self) -> list[str]:
        """The round's order (MC-4.3), fixed at its start."""
        return list(self.race.tables.order)

    @property
    def at_round_start(self) -> bool:
        """Whether no rider has acted yet in the current round (MC-10.2 snapshots)."""
        race = self.race
        return race.round >= 1 and not race.done and not race.gave and not race.over

    def to_mcn(self) -> str:
        """MCN of this position (MC-10.2); :class:`StateError` unless at a round's start."""
        race = self.race
        if not self.at_round_start:
            raise StateError(
                "MCN describes the start of a round; this state is "
                + ("in setup" if race.round == 0 else "over" if race.over else "mid-round")
            )
        names = self.course.names
        pos = Position(race.round)
        for rid, sq in race.square_of.items():
            pos.riders[rid] = (names[sq >> 5][sq & 31], rid in race.bottles)
        pos.finished = list(race.finished)
        pos.medals = {
            k: race.medals[m]
            for k, m in (("sprint", "sprinter"), ("mountain", "climber"))
            if m in race.medals
        }
        return pos.to_text()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.course == other.course
            and self.wind == other.wind
            and self.relay_limit == other.relay_limit
            and self.teams == other.teams
            and self.race.key() == other.race.key()
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        where = "setup" if self.round == 0 else f"round {self.round}"
        turn = "over" if self.is_over else f"{self.current_rider or self.current_player} to play"
        return f"<mind-cycling {self.course.name} {len(self.teams)} teams, {where}, {turn}>"
