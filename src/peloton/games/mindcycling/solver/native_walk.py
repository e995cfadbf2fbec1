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
ported to C (``reach.c``), and the later rounds' bound stays in Python
(:meth:`.bounds.Bounds.rounds_needed`), asked through a callback once per distinct set
of intervals. C also drops a round-end position whose bound leaves no round for it,
which the search would reject as its first step.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ..native import available, game_for
from ..state import State

__all__ = ["End", "Ends", "Need", "available", "round_ends"]

#: The later rounds' bound: (riders as (type, low, high), riders across, dry, may the
#: game end this round) -> rounds (:meth:`.bounds.Bounds.rounds_needed`).
Need = Callable[[list[tuple[str, int, int]], int, bool, bool], int]

_TYPES = "DSC"  # the C type codes (mc.h)


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


def round_ends(
    state: State,
    budget: int = 0,
    need: Need | None = None,
    tick: Callable[[], None] | None = None,
    last_row: int | None = None,
) -> Ends:
    """Every distinct position at the end of the round of ``state`` (at a round's start,
    or in setup) with one line to it, walked in C.

    With ``need``, only what may end the game within ``budget`` rounds (this one
    included) is walked and kept: a mid-round position ``p`` when ``1 + need(...) <=
    budget`` on its intervals (as :meth:`.search.Solver.rounds_needed`), a round-end
    position when that holds for ``budget - 1``; a finished game always. ``tick`` is
    called every 64 positions: whatever it (or ``need``) raises stops the walk and is
    raised here. ``last_row``: the goal row of the rider left on the road, as the
    last-round rule of :func:`.bounds.may_end_this_round` takes it. Needs the native
    engine (:func:`available`)."""
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
    bound = ffi.NULL if need is None else ffi.callback("mc_need_fn", later)
    out = ffi.new("mc_walk_out *")
    try:
        status = lib.mc_walk(
            game.c, start, budget, -1 if last_row is None else last_row, bound, callback, out
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
