"""Check that the action ids of ``bezique.envs.encoding`` are one-to-one on the legal actions.

Run: ``python scripts/scan_action_ids.py [--deals N] [--preset NAME ...]``.  For every preset it
plays N random deals (half of them declaring whenever they can), checks every position, and
prints how many positions needed alternate ids and the most any one position needed, next to the
number of alternate ids the encoding reserves.  A position whose ids collide stops it.
"""

from __future__ import annotations

import argparse
import time

from bezique import Rules
from bezique.envs.encoding import Encoding, scan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="random deals per preset")
    parser.add_argument("--preset", nargs="*", default=Rules.presets(), help="presets to scan")
    args = parser.parse_args()
    for name in args.preset:
        rules = Rules.preset(name)
        enc = Encoding.for_rules(rules)
        start = time.perf_counter()
        counts = scan(rules, args.deals)
        print(
            f"{name:<12} actions {enc.num_actions:>5}  positions {counts['positions']:>7}  "
            f"with alternates {counts['with_alternates']:>4}  most in one {counts['most_alternates']}"
            f" of {enc.num_alternates}  ({time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main()
