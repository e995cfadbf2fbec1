"""Moves of the native bridge: move ints to :class:`~..notation.Move` values and back,
legal moves listed by the C core (through ``moves.c`` when it is compiled), moves played."""

from __future__ import annotations

from typing import Any

from ..notation import FINISH, GIVE, STAY, Move
from .codes import FINISH_SQ, KIND_CODE, KINDS
from .facts import GameFacts

__all__ = ["GameMoves"]

_new = tuple.__new__


class GameMoves(GameFacts):
    """The moves of a :class:`~.facts.GameFacts`' races."""

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
            elif sq == FINISH_SQ:
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
                sq = FINISH_SQ
            elif square is not None:
                sq = self.course.codes[square]
            t = self.index[target] if target is not None else 0
            found = KIND_CODE[kind] | self.index[rid] << 3 | t << 9 | sq << 15
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
                    table[at + course.finish * lanes] = move(kind | base | FINISH_SQ << 15)
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
