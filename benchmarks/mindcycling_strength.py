"""Mind Cycling bot against bot, each on the engine it names: seat-swapped races, one
JSON line a game, bot A's trophy share and its Wilson 95% interval. Long runs can be
stopped, resumed and merged.

    python benchmarks/mindcycling_strength.py native:expert python:expert --games 200 \\
        --out expert-engines.jsonl
    nice -n 19 python benchmarks/mindcycling_strength.py native:expert greedy --games 200 \\
        --jobs 2 --out expert-greedy.jsonl
    python benchmarks/mindcycling_strength.py --summary expert-greedy.jsonl other.jsonl

A bot is ``[ENGINE:]NAME``. ``ENGINE`` is ``native`` (the default) or ``python``:
the bot's decisions are made on that engine (``python``: its searches, playouts and
greedy scores run on the pure-Python engine, and the state it is handed is given
back to Python first), so the two engines can meet at the same budget. ``NAME`` is
``expert`` (MCTS with 1 s of the process's *CPU time* a decision, measured with
``time.process_time``, so that a busy machine makes the run slower but never the bot
weaker), ``mcts:Xcpu`` (X s of CPU a decision) or any of the registry's bots
(``greedy``, ``random``, ``mcts:N`` ...). The native engine must be built
(``python -m peloton.native.build``) for a ``native`` bot.

Games come in pairs: games 2k and 2k+1 give the bots the same seeds, bot A in the
first seat in game 2k and in the second in game 2k+1 (with more teams bot B fills the
other seats). Bot A wins a game when its team takes the trophy (MC-8.4).

Each game is written to ``--out`` as one JSON line the moment it ends; a run started
again with the same ``--out`` plays only the games not there yet. ``--summary`` reads
any number of such files (games counted once, by their settings and number) and
prints the figures. Nothing here is asserted by tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from _strength import Tally, Timed, add_arguments, groups, read, run
from peloton import native
from peloton.bots import make_bot, play_out
from peloton.bots.base import Bot
from peloton.bots.mcts import MCTSBot
from peloton.core.errors import ConfigError
from peloton.core.rng import Rng
from peloton.games import mindcycling as mc
from peloton.games.mindcycling import native as bridge
from peloton.games.mindcycling.state import DEFAULT_RELAY_LIMIT

ENGINES = ("native", "python")


@contextmanager
def python_engine() -> Iterator[None]:
    """The pure-Python engine for what runs inside, with the native one active: the
    bridge says it is not there, so no twin, native score or native playout is made."""
    available = bridge.available
    bridge.available = lambda: False  # type: ignore[assignment]
    try:
        yield
    finally:
        bridge.available = available  # type: ignore[assignment]


class EngineBot(Timed):
    """A bot making its decisions on one engine, counting them and their CPU time."""

    def __init__(self, spec: str, seed: int) -> None:
        head, _, rest = spec.partition(":")
        self.engine, name = (head, rest) if head in ENGINES else ("native", spec)
        if self.engine == "native" and native.engine() != "native":
            raise SystemExit(f"{spec}: the native engine is not active ({native.reason()})")
        if name == "expert":
            name = "mcts:1cpu"
        if name.startswith("mcts:") and name.endswith("cpu"):
            self.inner: Bot = MCTSBot(seed, seconds=float(name[5:-3]), clock="cpu")
        else:
            self.inner = make_bot(name, seed, game="mind-cycling")
        super().__init__(self.inner, spec)

    def decide(self, state: Any) -> Any:
        if self.engine == "python":
            state.race  # noqa: B018 - reading it hands a twin's game back to Python
            with python_engine():
                return self.inner.choose(state)
        return self.inner.choose(state)


def settings(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "a": args.a,
        "b": args.b,
        "course": args.course,
        "teams": args.teams,
        "riders": args.riders,
        "wind": args.wind,
        "relay_limit": args.relay_limit,
        "seed": args.seed,
    }


def play(config: dict[str, Any], game: int) -> dict[str, Any]:
    """Game number ``game`` of the run ``config``: one JSON-ready line."""
    wall, cpu = time.perf_counter(), time.process_time()
    seeds = Rng(config["seed"]).spawn(game // 2)
    state = mc.new_game(
        config["course"],
        mc.default_teams(config["teams"], config["riders"]),
        wind=config["wind"],
        relay_limit=config["relay_limit"],
    )
    seat = game % 2
    a_team = state.players[seat]
    a = EngineBot(config["a"], seeds.spawn(10).seed)
    bots = {
        team: a if team == a_team else EngineBot(config["b"], seeds.spawn(20 + i).seed)
        for i, team in enumerate(state.players)
    }
    play_out(state, bots, max_moves=100_000)
    result = state.result
    return {
        **config,
        "game": game,
        "a_team": a_team,
        "trophy": result.trophy,
        "a_won": result.trophy == a_team,
        "points": dict(result.points),
        "moves": len(state.history),
        "rounds": state.round,
        "a_decisions": a.decisions,
        "a_iterations": a.iterations,
        "a_cpu": round(a.cpu, 3),
        "cpu": round(time.process_time() - cpu, 3),
        "wall": round(time.perf_counter() - wall, 3),
    }


def key(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[k] for k in ("a", "b", "course", "teams", "riders", "wind",
                                  "relay_limit", "seed", "game"))  # fmt: skip


def summary(rows: Iterable[dict[str, Any]]) -> list[str]:
    """One paragraph per pair of bots and settings: wins, share, interval, costs."""
    lines = []
    for (a, b, course, teams, riders, wind, relay, seed), group in groups(rows, key):
        t = Tally.of(group)
        lines.append(
            f"{a} vs {b} ({course}, {teams} teams of {riders}, {wind} wind, relay limit "
            f"{relay}, seed {seed}): {a} took the trophy in {t.wins} of {t.games} games "
            f"({t.pairs} complete seat-swapped pairs), share {t.share:.1%}, 95% Wilson "
            f"interval {t.low:.1%}-{t.high:.1%}"
        )
        lines.append(
            f"  {a}: {t.decisions:.1f} decisions a game, {t.playouts:.0f} playouts and "
            f"{t.cpu:.3f} s CPU a decision; {t.rounds:.1f} rounds a game; "
            f"{t.cpu_hours * 60 / t.games:.1f} CPU-minutes a game, "
            f"{t.cpu_hours:.2f} CPU-hours in all"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_arguments(parser)
    parser.add_argument("--course", default="standard")
    parser.add_argument("--teams", type=int, default=2)
    parser.add_argument("--riders", type=int, default=6, help="riders a team (3 to 6)")
    parser.add_argument("--wind", default="front", choices=("front", "left", "right"))
    parser.add_argument("--relay-limit", type=int, default=DEFAULT_RELAY_LIMIT)
    args = parser.parse_args(argv)
    if args.summary:
        for line in summary(read(args.summary, key).values()):
            print(line)
        return 0
    if not args.a or not args.b or args.games < 2 or args.games % 2:
        parser.error("give bots A and B and an even number of games")
    for spec in (args.a, args.b):
        try:
            EngineBot(spec, 0)  # a bad name or a missing engine: said before any game
        except ConfigError as exc:
            parser.error(str(exc))
    return run(args, settings(args), key, play, said, summary)


def said(row: dict[str, Any]) -> str:
    """A finished game's costs, as the run prints them."""
    return (
        f"{row['a_decisions']} decisions, {row['a_cpu']:.0f} s CPU for A, "
        f"{row['cpu']:.0f} s CPU in all"
    )


if __name__ == "__main__":
    sys.exit(main())
