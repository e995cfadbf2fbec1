"""What the strength benchmarks share (``mindcycling_strength.py``,
``cyclo_strength.py``): bot A against bot B over seat-swapped games, each game one
JSON line appended to ``--out`` the moment it ends, a rerun with the same file
playing only the games not there yet, files read back with each game once, and the
figures of a group of games (share, Wilson interval, costs)."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from peloton.analysis.stats import wilson
from peloton.bots.base import Bot

Row = dict[str, Any]
#: A game's settings and number, what it is found by (its last item is the number).
Key = Callable[[Row], tuple[Any, ...]]


class Timed:
    """Bot A, counting its decisions, its playouts and the CPU time they took."""

    def __init__(self, inner: Bot, name: str | None = None) -> None:
        self.inner, self.name = inner, name or inner.name
        self.decisions, self.iterations, self.cpu = 0, 0, 0.0

    def choose(self, state: Any) -> Any:
        start = time.process_time()
        move = self.decide(state)
        self.cpu += time.process_time() - start
        self.decisions += 1
        self.iterations += getattr(self.inner, "last_iterations", 0)
        return move

    def decide(self, state: Any) -> Any:
        """The move (a subclass may make it elsewhere, on another engine say)."""
        return self.inner.choose(state)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments every strength run takes: the two bots, the games, the seed, the
    processes, the results file and ``--summary``."""
    parser.add_argument("a", nargs="?", help="bot A, whose share is measured")
    parser.add_argument("b", nargs="?", help="bot B, the opponent (every other seat)")
    parser.add_argument(
        "--games", type=int, default=200, help="games, an even number (default 200)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--out", type=Path, help="JSONL file: results are appended, and a rerun resumes"
    )
    parser.add_argument(
        "--summary", type=Path, nargs="+", metavar="JSONL", help="only print these files' figures"
    )


def read(paths: Iterable[Path], key: Key) -> dict[tuple[Any, ...], Row]:
    """The games in ``paths``, each once, by ``key``."""
    games: dict[tuple[Any, ...], Row] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                games[key(row)] = row
    return games


def groups(rows: Iterable[Row], key: Key) -> list[tuple[tuple[Any, ...], list[Row]]]:
    """The games by their settings (``key`` less the game's number), sorted."""
    found: dict[tuple[Any, ...], list[Row]] = {}
    for row in rows:
        found.setdefault(key(row)[:-1], []).append(row)
    return sorted(found.items())


@dataclass
class Tally:
    """The figures of a group of games of one pair of bots and settings."""

    games: int
    wins: int
    low: float
    high: float
    pairs: int  # complete seat-swapped pairs
    decisions: float  # bot A's a game
    playouts: float  # bot A's a decision
    cpu: float  # bot A's CPU seconds a decision
    rounds: float  # a game
    cpu_hours: float  # the games', in all

    @property
    def share(self) -> float:
        return self.wins / self.games

    @classmethod
    def of(cls, group: list[Row]) -> Tally:
        n = len(group)
        wins = sum(r["a_won"] for r in group)
        low, high = wilson(wins, n)
        numbers = {r["game"] for r in group}
        decisions = sum(r["a_decisions"] for r in group)
        return cls(
            games=n,
            wins=wins,
            low=low,
            high=high,
            pairs=sum(1 for g in numbers if g % 2 == 0 and g + 1 in numbers),
            decisions=decisions / n,
            playouts=sum(r["a_iterations"] for r in group) / max(decisions, 1),
            cpu=sum(r["a_cpu"] for r in group) / max(decisions, 1),
            rounds=sum(r["rounds"] for r in group) / n,
            cpu_hours=sum(r["cpu"] for r in group) / 3600,
        )


def run(
    args: argparse.Namespace,
    config: Row,
    key: Key,
    play: Callable[[Row, int], Row],
    said: Callable[[Row], str],
    summary: Callable[[Iterable[Row]], list[str]],
) -> int:
    """Play the games of ``config`` not in ``args.out`` yet over ``args.jobs``
    processes (``play(config, number)`` gives a game's line), appending each to the
    file as it ends and printing ``said(line)``; then the run's figures."""
    done = read([args.out], key) if args.out else {}
    todo = [g for g in range(args.games) if key({**config, "game": g}) not in done]
    print(f"{len(todo)} of {args.games} games to play", flush=True)
    out = args.out.open("a") if args.out else None
    try:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(play, config, g) for g in todo]
            for future in as_completed(futures):
                row = future.result()
                done[key(row)] = row
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                print(
                    f"game {row['game']}: {'A' if row['a_won'] else 'B'} ({said(row)})", flush=True
                )
    finally:
        if out is not None:
            out.close()
    mine = [r for r in done.values() if key(r)[:-1] == key({**config, "game": 0})[:-1]]
    for line in summary(mine):
        print(line)
    return 0
