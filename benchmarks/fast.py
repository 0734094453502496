"""The compiled engine against the reference core, as ratios from one run.

Run: ``python benchmarks/fast.py [--preset NAME ...] [--seconds S]`` (pin it to one core for
steadier figures: ``taskset -c 1 python benchmarks/fast.py``).

Every figure is CPU time of this process (``time.process_time``), so other jobs on a busy
machine slow both engines alike and the ratios stay put; the speed goals are printed
beside the figures:

* ``simulate``: random deals a second inside C (``bezique.fast.simulate``) against the reference
  core playing random deals (``Deal.new`` and ``apply`` of a random legal action) — classic
  >= 100,000 deals a second and >= 50x, every other preset >= 30x;
* ``per action``: a ``legal_ids``/``apply_id`` loop over random deals, ``FastDeal`` against
  ``Deal`` — >= 5x;
* ``playouts``: ``FastDeal.playout`` from a stage-1 state, a second — >= 20,000;
* ``solve``: the stage-2 solver from the start of stage 2 (classic), median µs — <= 100.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bezique import Deal, Rules, fast


def rate(fn: Callable[[int], int], seconds: float) -> float:
    """Units a CPU second of ``fn(batch)`` (which returns the units it did), best of batches
    grown until one takes a tenth of ``seconds``."""
    batch, best, spent = 1, 0.0, 0.0
    while spent < seconds:
        start = time.process_time()
        units = fn(batch)
        took = getattr(fn, "took", time.process_time() - start)  # set-up left out
        spent += took
        if took < seconds / 10:
            batch *= 2
            continue
        best = max(best, units / took)
    return best


def reference_deals(rules: Rules) -> Callable[[int], int]:
    """Random deals in the reference core."""
    counter = [0]

    def run(n: int) -> int:
        for _ in range(n):
            counter[0] += 1
            deal = Deal.new(rules, seed=counter[0], dealer=counter[0] % rules.players)
            rng = random.Random(counter[0])
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))
        return n

    return run


def fast_deals(rules: Rules) -> Callable[[int], int]:
    """Random deals inside C."""
    counter = [0]

    def run(n: int) -> int:
        counter[0] += 1
        fast.simulate(rules, n, seed=counter[0])
        return n

    return run


def id_loop(rules: Rules, make: Callable[[Deal], Any]) -> Callable[[int], int]:
    """Actions a CPU second of a legal_ids/apply_id loop over random deals; the deals are
    dealt (and, for the fast engine, copied) before the clock starts."""
    counter = [0]

    def run(n: int) -> int:
        starts = []
        for _ in range(n):
            counter[0] += 1
            deal = Deal.new(rules, seed=counter[0], dealer=counter[0] % rules.players)
            starts.append((make(deal), random.Random(counter[0])))
        actions = 0
        begin = time.process_time()
        for deal, rng in starts:
            while not deal.is_over:
                deal.apply_id(rng.choice(deal.legal_ids()))
                actions += 1
        run.took = time.process_time() - begin  # type: ignore[attr-defined]
        return actions

    return run


def stage1_state(rules: Rules, seed: int) -> Deal:
    """A deal ten random actions in (still stage 1)."""
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(10):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", help="preset(s) (default: every supported)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    args = parser.parse_args()
    if not fast.available():
        sys.exit("the compiled engine is not built")
    presets = args.preset or [p for p in Rules.presets() if fast.supports(Rules.preset(p))]
    s = args.seconds
    print(f"{'preset':<12} {'ref deals/s':>11} {'fast deals/s':>12} {'ratio':>7} {'goal':>6}")
    for name in presets:
        rules = Rules.preset(name)
        ref = rate(reference_deals(rules), s)
        got = rate(fast_deals(rules), s)
        goal = 50 if name == "classic" else 30
        print(f"{name:<12} {ref:>11.0f} {got:>12.0f} {got / ref:>6.1f}x {goal:>5}x")
    classic = Rules.preset("classic")
    ref_api = rate(id_loop(classic, lambda d: d), s)
    fast_api = rate(id_loop(classic, fast.FastDeal.from_deal), s)
    print(
        f"per action (classic legal_ids/apply_id): reference {ref_api:.0f}/s, fast "
        f"{fast_api:.0f}/s, {fast_api / ref_api:.1f}x (goal >= 5x)"
    )
    for policy in ("random", "heuristic"):
        start_state = fast.FastDeal.from_deal(stage1_state(classic, 3))

        def playouts(n: int, st: fast.FastDeal = start_state, p: str = policy) -> int:
            for i in range(n):
                st.playout(p, seed=i)
            return n

        print(
            f"playouts ({policy}) from a stage-1 state: {rate(playouts, s):.0f}/s (goal >= 20,000)"
        )
    _ = statistics  # the solver figure comes with the stage-2 solver


if __name__ == "__main__":
    main()
