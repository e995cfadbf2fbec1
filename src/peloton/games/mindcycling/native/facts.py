"""What every part of the native bridge stands on: the C tables of one game's facts,
each thread's buffers for the C calls, and races loaded into C and copied."""

from __future__ import annotations

import threading
from typing import Any

from .... import native
from ..notation import Move
from ..position import CLOSED, HEAD, SIZE, Race
from .codes import MEDAL_CODE, SECTION_CODE, TYPE_CODE, bits, fill_course, placement_key

__all__ = ["GameFacts", "Work"]

#: Roads of at most this many squares have every move of a rider built at once.
_BULK_SQUARES = 2_000


class Work:
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

    def __init__(self, game: GameFacts) -> None:
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


class GameFacts:
    """The C tables of one game's facts (its course, teams, wind, relay limit and
    whether it is solo), the threads' buffers and the races of the game in C; the
    ground under :class:`~.game.NativeGame`."""

    def __init__(self, race: Race) -> None:
        got = native.lib()
        assert got is not None, "the native engine is not active"
        self.ffi, self.lib = ffi, lib = got
        course = race.course
        self.course = course
        self.ids = race.ids
        self.teams = tuple(race.teams)
        self.index = {rid: i for i, rid in enumerate(race.ids)}
        self.c = fill_course(ffi, course)
        t = self.template = ffi.new("mc_race *")
        lib.mc_init_race(t)
        t.n_riders, t.n_teams = len(race.ids), len(self.teams)
        t.shelter, t.relay_limit, t.solo = race.shelter, race.relay_limit, race.solo
        team_of = {team: i for i, team in enumerate(self.teams)}
        for i, rid in enumerate(race.ids):
            t.team[i] = team_of[rid[0]]
            t.type[i] = TYPE_CODE[rid[1]]
        size = len(race.ids) // len(self.teams)
        t.team_size = size
        for team, comp in race.teams.items():
            order = [rid for rid in sorted(race.ids, key=placement_key) if rid[0] == team]
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
    def work(self) -> Work:
        """This thread's buffers for the C calls (made on first use in a thread)."""
        try:
            return self._local.work  # type: ignore[no-any-return]
        except AttributeError:
            work = self._local.work = Work(self)
            return work

    @property
    def scratch(self) -> Any:
        """A race to load positions into for playouts and scores, this thread's own
        (no allocation per playout)."""
        return self.work.scratch

    def lister(self, buf: Any) -> Any:
        """A ``moves.c`` lister of this game's races writing into ``buf``, or ``None``
        when that extension is not compiled (the cffi calls then serve)."""
        module = native.moves_module()
        if module is None:
            return None
        ffi = self.ffi
        c_at, buf_at = int(ffi.cast("uintptr_t", self.c)), int(ffi.cast("uintptr_t", buf))
        return module.Lister(c_at, buf_at, self.cap, self.slots, self._table, (self.c, buf))

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
        r.bottles = bits(index[rid] for rid in race.bottles)
        r.unplaced = bits(index[rid] for ids in race.unplaced.values() for rid in ids)
        r.n_finished = len(race.finished)
        for i, rid in enumerate(race.finished):
            r.finished[i] = index[rid]
        r.n_medals = len(race.medals)
        for i, (medal, holder) in enumerate(race.medals.items()):
            code = MEDAL_CODE[medal]
            r.medal_order[i] = code
            r.medal[code] = self.teams.index(holder) if medal == "team" else index[holder]
        r.round, r.gave, r.over = race.round, race.gave, race.over
        r.current = -1 if race.current is None else index[race.current]
        r.next_in_order = race.next_in_order
        if race.round:
            self._load_tables(race, r)
            r.done = bits(index[rid] for rid in race.done)
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
                r.section[index[rid]] = SECTION_CODE[sect]
            for rid, a in tables.allowance.items():
                r.allowance[index[rid]] = a
            for rid, x in tables.leader.items():
                r.leader[index[rid]] = index[x]
            for rid, y in tables.follower.items():
                r.follower[index[rid]] = index[y]
            for rid, place in tables.train_place.items():
                r.train_place[index[rid]] = place
            r.assessed = bits(index[rid] for rid in tables.allowance)
            r.against_wind = bits(index[rid] for rid in tables.against_wind)
            r.exhausted = bits(index[rid] for rid in tables.exhausted)
            r.held_bottle = bits(index[rid] for rid in tables.held_bottle)
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
