"""Check that the action ids (``bezique.core.ids``) are one-to-one on the legal actions.

Run: ``python scripts/scan_action_ids.py [--deals N] [--preset NAME ...] [--rules TEXT ...]
[--bots A,B]``.  For every preset (and rule set) it plays N random deals (half of them declaring
whenever they can), checks every position, and prints how many positions needed alternate ids
and the most any one position needed, next to the number of alternate ids the layout reserves
(counted past the reserve, so that a scan shows how many more a position would need).  With
``--bots`` the named players choose the actions instead (seat ``s`` of deal ``d`` takes name
``(s + d) mod count``): they keep their declared cards and declare them again, so their deals
need far more alternates than random ones.  A position whose ids collide stops it.
"""

from __future__ import annotations

import argparse
import random
import time

from bezique import Deal, Rules
from bezique.bots import registry
from bezique.core.ids import action_ids


def scan(rules: Rules, deals: int, seed: int = 0, bots: list[str] | None = None) -> dict[str, int]:
    """Play ``deals`` deals (random, or by ``bots``) and check the ids of every position;
    returns the counts (positions, positions needing alternate ids, most alternates in one
    position, counted past the reserve)."""
    ids = action_ids(rules)
    # this process only scans: let the (cached) layout number alternates past its reserve
    ids.num_actions = 10**9
    positions = with_alternates = most = 0
    for i in range(deals):
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        players = [
            registry.make(bots[(s + i) % len(bots)], seed=(seed + i) * rules.players + s)
            for s in range(rules.players)
        ] if bots else []  # fmt: skip
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
            if players:
                assert deal.to_move is not None
                deal.apply(players[deal.to_move].choose(obs))
                continue
            melds = [a for a in actions if a.verb == "meld"]
            deal.apply(rng.choice(melds if melds and i % 2 == 0 else actions))
    return {"positions": positions, "with_alternates": with_alternates, "most_alternates": most}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="random deals per preset")
    parser.add_argument("--preset", nargs="*", default=None, help="presets to scan (default all)")
    parser.add_argument("--rules", nargs="*", default=[], help="rule sets to scan, as written")
    parser.add_argument("--bots", default="", help="players that choose the actions (A,B,...)")
    args = parser.parse_args()
    bots = [b for b in args.bots.split(",") if b]
    for name in bots:
        if name not in registry.names():
            parser.error(f"no bot named {name!r}; bots: {', '.join(registry.names())}")
    presets = args.preset if args.preset is not None else [] if args.rules else Rules.presets()
    try:
        sets = [Rules.preset(p) for p in presets] + [Rules.from_string(r) for r in args.rules]
    except ValueError as e:
        parser.error(str(e))
    for rules in sets:
        ids = action_ids(rules)
        actions = ids.num_actions
        start = time.perf_counter()
        counts = scan(rules, args.deals, bots=bots)
        print(
            f"{rules!s:<12} actions {actions:>5}  positions {counts['positions']:>7}  "
            f"with alternates {counts['with_alternates']:>4}  most in one {counts['most_alternates']}"
            f" of {ids.num_alternates}  ({time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main()
