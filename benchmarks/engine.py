"""Engine throughput: complete random deals a second, and the cost of clone() and legal_actions().

Run: ``python benchmarks/engine.py [--deals N] [--preset NAME ...]`` (``make bench``).

Each figure is the best of several batches in this one run, so a busy machine shows up as a
spread between batches rather than a wrong figure; the ratio to the goal (1,000 deals a second
on one core) is printed beside it.  Pin the process to one core for steadier figures:
``taskset -c 1 python benchmarks/engine.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bezique import Deal, Rules

GOAL_DEALS_PER_SECOND = 1000


def random_deals(rules: Rules, count: int, seed: int) -> tuple[float, int, int]:
    """Play ``count`` deals choosing uniformly among legal actions;
    (seconds, actions, cards played)."""
    actions = 0
    start = time.perf_counter()
    for i in range(count):
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
            actions += 1
    seconds = time.perf_counter() - start
    plays = 0
    for i in range(count):  # counted apart from the timing
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while not deal.is_over:
            action = rng.choice(deal.legal_actions())
            plays += action.verb == "play"
            deal.apply(action)
    return seconds, actions, plays


def per_call(fn: object, repeat: int) -> float:
    """Best-of-5 time of one call, in microseconds."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            fn()  # type: ignore[operator]
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def midgame(rules: Rules, seed: int, steps: int) -> Deal:
    """A deal some random steps in, for the per-call costs."""
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def bench(rules: Rules, deals: int, batches: int) -> dict[str, float]:
    """Deals a second (best and median batch), actions a second, and per-call costs."""
    rates, action_rates, card_costs = [], [], []
    for b in range(batches):
        seconds, actions, plays = random_deals(rules, deals, seed=1000 * b)
        rates.append(deals / seconds)
        action_rates.append(actions / seconds)
        card_costs.append(seconds / plays * 1e6)
    deal = midgame(rules, seed=3, steps=20)

    def fresh_legal() -> None:
        deal._legal = None  # measure the computation, not the cache
        deal.legal_actions()

    return {
        "deals_best": max(rates),
        "deals_median": statistics.median(rates),
        "actions_best": max(action_rates),
        "card_us": min(card_costs),
        "clone_us": per_call(deal.clone, 5000),
        "legal_us": per_call(fresh_legal, 5000),
        "new_us": per_call(lambda: Deal.new(rules, seed=5), 1000),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per batch (default 300)")
    parser.add_argument("--batches", type=int, default=5, help="batches (default 5)")
    parser.add_argument(
        "--preset", action="append", help="preset(s) to measure (default: every preset)"
    )
    args = parser.parse_args()
    presets = args.preset or Rules.presets()
    print(
        f"{'preset':<12} {'deals/s best':>12} {'median':>8} {'vs goal':>8} "
        f"{'actions/s':>10} {'µs/card':>8} {'vs classic':>10} {'clone µs':>9} "
        f"{'legal µs':>9} {'new µs':>7}"
    )
    classic_card = bench(Rules.preset("classic"), args.deals, args.batches)["card_us"]
    for name in presets:
        r = bench(Rules.preset(name), args.deals, args.batches)
        print(
            f"{name:<12} {r['deals_best']:>12.0f} {r['deals_median']:>8.0f} "
            f"{r['deals_best'] / GOAL_DEALS_PER_SECOND:>7.2f}x {r['actions_best']:>10.0f} "
            f"{r['card_us']:>8.1f} {r['card_us'] / classic_card:>9.2f}x "
            f"{r['clone_us']:>9.1f} {r['legal_us']:>9.1f} {r['new_us']:>7.1f}"
        )
    print(
        "vs goal: classic deals a second / 1000 (goal >= 1); vs classic: time per card played "
        "relative to classic in this run (goal <= 5 for every preset)"
    )


if __name__ == "__main__":
    main()
