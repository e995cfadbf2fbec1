"""The bridge between a :class:`~.position.Race` and the native Mind Cycling core
(``peloton/native/mc.h``): course tables, loading a race, moves as ints, playouts.

The C core plays exactly the rules of :mod:`.rules` and :mod:`.state` (and the greedy
scores of :mod:`.move_scores`); ``tests/native`` keeps them in lockstep. A move is one
int (``kind | rider << 3 | target << 9 | square << 15``, the rider and the target as
indices in the game's sorted ids); :meth:`NativeGame.move` turns it into the very
:class:`~.notation.Move` the Python engine would give, interned per game.

Everything here needs the native engine: call :func:`game_for` only when
:func:`peloton.native.lib` is not ``None`` (:func:`available` says so).
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Sequence
from typing import Any

from ... import native
from ...core.rng import Rng
from .course import Course
from .notation import ATTACK, FINISH, GIVE, MOVE, PLACE, RELAY, STAY, WHEEL, Move
from .position import CLOSED, HEAD, NO_ROUND, SIZE, Race, RoundTables
from .riders import DOMESTIQUE, SPRINTER
from .scoring import Result, team_points

__all__ = ["GameKey", "NativeGame", "available", "forget_games", "game_for", "game_key"]

KINDS = (PLACE, MOVE, ATTACK, WHEEL, RELAY, GIVE, STAY)
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}
_FINISH_SQ = 0x1FFF
_SECTION_CODE = {"start": 0, "plain": 1, "sprint": 2, "mountain": 3}
_SECTION_NAME = ("start", "plain", "sprint", "mountain")
_TYPE_CODE = {DOMESTIQUE: 0, SPRINTER: 1, "C": 2}
_MEDALS = ("cyclist", "sprinter", "climber", "team")
_MEDAL_CODE = {m: i for i, m in enumerate(_MEDALS)}
_new = tuple.__new__
#: Roads of at most this many squares have every move of a rider built at once.
_BULK_SQUARES = 2_000
#: Moves a recorded greedy playout hands back per C call.
_RECORD_CHUNK = 4096


def available() -> bool:
    """Whether the native engine is active in this process."""
    return native.lib() is not None


def _bits(indices: Any) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _fill_course(ffi: Any, course: Course) -> Any:
    """The ``mc_course`` tables of ``course`` (MC-1)."""
    c = ffi.new("mc_course *")
    c.lanes, c.finish, c.start_rows = course.lanes, course.finish, course.start_rows
    for row, kind in enumerate(course.section_by_row):
        c.section[row] = _SECTION_CODE[kind]
    for row, mask in enumerate(course.rock_mask):
        c.rock[row] = mask
    for row, mask in enumerate(course.feed_mask):
        c.feed[row] = mask
    for i, n in enumerate(course.feed_before):
        c.feed_before[i] = n
    c.n_lines = len(course.medal_lines)
    for i, (medal, last) in enumerate(course.medal_lines):
        c.line_medal[i] = _MEDAL_CODE[medal]
        c.line_last[i] = last
    sprint, mountain = course.last_row_of("sprint"), course.last_row_of("mountain")
    c.last_sprint = -1 if sprint is None else sprint
    c.last_mountain = -1 if mountain is None else mountain
    c.n_feed_rows = len(course.feed_rows)
    for i, row in enumerate(course.feed_rows):
        c.feed_rows[i] = row
    c.n_feed = len(course.feed)
    for i, name in enumerate(course.feed):
        c.feed_sq[i] = course.codes[name]
    return c


class _Work:
    """One thread's memory for a game's C calls: move and score buffers, the
    generators a playout draws from, the weights and a race to load positions into."""

    __slots__ = (
        "buf",
        "buf2",
        "lister",
        "rng",
        "rng_of_team",
        "scores",
        "scratch",
        "weights",
        "weights_of",
    )

    def __init__(self, game: NativeGame) -> None:
        ffi = game.ffi
        self.buf = ffi.new("int32_t[]", game.cap)
        # Builds the public API's lists of Moves in C (moves.c), when it is compiled.
        self.lister = game.lister(self.buf)
        self.buf2 = ffi.new("int32_t[]", game.cap)
        self.scores = ffi.new("double[]", game.cap)
        self.rng = ffi.new("mc_rng[]", len(game.teams))
        self.rng_of_team = ffi.new("int8_t[]", 8)
        self.weights = ffi.new("mc_weights *")
        self.weights_of: object = None
        self.scratch = ffi.new("mc_race *")


class NativeGame:
    """The C tables of one game's facts: its course, teams, wind, relay limit and
    whether it is solo; shared by every position of the game (see :func:`game_for`)."""

    def __init__(self, race: Race) -> None:
        got = native.lib()
        assert got is not None, "the native engine is not active"
        self.ffi, self.lib = ffi, lib = got
        course = race.course
        self.course = course
        self.ids = race.ids
        self.teams = tuple(race.teams)
        self.index = {rid: i for i, rid in enumerate(race.ids)}
        self.c = _fill_course(ffi, course)
        t = self.template = ffi.new("mc_race *")
        lib.mc_init_race(t)
        t.n_riders, t.n_teams = len(race.ids), len(self.teams)
        t.shelter, t.relay_limit, t.solo = race.shelter, race.relay_limit, race.solo
        team_of = {team: i for i, team in enumerate(self.teams)}
        for i, rid in enumerate(race.ids):
            t.team[i] = team_of[rid[0]]
            t.type[i] = _TYPE_CODE[rid[1]]
        size = len(race.ids) // len(self.teams)
        t.team_size = size
        for team, comp in race.teams.items():
            order = [rid for rid in sorted(race.ids, key=_placement_key) if rid[0] == team]
            assert len(order) == len(comp) == size
            for k, rid in enumerate(order):
                t.team_riders[team_of[team]][k] = self.index[rid]
        for row, mask in enumerate(course.rock_mask[: course.finish + 2]):
            t.blocked[row] = mask
        self.size = ffi.sizeof("mc_race")
        self._tables_at = ffi.offsetof("mc_race", "order")
        self._tables_len = ffi.offsetof("mc_race", "done") - self._tables_at
        self._tables: dict[int, tuple[object, bytes]] = {}
        # Room for every legal move: a placement per unplaced rider and start square.
        self.cap = size * course.start_rows * course.lanes + 512
        # The C calls' buffers, one set per thread: cffi lets go of the GIL during a
        # call, so two threads playing games of the same facts (a server's jobs, a
        # state handed to a worker thread) must not write into the same memory.
        self._local = threading.local()
        self._moves: dict[int, Move] = {}
        self._codes: dict[Move, int] = {}
        # The Moves by dense index (see mc_legal_index), filled a rider at a time.
        self.slots = max(course.finish * course.lanes + 1, 64)
        self._bulk = course.finish * course.lanes <= _BULK_SQUARES
        self._table: list[Any] = [None] * (len(race.ids) * 8 * self.slots)  # Move or None
        self._filled = bytearray(len(race.ids))
        self._unfilled = len(race.ids)  # riders whose moves are not all built yet
        self.team_members = [
            [self.index[rid] for rid in race.ids if rid[0] == team] for team in self.teams
        ]

    @property
    def work(self) -> _Work:
        """This thread's buffers for the C calls (made on first use in a thread)."""
        try:
            return self._local.work  # type: ignore[no-any-return]
        except AttributeError:
            work = self._local.work = _Work(self)
            return work

    @property
    def scratch(self) -> Any:
        """A race to load positions into for playouts and scores, this thread's own
        (no allocation per playout)."""
        return self.work.scratch

    # ------------------------------------------------------------ races

    def new_race(self) -> Any:
        """A fresh ``mc_race`` holding this game's facts and an empty road."""
        r = self.ffi.new("mc_race *")
        self.ffi.memmove(r, self.template, self.size)
        return r

    def load(self, race: Race, r: Any | None = None) -> Any:
        """Copy ``race`` into the C race ``r`` (a new one by default); ``r``."""
        ffi = self.ffi
        if r is None:
            r = ffi.new("mc_race *")
        ffi.memmove(r, self.template, self.size)
        index = self.index
        put = self.lib.mc_put
        for rid, sq in race.square_of.items():
            put(r, index[rid], sq)
        r.bottles = _bits(index[rid] for rid in race.bottles)
        r.unplaced = _bits(index[rid] for ids in race.unplaced.values() for rid in ids)
        r.n_finished = len(race.finished)
        for i, rid in enumerate(race.finished):
            r.finished[i] = index[rid]
        r.n_medals = len(race.medals)
        for i, (medal, holder) in enumerate(race.medals.items()):
            code = _MEDAL_CODE[medal]
            r.medal_order[i] = code
            r.medal[code] = self.teams.index(holder) if medal == "team" else index[holder]
        r.round, r.gave, r.over = race.round, race.gave, race.over
        r.current = -1 if race.current is None else index[race.current]
        r.next_in_order = race.next_in_order
        if race.round:
            self._load_tables(race, r)
            r.done = _bits(index[rid] for rid in race.done)
            r.n_groups = len(race.groups)
            for gi, group in enumerate(race.groups):
                r.g_head[gi], r.g_size[gi], r.g_closed[gi] = group[HEAD], group[SIZE], group[CLOSED]
            for rid, gi in race.group_of.items():
                r.group_of[index[rid]] = gi
        return r

    def _load_tables(self, race: Race, r: Any) -> None:
        """The round's tables, converted once per round (they never change in it)."""
        tables = race.tables
        ffi = self.ffi
        got = self._tables.get(id(tables))
        if got is None or got[0] is not tables:
            index = self.index
            for i, rid in enumerate(tables.order):
                r.order[i] = index[rid]
            r.n_order = len(tables.order)
            for rid, sect in tables.section.items():
                r.section[index[rid]] = _SECTION_CODE[sect]
            for rid, a in tables.allowance.items():
                r.allowance[index[rid]] = a
            for rid, x in tables.leader.items():
                r.leader[index[rid]] = index[x]
            for rid, y in tables.follower.items():
                r.follower[index[rid]] = index[y]
            for rid, place in tables.train_place.items():
                r.train_place[index[rid]] = place
            r.assessed = _bits(index[rid] for rid in tables.allowance)
            r.against_wind = _bits(index[rid] for rid in tables.against_wind)
            r.exhausted = _bits(index[rid] for rid in tables.exhausted)
            r.held_bottle = _bits(index[rid] for rid in tables.held_bottle)
            blob = bytes(ffi.buffer(ffi.cast("char *", r) + self._tables_at, self._tables_len))
            if len(self._tables) > 256:
                self._tables.clear()
            self._tables[id(tables)] = (tables, blob)
        else:
            ffi.memmove(ffi.cast("char *", r) + self._tables_at, got[1], self._tables_len)

    def copy(self, r: Any) -> Any:
        """An independent copy of the C race ``r``."""
        new = self.ffi.new("mc_race *")
        self.ffi.memmove(new, r, self.size)
        return new

    # ------------------------------------------------------------ moves

    def move(self, code: int) -> Move:
        """The :class:`Move` of a move int (the same value the Python engine builds)."""
        found = self._moves.get(code)
        if found is None:
            kind = KINDS[code & 7]
            rid = self.ids[code >> 3 & 63]
            sq = code >> 15 & 0x1FFF
            target = self.ids[code >> 9 & 63] if kind == GIVE else None
            if kind in (GIVE, STAY):
                square: str | None = None
            elif sq == _FINISH_SQ:
                square = FINISH
            else:
                square = self.course.names[sq >> 5][sq & 31]
            found = self._moves[code] = _new(Move, (kind, rid, square, target))
            self._codes[found] = code
        return found

    def code(self, move: Move) -> int:
        """The move int of a :class:`Move` of this game."""
        found = self._codes.get(move)
        if found is None:
            kind, rid, square, target = move
            sq = 0
            if square == FINISH:
                sq = _FINISH_SQ
            elif square is not None:
                sq = self.course.codes[square]
            t = self.index[target] if target is not None else 0
            found = _KIND_CODE[kind] | self.index[rid] << 3 | t << 9 | sq << 15
            self._moves.setdefault(found, move)
            self._codes[move] = found
        return found

    def legal_codes(self, r: Any) -> list[int]:
        """The legal move ints of ``r``, in the Python engine's order."""
        buf = self.work.buf
        n = self.lib.mc_legal(self.c, r, buf, self.cap)
        if n < 0:
            raise RuntimeError("native move buffer too small")
        return self.ffi.unpack(buf, n)  # type: ignore[no-any-return]

    def legal_moves(self, r: Any) -> list[Move]:
        """The legal :class:`Move` values of ``r``, in the Python engine's order (none
        once the game is over)."""
        buf = self.work.buf
        n = self.lib.mc_legal_index(self.c, r, buf, self.cap, self.slots)
        if n <= 0:
            if n < 0:
                raise RuntimeError("native move buffer too small")
            return []  # the game has ended (MC-8.5, MC-9.3): no one is to move
        if self._unfilled:  # once every rider's moves are built, nothing to check
            filled = self._filled
            if r.round:
                if not filled[r.current]:
                    self._fill(r.current)
            else:
                # Each rider the placing team may place (MC-3.1), one by one: a rider
                # filled as the one to move in a round of another position of this
                # game says nothing of its teammates.
                for rider in self.team_members[r.n_on_road % len(self.teams)]:
                    if not filled[rider]:
                        self._fill(rider)
        moves = list(map(self._table.__getitem__, self.ffi.unpack(buf, n)))
        if self._bulk:
            return moves
        # A large road: moves are built one by one as they first come up.
        codes = self.legal_codes(r)
        return [m if m is not None else self.move(codes[i]) for i, m in enumerate(moves)]

    # The public API's path (State.legal_moves and play): one call into moves.c per
    # move, which plays it and lists the next moves from the table at once.

    def address(self, r: Any) -> int:
        """The address of the C race ``r``, as :meth:`legal_at` and :meth:`play_legal`
        take it (``r`` must stay alive while it is used)."""
        return int(self.ffi.cast("uintptr_t", r))

    def lister(self, buf: Any) -> Any:
        """A ``moves.c`` lister of this game's races writing into ``buf``, or ``None``
        when that extension is not compiled (the cffi calls then serve)."""
        module = native.moves_module()
        if module is None:
            return None
        ffi = self.ffi
        c_at, buf_at = int(ffi.cast("uintptr_t", self.c)), int(ffi.cast("uintptr_t", buf))
        return module.Lister(c_at, buf_at, self.cap, self.slots, self._table, (self.c, buf))

    def legal_at(self, r: Any, at: int) -> list[Move]:
        """:meth:`legal_moves` of ``r``, whose :meth:`address` is ``at``."""
        try:  # the thread's lister, without the ``work`` property's call
            lister = self._local.work.lister
        except AttributeError:
            lister = self.work.lister
        if lister is not None:
            moves: list[Move] | None = lister.legal(at)
            if moves is not None:
                return moves
        return self.legal_moves(r)  # a move not built yet: built there

    def play_legal(self, r: Any, at: int, move: Move | int) -> list[Move]:
        """Play a legal move on ``r`` (at :meth:`address` ``at``; not checked) and give
        the new position's legal moves: the public API checks the next move against
        them, so they are always wanted."""
        try:
            lister = self._local.work.lister
        except AttributeError:
            lister = self.work.lister
        code = move if type(move) is int else self._codes[move]  # type: ignore[index]
        if lister is not None:
            moves: list[Move] | None = lister.play_legal(at, code)
            if moves is not None:
                return moves
        else:
            self.lib.mc_play(self.c, r, code)
        return self.legal_moves(r)

    def _fill(self, rider: int) -> None:
        """Build every move of ``rider`` at once (its squares and kinds, its gifts to
        teammates) into the table ``legal_moves`` reads: a random game meets thousands
        of different moves, and building them one at a time as they come up costs more
        than the game. A few hundred microseconds per rider, once per game's facts; on
        a road too large for it (``_BULK_SQUARES``) moves are built as they come up.
        The rider is marked filled only once its moves are all in the table."""
        if not 0 <= rider < len(self.ids):
            raise ValueError(f"no rider {rider} in a game of {len(self.ids)} riders")
        if self._bulk:
            course, move, table = self.course, self.move, self._table
            lanes, slots = course.lanes, self.slots
            base = rider << 3
            for kind in (0, 1, 2, 3, 4):  # place, move, attack, wheel, relay
                at = (rider * 8 + kind) * slots
                for row in range(1, course.finish):
                    for lane in range(lanes):
                        table[at + row * lanes + lane] = move(kind | base | (row << 5 | lane) << 15)
                if kind in (1, 2, 4):  # across the line (MC-5.6)
                    table[at + course.finish * lanes] = move(kind | base | _FINISH_SQ << 15)
            table[(rider * 8 + 6) * slots] = move(6 | base)  # stay
            team = self.ids[rider][0]
            for mate, rid in enumerate(self.ids):
                if rid[0] == team and mate != rider:
                    table[(rider * 8 + 5) * slots + mate] = move(5 | base | mate << 9)  # give
        if not self._filled[rider]:
            self._filled[rider] = 1
            self._unfilled -= 1

    def play(self, r: Any, move: Move | int) -> None:
        """Play a legal move (a :class:`Move` or its int) on ``r``; not checked."""
        self.lib.mc_play(self.c, r, move if type(move) is int else self._codes[move])  # type: ignore[index]

    # ------------------------------------------------------------ reading a C race

    def current_player(self, r: Any) -> str | None:
        """``State.current_player`` of ``r``: the placing team in setup (MC-3.1)."""
        if r.over:
            return None
        if r.round == 0:
            team: str = self.teams[r.n_on_road % len(self.teams)]
            return team
        rid: str = self.ids[r.current]
        return rid[0]

    def current_rider(self, r: Any) -> str | None:
        """``State.current_rider`` of ``r``."""
        if r.over or r.round == 0:
            return None
        rid: str = self.ids[r.current]
        return rid

    def export(self, r: Any, old: Race) -> Race:
        """A new :class:`Race` holding the position of ``r``, with the facts of ``old``
        (a race of the same game)."""
        ids = self.ids
        n = len(ids)
        race = Race.__new__(Race)
        race.course, race.teams, race.ids = old.course, old.teams, ids
        race.shelter, race.relay_limit, race.solo = old.shelter, old.relay_limit, old.solo
        square_of = race.square_of = {}
        rider_at = race.rider_at = {}
        for i in range(n):
            sq = r.square_of[i]
            if sq >= 0:
                square_of[ids[i]] = sq
                rider_at[sq] = ids[i]
        race.blocked = self.ffi.unpack(r.blocked, self.course.finish + 2)
        bottles, done = r.bottles, r.done
        race.bottles = {ids[i] for i in range(n) if bottles >> i & 1}
        race.finished = [ids[r.finished[i]] for i in range(r.n_finished)]
        race.medals = self.medals(r)
        race.round = int(r.round)
        if r.round == 0:
            race.unplaced = {
                team: [ids[r.team_riders[t][k]] for k in range(r.team_size)
                       if r.unplaced >> r.team_riders[t][k] & 1]
                for t, team in enumerate(self.teams)
            }  # fmt: skip
            race.tables = NO_ROUND
        else:
            race.unplaced = {team: [] for team in self.teams}
            tables = old.tables
            if old.round != r.round or tables is NO_ROUND:
                tables = RoundTables(**self.tables(r))
            race.tables = tables
        race.done = {ids[i] for i in range(n) if done >> i & 1}
        race.gave = bool(r.gave)
        race.groups = [
            [int(r.g_head[g]), int(r.g_size[g]), bool(r.g_closed[g])] for g in range(r.n_groups)
        ]
        race.group_of = {ids[i]: int(r.group_of[i]) for i in range(n) if r.group_of[i] >= 0}
        race.current = None if r.current < 0 else ids[r.current]
        race.next_in_order = int(r.next_in_order)
        race.over = bool(r.over)
        return race

    def key(self, r: Any) -> tuple[Any, ...]:
        """What :meth:`Race.key` gives for the same position."""
        ids = self.ids
        n = len(ids)
        square_of = {ids[i]: r.square_of[i] for i in range(n) if r.square_of[i] >= 0}
        groups = tuple((r.g_head[g], r.g_size[g], bool(r.g_closed[g])) for g in range(r.n_groups))
        unplaced = (
            tuple(
                (team, tuple(ids[r.team_riders[t][k]] for k in range(r.team_size)
                             if r.unplaced >> r.team_riders[t][k] & 1))
                for t, team in enumerate(self.teams)
            )
            if r.round == 0
            else tuple((team, ()) for team in self.teams)
        )  # fmt: skip
        return (
            r.round,
            tuple(sorted(square_of.items())),
            frozenset(ids[i] for i in range(n) if r.bottles >> i & 1),
            tuple(ids[r.finished[i]] for i in range(r.n_finished)),
            tuple(sorted(self.medals(r).items())),
            None if r.current < 0 else ids[r.current],
            bool(r.gave),
            frozenset(ids[i] for i in range(n) if r.done >> i & 1),
            groups,
            tuple(sorted((ids[i], r.group_of[i]) for i in range(n) if r.group_of[i] >= 0)),
            unplaced,
            bool(r.over),
        )

    def medals(self, r: Any) -> dict[str, str]:
        """The medals awarded, in the order they were."""
        out = {}
        for i in range(r.n_medals):
            code = r.medal_order[i]
            holder = r.medal[code]
            out[_MEDALS[code]] = self.teams[holder] if code == 3 else self.ids[holder]
        return out

    def tables(self, r: Any) -> dict[str, Any]:
        """The round's tables of ``r`` as :class:`~.position.RoundTables` fields."""
        ids = self.ids
        rng = [i for i in range(len(ids)) if r.assessed >> i & 1]
        return {
            "order": tuple(ids[r.order[i]] for i in range(r.n_order)),
            "section": {ids[i]: _SECTION_NAME[r.section[i]] for i in rng},
            "allowance": {ids[i]: r.allowance[i] for i in rng},
            "against_wind": frozenset(ids[i] for i in rng if r.against_wind >> i & 1),
            "exhausted": frozenset(ids[i] for i in rng if r.exhausted >> i & 1),
            "held_bottle": frozenset(ids[i] for i in rng if r.held_bottle >> i & 1),
            "leader": {ids[i]: ids[r.leader[i]] for i in rng if r.leader[i] >= 0},
            "follower": {ids[i]: ids[r.follower[i]] for i in rng if r.follower[i] >= 0},
            "train_place": {ids[i]: r.train_place[i] for i in rng if r.train_place[i]},
        }

    def result(self, r: Any) -> Result:
        """Places, points, medals, trophy and solo score of ``r`` (as ``State.result``)."""
        places = tuple(self.ids[r.finished[i]] for i in range(r.n_finished))
        medals = self.medals(r)
        over = bool(r.over)
        win = None
        if over and not r.solo and places:
            win = self.teams[self.lib.mc_trophy(r)]
        solo_score = None
        if r.solo and over:
            finish = self.course.finish
            remaining = max(
                (
                    finish - (r.square_of[i] >> 5)
                    for i in range(len(self.ids))
                    if r.square_of[i] >= 0
                ),
                default=0,
            )
            solo_score = (r.round, remaining)  # MC-9.4
        return Result(
            places=places,
            points=team_points(places, self.teams),
            medals=medals,
            trophy=win,
            solo_score=solo_score,
            over=over,
        )

    # ------------------------------------------------------------ playouts

    def set_weights(self, weights: Any) -> Any:
        """The ``mc_weights`` of a :class:`~.move_scores.Weights` (this thread's copy)."""
        work = self.work
        if weights is work.weights_of:
            return work.weights
        w = work.weights
        for name in (
            "next_round", "train_trust", "finish", "medal", "bottle_round", "attack_bottle",
            "give", "give_range", "give_range_climber", "feed_next", "follower", "relay_room",
            "blocked_wheel",
        ):  # fmt: skip
            setattr(w, name, getattr(weights, name))
        order = dict(weights.setup_type)
        w.setup_d, w.setup_s, w.setup_c = (order.get(t, 0.0) for t in (DOMESTIQUE, SPRINTER, "C"))
        work.weights_of = weights
        return w

    def score_codes(self, r: Any, codes: Sequence[int], weights: Any) -> list[float]:
        """:func:`.move_scores.score_moves` of the move ints ``codes``, legal in ``r``."""
        n = len(codes)
        work = self.work
        moves = work.buf2
        moves[0:n] = codes
        self.lib.mc_score_moves(self.c, r, self.set_weights(weights), moves, n, work.scores)
        return self.ffi.unpack(work.scores, n)  # type: ignore[no-any-return]

    def random_playout(self, r: Any, rng: Rng, max_moves: int = 1 << 30) -> int:
        """Uniformly random moves (``rng.choice``) until the game is over; moves played.
        ``rng`` draws exactly as it would in Python and is left where Python leaves it."""
        work = self.work
        self._rng_in(rng, 0)
        played = self.lib.mc_random_playout(self.c, r, work.rng, work.buf, self.cap, max_moves)
        self._rng_out(rng, 0)
        if played < 0:
            raise RuntimeError("native move buffer too small")
        return int(played)

    def greedy_playout(
        self,
        r: Any,
        rngs: Sequence[Rng],
        weights: Any,
        *,
        policy: bool = True,
        tolerance: float = 1e-9,
        max_moves: int = 1 << 30,
        record: bool = False,
    ) -> list[int]:
        """Greedy moves until the game is over. ``policy``: as
        :func:`.playouts.greedy_move` (one ``rngs[0]`` draw per move); else as the
        greedy bot (``rngs`` one per team, drawn only between tied moves). The moves
        played, when ``record``."""
        work = self.work
        rng_of_team = work.rng_of_team
        if len(rngs) == 1:
            for t in range(len(self.teams)):
                rng_of_team[t] = 0
        else:
            for t in range(len(self.teams)):
                rng_of_team[t] = t
        for i, rng in enumerate(rngs):
            self._rng_in(rng, i)
        play = self.lib.mc_greedy_playout
        w = self.set_weights(weights)
        moves: list[int] = []
        if record:  # a chunk at a time: a game's length is not known in advance
            chunk = self.ffi.new("int32_t[]", _RECORD_CHUNK)
            count = 0
            while max_moves > 0 and not r.over:
                got = play(
                    self.c, r, w, work.rng, rng_of_team, policy, tolerance, work.buf,
                    self.cap, work.scores, chunk, min(max_moves, _RECORD_CHUNK),
                )  # fmt: skip
                if got < 0:
                    count = got
                    break
                moves += self.ffi.unpack(chunk, got)
                max_moves -= got
        else:
            count = play(
                self.c, r, w, work.rng, rng_of_team, policy, tolerance, work.buf,
                self.cap, work.scores, self.ffi.NULL, max_moves,
            )  # fmt: skip
        for i, rng in enumerate(rngs):
            self._rng_out(rng, i)
        if count < 0:
            raise RuntimeError("native move buffer too small")
        return moves

    def batch_random(self, r: Any, games: int, seed: int) -> dict[str, Any]:
        """``games`` random playouts from ``r`` (left unchanged), game ``i`` seeded
        ``seed + i`` (the C generator: not Python's streams); their totals."""
        stats = self.ffi.new("mc_stats *")
        buf = self.work.buf
        if self.lib.mc_batch_random(self.c, r, games, seed & 0xFFFFFFFF, buf, self.cap, stats) < 0:
            raise RuntimeError("native move buffer too small")
        teams = self.teams
        return {
            "games": stats.games,
            "moves": stats.moves,
            "rounds": stats.rounds,
            "trophies": {t: stats.trophies[i] for i, t in enumerate(teams)},
            "points": {t: stats.points[i] for i, t in enumerate(teams)},
            "medals": {t: stats.medals[i] for i, t in enumerate(teams)},
        }

    def _rng_in(self, rng: Rng, slot: int) -> None:
        """Copy ``rng``'s MT19937 words into the C generator ``slot``."""
        words = rng.getstate()[1]
        assert isinstance(words, tuple)
        g = self.work.rng[slot]
        self.ffi.memmove(g.mt, array("I", words[:624]), 624 * 4)
        g.index = words[624]

    def _rng_out(self, rng: Rng, slot: int) -> None:
        """Hand the C generator ``slot``'s words back to ``rng`` (as if it had drawn)."""
        state = rng.getstate()
        g = self.work.rng[slot]
        words = self.ffi.unpack(g.mt, 624)
        words.append(g.index)
        rng.setstate((state[0], tuple(words), state[2]))


def _placement_key(rid: str) -> tuple[int, str]:
    """MC-2.3 order of a team's riders: domestiques, sprinters, climbers (as
    :func:`.riders.team_rider_ids`)."""
    return ("DSC".index(rid[1]), rid)


#: Everything that makes two races games of the same facts (and so able to share a
#: :class:`NativeGame`): the course (by value), every rider id (the teams, their
#: compositions and seat order follow from them: MC-2.2), the wind's shelter side
#: (MC-5.5), the relay limit (MC-6.5) and the solo version (MC-9).
GameKey = tuple[Course, tuple[str, ...], int, int, bool]

#: The last game asked for, with its key, in one tuple (replaced whole, so another
#: thread never reads a key with the wrong game).
_last: tuple[GameKey, NativeGame] | None = None
_games: dict[GameKey, NativeGame] = {}


def game_key(race: Race) -> GameKey:
    """The facts ``race`` is played under (see :data:`GameKey`)."""
    return (race.course, race.ids, race.shelter, race.relay_limit, race.solo)


def game_for(race: Race) -> NativeGame:
    """The :class:`NativeGame` of ``race``'s facts, shared by every race with the same
    :func:`game_key` (cached: the game's tables of moves take a while to build)."""
    global _last
    key = game_key(race)
    last = _last
    if last is not None and last[0] == key:  # the same objects: compared by identity
        return last[1]
    game = _games.get(key)
    if game is None:
        if len(_games) > 16:  # each holds its tables of Moves
            _games.clear()
        game = _games[key] = NativeGame(race)
    _last = (key, game)
    return game


def forget_games() -> None:
    """Drop every cached :class:`NativeGame` (tests start from none)."""
    global _last
    _last = None
    _games.clear()
