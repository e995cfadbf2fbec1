"""The Cyclo game state: the core protocol over the rules.

A round (CY-3) gives every racing rider one turn, in an order fixed at its start. A
turn (CY-4.1) goes through phases, each one step of one player or of chance:

``swap`` (Pro: X proposes a swap or rides on, CY-6) → ``answer`` (a rival partner's
team accepts or declines) → ``roll`` (chance) → ``ride`` (X's team picks target and
tokens) → ``wheel`` (Pro: riders behind may follow, CY-5) → ``draw`` (chance: event
cards, CY-7) → ``fall`` (the drawer's team picks who falls with it).

Phases with nothing to decide are passed: no window without a partner, no wheel step
without a follower, no draw off the event spaces. A rider with the skip flag loses its
turn without a move (CY-3.4). This module is the only one that calls the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...core.errors import IllegalMoveError, NotationError, StateError
from ...core.protocol import CHANCE
from ...core.rng import Rng, roll_outcomes
from . import events, rules, scoring
from .cards import CARD_IDS
from .notation import MOVE_TYPES, Answer, Draw, Move, Ride, Roll, Swap, Wheel, parse_move
from .position import ANSWER, DRAW, FALL, OVER, RIDE, ROLL, SWAP, WHEEL, Position
from .riders import LANE_LETTERS, rider_type
from .scoring import Result
from .setup import Setup
from .why import why_illegal

#: CY-3.6: a game still running after this round ends.
MAX_ROUNDS = 300

#: Every roll of 1, 2 and 3 dice, ascending (CY-13.1), shared.
ROLLS: dict[int, tuple[Roll, ...]] = {
    k: tuple(Roll(d) for d, _ in roll_outcomes(k)) for k in (1, 2, 3)
}
_ROLL_OF: dict[tuple[int, ...], Roll] = {m.dice: m for moves in ROLLS.values() for m in moves}
DRAWS: dict[str, Draw] = {card: Draw(card) for card in CARD_IDS}


@dataclass(frozen=True, slots=True)
class RiderInfo:
    """One rider as ``state.rider(id)`` shows it. ``square`` is ``None`` once it has
    left the course (finished or out); a rider on the run-out shows ``b#3``."""

    id: str
    team: str
    type: str
    position: int | None
    square: str | None
    tokens: int
    skip: bool
    technical: bool
    hunger: int
    finished: bool
    out: bool


class State:
    """A Cyclo position, played forward in place with :meth:`play`.

    Build one with ``new_game``, ``from_options`` or ``from_cyn``."""

    game = "cyclo"

    __slots__ = ("_legal", "history", "position", "seed", "setup", "start")

    def __init__(
        self, setup: Setup, position: Position, *, seed: int | None = None, start: str | None = None
    ) -> None:
        """The game from ``position`` at the start of its round (``new_game`` and
        ``from_cyn`` build one); the first step is then found (skip slots passed).
        ``start`` is the CYN it began from (``None``: the start line), for its record."""
        self.setup = setup
        self.position = position
        self.seed = seed
        self.start = start
        self.history: list[Move] = []
        self._legal: list[Move] | None = None
        self._begin_round()
        self._next_turn()

    def copy(self) -> State:
        """An independent copy (the setup and the moves are immutable and shared)."""
        new = State.__new__(State)
        new.setup, new.seed, new.start = self.setup, self.seed, self.start
        new.position = self.position.copy()
        new.history = list(self.history)
        new._legal = self._legal
        return new

    def view(self, player: str | None = None) -> State:
        """What ``player`` sees: everything (CY-13.3), as an independent copy."""
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.setup == other.setup and self.position.key() == other.position.key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<cyclo State {self.setup.mode.name} round {self.round}, {self.phase} {self.due or ''}>"

    # ------------------------------------------------------------ protocol

    @property
    def players(self) -> tuple[str, ...]:
        """The team letters in seat order."""
        return self.setup.teams

    @property
    def round(self) -> int:
        """The round in progress (CY-3)."""
        return self.position.round

    @property
    def phase(self) -> str:
        """``swap``, ``answer``, ``roll``, ``ride``, ``wheel``, ``draw``, ``fall`` or ``over``."""
        return self.position.phase

    @property
    def due(self) -> str | None:
        """The rider the pending step is about: the rider whose turn it is, the
        proposed partner answering, the rider asked about a wheel, the drawer."""
        return None if self.position.over else self.position.due

    @property
    def current_player(self) -> str | None:
        """The team to act, :data:`CHANCE` at a roll or draw, ``None`` once over."""
        phase = self.position.phase
        if phase == OVER:
            return None
        if phase in (ROLL, DRAW):
            return CHANCE
        due = self.position.due
        assert due is not None
        return due[0]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (CY-8.5, CY-3.6)."""
        return self.position.over

    @property
    def is_chance(self) -> bool:
        """Whether a roll or a card draw is due (CY-13.1)."""
        return self.position.phase == ROLL or self.position.phase == DRAW

    @property
    def result(self) -> Result:
        """The standing (CY-8.6), final once the game is over."""
        return scoring.result(self.setup, self.position)

    def legal_moves(self) -> list[Move]:
        """The moves of whoever acts now (a fresh list): at a chance step every outcome."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[Move]:
        position, setup = self.position, self.setup
        phase, due = position.phase, position.due
        if phase == OVER:
            return []
        assert due is not None
        if phase == ROLL:
            return list(ROLLS[rules.dice_count(setup, position, due)])
        if phase == RIDE:
            return list(rules.ride_moves(setup, position, due))
        if phase == DRAW:
            return [DRAWS[card] for card, _ in events.draw_outcomes(position)]
        if phase == SWAP:
            return [
                Swap(due, None),
                *(Swap(due, y) for y in rules.swap_partners(setup, position, due)),
            ]
        if phase == ANSWER:
            return [Answer(due, True), Answer(due, False)]
        if phase == WHEEL:
            return [Wheel(due, position.leader), Wheel(due, None)]
        return list(events.fall_moves(setup, position, due))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Every outcome of the pending chance step with its probability (they sum to
        1); :class:`StateError` when no roll or draw is due."""
        position = self.position
        if position.phase == ROLL:
            assert position.due is not None
            return [
                (_ROLL_OF[d], prob)
                for d, prob in roll_outcomes(rules.dice_count(self.setup, position, position.due))
            ]
        if position.phase == DRAW:
            outcomes = events.draw_outcomes(position)
            total = sum(n for _, n in outcomes)
            return [(DRAWS[card], n / total) for card, n in outcomes]
        raise StateError(
            f"no chance step now: {self.phase} ({'game over' if position.over else self.due})"
        )

    def chance_move(self, rng: Rng) -> Move:
        """The outcome of the pending chance step drawn from ``rng`` (CY-13.2): a roll
        is ``rng.roll(k)`` ascending, a draw ``rng.choice(left)``, ``left`` listing the
        cards left in table order as often as they are left. Changes no state."""
        position = self.position
        if position.phase == ROLL:
            assert position.due is not None
            return _ROLL_OF[
                tuple(sorted(rng.roll(rules.dice_count(self.setup, position, position.due))))
            ]
        if position.phase == DRAW:
            left = [card for card, n in events.draw_outcomes(position) for _ in range(n)]
            return DRAWS[rng.choice(left)]
        raise StateError(
            f"no chance step now: {self.phase} ({'game over' if position.over else self.due})"
        )

    def parse_move(self, text: str) -> Move:
        """Parse CY-14.1 text (syntax only)."""
        return parse_move(text)

    def check(self, move: Move | str) -> Move:
        """``move`` (or its text) if legal now; :class:`NotationError` for text that does
        not parse, :class:`IllegalMoveError` saying why for a move not legal now."""
        if isinstance(move, str):
            move = parse_move(move)
        elif not isinstance(move, MOVE_TYPES):
            raise NotationError(f"a move must be text or a Cyclo move, not {move!r}")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if move in legal:
            return move
        raise IllegalMoveError(
            f"{str(move)!r} is not legal now: {why_illegal(self.setup, self.position, move)}"
        )

    def play(self, move: Move | str) -> None:
        """Apply a legal move (or its text) in place. :class:`NotationError` for text
        that does not parse, :class:`IllegalMoveError` for a move not legal now; either
        way the state is unchanged."""
        move = self.check(move)
        self._legal = None
        self.history.append(move)
        position = self.position
        position.round_moves += 1
        if isinstance(move, Roll):
            position.dice = position.last_roll = move.dice
            position.phase = RIDE
        elif isinstance(move, Ride):
            self._ride(move)
        elif isinstance(move, Draw):
            self._draw(move.card)
        elif isinstance(move, Swap):
            self._swap(move)
        elif isinstance(move, Answer):
            self._answer(move.accept)
        elif isinstance(move, Wheel):
            self._wheel(move.leader is not None)
        else:
            assert position.due is not None
            events.fall(position, position.due, move.picks)
            self._after_wheel()

    # ------------------------------------------------------------ the turn

    def _swap(self, move: Swap) -> None:
        position = self.position
        if move.partner is None:
            position.phase = ROLL
        elif move.partner[0] == move.rider[0]:  # a teammate swaps at once (CY-6.3)
            rules.swap(position, move.rider, move.partner)
            position.due, position.phase = move.partner, ROLL
        else:
            position.proposer, position.due, position.phase = move.rider, move.partner, ANSWER

    def _answer(self, accept: bool) -> None:
        position = self.position
        x, y = position.proposer, position.due
        assert x is not None and y is not None
        position.proposer = None
        if accept:  # CY-6.4: Y rides now (no window: it has swapped), X later in Y's slot
            rules.swap(position, x, y)
            position.due = y
        else:
            position.due = x
        position.phase = ROLL

    def _ride(self, move: Ride) -> None:
        position, setup = self.position, self.setup
        rider = move.rider
        start = position.pos[rider]
        rules.spend(position, rider, move.tokens)
        position.technical.discard(rider)  # a ride uses up technical and one hunger (CY-7.4)
        hunger = position.hunger.get(rider)
        if hunger:
            if hunger == 1:
                del position.hunger[rider]
            else:
                position.hunger[rider] = hunger - 1
        end = rules.move_rider(setup, position, rider, rules.target_of(setup, move))
        position.turn_over.add(rider)
        position.dice = ()
        position.draws = (
            [rider] if end != start and setup.events and setup.course.events[end] else []
        )
        position.ride_from, position.ride_to, position.leader = start, end, rider
        followers = (
            rules.wheel_riders(setup, position, rider, start, end) if len(move.tokens) < 2 else []
        )
        if followers:
            position.wheel_queue = followers
            position.due, position.phase = followers[0], WHEEL
        else:
            self._after_wheel()

    def _wheel(self, follow: bool) -> None:
        position, setup = self.position, self.setup
        rider = position.due
        assert rider is not None
        if not follow:
            position.wheel_queue.pop(0)
            if position.wheel_queue:
                position.due = position.wheel_queue[0]
                return
        else:  # CY-5.3: aim right behind the leader, turn over; nobody follows a follower
            start = position.pos[rider]
            end = rules.move_rider(setup, position, rider, position.ride_to - 1)
            position.turn_over.add(rider)
            position.wheel_queue = []
            if end != start and setup.events and setup.course.events[end]:
                position.draws.append(rider)
        self._after_wheel()

    def _after_wheel(self) -> None:
        """Draws in order (CY-7.3), then the next turn."""
        position = self.position
        if position.draws:
            position.due, position.phase = position.draws[0], DRAW
        else:
            self._next_turn()

    def _draw(self, card: str) -> None:
        position = self.position
        drawer = position.draws.pop(0)
        events.draw(position, card)
        if events.resolve(self.setup, position, drawer, card):
            position.due, position.phase = drawer, FALL
        else:
            self._after_wheel()

    def _next_turn(self) -> None:
        """CY-3.3, CY-3.4: the first rider in the order whose turn is not over, passing
        the slots of riders with the skip flag; the end of the round when none is left."""
        position, setup = self.position, self.setup
        position.leader, position.proposer, position.wheel_queue = None, None, []
        while True:
            order, i = position.order, position.slot
            while i < len(order) and order[i] in position.turn_over:
                i += 1
            position.slot = i
            if i == len(order):
                self._end_round()
                if position.over:
                    return
                continue
            rider = order[i]
            if rider in position.skip:
                position.skip.discard(rider)
                position.passed_skips.add(rider)
                position.turn_over.add(rider)
                continue
            break
        position.due = rider
        position.phase = SWAP if rules.swap_partners(setup, position, rider) else ROLL

    def _end_round(self) -> None:
        """CY-3.5: rank the crossings, list and time the finishers, take them off the
        run-out, check the end (CY-8.5, CY-3.6), then the next round."""
        position, setup = self.position, self.setup
        scoring.end_round(setup, position)
        if scoring.race_over(setup, position) or position.round >= MAX_ROUNDS:
            position.over = True
            position.phase, position.due = OVER, None
            return
        position.round += 1
        if position.pacer is not None:  # CY-11.4: it moves on, or leaves for good
            position.pacer = rules.pacer_after(setup, position.pacer)
        self._begin_round()

    def _begin_round(self) -> None:
        position = self.position
        position.order = rules.round_order(self.setup, position)
        position.slot = 0
        position.turn_over, position.swapped, position.passed_skips = set(), set(), set()
        position.round_moves = 0

    # ------------------------------------------------------------ queries

    def rider(self, rider: str) -> RiderInfo:
        """Rider ``rider`` as the table shows it (:class:`StateError` if not in the game)."""
        setup, position = self.setup, self.position
        if rider not in setup.world:
            raise StateError(
                f"there is no rider {rider!r} in this game (riders: {', '.join(setup.riders)})"
            )
        where = position.pos.get(rider)
        square = None
        if where is not None:
            lane = LANE_LETTERS[position.lane[rider]]
            square = f"{lane}#{where - setup.finish}" if where > setup.finish else f"{lane}{where}"
        return RiderInfo(
            rider,
            rider[0],
            rider_type(rider),
            where,
            square,
            position.own.get(rider, 0),
            rider in position.skip,
            rider in position.technical,
            position.hunger.get(rider, 0),
            rider in position.finished,
            rider in position.out,
        )

    @property
    def team_tokens(self) -> dict[str, int]:
        """Each team's tokens (CY-2.4)."""
        return {t: self.position.team.get(t, 0) for t in self.setup.teams}

    @property
    def cards_left(self) -> dict[str, int]:
        """The cards left in the deck by id (CY-7.6, CY-19.9)."""
        return events.cards_left(self.position)

    @property
    def racing(self) -> list[str]:
        """The riders still racing, in start-line order."""
        return self.position.racing(self.setup.riders)

    @property
    def at_round_start(self) -> bool:
        """Whether no move has been played yet in this round (a CYN describes it)."""
        return not self.position.over and self.position.round_moves == 0

    def to_cyn(self) -> str:
        """The position as CYN (CY-14.2), at the start of a round only (else
        :class:`StateError`)."""
        if self.position.over:
            raise StateError("the game is over: a CYN describes the start of a round")
        if self.position.round_moves:
            raise StateError(
                f"CYN describes the start of a round; {self.position.round_moves} move(s) of round "
                f"{self.round} have been played"
            )
        times = (
            {r: scoring.own_time(rnd, past) for r, rnd, past in self.position.finishers}
            if self.setup.mode.timed
            else None
        )
        return self.position.to_cyn(self.setup, times).to_text()

    def options(self) -> dict[str, Any]:
        """The JSON options of this game (CY-15.1)."""
        return self.setup.options()
