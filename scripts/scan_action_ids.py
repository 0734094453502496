"""Check that the action ids (``bezique.core.ids``) are one-to-one on the legal actions.

Run: ``python scripts/scan_action_ids.py [--deals N] [--preset NAME ...]``.  For every preset it
plays N random deals (half of them declaring whenever they can), checks every position, and
prints how many positions needed alternate ids and the most any one position needed, next to the
number of alternate ids the layout reserves.  A position whose ids collide stops it.
"""

from __future__ import annotations

import argparse
import random
import time

from bezique import Deal, Rules
from bezique.core.ids import action_ids


def scan(rules: Rules, deals: int, seed: int = 0) -> dict[str, int]:
    """Play ``deals`` random deals and check the ids of every position; returns the counts
    (positions, positions needing alternate ids, most alternates in one position)."""
    ids = action_ids(rules)
    positions = with_alternates = most = 0
    for i in range(deals):
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while not deal.is_over:
            pairs = deal.legal_id_actions()
            actions = deal.legal_actions()
            if len({a for a, _ in pairs}) != len(actions) or {a for _, a in pairs} != set(actions):
                raise AssertionError(f"ids not one-to-one in {deal.position()}")
            obs = deal.observation(deal.to_move)
            if ids.from_observation(obs) != [(a, str(t)) for a, t in pairs]:
                raise AssertionError(f"deal and observation ids differ in {deal.position()}")
            alts = sum(1 for a, _ in pairs if a >= ids.alt_base)
            positions += 1
            with_alternates += alts > 0
            most = max(most, alts)
            melds = [a for a in actions if a.verb == "meld"]
            deal.apply(rng.choice(melds if melds and i % 2 == 0 else actions))
    return {"positions": positions, "with_alternates": with_alternates, "most_alternates": most}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="random deals per preset")
    parser.add_argument("--preset", nargs="*", default=Rules.presets(), help="presets to scan")
    args = parser.parse_args()
    for name in args.preset:
        rules = Rules.preset(name)
        ids = action_ids(rules)
        start = time.perf_counter()
        counts = scan(rules, args.deals)
        print(
            f"{name:<12} actions {ids.num_actions:>5}  positions {counts['positions']:>7}  "
            f"with alternates {counts['with_alternates']:>4}  most in one {counts['most_alternates']}"
            f" of {ids.num_alternates}  ({time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main()
