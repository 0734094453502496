"""Decision time per level: the median and 95th percentile seconds a move, wall clock and CPU.

Each level plays a few whole deals against the heuristic bot (seats alternating); only its own
decisions are timed, including the trivial ones (a single legal action), as a player waits for
them.  CPU time (``time.process_time``) is what one core spends; on a shared, busy machine the
wall clock is longer.  The goals (docs/strength.md): ``expert`` at most 1 s a move and ``hard``
at most 0.3 s, median, on one core.

    python benchmarks/bots.py                  # every level, classic, 4 deals each
    python benchmarks/bots.py --levels hard expert --deals 10 --variant classic

A benchmark, not a test: it prints what it measured and never fails.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bezique import Deal, Rules
from bezique.bots import levels, make


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(level: str, rules: Rules, deals: int, seed: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each of the level's decisions over ``deals`` deals."""
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(deals):
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        me = i % rules.players
        bots = [
            make(level if s == me else "heuristic", seed=seed + s) for s in range(rules.players)
        ]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            w, c = time.perf_counter(), time.process_time()
            action = bots[seat].choose(obs)
            if seat == me:
                wall.append(time.perf_counter() - w)
                cpu.append(time.process_time() - c)
            deal.apply(action)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="*", default=levels())
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.from_string(args.variant)
    print(f"{args.variant}: {args.deals} deals per level against the heuristic bot")
    print(
        f"{'level':<10}{'moves':>6}{'cpu med':>10}{'cpu p95':>10}{'wall med':>10}{'wall p95':>10}"
    )
    for level in args.levels:
        wall, cpu = measure(level, rules, args.deals, args.seed)
        print(
            f"{level:<10}{len(cpu):>6}{statistics.median(cpu):>10.4f}{quantile(cpu, 0.95):>10.4f}"
            f"{statistics.median(wall):>10.4f}{quantile(wall, 0.95):>10.4f}"
        )


if __name__ == "__main__":
    main()
