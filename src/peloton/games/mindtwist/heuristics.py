"""Bot hooks for Mind Twist (``GameInfo.heuristics``; see :mod:`peloton.bots.mcts`).

* :func:`score_moves`: a greedy rule of thumb, no search: dial far unless a shorter
  dial wins or sideswipes; challenge the dial that would hurt most, pass otherwise;
* :func:`determinize`: a full state consistent with a view, the hidden dial drawn
  uniformly (MCTS searches such states);
* :func:`evaluate` / :func:`outcome`: each player's expected reward, from a race
  estimate (the exact values are in :mod:`.solver`);
* :func:`rollout_move`: a uniformly random legal move.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ...core.rng import Rng
from .board import FINISHED
from .notation import AMOUNTS, DIAL, DIALS, GUESS, Move
from .state import State

#: A turn's worth of progress, in spaces (about the mean of a dial that goes through).
TURN_VALUE = 2.0
#: Score of a dial that wins at once.
WIN = 100.0
#: How much likelier the guesser thinks a dial that wins or sideswipes is.
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


def score_moves(state: State, moves: Sequence[Move]) -> list[float]:
    """A score per move, higher is better for the player to act.

    Dials score what they gain (MT-2.3, MT-3) minus what being guessed would cost:
    the guesser is assumed to suspect a dial that wins or sideswipes. A guess scores
    the turn it takes when right against the extra turn it gives when wrong; a pass
    scores minus the expected gain of the dial (MT-2.2)."""
    gains = {n: _harm(state, n) for n in AMOUNTS}
    weights = {n: THREAT_WEIGHT if gains[n] > n else 1.0 for n in AMOUNTS}
    total = sum(weights.values())
    suspicion = {n: weights[n] / total for n in AMOUNTS}
    expected = sum(suspicion[n] * gains[n] for n in AMOUNTS)
    scores: list[float] = []
    for move in moves:
        if move.kind == DIAL and move.amount is not None:
            caught = suspicion[move.amount]
            scores.append((1 - caught) * gains[move.amount] - caught * TURN_VALUE)
        elif move.kind == GUESS and move.amount is not None:
            right = suspicion[move.amount]
            missed = expected - right * gains[move.amount]
            scores.append(right * TURN_VALUE - missed - (1 - right) * TURN_VALUE)
        else:
            scores.append(-expected)
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
        dial = rng.choice(DIALS)
        history[-1] = dial
        state._dial = dial.amount
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


HEURISTICS: dict[str, Callable[..., Any]] = {
    "score_moves": score_moves,
    "rollout_move": rollout_move,
    "determinize": determinize,
    "evaluate": evaluate,
    "outcome": outcome,
}
