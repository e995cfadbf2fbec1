"""Greedy move scores for Mind Cycling bots (the greedy bot, MCTS's move order and playouts).

:func:`score_moves` gives every legal move of the rider (or, in setup, the team) to
act a score in *rows*: how far the move takes the rider now, plus how far it can
expect to ride next round from where it stops, plus bonuses for medals won by the
move, minus what a bottle thrown away or given is worth. There is no search: each
move is scored from the position alone, so a whole 6×6 game of greedy bots costs a
fraction of a second.

The heuristic, rule by rule:

* **progress** (MC-5): rows gained by the move; crossing the finish line is worth
  :attr:`Weights.finish`.
* **next round** (MC-4.2, MC-5.4/5.5, MC-6): the allowance the rider will have from
  its destination: its type's steps in that row's section, −1 against the wind (its
  shelter square is empty), −1 if it is a domestique left without a bottle. When a
  rider stands on its shelter square, the train may carry it further than its own
  legs: a relay lands one row ahead of the leader's move, open only to train places
  2 to ``relay_limit + 1`` (MC-6.5); a wheel right behind the leader, only when the
  leader did not relay (MC-6.4); so the expected gain over riding alone is added in
  part (:attr:`Weights.train_trust`). The leader's own move is estimated the same
  way, recursively, so that a place at the back of a long train counts. Riders
  ahead of the destination have all moved this round (MC-4.3), so shelter and links
  next round are known exactly.
* **medals** (MC-8.3): crossing the sprint or mountain line first, or the finish
  line first, is worth :attr:`Weights.medal` each (nothing in the solo version,
  where only rounds count, MC-9.4).
* **bottles** (MC-7): a domestique's bottle is worth :attr:`Weights.bottle_round` per
  round it would otherwise ride exhausted (until the next feed zone or the finish);
  a sprinter's (climber's) is worth :attr:`Weights.attack_bottle` while it can still
  attack in the sprint (mountain) later. So a rider attacks when the attack wins a
  medal, crosses the line, refills at a feed zone, or is its last chance in its
  section; a domestique gives its bottle to the sprinter (climber) behind it when
  that sprint (mountain) medal is still open, the teammate is within
  :attr:`Weights.give_range` rows of the line, and the gift
  (:attr:`Weights.give`) is worth more than the domestique's bottle and the
  exhaustion it then rides with; a domestique without a bottle rides through a feed
  zone when it can and aims to get one within reach for next round.
* **trains** (MC-4.4, MC-6.2): an attack closes the group, so it costs the teammate
  linked behind the rider (who could have followed) :attr:`Weights.follower`; a
  normal move that leaves the relay square free for such a teammate, when its train
  place lets it relay, gains a little; a relay costs a teammate behind that may not
  relay its wheel (:attr:`Weights.blocked_wheel`).
* **setup** (MC-3): a placement scores like a destination: far forward, sheltered,
  linked to a strong leader; domestiques go first to the front.

All weights sit in :class:`Weights` so that experiments can vary them; the defaults
were chosen by greedy-against-greedy matches on standard 2×6 (400 games a pair).
After the corrected wheel and relay (MC-6.4, MC-6.5) ``train_trust`` went from 0.6 to
0.4: 675 trophies of 1,200 against 0.6 (400 games in each wind, seats swapped); with
the train places counted, these heuristics hold the trophy in 711 of 1,200 games
against the ones written for the old rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import native
from .notation import ATTACK, FINISH, GIVE, MOVE, PLACE, RELAY, STAY, WHEEL, Move
from .riders import CLIMBER, DOMESTIQUE, SPRINTER, STEPS

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "DEFAULT_WEIGHTS",
    "ROWS_PER_ROUND",
    "Weights",
    "best_moves",
    "python_score_moves",
    "score_moves",
]

# Rows a rider covers in a typical round, to turn distances into rounds.
ROWS_PER_ROUND = 6.0
# Leaders further up a train than this are estimated without their own train.
_TRAIN_DEPTH = 3


@dataclass(frozen=True)
class Weights:
    """The weights of :func:`score_moves`, in rows."""

    #: Weight of next round's expected rows against rows gained now.
    next_round: float = 0.9
    #: Share of a train's extra rows (relay or wheel over riding alone) counted.
    train_trust: float = 0.4
    #: Crossing the finish line.
    finish: float = 100.0
    #: Each medal the move wins (sprint line, mountain line, first across).
    medal: float = 40.0
    #: A domestique's bottle: rows per round of exhaustion it saves.
    bottle_round: float = 1.0
    #: A sprinter's or climber's bottle while it may still attack in its section.
    attack_bottle: float = 3.5
    #: A bottle given to the sprinter (climber) behind while its medal is open.
    give: float = 9.0
    #: ... when the teammate is at most this many rows before its section's line.
    give_range: int = 14
    #: ... the same for a climber before the mountain line.
    give_range_climber: int = 14
    #: A domestique without a bottle that can reach a feed square next round.
    feed_next: float = 2.0
    #: An attack closing the group on a teammate who could follow.
    follower: float = 2.0
    #: Leaving the relay square free for a linked teammate that may relay.
    relay_room: float = 0.5
    #: A relay that takes the wheel from a linked teammate that may not relay (MC-6.4).
    blocked_wheel: float = 1.0
    #: Placement order in setup: domestiques first, then climbers, then sprinters.
    setup_type: tuple[tuple[str, float], ...] = ((DOMESTIQUE, 0.3), (CLIMBER, 0.1), (SPRINTER, 0.0))


DEFAULT_WEIGHTS = Weights()


class _Scorer:
    """The per-position context of one :func:`score_moves` call."""

    __slots__ = (
        "blocked",
        "bottles",
        "course",
        "feed_rows",
        "finish",
        "finished",
        "follower_relays",
        "lanes",
        "lines",
        "lines_ahead",
        "medals",
        "memo",
        "relay_limit",
        "relay_memo",
        "rider_at",
        "section",
        "shelter",
        "solo",
        "square_of",
        "state",
        "w",
    )

    def __init__(self, state: State, w: Weights) -> None:
        course = state.course
        self.state = state
        self.w = w
        self.course = course
        race = state.race
        self.solo = race.solo
        self.blocked = race.blocked
        self.square_of = race.square_of
        self.rider_at = race.rider_at
        self.bottles = race.bottles
        self.shelter = race.shelter
        self.finish = course.finish
        self.lanes = course.lanes
        self.section = course.section_by_row
        self.medals = race.medals
        self.finished = race.finished
        self.relay_limit = race.relay_limit
        # Section lines still to be won: (last row of the section, medal key).
        self.lines = [
            (last, medal) for medal, last in course.medal_lines if medal not in self.medals
        ]
        self.feed_rows = course.feed_rows
        # leader_move's estimates, without and with the leader's own relay (two dicts
        # keyed by rider: no key tuple built per look-up).
        self.memo: dict[str, float] = {}
        self.relay_memo: dict[str, float] = {}
        self.follower_relays = False
        self.lines_ahead: list[int] = []

    # ------------------------------------------------------------ estimates

    def shelter_of(self, sq: int) -> str | None:
        """The rider on ``sq``'s shelter square (MC-5.5), if any. A shelter square off
        the road has the code of lane 31 or ``lanes``, where no rider stands, so it
        needs no bounds check (as in :func:`.rules.assess`)."""
        return self.rider_at.get(sq + 32 + self.shelter)

    def relay_place(self, sq: int) -> bool:
        """Whether a rider on ``sq`` would have a train place (MC-6.1) that may relay
        (2 to ``relay_limit + 1``, MC-6.5) if the round started now, its place being 1 +
        the riders up its chain of shelter squares, counted up to 8 (a train of 42 riders
        is not worth counting). The chain is walked only as far as the limit needs."""
        ahead = self.relay_limit  # riders allowed up the chain
        if ahead >= 7:
            return True  # a place counted up to 8 is always within the limit
        at, shelter, square_of = self.rider_at, self.shelter, self.square_of
        x = at.get(sq + 32 + shelter)
        while x is not None:
            if not ahead:
                return False
            ahead -= 1
            x = at.get(square_of[x] + 32 + shelter)
        return True

    def next_round(
        self, rid: str, sq: int, bottle: bool, depth: int = 0, relay: bool = True
    ) -> float:
        """Rows ``rid`` standing on ``sq`` may expect to ride next round (``relay``:
        counting its own relay; a follower's wheel needs a leader that did not relay,
        MC-6.4)."""
        row = sq >> 5
        section = self.section[row]
        kind = rid[1]
        alone = STEPS[kind][section]
        tired = kind == DOMESTIQUE and not bottle
        if tired:
            alone -= 1
        leader = self.rider_at.get(sq + 32 + self.shelter)  # shelter_of, inlined: hot
        if leader is None or leader == rid:
            return alone - 1.0
        if tired or (kind == SPRINTER and section == "mountain") or depth >= _TRAIN_DEPTH:
            return float(alone)
        # A wheel lands one row behind the leader's end (as far as the leader rides),
        # a relay one row ahead of its group's head, open to train places 2 to
        # relay_limit + 1 (MC-6.5).
        carried = self.leader_move(leader, depth + 1, False)
        if relay and self.relay_place(sq):
            relayed = self.leader_move(leader, depth + 1, True) + 2
            if relayed > carried:  # max() without the builtin call: this is hot
                carried = relayed
        gain = carried - alone
        return alone + self.w.train_trust * gain if gain > 0 else float(alone)

    def leader_move(self, rid: str, depth: int, relay: bool) -> float:
        """Rows the rider ``rid`` (already placed for next round) may ride next round."""
        memo = self.relay_memo if relay else self.memo
        got = memo.get(rid)
        if got is None:
            got = self.next_round(rid, self.square_of[rid], rid in self.bottles, depth, relay)
            memo[rid] = got
        return got

    def bottle_value(self, rid: str, row: int) -> float:
        """What holding a bottle at ``row`` is worth to ``rid`` (MC-7.2, MC-7.4)."""
        kind = rid[1]
        if kind == DOMESTIQUE:
            horizon = self.finish - row
            for feed in self.feed_rows:
                if feed > row:
                    horizon = feed - row
                    break
            return self.w.bottle_round * max(0.0, horizon / ROWS_PER_ROUND)
        own = "sprint" if kind == SPRINTER else "mountain"
        last = self.course.last_row_of(own)
        if last is not None and row <= last:
            return self.w.attack_bottle
        return 0.0

    def feed_within(self, sq: int, reach: int) -> bool:
        """Whether a feed square lies within ``reach`` forward steps of ``sq``."""
        row, lane = sq >> 5, sq & 31
        before = self.course.feed_before
        if before[min(row + reach + 1, len(before) - 1)] == before[row + 1]:
            return False  # no feed square on the rows ahead in reach: the common case
        for name in self.course.feed:
            f = self.course.codes[name]
            ahead = (f >> 5) - row
            if 0 < ahead <= reach and abs((f & 31) - lane) <= ahead:
                return True
        return False

    def feed_on_path(self, start: int, end: int) -> bool:
        """MC-7.5: whether some path from ``start`` to ``end`` enters a feed square."""
        course = self.course
        first, last = (start >> 5) + 1, end >> 5
        if course.feed_before[last + 1] == course.feed_before[first]:
            return False  # no feed square on the rows crossed: the common case
        feed = course.feed_mask
        full = (1 << self.lanes) - 1
        blocked = self.blocked  # riders and rocks
        reach, fed = 1 << (start & 31), 0
        for r in range(first, last + 1):
            reach = (reach | reach << 1 | reach >> 1) & full & ~blocked[r]
            fed = ((fed | fed << 1 | fed >> 1) & reach) | (reach & feed[r])
        return bool(fed >> (end & 31) & 1)

    def medal_bonus(self, before: int, after: int, crosses: bool) -> float:
        """Medals a move from row ``before`` to row ``after`` wins (MC-8.3); none in the
        solo version, where only rounds count (MC-9.4)."""
        if self.solo:
            return 0.0
        bonus = 0.0
        for last, _ in self.lines:
            if before <= last < after:
                bonus += self.w.medal
        if crosses and not self.finished:
            bonus += self.w.medal
        return bonus

    # ------------------------------------------------------------ moves

    def destination(self, rid: str, sq: int, bottle: bool) -> float:
        """Score of ``rid`` standing on ``sq`` with or without a bottle: position value."""
        w = self.w
        score = (sq >> 5) + w.next_round * self.next_round(rid, sq, bottle)
        if bottle:
            score += self.bottle_value(rid, sq >> 5)
        elif rid[1] == DOMESTIQUE and self.feed_within(sq, STEPS[DOMESTIQUE]["plain"] - 2):
            score += w.feed_next
        return score

    def race(self, moves: Sequence[Move]) -> list[float]:
        rid = moves[0][1]
        start = self.square_of[rid]
        follower = self.follower(rid, start)
        self.follower_relays = follower is not None and self.may_relay(follower)
        holds = rid in self.bottles
        # The lines still to win at or beyond the mover's row: a move that reaches past
        # one wins its medal (none in the solo version, MC-9.4).
        srow = start >> 5
        self.lines_ahead = [] if self.solo else [last for last, _ in self.lines if srow <= last]
        scores = [self.race_move(m, start, holds, follower) for m in moves]
        if holds:  # a gift is legal only to a rider holding a bottle (MC-7.1)
            for i, move in enumerate(moves):
                if move[0] == GIVE:
                    scores[i] = self.give(move, moves, start, follower)
        return scores

    def race_move(self, move: Move, start: int, holds: bool, follower: str | None) -> float:
        """Score of one race move of the rider on ``start`` (``holds``: its bottle)."""
        w = self.w
        kind, rid, dest, _ = move
        srow = start >> 5
        if kind in (GIVE, STAY):
            return 0.0
        if dest == FINISH:
            score = (
                w.finish + self.medal_bonus(srow, self.finish, True) + (self.finish - srow) * 0.01
            )
            # Same place either way; keep the bottle-free, group-friendly move.
            return score - 0.001 if kind == ATTACK else score
        assert dest is not None
        sq = self.course.codes[dest]
        bottle = holds and kind != ATTACK
        if not bottle and rid[1] == DOMESTIQUE and kind in (MOVE, ATTACK):
            before = self.course.feed_before  # feed_on_path's own first test, inlined
            if before[(sq >> 5) + 1] != before[srow + 1] and self.feed_on_path(start, sq):
                bottle = True  # MC-7.5
        # medal_bonus(srow, sq >> 5, False), inlined: this runs for every move scored.
        bonus = 0.0
        row = sq >> 5
        for last in self.lines_ahead:
            if last < row:
                bonus += w.medal
        score = self.destination(rid, sq, bottle) + bonus
        if follower is not None:
            if kind == ATTACK:
                score -= w.follower
            elif kind == RELAY and not self.follower_relays:
                # MC-6.4: the square behind a relaying rider holds the old head, so a
                # follower that may not relay itself loses its train.
                score -= w.blocked_wheel
            elif self.follower_relays and self.shelter_of(sq) is None:
                score += w.relay_room
        return score

    def follower(self, rid: str, start: int) -> str | None:
        """The teammate linked behind ``rid`` who may wheel or relay after it (MC-4.4).

        Read from the round's tables (what :meth:`State.assessment` reports), without
        building an assessment: this runs for every position scored."""
        y = self.rider_at.get(start - 32 - self.shelter)
        if y is None or y[0] != rid[0]:
            return None
        race = self.state.race
        tables = race.tables
        if y in race.done or race.round == 0 or y not in tables.allowance:
            return None  # it has moved, or it was not assessed
        if tables.leader.get(y) != rid or y in tables.exhausted:
            return None
        if y[1] == SPRINTER and tables.section[y] == "mountain":
            return None
        return y

    def may_relay(self, y: str) -> bool:
        """Whether ``y``'s train place lets it relay this round (MC-6.5)."""
        place = self.state.race.tables.train_place.get(y)
        return place is not None and place <= self.relay_limit + 1

    def give(self, move: Move, moves: Sequence[Move], start: int, follower: str | None) -> float:
        """A gift (MC-7.1) scores as the best move left to the giver once it holds no
        bottle, plus what the bottle is worth to the teammate behind."""
        mate = move[3]
        assert mate is not None
        after = max(
            (
                self.race_move(m, start, False, follower)
                for m in moves
                if m[0] in (MOVE, WHEEL, RELAY, STAY)
            ),
            default=0.0,
        )
        medal = {SPRINTER: "sprinter", CLIMBER: "climber"}.get(mate[1])
        if medal is None or medal not in {m for _, m in self.lines}:
            return after - 1.0  # the line is already won (or the course has none)
        last = self.course.last_row_of("sprint" if mate[1] == SPRINTER else "mountain")
        to_go = None if last is None else last + 1 - (self.square_of[mate] >> 5)
        reach = self.w.give_range if mate[1] == SPRINTER else self.w.give_range_climber
        if to_go is None or not 0 < to_go <= reach:
            return after - 1.0  # already past the line, or too far off to use it soon
        return after + self.w.give

    def setup(self, moves: Sequence[Move]) -> list[float]:
        codes = self.course.codes
        order = dict(self.w.setup_type)
        scores = []
        for move in moves:
            rid, dest = move[1], move[2]
            assert dest is not None
            sq = codes[dest]
            score = self.destination(rid, sq, rid in self.bottles) + order.get(rid[1], 0.0)
            scores.append(score)
        return scores


def score_moves(
    state: State, moves: Sequence[Move], weights: Weights = DEFAULT_WEIGHTS
) -> list[float]:
    """A score (in rows, higher is better) for each of ``moves``, legal in ``state``.

    All moves must belong to the player to act now (as :meth:`State.legal_moves`
    returns them); the state is only read.
    """
    if not moves:
        return []
    twin = state.native_twin()
    if twin is None and native.available():
        race = state.race
        game = native.game_for(race)
        twin = (game, game.load(race, game.scratch))
    if twin is not None:  # the same scores, computed by the native core
        game, r = twin
        code = game.code
        scores: list[float] = game.score_codes(r, [code(m) for m in moves], weights)
        return scores
    return python_score_moves(state, moves, weights)


def python_score_moves(
    state: State, moves: Sequence[Move], weights: Weights = DEFAULT_WEIGHTS
) -> list[float]:
    """:func:`score_moves` in Python, whichever engine is active (the reference the
    native core is tested against)."""
    if not moves:
        return []
    scorer = _Scorer(state, weights)
    if moves[0][0] == PLACE:
        return scorer.setup(moves)
    return scorer.race(moves)


def best_moves(
    state: State, weights: Weights = DEFAULT_WEIGHTS, *, tolerance: float = 1e-9
) -> list[Move]:
    """The legal moves of ``state`` whose score is within ``tolerance`` of the best."""
    moves = state.legal_moves()
    if len(moves) <= 1:
        return moves
    scores = score_moves(state, moves, weights)
    top = max(scores)
    return [m for m, s in zip(moves, scores, strict=True) if s >= top - tolerance]
