"""Run the conformance suite (tests/conformance.py) at scale, in parallel.

    python scripts/conformance.py --deals 20000            # every preset, 20000 deals each
    python scripts/conformance.py --deals 2000 --variations 500 --jobs 8
    python scripts/conformance.py --rules "classic(carte_blanche=true)" --deals 1000

Prints what was checked and every kind of failure with its first reproduction; the exit status
is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

from bezique import Rules

SUITE = Path(__file__).resolve().parent.parent / "tests" / "conformance.py"


def _suite() -> ModuleType:
    name = "bezique_conformance_suite"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SUITE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the worker processes unpickle its Stats by this name
    spec.loader.exec_module(module)
    return module


def _chunk(rules_text: str, seeds: range, every: dict[str, int]) -> Any:
    return _suite().check_deals(Rules.from_string(rules_text), seeds, **every)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per preset")
    parser.add_argument(
        "--variations", type=int, default=None, help="deals per classic variation (deals/8)"
    )
    parser.add_argument("--rules", action="append", help="only these rule sets (repeatable)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--chunk", type=int, default=50, help="deals per work unit")
    parser.add_argument("--resample-every", type=int, default=1)
    parser.add_argument("--round-trip-every", type=int, default=4)
    args = parser.parse_args(argv)
    suite = _suite()
    every = {"resample_every": args.resample_every, "round_trip_every": args.round_trip_every}
    if args.rules:
        plan = [(str(Rules.from_string(r)), args.deals) for r in args.rules]
    else:
        variations = args.variations if args.variations is not None else max(1, args.deals // 8)
        plan = [(str(r), args.deals) for _, r in suite.preset_rule_sets()]
        plan += [(str(r), variations) for _, r in suite.variation_rule_sets()]
    failed = False
    total_deals = 0
    start = time.time()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for index, (rules_text, deals) in enumerate(plan):
            first = args.first_seed + 1_000_000 * index
            chunks = [
                range(s, min(s + args.chunk, first + deals))
                for s in range(first, first + deals, args.chunk)
            ]
            stats = suite.Stats()
            for part in pool.map(_chunk, [rules_text] * len(chunks), chunks, [every] * len(chunks)):
                stats.add(part)
            total_deals += stats.deals
            failed = failed or bool(stats.failures)
            print(f"== {rules_text} (seeds {first}..{first + deals - 1})")
            print(stats.report(), flush=True)
    print(
        f"{total_deals} deals checked in {time.time() - start:.0f} s; {'FAILED' if failed else 'ok'}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
