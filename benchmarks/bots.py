"""Decision time per level: the median, 95th percentile and most seconds a move, CPU and wall.

Each level plays a few whole deals against the heuristic bot (seats alternating); only its own
decisions are timed, including the trivial ones (a single legal action), as a player waits for
them.  CPU time (``time.thread_time``) is what the deciding thread spends, the clock the levels'
budgets (``Limit.cpu_budget``) are counted on; on a shared, busy machine the wall clock is
longer.  The promises (``bezique.bots.levels``): ``hard`` 0.1 s a move and ``expert`` 0.3 s, on
any rules the server allows: by default the table is printed for the classic rules and for the
biggest rules the server allows (:data:`BIGGEST`), where a level's moves are capped at
``--moves`` a level.

    python benchmarks/bots.py                  # every level, classic and the biggest rules
    python benchmarks/bots.py --levels hard expert --deals 10 --variant classic

A benchmark, not a test: it prints what it measured and never fails.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bezique import Deal, Rules
from bezique.bots import levels, make

BIGGEST = "classic(players=4,packs=12,hand_size=24,wild_cards=8,extra_nines=24)"
"""The biggest rules the server allows: the most cards, hands, wild cards and nines."""


def quantile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(
    level: str, rules: Rules, deals: int, seed: int, moves: int | None = None
) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of each of the level's decisions over ``deals`` deals (at most
    ``moves`` decisions in all; None: every one)."""
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(deals):
        if moves is not None and len(cpu) >= moves:
            break
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        me = i % rules.players
        bots = [
            make(level if s == me else "heuristic", seed=seed + s) for s in range(rules.players)
        ]
        while not deal.is_over and (moves is None or len(cpu) < moves):
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            w, c = time.perf_counter(), time.thread_time()
            action = bots[seat].choose(obs)
            if seat == me:
                wall.append(time.perf_counter() - w)
                cpu.append(time.thread_time() - c)
            deal.apply(action)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="*", default=levels())
    parser.add_argument(
        "--variant", nargs="*", default=["classic", BIGGEST], help="rules (default: both)"
    )
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--moves", type=int, default=60, help="most decisions a level, big rules")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in args.variant:
        rules = Rules.from_string(variant)
        moves = None if variant == "classic" else args.moves
        print(f"{variant}: {args.deals} deals per level against the heuristic bot")
        print(
            f"{'level':<10}{'moves':>6}{'cpu med':>9}{'cpu p95':>9}{'cpu max':>9}"
            f"{'wall med':>10}{'wall p95':>10}{'wall max':>10}"
        )
        for level in args.levels:
            wall, cpu = measure(level, rules, args.deals, args.seed, moves)
            print(
                f"{level:<10}{len(cpu):>6}{statistics.median(cpu):>9.4f}"
                f"{quantile(cpu, 0.95):>9.4f}{max(cpu):>9.4f}"
                f"{statistics.median(wall):>10.4f}{quantile(wall, 0.95):>10.4f}{max(wall):>10.4f}"
            )


if __name__ == "__main__":
    main()
