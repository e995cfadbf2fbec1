"""Bot hooks for Mind Twist (``GameInfo.heuristics``; see :mod:`peloton.bots.mcts`).

* :func:`score_moves`: a greedy rule of thumb, no search: challenge a dial that would
  win or sideswipe, pass otherwise; dial as far as that challenger lets one go;
* :func:`determinize`: a full state consistent with a view, the hidden dial drawn
  uniformly (MCTS searches such states);
* :func:`evaluate` / :func:`outcome`: each player's expected reward, from a race
  estimate (the exact values are in :mod:`.solver`);
* :func:`rollout_move`: a uniformly random legal move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ...core.registry import Heuristics
from ...core.rng import Rng
from .board import FINISHED
from .notation import AMOUNTS, DIALS, GUESSES, NO_CHALLENGE, PASS, Move
from .state import State

#: A turn's worth of progress, in spaces (about the mean of a dial that goes through).
TURN_VALUE = 2.0
#: Score of a dial that wins at once.
WIN = 100.0
#: How much likelier the challenger thinks a dial that wins or sideswipes is.
THREAT_WEIGHT = 3.0
#: Spaces of lead worth about e times the odds (the race estimate's scale).
RACE_SCALE = 4.0


def _harm(state: State, amount: int) -> float:
    """What dialling ``amount`` gains the active player now, in spaces: the move, the
    spaces a sideswipe costs the opponent, or :data:`WIN`."""
    me = state.active_player
    other = state.players[1] if me == state.players[0] else state.players[0]
    mine, theirs = state.space(me), state.space(other)
    to, after = state.board.advance(mine, theirs, amount)
    if to == FINISHED:
        return WIN
    return float(amount + (theirs - after))


def _response_scores(gains: dict[int, float]) -> dict[Move, float]:
    """The challenger's view: the dials it suspects (those that win or sideswipe, three
    times as much as the others) and the score of each response relative to nothing.

    A pass lets the dial move: minus its expected gain. A guess stops the dial when
    right (the turn passes either way) and, when wrong, lets it move *and* gives the
    dialer another turn (MT-2.2)."""
    weights = {n: THREAT_WEIGHT if gains[n] > n else 1.0 for n in AMOUNTS}
    total = sum(weights.values())
    suspicion = {n: weights[n] / total for n in AMOUNTS}
    expected = sum(suspicion[n] * gains[n] for n in AMOUNTS)
    scores = {NO_CHALLENGE: -expected}
    for guess in GUESSES:
        n = guess.amount or 1
        right = suspicion[n]
        scores[guess] = -(expected - right * gains[n]) - (1 - right) * TURN_VALUE
    return scores


def score_moves(state: State, moves: Sequence[Move]) -> list[float]:
    """A score per move, higher is better for the player to act (works on views).

    The challenger scores its responses by :func:`_response_scores`. The dialer
    expects that challenger's best response (one of the best, if several tie) and
    scores each dial by what it then gains: its move (plus the spaces a sideswipe
    costs the opponent, or :data:`WIN`), a turn more after a wrong guess, a turn lost
    when caught. Predicting the challenger keeps the dialer from walking into a guess
    it could see coming, so two greedy players always make progress."""
    gains = {n: _harm(state, n) for n in AMOUNTS}
    responses = _response_scores(gains)
    if state.phase != "dial":
        return [responses.get(move, -WIN) for move in moves]
    top = max(responses.values())
    expected = [r for r, v in responses.items() if v >= top - 1e-9]
    scores: list[float] = []
    for move in moves:
        n = move.amount or 1
        total = 0.0
        for response in expected:
            if response.kind == PASS:
                total += gains[n]
            elif response.amount == n:
                total -= TURN_VALUE
            else:
                total += gains[n] + TURN_VALUE
        scores.append(total / len(expected))
    return scores


def rollout_move(state: State, rng: Rng) -> Move:
    """A uniformly random legal move (works on views: guesses are always legal)."""
    return rng.choice(state.legal_moves())


def determinize(view: State, rng: Rng) -> State:
    """A full state consistent with ``view``: a hidden pending dial drawn uniformly
    from 1-3, and every ``dial:?`` of the history restored as the guess that found it
    (only a correct guess leaves a dial unrevealed)."""
    state = view.copy()
    history = state.history
    for i, move in enumerate(history):
        if move.is_hidden and i + 1 < len(history):
            history[i] = DIALS[(history[i + 1].amount or 1) - 1]
    if state.dial_hidden:
        state.suppose_dial(rng.choice(AMOUNTS))
    return state


def evaluate(state: State) -> dict[str, float]:
    """Each player's chance to win, estimated from the race: the spaces each still
    has to go, the active player counting a turn ahead."""
    if state.is_over:
        return outcome(state)
    red, blue = state.players
    length = state.board.length
    lead = float((length - state.space(blue)) - (length - state.space(red)))
    lead += TURN_VALUE / 2 if state.active_player == red else -TURN_VALUE / 2
    p_red = 1.0 / (1.0 + math.exp(-lead / RACE_SCALE))
    return {red: p_red, blue: 1.0 - p_red}


def outcome(state: State) -> dict[str, float]:
    """1 to the winner, 0 to the other (an even share while the game goes on)."""
    winner = state.result
    if winner is None:
        return {p: 0.5 for p in state.players}
    return {p: 1.0 if p == winner else 0.0 for p in state.players}


def observe(state: State, player: str | None) -> tuple[str, ...]:
    """What ``player`` has seen of the game so far: the moves, with the other player's
    unrevealed dials as ``dial:?`` (MCTS shares statistics between the positions a
    player cannot tell apart)."""
    return tuple(str(move) for move in state.public_history(player))


HEURISTICS: Heuristics = {
    "score_moves": score_moves,
    "rollout_move": rollout_move,
    "determinize": determinize,
    "observe": observe,
    "evaluate": evaluate,
    "outcome": outcome,
}
