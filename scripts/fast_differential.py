"""The big differential run: the compiled engine in lockstep with the reference core.

Usage: ``python scripts/fast_differential.py [--deals N] [--jobs J] [--seed S]``.  Plays ``N``
deals (default 100,000) spread over every preset but old-russian and over random option
variations (a third of the deals), random, stacked and part-played, comparing after every action
what ``bezique.fast.differential.compare`` compares; action ids are checked on every step.
Prints the deals and actions checked, and the first mismatch with its position if any
(exit status 1).  The CI sample is ``tests/test_fast.py``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

from bezique import Rules
from bezique.fast.differential import PRESETS, Mismatch, deals, lockstep, random_rules

CHUNK = 25


def work(job: tuple[int, int]) -> tuple[int, int, str]:
    """Play one chunk of deals: (deals, actions, error text or '')."""
    index, seed = job
    rng = random.Random(seed * 1_000_003 + index)
    # a third of the chunks take random option variations, the others the presets in turn
    rules = random_rules(rng) if index % 3 == 2 else Rules.preset(PRESETS[index % len(PRESETS)])
    n = actions = 0
    try:
        for deal, greedy in deals(rules, CHUNK, seed=seed * 1_000_003 + index):
            actions += lockstep(deal, rng, greedy=greedy)
            n += 1
    except Mismatch as e:
        return n, actions, f"{rules}: {e}"
    return n, actions, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chunks = [(i, args.seed) for i in range(-(-args.deals // CHUNK))]
    start = time.time()
    total = actions = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for n, a, error in pool.imap_unordered(work, chunks):
            total += n
            actions += a
            if error:
                print(f"MISMATCH after {total} deals: {error}")
                pool.terminate()
                sys.exit(1)
            if total % 1000 < CHUNK:
                print(f"{total} deals, {actions} actions, {time.time() - start:.0f} s", flush=True)
    print(
        f"ok: {total} deals, {actions} actions in lockstep, no difference ({time.time() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
