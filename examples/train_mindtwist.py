"""Train a small Mind Twist agent with the cross-entropy method, numpy only, and report
its win rate against the random and greedy bots.

    python examples/train_mindtwist.py [--iterations 10] [--population 16]
        [--episodes 16] [--eval 400] [--seed 1]

**The agent** is a linear softmax policy over the environment's observation: the
probability of each legal action is ``softmax(observation @ W + b)`` over the legal
actions only (the action mask), so it can bluff as a mixed strategy must in Mind
Twist. ``W`` and ``b`` are 18 x 7 numbers (17 features and the bias).

**The method** is the cross-entropy method: each iteration draws ``--population``
parameter vectors from a Gaussian, scores each by its mean reward over ``--episodes``
games in ``peloton.rl.gym_env("mind-twist")`` (half against the random bot, half
against the greedy one, as red and as blue), and refits the Gaussian's mean and
spread to the best fifth. Every candidate of an iteration plays the same seeds, so
the comparison is fair. The defaults train in a minute or two on one CPU core.

**The report** plays ``--eval`` fresh games against each bot, half as each colour,
with the untrained (uniform random) policy and then the trained one.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from peloton import rl

BOTS = ("random", "greedy")
SEATS = ("R", "B")


def make_envs() -> dict[tuple[str, str], object]:
    """One environment per (bot, seat): the agent's seat against that bot."""
    return {
        (bot, seat): rl.gym_env("mind-twist", seat=seat, bots=bot) for bot in BOTS for seat in SEATS
    }


def act(params: np.ndarray | None, obs: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    """The policy's action: a softmax over the legal actions (uniform without ``params``)."""
    legal = np.flatnonzero(obs["action_mask"])
    if params is None:
        return int(rng.choice(legal))
    features = np.append(obs["observation"], 1.0)  # the bias as a constant feature
    logits = features @ params.reshape(len(features), -1)
    logits = logits[legal] - logits[legal].max()
    odds = np.exp(logits)
    return int(rng.choice(legal, p=odds / odds.sum()))


def play(env: object, params: np.ndarray | None, seed: int) -> float:
    """One game's reward (1 a win, -1 a loss)."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    while True:
        obs, reward, terminated, truncated, _ = env.step(act(params, obs, rng))  # type: ignore[attr-defined]
        if terminated or truncated:
            return float(reward)


def score(envs: dict[tuple[str, str], object], params: np.ndarray, seeds: list[int]) -> float:
    """The mean reward over ``seeds``, each seed played in every (bot, seat) pairing."""
    rewards = [play(env, params, seed) for seed in seeds for env in envs.values()]
    return float(np.mean(rewards))


def win_rates(
    envs: dict[tuple[str, str], object], params: np.ndarray | None, games: int, seed: int
) -> dict[str, float]:
    """Each bot's share of games the policy wins, over ``games`` games half per seat."""
    rates = {}
    for bot in BOTS:
        wins = 0
        for i in range(games):
            env = envs[(bot, SEATS[i % 2])]
            wins += play(env, params, seed + i) > 0
        rates[bot] = wins / games
    return rates


def train(args: argparse.Namespace, envs: dict[tuple[str, str], object]) -> np.ndarray:
    """The cross-entropy method (see the module docstring); the final mean parameters."""
    any_env = next(iter(envs.values()))
    size = (any_env.observation_space["observation"].shape[0] + 1) * any_env.action_space.n  # type: ignore[attr-defined]
    rng = np.random.default_rng(args.seed)
    mean, spread = np.zeros(size), np.full(size, 2.0)
    elite = max(2, args.population // 5)
    per_pairing = max(1, args.episodes // len(envs))
    for iteration in range(args.iterations):
        seeds = [int(s) for s in rng.integers(2**31, size=per_pairing)]
        candidates = mean + spread * rng.standard_normal((args.population, size))
        scores = np.array([score(envs, c, seeds) for c in candidates])
        best = candidates[np.argsort(scores)[-elite:]]
        mean, spread = best.mean(axis=0), best.std(axis=0) + 0.05
        print(
            f"iteration {iteration + 1:2d}: best {scores.max():+.2f}, "
            f"elite mean {np.sort(scores)[-elite:].mean():+.2f}, population mean {scores.mean():+.2f}",
            flush=True,
        )
    return mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--episodes", type=int, default=16, help="games per candidate")
    parser.add_argument("--eval", type=int, default=400, help="games against each bot")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    envs = make_envs()
    started = time.perf_counter()
    params = train(args, envs)
    took = time.perf_counter() - started
    eval_seed = 10**6 + args.seed
    before = win_rates(envs, None, args.eval, eval_seed)
    after = win_rates(envs, params, args.eval, eval_seed)
    print(f"trained in {took:.0f} s ({args.iterations} iterations of {args.population})")
    print(f"win rate over {args.eval} games per bot, half as red, half as blue:")
    print(f"{'policy':<10} {'vs random':>10} {'vs greedy':>10}")
    for name, rates in (("untrained", before), ("trained", after)):
        print(f"{name:<10} {rates['random']:>10.1%} {rates['greedy']:>10.1%}")


if __name__ == "__main__":
    main()
