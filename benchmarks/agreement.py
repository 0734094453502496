"""How often a bot leaves the heuristic's choice: a diagnostic for the search players.

The heuristic plays whole classic deals (both seats); at about three decisions in ten with a
real choice in the play phase, the bot named is asked too, and the share of decisions where it
chose otherwise is printed per stage.  A benchmark, not a test: it prints and never fails.

    python benchmarks/agreement.py --bot expert --deals 6
"""

from __future__ import annotations

import argparse
import random

from bezique import Deal, Rules
from bezique.bots import make


def main() -> None:
    """Parse the arguments and print the share of decisions per stage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    rules = Rules.preset("classic")
    asked = {1: 0, 2: 0}
    differ = {1: 0, 2: 0}
    for d in range(args.deals):
        deal = Deal.new(rules, seed=args.seed + d)
        heuristic = make("heuristic", 1)
        rng = random.Random(args.seed * 1000 + d)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            choice = heuristic.choose(obs)
            if len(obs.legal) > 1 and deal.phase == "play" and rng.random() < 0.3:
                asked[deal.stage] += 1
                differ[deal.stage] += make(args.bot, 1).choose(obs) != choice
            deal.apply(choice)
    for stage in (1, 2):
        print(f"stage {stage}: {args.bot} chose otherwise in {differ[stage]} of {asked[stage]}")


if __name__ == "__main__":
    main()
