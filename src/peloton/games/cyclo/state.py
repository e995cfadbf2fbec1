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

    __slots__ = ("_legal", "history", "p", "seed", "setup", "start")

    def __init__(
        self, setup: Setup, position: Position, *, seed: int | None = None, start: str | None = None
    ) -> None:
        """The game from ``position`` at the start of its round (``new_game`` and
        ``from_cyn`` build one); the first step is then found (skip slots passed).
        ``start`` is the CYN it began from (``None``: the start line), for its record."""
        self.setup = setup
        self.p = position
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
        new.p = self.p.copy()
        new.history = list(self.history)
        new._legal = self._legal
        return new

    def view(self, player: str | None = None) -> State:
        """What ``player`` sees: everything (CY-13.3), as an independent copy."""
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.setup == other.setup and self.p.key() == other.p.key()

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
        return self.p.round

    @property
    def phase(self) -> str:
        """``swap``, ``answer``, ``roll``, ``ride``, ``wheel``, ``draw``, ``fall`` or ``over``."""
        return self.p.phase

    @property
    def due(self) -> str | None:
        """The rider the pending step is about: the rider whose turn it is, the
        proposed partner answering, the rider asked about a wheel, the drawer."""
        return None if self.p.over else self.p.due

    @property
    def current_player(self) -> str | None:
        """The team to act, :data:`CHANCE` at a roll or draw, ``None`` once over."""
        phase = self.p.phase
        if phase == OVER:
            return None
        if phase in (ROLL, DRAW):
            return CHANCE
        due = self.p.due
        assert due is not None
        return due[0]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (CY-8.5, CY-3.6)."""
        return self.p.over

    @property
    def is_chance(self) -> bool:
        """Whether a roll or a card draw is due (CY-13.1)."""
        return self.p.phase == ROLL or self.p.phase == DRAW

    @property
    def result(self) -> Result:
        """The standing (CY-8.6), final once the game is over."""
        return scoring.result(self.setup, self.p)

    def legal_moves(self) -> list[Move]:
        """The moves of whoever acts now (a fresh list): at a chance step every outcome."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[Move]:
        p, setup = self.p, self.setup
        phase, due = p.phase, p.due
        if phase == OVER:
            return []
        assert due is not None
        if phase == ROLL:
            return list(ROLLS[rules.dice_count(setup, p, due)])
        if phase == RIDE:
            return list(rules.ride_moves(setup, p, due))
        if phase == DRAW:
            return [DRAWS[card] for card, _ in events.draw_outcomes(p)]
        if phase == SWAP:
            return [Swap(due, None), *(Swap(due, y) for y in rules.swap_partners(setup, p, due))]
        if phase == ANSWER:
            return [Answer(due, True), Answer(due, False)]
        if phase == WHEEL:
            return [Wheel(due, p.leader), Wheel(due, None)]
        return list(events.fall_moves(setup, p, due))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """Every outcome of the pending chance step with its probability (they sum to
        1); :class:`StateError` when no roll or draw is due."""
        p = self.p
        if p.phase == ROLL:
            assert p.due is not None
            return [
                (_ROLL_OF[d], prob)
                for d, prob in roll_outcomes(rules.dice_count(self.setup, p, p.due))
            ]
        if p.phase == DRAW:
            outcomes = events.draw_outcomes(p)
            total = sum(n for _, n in outcomes)
            return [(DRAWS[card], n / total) for card, n in outcomes]
        raise StateError(
            f"no chance step now: {self.phase} ({'game over' if p.over else self.due})"
        )

    def chance_move(self, rng: Rng) -> Move:
        """The outcome of the pending chance step drawn from ``rng`` (CY-13.2): a roll
        is ``rng.roll(k)`` ascending, a draw ``rng.choice(left)``, ``left`` listing the
        cards left in table order as often as they are left. Changes no state."""
        p = self.p
        if p.phase == ROLL:
            assert p.due is not None
            return _ROLL_OF[tuple(sorted(rng.roll(rules.dice_count(self.setup, p, p.due))))]
        if p.phase == DRAW:
            left = [card for card, n in events.draw_outcomes(p) for _ in range(n)]
            return DRAWS[rng.choice(left)]
        raise StateError(
            f"no chance step now: {self.phase} ({'game over' if p.over else self.due})"
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
            f"{str(move)!r} is not legal now: {why_illegal(self.setup, self.p, move)}"
        )

    def play(self, move: Move | str) -> None:
        """Apply a legal move (or its text) in place. :class:`NotationError` for text
        that does not parse, :class:`IllegalMoveError` for a move not legal now; either
        way the state is unchanged."""
        move = self.check(move)
        self._legal = None
        self.history.append(move)
        p = self.p
        p.round_moves += 1
        if isinstance(move, Roll):
            p.dice = p.last_roll = move.dice
            p.phase = RIDE
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
            assert p.due is not None
            events.fall(p, p.due, move.picks)
            self._after_wheel()

    # ------------------------------------------------------------ the turn

    def _swap(self, move: Swap) -> None:
        p = self.p
        if move.partner is None:
            p.phase = ROLL
        elif move.partner[0] == move.rider[0]:  # a teammate swaps at once (CY-6.3)
            rules.swap(p, move.rider, move.partner)
            p.due, p.phase = move.partner, ROLL
        else:
            p.proposer, p.due, p.phase = move.rider, move.partner, ANSWER

    def _answer(self, accept: bool) -> None:
        p = self.p
        x, y = p.proposer, p.due
        assert x is not None and y is not None
        p.proposer = None
        if accept:  # CY-6.4: Y rides now (no window: it has swapped), X later in Y's slot
            rules.swap(p, x, y)
            p.due = y
        else:
            p.due = x
        p.phase = ROLL

    def _ride(self, move: Ride) -> None:
        p, setup = self.p, self.setup
        rider = move.rider
        start = p.pos[rider]
        rules.spend(p, rider, move.tokens)
        p.technical.discard(rider)  # a ride uses up technical and one hunger (CY-7.4)
        hunger = p.hunger.get(rider)
        if hunger:
            if hunger == 1:
                del p.hunger[rider]
            else:
                p.hunger[rider] = hunger - 1
        end = rules.move_rider(setup, p, rider, rules.target_of(setup, move))
        p.turn_over.add(rider)
        p.dice = ()
        p.draws = [rider] if end != start and setup.events and setup.course.events[end] else []
        p.ride_from, p.ride_to, p.leader = start, end, rider
        followers = rules.wheel_riders(setup, p, rider, start, end) if len(move.tokens) < 2 else []
        if followers:
            p.wheel_queue = followers
            p.due, p.phase = followers[0], WHEEL
        else:
            self._after_wheel()

    def _wheel(self, follow: bool) -> None:
        p, setup = self.p, self.setup
        rider = p.due
        assert rider is not None
        if not follow:
            p.wheel_queue.pop(0)
            if p.wheel_queue:
                p.due = p.wheel_queue[0]
                return
        else:  # CY-5.3: aim right behind the leader, turn over; nobody follows a follower
            start = p.pos[rider]
            end = rules.move_rider(setup, p, rider, p.ride_to - 1)
            p.turn_over.add(rider)
            p.wheel_queue = []
            if end != start and setup.events and setup.course.events[end]:
                p.draws.append(rider)
        self._after_wheel()

    def _after_wheel(self) -> None:
        """Draws in order (CY-7.3), then the next turn."""
        p = self.p
        if p.draws:
            p.due, p.phase = p.draws[0], DRAW
        else:
            self._next_turn()

    def _draw(self, card: str) -> None:
        p = self.p
        drawer = p.draws.pop(0)
        events.draw(p, card)
        if events.resolve(self.setup, p, drawer, card):
            p.due, p.phase = drawer, FALL
        else:
            self._after_wheel()

    def _next_turn(self) -> None:
        """CY-3.3, CY-3.4: the first rider in the order whose turn is not over, passing
        the slots of riders with the skip flag; the end of the round when none is left."""
        p, setup = self.p, self.setup
        p.leader, p.proposer, p.wheel_queue = None, None, []
        while True:
            order, i = p.order, p.slot
            while i < len(order) and order[i] in p.turn_over:
                i += 1
            p.slot = i
            if i == len(order):
                self._end_round()
                if p.over:
                    return
                continue
            rider = order[i]
            if rider in p.skip:
                p.skip.discard(rider)
                p.passed_skips.add(rider)
                p.turn_over.add(rider)
                continue
            break
        p.due = rider
        p.phase = SWAP if rules.swap_partners(setup, p, rider) else ROLL

    def _end_round(self) -> None:
        """CY-3.5: rank the crossings, list and time the finishers, take them off the
        run-out, check the end (CY-8.5, CY-3.6), then the next round."""
        p, setup = self.p, self.setup
        scoring.end_round(setup, p)
        if scoring.race_over(setup, p) or p.round >= MAX_ROUNDS:
            p.over = True
            p.phase, p.due = OVER, None
            return
        p.round += 1
        if p.pacer is not None:  # CY-11.4: it moves on, or leaves for good
            p.pacer = rules.pacer_after(setup, p.pacer)
        self._begin_round()

    def _begin_round(self) -> None:
        p = self.p
        p.order = rules.round_order(self.setup, p)
        p.slot = 0
        p.turn_over, p.swapped, p.passed_skips = set(), set(), set()
        p.round_moves = 0

    # ------------------------------------------------------------ queries

    def rider(self, rider: str) -> RiderInfo:
        """Rider ``rider`` as the table shows it (:class:`StateError` if not in the game)."""
        setup, p = self.setup, self.p
        if rider not in setup.world:
            raise StateError(
                f"there is no rider {rider!r} in this game (riders: {', '.join(setup.riders)})"
            )
        where = p.pos.get(rider)
        square = None
        if where is not None:
            lane = LANE_LETTERS[p.lane[rider]]
            square = f"{lane}#{where - setup.finish}" if where > setup.finish else f"{lane}{where}"
        return RiderInfo(
            rider,
            rider[0],
            rider_type(rider),
            where,
            square,
            p.own.get(rider, 0),
            rider in p.skip,
            rider in p.technical,
            p.hunger.get(rider, 0),
            rider in p.finished,
            rider in p.out,
        )

    @property
    def team_tokens(self) -> dict[str, int]:
        """Each team's tokens (CY-2.4)."""
        return {t: self.p.team.get(t, 0) for t in self.setup.teams}

    @property
    def cards_left(self) -> dict[str, int]:
        """The cards left in the deck by id (CY-7.6, CY-19.9)."""
        return events.cards_left(self.p)

    @property
    def racing(self) -> list[str]:
        """The riders still racing, in start-line order."""
        return self.p.racing(self.setup.riders)

    @property
    def at_round_start(self) -> bool:
        """Whether no move has been played yet in this round (a CYN describes it)."""
        return not self.p.over and self.p.round_moves == 0

    def to_cyn(self) -> str:
        """The position as CYN (CY-14.2), at the start of a round only (else
        :class:`StateError`)."""
        if self.p.over:
            raise StateError("the game is over: a CYN describes the start of a round")
        if self.p.round_moves:
            raise StateError(
                f"CYN describes the start of a round; {self.p.round_moves} move(s) of round "
                f"{self.round} have been played"
            )
        times = (
            {r: scoring.own_time(rnd, past) for r, rnd, past in self.p.finishers}
            if self.setup.mode.timed
            else None
        )
        return self.p.to_cyn(self.setup, times).to_text()

    def options(self) -> dict[str, Any]:
        """The JSON options of this game (CY-15.1)."""
        return self.setup.options()
