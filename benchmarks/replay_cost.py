"""What a replay costs as a game grows: the server's replay of a table (as a player and
as a spectator see it) and of an uploaded record, for records of each game cut at
growing lengths.

A replay should cost in proportion to its moves: the ratio column divides each
length's time by the first length's and by the length ratio, so 1.0 means linear
and 4.0 at four times the moves means quadratic.

    python benchmarks/replay_cost.py [--lengths 300,1200] [--games mind-twist,pistard]

Each game is played by random legal moves from a seed (dice from a seeded stream);
Mind Twist's guesser guesses right most of the time, so its game runs long (up to
its turn limit). Prints figures only: the median of ``--repeat`` runs, CPU seconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import orjson

from peloton.core.rng import Rng
from peloton.server.games import spec
from peloton.server.work import jobs

GAMES = ("mind-twist", "pistard", "mind-cycling", "cyclo")
#: Options that make a game long enough to cut at the lengths measured.
LONG = {"mind-twist": {"length": 60}}


def moves_of(game: str, seed: int, most: int) -> tuple[dict[str, Any], list[str]]:
    """The options and the first ``most`` moves of a seeded game."""
    game_spec = spec(game)
    options = {**game_spec.defaults(), **LONG.get(game, {})}
    state = game_spec.new_state(options, seed)
    chance, pick = Rng(seed), random.Random(seed)
    texts: list[str] = []
    while len(texts) < most and not state.is_over:
        if state.is_chance:
            move = state.chance_move(chance)
        else:
            legal = state.legal_moves()
            move = _long_game_move(state, legal, pick) if game == "mind-twist" else None
            move = move if move is not None else pick.choice(legal)
        texts.append(str(move))
        state.play(move)
    return options, texts


def _long_game_move(state: Any, legal: list[Any], pick: random.Random) -> Any:
    """Mind Twist: dial 1, and guess it right nine times in ten (the dialer stays)."""
    dial = getattr(state, "dial", None)
    for move in legal:
        if dial is None and str(move) == "dial:1":
            return move
        if dial is not None and str(move) == "guess:1" and pick.random() < 0.9:
            return move
    return None


def cpu(run: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="300,1200")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]
    options_of: dict[str, dict[str, Any]] = {}
    print(f"{'game':<13}{'moves':>7}{'player s':>10}{'watcher s':>11}{'record s':>10}{'ratio':>7}")
    for game in args.games.split(","):
        options, texts = moves_of(game, args.seed, max(lengths))
        options_of[game] = options
        seat = spec(game).letters[0]
        first: tuple[int, float] | None = None
        for n in lengths:
            if n > len(texts):
                print(f"{game:<13}{n:>7}  (the game ended after {len(texts)} moves)")
                continue
            cut = texts[:n]
            record = _record(game, options, args.seed, cut)

            def as_player(cut: list[str] = cut, game: str = game, seat: str = seat) -> None:
                jobs.table_replay(game, options_of[game], args.seed, cut, seat, {})

            def as_watcher(cut: list[str] = cut, game: str = game) -> None:
                jobs.table_replay(game, options_of[game], args.seed, cut, None, {})

            def uploaded(record: bytes = record) -> None:
                status, _, _ = jobs.upload_replay(record)
                assert status == "ok", status

            player, watcher, upload = (
                cpu(f, args.repeat) for f in (as_player, as_watcher, uploaded)
            )
            if first is None:
                first = (n, watcher)
            ratio = (watcher / first[1]) / (n / first[0]) if first[1] else float("nan")
            print(f"{game:<13}{n:>7}{player:>10.3f}{watcher:>11.3f}{upload:>10.3f}{ratio:>7.2f}")


def _record(game: str, options: dict[str, Any], seed: int, texts: list[str]) -> bytes:
    game_spec = spec(game)
    state = game_spec.new_state(options, seed)
    for text in texts:
        state.play(text)
    return orjson.dumps(game_spec.record(state, {}, seed).to_dict())


if __name__ == "__main__":
    main()
