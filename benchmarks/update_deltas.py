"""How big a move's update is: the whole snapshot, the deltas of ``server/deltas.py``,
and a JSON merge patch (RFC 7396) for comparison, on random games of the four games.

For each game, ``--games`` random games (default options; random legal moves, dice
drawn from a seeded stream) are played, and each move's snapshot (as a spectator
sees it, without the legal moves, which go apart to the seat to move) is compared
with the one before. Prints the mean bytes a move of each encoding (compact JSON),
and the time ``diff`` takes.

    python benchmarks/update_deltas.py [--games 3]

A merge patch replaces a list whole whenever it changes (the riders, the moves so
far) and cannot say "set this to null" (null deletes), so the project's deltas are
list patches by index, with removals written apart. Prints figures only.
"""

from __future__ import annotations

import argparse
import random
import time
from itertools import pairwise
from typing import Any

import orjson

from peloton.core.rng import Rng
from peloton.server.deltas import diff
from peloton.server.games import spec

GAMES = ("mind-cycling", "mind-twist", "pistard", "cyclo")


def merge_patch(before: Any, after: Any) -> Any:
    """The RFC 7396 merge patch from ``before`` to ``after`` (nulls taken as removals)."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return after
    patch: dict[str, Any] = {key: None for key in before if key not in after}
    for key, value in after.items():
        if key not in before:
            patch[key] = value
        elif before[key] != value:
            patch[key] = merge_patch(before[key], value)
    return patch


def snapshots(game: str, seed: int) -> list[dict[str, Any]]:
    """A spectator's snapshots of one random game, without legal moves."""
    game_spec = spec(game)
    state = game_spec.new_state(game_spec.defaults(), seed)
    chance, pick = Rng(seed), random.Random(seed)
    out = []
    for _ in range(3000):
        snap = game_spec.snapshot(state, None)
        snap.pop("legal", None)
        out.append(orjson.loads(orjson.dumps(snap)))
        if state.is_over:
            break
        if state.is_chance:
            state.play(state.chance_move(chance))
        else:
            moves = list(state.legal_moves())
            state.play(moves[pick.randrange(len(moves))])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="random games of each (3)")
    args = parser.parse_args()
    print("update_deltas: mean bytes a move (compact JSON), a spectator's snapshot")
    print(f"  {'game':<14}{'moves':>7}{'snapshot':>10}{'deltas':>9}{'merge':>9}{'diff µs':>9}")
    for game in GAMES:
        moves = whole = ours = merged = 0
        spent = 0.0
        for seed in range(args.games):
            snaps = snapshots(game, seed)
            for before, after in pairwise(snaps):
                began = time.perf_counter()
                changes = diff(before, after)
                spent += time.perf_counter() - began
                moves += 1
                whole += len(orjson.dumps(after))
                ours += len(orjson.dumps(changes))
                merged += len(orjson.dumps(merge_patch(before, after)))
        print(
            f"  {game:<14}{moves:>7}{whole / moves:>10.0f}{ours / moves:>9.0f}"
            f"{merged / moves:>9.0f}{spent / moves * 1e6:>9.0f}"
        )


if __name__ == "__main__":
    main()
