"""The bots' fixed ratings at the web table: every pair of a game's bots plays
``--games`` two-seat games (``peloton simulate``'s matches, the seats swapped every
game), and the table's model (:data:`peloton.server.live.ratings.MODEL`) rates the bots
from all those results in game order. The ratings are written to ``src/peloton/server/live/bot_ratings.json``, which
the server ships and never changes (docs/decisions.md, "Ratings").

    python benchmarks/bot_ratings.py --games 4 --game mind-twist --out /tmp/bots.json

prints each bot's rating (mu, sigma and the ordinal mu − 3σ) and the seconds taken.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations
from pathlib import Path
from typing import Any

from peloton.analysis.match import Match, run_match
from peloton.server.games import available, bots_for
from peloton.server.live.ratings import BOT_RATINGS, MODEL, ordinal

#: Bots too slow to play many games here get a smaller thinking budget in the games
#: that rate them; at a table they think with their own (a bot rated with less time
#: is, if anything, rated below its strength at the table).
BUDGET = {"mcts": "mcts:0.05s"}


def rate_game(game: str, bots: list[str], games: int, seed: int) -> dict[str, Any]:
    """``{bot: [mu, sigma]}`` of ``game``'s ``bots``, from two-seat matches of every pair."""
    results: list[tuple[list[int], list[int]]] = []
    for pair_index, (a, b) in enumerate(combinations(range(len(bots)), 2)):
        match = Match(
            game=game,
            bots=(BUDGET.get(bots[a], bots[a]), BUDGET.get(bots[b], bots[b])),
            games=games,
            seed=seed + pair_index,
            swap=True,
        )
        match.check()
        started = time.perf_counter()
        for outcome in run_match(match, 1, lambda _: None):
            entries = [(a, b)[seat] for seat in outcome.lineup]
            results.append((entries, outcome.ranks))
        took = time.perf_counter() - started
        print(f"  {bots[a]} v {bots[b]}: {games} games, {took:.1f} s", flush=True)
    rated = {bot: MODEL.rating() for bot in bots}
    for entries, ranks in results:
        new = MODEL.rate([[rated[bots[e]]] for e in entries], ranks=ranks)
        for e, team in zip(entries, new, strict=True):
            rated[bots[e]] = team[0]
    return {bot: [round(r.mu, 3), round(r.sigma, 3)] for bot, r in rated.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per pair of bots")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=BOT_RATINGS)
    args = parser.parse_args()
    names = args.game or [spec.name for spec in available()]
    out: dict[str, Any] = {
        "about": "Fixed ratings of the bots (openskill, mu and sigma), "
        "from benchmarks/bot_ratings.py",
        "games_per_pair": args.games,
        "ratings": {},
    }
    if args.out.is_file():  # other games keep the ratings they had
        out["ratings"] = json.loads(args.out.read_text(encoding="utf-8")).get("ratings", {})
    for game in names:
        started = time.perf_counter()
        rated = rate_game(game, bots_for(game), args.games, args.seed)
        out["ratings"][game] = rated
        took = time.perf_counter() - started
        print(f"{game}: {took:.0f} s")
        for bot, (mu, sigma) in sorted(rated.items(), key=lambda b: -ordinal(*b[1])):
            print(f"  {bot:10} {ordinal(mu, sigma):7.2f}  ({mu:.2f} ± {sigma:.2f})")
        # Written after each game: a long run keeps what it measured.
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"written {args.out}", flush=True)


if __name__ == "__main__":
    main()
