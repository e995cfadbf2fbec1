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
import sys
import time
from collections.abc import Iterable
from typing import Any

from _strength import Tally, Timed, add_arguments, groups, read, run
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
    lines = []
    for (a, b, mode, entries, course, level, teams, seed), group in groups(rows, key):
        t = Tally.of(group)
        riders = entries if mode in ENTRIES else cy.MODES[mode].riders
        lines.append(
            f"{a} vs {b} ({level} {mode} on {course}, {teams} teams of {riders}, seed {seed}): "
            f"{a} won {t.wins} of {t.games} games ({t.pairs} complete seat-swapped pairs), "
            f"share {t.share:.1%}, 95% Wilson interval {t.low:.1%}-{t.high:.1%}"
        )
        lines.append(
            f"  {a}: {t.decisions:.1f} decisions a game, {t.playouts:.0f} playouts and "
            f"{t.cpu:.3f} s CPU a decision; {t.rounds:.1f} rounds a game; "
            f"{t.cpu_hours:.2f} CPU-hours, "
            f"{sum(r['wall'] for r in group) / 3600:.2f} game-hours of wall clock"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    parser.add_argument("--mode", default="classic", choices=cy.AVAILABLE)
    parser.add_argument("--entries", type=int, default=1, choices=(1, 2))
    parser.add_argument(
        "--course",
        default=None,
        help="a course (default: flemish-4 for a classic, else the mode's)",
    )
    parser.add_argument("--level", default="pro", choices=("pro", "starter"))
    parser.add_argument("--teams", type=int, default=2)
    args = parser.parse_args(argv)
    if args.summary:
        for line in summary(read(args.summary, key).values()):
            print(line)
        return 0
    if not args.a or not args.b or args.games < 2 or args.games % 2:
        parser.error("give bots A and B and an even number of games")
    if args.course is None:
        args.course = "flemish-4" if args.mode == "classic" else "default"
    return run(args, settings(args), key, play, said, summary)


def said(row: dict[str, Any]) -> str:
    """A finished game's costs, as the run prints them."""
    return f"{row['a_decisions']} decisions, {row['a_cpu']:.0f} s CPU, {row['wall']:.0f} s"


if __name__ == "__main__":
    sys.exit(main())
