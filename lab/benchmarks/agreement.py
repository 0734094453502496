"""How often a bot leaves the heuristic's choice: a diagnostic for the search players.

The heuristic plays whole classic deals (both seats); at about three decisions in ten with a
real choice in the play phase (every one with ``--every``), each bot named is asked too, and the
share of decisions where it chose otherwise is printed per stage.  A benchmark, not a test: it
prints and never fails.

    python lab/benchmarks/agreement.py --bot expert --deals 6
    python lab/benchmarks/agreement.py --bot learned learned-net expert expert-c-lpn --deals 10 --every
"""

from __future__ import annotations

import argparse
import random

from bezique import Deal, Rules
from bezique.bots import make


def main() -> None:
    """Parse the arguments and print the share of decisions per stage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", nargs="+", default=["expert"], help="bots or levels to ask")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--every", action="store_true", help="ask at every decision with a choice")
    args = parser.parse_args()
    rules = Rules.preset("classic")
    share = 1.0 if args.every else 0.3
    asked = {1: 0, 2: 0}
    differ = {name: {1: 0, 2: 0} for name in args.bot}
    for d in range(args.deals):
        deal = Deal.new(rules, seed=args.seed + d)
        heuristic = make("heuristic", 1)
        rng = random.Random(args.seed * 1000 + d)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            choice = heuristic.choose(obs)
            if len(obs.legal) > 1 and deal.phase == "play" and rng.random() < share:
                asked[deal.stage] += 1
                for name in args.bot:
                    differ[name][deal.stage] += make(name, 1).choose(obs) != choice
            deal.apply(choice)
    for name in args.bot:
        for stage in (1, 2):
            n, k = asked[stage], differ[name][stage]
            print(f"stage {stage}: {name} chose otherwise in {k} of {n} ({k / max(n, 1):.1%})")


if __name__ == "__main__":
    main()
