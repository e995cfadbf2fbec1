"""Cyclo bot against bot: seat-swapped races, one JSON line a game, win share and
its Wilson 95% interval. Long runs can be stopped, resumed and merged.

    python benchmarks/cyclo_strength.py greedy random --games 200 --out gr.jsonl
    nice -n 19 python benchmarks/cyclo_strength.py mcts:1cpu greedy --games 200 \\
        --jobs 2 --out mg.jsonl
    python benchmarks/cyclo_strength.py --summary mg.jsonl other-machine.jsonl

Bots are the registry's names for Cyclo (``random``, ``greedy``, ``expert``,
``mcts:N``, ``mcts:Xs`` ...) and ``mcts:Xcpu``: the MCTS bot with X seconds of the
process's *CPU time* a decision (``MCTSBot(clock="cpu")``), so that a busy machine
makes the run slower but never the bot weaker. Run it under ``nice`` and it leaves
the machine to everything else.

Games come in pairs over a fixed list of seeds: games 2k and 2k+1 are played with
the same dice and cards (``Rng(seed).spawn(k)``) and each bot's own stream, bot A
in the first seat in game 2k and in the second in game 2k+1 (with more teams bot B
fills the other seats, and A rides seats 1 and 2 only). The mode, course, level,
number of teams and entries are options (default: Pro classics on ``flemish-4``, 2
teams; ``--mode`` any Cyclo mode on its default course, ``--course default``). A team
wins what the mode ranks: its best rider first across the line (CY-8.4), the best time
(its third rider's in the team modes, CY-10.3), the most points (CY-11.2), the last
rider standing (CY-11.5).

Each game is written to ``--out`` as one JSON line the moment it ends (the winner,
the moves and rounds, and bot A's decisions, playouts and CPU time); a run started
again with the same ``--out`` plays only the games not there yet. ``--summary``
reads any number of such files (games counted once, by their settings and number)
and prints the figures. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from peloton.analysis.stats import wilson
from peloton.bots import make_bot, play_out
from peloton.bots.base import Bot
from peloton.bots.mcts import MCTSBot
from peloton.core.rng import Rng
from peloton.games import cyclo as cy

#: The modes whose teams field 1 or 2 riders (option ``entries``).
ENTRIES = tuple(m for m in cy.AVAILABLE if cy.MODES[m].riders is None)


def bot(spec: str, seed: int) -> Bot:
    """The bot ``spec`` names: ``mcts:Xcpu``, or any of the registry's Cyclo bots."""
    if spec.startswith("mcts:") and spec.endswith("cpu"):
        made = MCTSBot(seed, seconds=float(spec[5:-3]), clock="cpu")
        made.name = spec
        return made
    return make_bot(spec, seed, game="cyclo")


class Timed:
    """Bot A, counting its decisions, its playouts and the CPU time they took."""

    def __init__(self, inner: Bot) -> None:
        self.inner, self.name = inner, inner.name
        self.decisions, self.iterations, self.cpu = 0, 0, 0.0

    def choose(self, state: Any) -> Any:
        start = time.process_time()
        move = self.inner.choose(state)
        self.cpu += time.process_time() - start
        self.decisions += 1
        self.iterations += getattr(self.inner, "last_iterations", 0)
        return move


def settings(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "a": args.a,
        "b": args.b,
        "mode": args.mode,
        "entries": args.entries,
        "course": args.course,
        "level": args.level,
        "teams": args.teams,
        "seed": args.seed,
    }


def play(config: dict[str, Any], game: int) -> dict[str, Any]:
    """Game number ``game`` of the run ``config``: one JSON-ready line."""
    wall, cpu = time.perf_counter(), time.process_time()
    stream = Rng(config["seed"]).spawn(game // 2)
    options = {
        "mode": config.get("mode", "classic"),
        "level": config["level"],
        "players": config["teams"],
        "entries": config.get("entries", 1),
    }
    if config["course"] != "default":
        options["course"] = config["course"]
    state = cy.from_options(options)
    seat = game % 2
    a_team = state.players[seat]
    timed = Timed(bot(config["a"], stream.spawn(10 + seat).seed))
    bots: dict[str, Any] = {
        team: timed if team == a_team else bot(config["b"], stream.spawn(20 + i).seed)
        for i, team in enumerate(state.players)
    }
    play_out(state, bots, chance=stream.spawn(1), max_moves=100_000)
    winner = state.result.winner_team
    return {
        **config,
        "game": game,
        "a_team": a_team,
        "winner": winner,
        "a_won": winner == a_team,
        "moves": len(state.history),
        "rounds": state.round,
        "a_decisions": timed.decisions,
        "a_iterations": timed.iterations,
        "a_cpu": round(timed.cpu, 3),
        "cpu": round(time.process_time() - cpu, 3),
        "wall": round(time.perf_counter() - wall, 3),
    }


def read(paths: Iterable[Path]) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The games in ``paths``, each once, keyed by its settings and number."""
    games: dict[tuple[Any, ...], dict[str, Any]] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                games[key(row)] = row
    return games


def key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        row["a"],
        row["b"],
        row.get("mode", "classic"),
        row.get("entries", 1),
        row["course"],
        row["level"],
        row["teams"],
        row["seed"],
        row["game"],
    )


def summary(rows: Iterable[dict[str, Any]]) -> list[str]:
    """One paragraph per pair of bots and settings: wins, share, interval, costs."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault(key(row)[:-1], []).append(row)
    lines = []
    for (a, b, mode, entries, course, level, teams, seed), group in sorted(groups.items()):
        n = len(group)
        wins = sum(r["a_won"] for r in group)
        low, high = wilson(wins, n)
        numbers = {r["game"] for r in group}
        pairs = sum(1 for g in numbers if g % 2 == 0 and g + 1 in numbers)
        decisions = sum(r["a_decisions"] for r in group)
        lines.append(
            f"{a} vs {b} ({level} {mode} on {course}, {teams} teams of {entries if mode in ENTRIES else cy.MODES[mode].riders}, seed {seed}): "
            f"{a} won {wins} of {n} games ({pairs} complete seat-swapped pairs), "
            f"share {wins / n:.1%}, 95% Wilson interval {low:.1%}-{high:.1%}"
        )
        lines.append(
            f"  {a}: {decisions / n:.1f} decisions a game, "
            f"{sum(r['a_iterations'] for r in group) / max(decisions, 1):.0f} playouts and "
            f"{sum(r['a_cpu'] for r in group) / max(decisions, 1):.3f} s CPU a decision; "
            f"{sum(r['rounds'] for r in group) / n:.1f} rounds a game; "
            f"{sum(r['cpu'] for r in group) / 3600:.2f} CPU-hours, "
            f"{sum(r['wall'] for r in group) / 3600:.2f} game-hours of wall clock"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a", nargs="?", help="bot A, whose share is measured")
    parser.add_argument("b", nargs="?", help="bot B, the opponent (every other seat)")
    parser.add_argument(
        "--games", type=int, default=200, help="games, an even number (default 200)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--mode", default="classic", choices=cy.AVAILABLE)
    parser.add_argument("--entries", type=int, default=1, choices=(1, 2))
    parser.add_argument(
        "--course",
        default=None,
        help="a course (default: flemish-4 for a classic, else the mode's)",
    )
    parser.add_argument("--level", default="pro", choices=("pro", "starter"))
    parser.add_argument("--teams", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--out", type=Path, help="JSONL file: results are appended, and a rerun resumes"
    )
    parser.add_argument(
        "--summary", type=Path, nargs="+", metavar="JSONL", help="only print these files' figures"
    )
    args = parser.parse_args(argv)
    if args.summary:
        for line in summary(read(args.summary).values()):
            print(line)
        return 0
    if not args.a or not args.b or args.games < 2 or args.games % 2:
        parser.error("give bots A and B and an even number of games")
    if args.course is None:
        args.course = "flemish-4" if args.mode == "classic" else "default"
    config = settings(args)
    done = read([args.out]) if args.out else {}
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
                    f"game {row['game']}: {'A' if row['a_won'] else 'B'} "
                    f"({row['a_decisions']} decisions, {row['a_cpu']:.0f} s CPU, {row['wall']:.0f} s)",
                    flush=True,
                )
    finally:
        if out is not None:
            out.close()
    mine = [r for r in done.values() if key(r)[:-1] == key({**config, "game": 0})[:-1]]
    for line in summary(mine):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
