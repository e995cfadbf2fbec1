"""The exact search's round walk in the native core (``peloton/native/walk.c``).

:meth:`.search.Solver.successors` walks every turn of a round, merging mid-round
transpositions and keeping one line to each distinct round-end position. When the
native engine is active the same walk runs in C (:func:`round_ends`): the rules of
``rules.c``, which ``tests/native`` keeps in lockstep with the Python engine, the same
mid-round merging (squares, bottles, riders done, groups, the rider to play, a gift
given, riders across) and the same round-end keys (:func:`.search.position_key`).
Python then gets each distinct end once, as a move line, its key and its bound
(:class:`End`), and never plays the mid-round positions at all.

The round bound prunes the walk in C as ``keep`` prunes the Python walk: the part of
the bound that reads the round in play (:func:`.bounds.round_reach`, the last-round
rule of :func:`.bounds.may_end_this_round`, whether the team ends the round dry) is
ported to C (``reach.c``), and so is the later rounds' bound
(:meth:`.bounds.Bounds.rounds_needed`, ``bound.c``) on the tables :class:`.bounds.Bounds`
builds (:func:`tables` copies them into C). It is computed once per distinct set of
intervals; a caller may still hand a Python callback instead (``need``). C also drops
a round-end position whose bound leaves no round for it, which the search would
reject as its first step.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ....native import lib as native_lib
from ..course import Course
from ..native import available, game_for
from ..state import State
from .bounds import Bounded, Bounds

__all__ = [
    "End",
    "Ends",
    "NativeBounds",
    "Need",
    "available",
    "bounds_for",
    "round_ends",
    "rounds_needed",
    "tables",
]

#: The later rounds' bound: (riders as (type, low, high), riders across, dry, may the
#: game end this round) -> rounds (:meth:`.bounds.Bounds.rounds_needed`).
Need = Callable[[list[tuple[str, int, int]], int, bool, bool], int]

_TYPES = "DSC"  # the C type codes (mc.h)
_CODE = {t: i for i, t in enumerate(_TYPES)}
_MAX_ROAD = 6  # riders on the road mc_rounds_needed takes (MC_MAX_TEAM)
#: The rows of the C tables (MC_BOUND_ROWS in mc.h).
BOUND_ROWS = 232


def tables(bounds: Bounds) -> Any:
    """The tables of ``bounds`` copied into C (an ``mc_bounds *`` for :func:`round_ends`
    and :func:`rounds_needed`), for the later rounds' bound in ``bound.c``. Needs the
    native engine (:func:`available`).

    The tables are :class:`.bounds.Bounds`' own, read as built: each type's reach from
    each row on its own legs, by a sheltered normal move, on a train of ``n`` other
    riders (the first column of its range table is the row's own value), and whether
    it may ride a train there."""
    loaded = native_lib()
    assert loaded is not None, "the native engine is not active"
    ffi, _ = loaded
    out = ffi.new("mc_bounds *")
    out.finish = bounds.finish
    out.relay_limit = bounds.relay_limit
    out.top_allowance = bounds.top_allowance
    feeds = bounds.feed_rows
    if len(feeds) > len(out.feed_rows):
        raise ValueError(f"{len(feeds)} feed rows: the native bound takes at most 2")
    out.n_feed_rows = len(feeds)
    for i, row in enumerate(feeds):
        out.feed_rows[i] = row
    for dry in (False, True):
        d = int(dry)
        trains = bounds._train_max[dry]
        for t, c in _CODE.items():
            own, lead, able = bounds.own[dry][t], bounds.lead[dry][t], bounds.trainable[dry][t]
            if len(own) > BOUND_ROWS:
                raise ValueError(f"a course of {bounds.finish} rows is too long for the C tables")
            out.own[d][c][0 : len(own)] = own
            out.lead[d][c][0 : len(lead)] = lead
            out.trainable[d][c][0 : len(able)] = [int(a) for a in able]
            for n in range(1, 7):
                out.train[d][c][n][0 : len(own)] = [row[0] for row in trains[t][n]]
    return out


def rounds_needed(
    table: Any,
    riders: list[Bounded],
    crossed: int,
    dry: bool = False,
    last_row: int | None = None,
    ends_now: bool = True,
) -> int:
    """:meth:`.bounds.Bounds.rounds_needed` computed in C (``bound.c``) on ``table``
    (:func:`tables`): the same answer, for the tests and for callers that ask often."""
    loaded = native_lib()
    assert loaded is not None, "the native engine is not active"
    ffi, lib = loaded
    if len(riders) > _MAX_ROAD:
        raise ValueError(f"{len(riders)} riders: the native bound takes at most {_MAX_ROAD}")
    flat = ffi.new("int16_t[]", [v for t, low, high in riders for v in (_CODE[t], low, high)] or 1)
    got = lib.mc_rounds_needed(
        table,
        flat,
        len(riders),
        crossed,
        int(dry),
        -1 if last_row is None else last_row,
        int(ends_now),
    )
    assert got >= 0
    return int(got)


class End(NamedTuple):
    """One distinct position at the end of a round walked in C."""

    line: list[str]  # one line of move texts to it
    over: bool  # the game is over
    needed: int  # Solver.rounds_needed of it (0 when over, or when no bound was asked)
    road: tuple[tuple[str, int, bool], ...]  # its riders on the road: position_key


@dataclass
class Ends:
    """The distinct positions at the end of a round walked in C."""

    ends: list[End]
    nodes: int  # positions played
    mid_positions: int  # distinct mid-round positions walked
    bound_calls: int  # calls of ``need`` (distinct sets of intervals)


class NativeBounds(Bounds):
    """:class:`.bounds.Bounds` whose :meth:`rounds_needed` runs in C (``bound.c``) on
    its own tables: the same answers (``test_native_walk.py`` compares them), some ten
    times sooner. Every other method is Python's."""

    def __init__(self, course: Course, relay_limit: int, types: str = "DSC") -> None:
        super().__init__(course, relay_limit, types)
        #: The tables in C (:func:`tables`), for :func:`round_ends` too.
        self.table = tables(self)

    def count_rounds(
        self,
        riders: list[Bounded],
        crossed: int,
        dry: bool,
        last_row: int | None,
        ends_now: bool,
    ) -> int:
        """:meth:`.bounds.Bounds.count_rounds`, computed in C (memoised by
        :meth:`.bounds.Bounds.rounds_needed` as in Python)."""
        return rounds_needed(self.table, riders, crossed, dry, last_row, ends_now)


def bounds_for(course: Course, relay_limit: int, types: str) -> Bounds:
    """The round bound of a solve: :class:`NativeBounds` when the native engine is
    active, else Python's :class:`.bounds.Bounds` (the same answers either way)."""
    if available():
        return NativeBounds(course, relay_limit, types)
    return Bounds(course, relay_limit, types)


def round_ends(
    state: State,
    budget: int = 0,
    need: Need | None = None,
    tick: Callable[[], None] | None = None,
    last_row: int | None = None,
    bound: Any = None,
) -> Ends:
    """Every distinct position at the end of the round of ``state`` (at a round's start,
    or in setup) with one line to it, walked in C.

    With ``need``, only what may end the game within ``budget`` rounds (this one
    included) is walked and kept: a mid-round position ``p`` when ``1 + need(...) <=
    budget`` on its intervals (as :meth:`.search.Solver.rounds_needed`), a round-end
    position when that holds for ``budget - 1``; a finished game always. ``tick`` is
    called every 256 positions, and every 1024 ends handed back: whatever it (or
    ``need``) raises stops the walk and is raised here. ``last_row``: the goal row of
    the rider left on the road, as the last-round rule of
    :func:`.bounds.may_end_this_round` takes it. ``bound`` (:func:`tables`): the later
    rounds' bound computed in C from these tables instead of by ``need``, with the
    same answers (``need`` is then not called). Needs the native engine
    (:func:`available`)."""
    race = state.race
    game = game_for(race)
    ffi, lib = game.ffi, game.lib
    start = game.load(race)
    raised: list[BaseException] = []

    def check() -> int:
        try:
            if tick is not None:
                tick()
        except BaseException as exc:  # handed back to the caller below
            raised.append(exc)
            return 1
        return 0

    def later(riders: object, n: int, crossed: int, dry: int, ends_now: int) -> int:
        assert need is not None
        try:
            got = ffi.unpack(ffi.cast("int16_t *", riders), 3 * n)
            bounded = [(_TYPES[got[i]], got[i + 1], got[i + 2]) for i in range(0, 3 * n, 3)]
            return min(need(bounded, crossed, bool(dry), bool(ends_now)), 1 << 30)
        except BaseException as exc:  # handed back to the caller below
            raised.append(exc)
            return -1

    callback = ffi.callback("int(void)", check)
    later_fn = ffi.NULL if need is None or bound is not None else ffi.callback("mc_need_fn", later)
    out = ffi.new("mc_walk_out *")
    try:
        status = lib.mc_walk(
            game.c,
            start,
            budget,
            -1 if last_row is None else last_row,
            ffi.NULL if bound is None else bound,
            later_fn,
            callback,
            out,
        )
        if raised:
            raise raised[0]
        if status < 0:
            raise MemoryError("the native round walk ran out of memory")
        n = out.n_ends
        at = ffi.unpack(out.line_at, n + 1) if n else [0]
        codes = ffi.unpack(out.codes, at[-1]) if n else []
        over = ffi.unpack(out.over, n) if n else []
        needed = ffi.unpack(out.need, n) if n else []
        width = game.template.n_riders
        out_road = ffi.buffer(out.road, 2 * n * width)[:] if n else b""
        nodes, mid, calls = int(out.nodes), int(out.mid_positions), int(out.bound_calls)
    finally:
        lib.mc_walk_free(out)
    texts: dict[int, str] = {}
    ends = []
    keys = array("H", out_road)
    for i in range(n):
        if tick is not None and not i & 1023:
            # A round may end a million ways (some 10 us each here): keep the clock.
            tick()
        line = []
        for code in codes[at[i] : at[i + 1]]:
            text = texts.get(code)
            if text is None:
                text = texts[code] = str(game.move(code))
            line.append(text)
        road = tuple(
            sorted(
                (_TYPES[v >> 14], v & 0x1FFF, bool(v >> 13 & 1))
                for v in keys[i * width : (i + 1) * width]
                if v != 0xFFFF
            )
        )
        ends.append(End(line, bool(over[i]), needed[i], road))
    return Ends(ends, nodes, mid, calls)
