"""Look for better weights of the compiled ``'smart'`` policy by duels in C (:func:`bezique.fast.duel`).

The policy is the heuristic player's stage-1 rules of thumb; its weights are the heuristic's.
Each weight in turn is halved and raised by half (a weight of 0 moved by -1 and +1), and the
policy so changed plays the heuristic's weights on ``--decks`` mirrored decks (the same decks
for every probe, so the probes differ by their weights, not their luck).  The changes that gain
more than ``--z`` standard errors are then taken together and checked on ``--check-decks``
fresh decks (``--check-seed``): a gain found by probing many weights on one set of decks must
hold on others before it counts.

    .venv/bin/python lab/scripts/tune_policy.py --decks 3000 --seed 11 --check-seed 99

Prints one line a probe and the check; ``--json FILE`` writes them too.  A duel of 1,000 decks
takes about a second of CPU, so the default run takes a couple of minutes.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

from bezique import Rules, fast
from bezique.fast import duel
from bezique.fast.smart import SMART_DEFAULT, SMART_NAMES


def gain(rules: Rules, params: list[float], decks: int, seed: int) -> tuple[float, float]:
    """Points a deal of ``params`` over the heuristic's weights, and its standard error."""
    per_deck = [(a + b) / 2 for a, b in duel(rules, decks, seed, params, SMART_DEFAULT)]
    return statistics.fmean(per_deck), statistics.stdev(per_deck) / math.sqrt(len(per_deck))


def probes(value: float) -> list[float]:
    """The values a weight is tried at."""
    return [-1.0, 1.0] if value == 0 else [value * 0.5, value * 1.5]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic", help="two-handed rules (default classic)")
    parser.add_argument("--decks", type=int, default=3000, help="decks a probe (default 3000)")
    parser.add_argument("--seed", type=int, default=11, help="the probes' decks (default 11)")
    parser.add_argument("--z", type=float, default=2.0, help="standard errors a change must gain")
    parser.add_argument("--check-decks", type=int, default=6000, help="decks of the check")
    parser.add_argument("--check-seed", type=int, default=99, help="the check's decks")
    parser.add_argument("--json", type=Path, help="write the probes and the check here")
    args = parser.parse_args(argv)
    if not fast.available():
        print("the compiled engine is not built", file=sys.stderr)
        return 2
    rules = Rules.preset(args.preset)
    if rules.players != 2:
        parser.error(f"--preset {args.preset} has {rules.players} hands: duels need two")
    rows = []
    chosen = list(SMART_DEFAULT)
    for i, name in enumerate(SMART_NAMES):
        best: tuple[float, float] | None = None
        for value in probes(SMART_DEFAULT[i]):
            params = list(SMART_DEFAULT)
            params[i] = value
            mean, se = gain(rules, params, args.decks, args.seed)
            rows.append({"weight": name, "value": value, "gain": mean, "se": se})
            print(f"{name:16} {SMART_DEFAULT[i]:6.2f} -> {value:6.2f}: {mean:+6.1f} ({se:.1f})")
            if mean > args.z * se and (best is None or mean > best[1]):
                best = (value, mean)
        if best is not None:
            chosen[i] = best[0]
    changed = {n: v for n, v, d in zip(SMART_NAMES, chosen, SMART_DEFAULT, strict=True) if v != d}
    mean, se = gain(rules, chosen, args.check_decks, args.check_seed)
    print(f"together {changed or 'nothing changed'}: {mean:+.1f} ({se:.1f}) on fresh decks")
    if args.json:
        check = {"changed": changed, "gain": mean, "se": se, "decks": args.check_decks}
        out = {"probes": rows, "check": check, "args": vars(args) | {"json": str(args.json)}}
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
