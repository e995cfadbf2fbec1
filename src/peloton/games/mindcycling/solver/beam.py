"""Beam search over whole rounds: good solo lines fast, the solver's first incumbents.

An exact proof prunes with the best line known (:mod:`.search`): the closer that line
is to the optimum, the less there is to search, and when its score meets the proven
lower bound nothing is left to search at all. The greedy bot plays one move at a time
and misses what a round played as a whole can do (a train formed for the next round, a
bottle kept for the climb), so the solver first runs this beam search:

* from each position of the beam (at a round's start), the round is played out by a
  depth-first walk that tries, at every turn, only a few moves: the best ones by the
  greedy bot's scores (:func:`~..move_scores.score_moves`, computed by the native core
  when it is active) and the ones that end furthest up the road;
* the positions at the end of the round are merged when equal
  (:func:`.search.position_key`) and ranked by the best score of
  :data:`PLAYOUTS` greedy playouts from them (in the native core when it is
  active), then by the admissible round bound (:class:`.bounds.Bounds`: the fewest
  rounds the game may still take from there), then by the rows the four leading
  riders have covered and the fifth's row;
* the ``width`` best go on to the next round. Every finished line is offered.

It is anytime: :func:`beam_lines` runs beams of growing width until its deadline, and
a beam whose score meets the lower bound stops it (that line is then optimal). It
proves nothing by itself: the search does that.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ....core.rng import Rng
from .. import native
from ..move_scores import DEFAULT_WEIGHTS, score_moves
from ..notation import ATTACK, FINISH, GIVE, MOVE, RELAY, STAY, WHEEL, Move
from ..state import State
from .lines import greedy_line
from .rows import TimeUp

#: Beam widths tried one after the other (each roughly four times the work of the last).
WIDTHS = (2, 6, 16, 40, 100, 250, 600)
#: Moves tried per turn: the best by the greedy scores, then the furthest.
PER_TURN = 3
FURTHEST = 1
#: Greedy playouts (seeds) valuing a position: the best counts.
PLAYOUTS = 3
#: Moves ending right behind a rider that has ridden (a link for the next round) tried
#: (one: a second made a wide beam some 40% slower for no better line in trials).
LINKS = 1
#: Moves always tried: a train is what the greedy scores undervalue most.
TRAIN_KINDS = (WHEEL, RELAY)


def _progress(state: State) -> tuple[int, int]:
    """Rows covered by the four leading riders (crossed riders count the finish), and
    the row of the fifth: the beam's tie-breaks after the round bound."""
    race = state.race
    finish = state.course.finish
    rows = sorted((sq >> 5 for sq in race.square_of.values()), reverse=True)
    rows = [finish] * len(race.finished) + rows
    return sum(rows[:4]), (rows[4] if len(rows) > 4 else finish)


def playout_score(state: State, seed: int = 0) -> tuple[int, int]:
    """The score the greedy bot (seeded ``seed``) reaches from ``state``: in the native
    core when it is active (the same moves, some thirty times faster), else in Python.
    ``state`` is left as it was."""
    twin = state.native_twin()
    if twin is None and native.available():
        race = state.race
        game = native.game_for(race)
        r = game.load(race, game.scratch)
    elif twin is not None:
        game, r = twin[0], twin[0].scratch
        game.ffi.memmove(r, twin[1], game.size)
    else:
        final, _ = greedy_line(state, seed)
        score = final.solo_score
        assert score is not None
        return score
    game.greedy_playout(r, (Rng(seed),), DEFAULT_WEIGHTS, policy=False)
    got = game.result(r).solo_score
    assert got is not None
    return got


def _choices(state: State) -> list[Move]:
    """The few moves the beam tries for the rider to play now: every wheel and relay
    (a train is what the greedy scores undervalue most), the best by the greedy
    scores, and the one ending furthest."""
    moves = state.legal_moves()
    if len(moves) <= PER_TURN + FURTHEST or state.round == 0:
        return moves  # setup: every placement (the beam's first layer is small)
    picked = [m for m in moves if m.kind in TRAIN_KINDS]
    scores = score_moves(state, moves)
    ranked = sorted(range(len(moves)), key=lambda i: -scores[i])
    top = [moves[i] for i in ranked[:PER_TURN] if moves[i] not in picked]
    picked += top
    furthest = max(moves, key=lambda m: _row_of_move(state, m))
    if furthest not in picked:
        picked.append(furthest)
    for move in _links(state, moves)[:LINKS]:
        if move not in picked:
            picked.append(move)
    return picked


def _links(state: State, moves: list[Move]) -> list[Move]:
    """The moves ending right behind a rider that has ridden this round, on the square
    it shelters (MC-5.5), furthest first: the mover starts the next round sheltered and
    linked to it (MC-6.1), ready to wheel or relay. The greedy scores and the furthest
    move miss these: a train is built one round before it pays."""
    race = state.race
    codes = state.course.codes
    at, done, dl = race.rider_at, race.done, race.shelter
    out = []
    for move in moves:
        if move[0] not in (MOVE, ATTACK) or move[2] in (None, FINISH):
            continue
        ahead = at.get(codes[move[2]] + 32 + dl)
        if ahead is not None and ahead in done:
            out.append(move)
    out.sort(key=lambda m: -_row_of_move(state, m))
    return out


def _row_of_move(state: State, move: Move) -> int:
    """The row a move ends on (the finish for a crossing, 0 for a gift or a stay)."""
    square = move[2]
    if move[0] in (GIVE, STAY) or square is None:
        return 0
    if square == FINISH:
        return state.course.finish
    return int(square[1:])


def round_ends(state: State, check: Callable[[], None]) -> Iterator[tuple[State, list[str]]]:
    """The positions at the end of this round (or setup) reached by the beam's few
    moves per turn, each with the round's moves; ``check`` is called at every move
    (it raises :class:`TimeUp`)."""
    start_round = state.round
    path: list[str] = []

    def walk(st: State) -> Iterator[tuple[State, list[str]]]:
        for move in _choices(st):
            check()
            child = st.copy()
            child.play(move)
            path.append(str(move))
            if child.is_over or child.round != start_round:
                yield child, path.copy()
            else:
                yield from walk(child)
            path.pop()

    root = state.copy()
    root.history = []
    yield from walk(root)


def beam(
    root: State,
    width: int,
    bound: Callable[[State], int],
    key: Callable[[State], object],
    check: Callable[[], None],
    offer: Callable[[State, list[list[str]]], None],
) -> None:
    """One beam of ``width`` from ``root``; every finished line goes to ``offer``.

    ``bound(state)``: an admissible lower bound on the rounds left from a round's
    start; ``key(state)``: the position's transposition key (equal positions merge)."""
    layer: list[tuple[State, list[list[str]]]] = [(root, [])]
    while layer:
        found: dict[object, tuple[tuple[int, ...], State, list[list[str]]]] = {}
        for state, line in layer:
            for child, moves in round_ends(state, check):
                if child.is_over:
                    offer(child, [*line, moves])
                    continue
                k = key(child)
                if k in found:
                    continue
                top4, fifth = _progress(child)
                rounds, rem = min(playout_score(child, seed) for seed in range(PLAYOUTS))
                found[k] = ((rounds, rem, bound(child), -top4, -fifth), child, [*line, moves])
        ranked = sorted(found.values(), key=lambda e: e[0])[:width]
        layer = [(child, line) for _, child, line in ranked]


def beam_lines(
    root: State,
    bound: Callable[[State], int],
    key: Callable[[State], object],
    check: Callable[[], None],
    offer: Callable[[State, list[list[str]]], None],
    done: Callable[[], bool],
    widths: tuple[int, ...] = WIDTHS,
) -> int:
    """Beams of growing width until ``check`` raises :class:`TimeUp` or ``done()``
    says the best line cannot be beaten; the widest beam completed."""
    completed = 0
    try:
        for width in widths:
            beam(root, width, bound, key, check, offer)
            completed = width
            if done():
                break
    except TimeUp:
        pass
    return completed
