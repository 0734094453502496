"""The research adapters' speed: a random episode (one deal) through each adapter, relative to
the same through the bare core.

Run: ``python benchmarks/envs.py [--deals N] [--preset NAME ...]``.

*core*: ``Deal.new`` and a uniformly random legal action until the deal is over.  *gymnasium*:
``BeziqueEnv`` with random bots in the other seats and a random legal id (from the mask) for the
agent.  *pettingzoo*: ``BeziqueAECEnv``, a random legal id for every agent.  Both adapters run
twice: on the compiled engine where it is built (``engine="auto"``, the default) and on the
reference core (``-ref``, ``engine="reference"``).  *openspiel*:
``python_bezique``, the chance nodes of the shuffle sampled, then a random legal action; it too
runs on the compiled engine (``engine=auto``) and on the reference core (``openspiel-ref``).  Each
figure is the CPU time of this process per deal (``time.process_time``, so other jobs on a busy
machine slow every row alike), best of three batches in this one run, and the ratio to the
core's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel

from bezique import Deal, Rules
from bezique.envs.gymnasium_env import BeziqueEnv
from bezique.envs.openspiel_game import load
from bezique.envs.pettingzoo_env import BeziqueAECEnv


def core(rules: Rules, seed: int) -> None:
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))


def gymnasium_env(rules: Rules, engine: str = "auto") -> Callable[[int], None]:
    env = BeziqueEnv(rules, opponents="random", engine=engine)
    rng = np.random.default_rng(0)

    def run(seed: int) -> None:
        obs, _ = env.reset(seed=seed)
        while True:
            obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if terminated:
                return

    return run


def pettingzoo_env(rules: Rules, engine: str = "auto") -> Callable[[int], None]:
    env = BeziqueAECEnv(rules, engine=engine)
    rng = np.random.default_rng(0)

    def run(seed: int) -> None:
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))

    return run


def openspiel_game(rules: Rules, engine: str = "auto") -> Callable[[int], None]:
    game: pyspiel.Game = load(rules, engine=engine)

    def run(seed: int) -> None:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions, probs = zip(*outcomes, strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return run


def best_of(run: Callable[[int], None], deals: int, batches: int = 3) -> float:
    """CPU seconds per deal, best of ``batches`` batches of ``deals`` deals."""
    best = float("inf")
    for b in range(batches):
        start = time.process_time()
        for i in range(deals):
            run(1000 * b + i)
        best = min(best, (time.process_time() - start) / deals)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10, help="deals per batch")
    parser.add_argument("--preset", nargs="*", default=["classic", "rubicon"])
    args = parser.parse_args()
    print(f"{'preset':<12} {'adapter':<14} {'ms/deal':>9} {'x core':>7}")
    for name in args.preset:
        rules = Rules.preset(name)
        base = best_of(lambda seed, r=rules: core(r, seed), args.deals)
        print(f"{name:<12} {'core':<14} {base * 1e3:>9.1f} {1.0:>7.1f}")
        builds: tuple[tuple[str, Callable[[Rules], Callable[[int], None]]], ...] = (
            ("gymnasium", gymnasium_env),
            ("gymnasium-ref", lambda r: gymnasium_env(r, "reference")),
            ("pettingzoo", pettingzoo_env),
            ("pettingzoo-ref", lambda r: pettingzoo_env(r, "reference")),
            ("openspiel", openspiel_game),
            ("openspiel-ref", lambda r: openspiel_game(r, "reference")),
        )
        for label, build in builds:
            t = best_of(build(rules), args.deals)
            print(f"{name:<12} {label:<14} {t * 1e3:>9.1f} {t / base:>7.1f}")


if __name__ == "__main__":
    main()
