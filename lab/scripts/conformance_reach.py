"""Which functions of chosen core modules the conformance suite calls: a change to modules it
never calls cannot change a conformance run's result.

    python lab/scripts/conformance_reach.py                        # match.py and records.py
    python lab/scripts/conformance_reach.py --modules core/deal.py --deals 2

It runs ``check_deals`` of ``tests/conformance.py`` on a few deals of every preset and of a
classic variation under a profile hook and prints each function of the modules that was called,
with its count, or that none was.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from bezique import Rules

SUITE = Path(__file__).resolve().parents[2] / "tests" / "conformance.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", nargs="+", default=["core/match.py", "core/records.py"])
    parser.add_argument("--deals", type=int, default=3, help="deals of each rule set")
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("conformance_suite", SUITE)
    assert spec is not None and spec.loader is not None
    suite = importlib.util.module_from_spec(spec)
    sys.modules["conformance_suite"] = suite
    spec.loader.exec_module(suite)
    ends = tuple(args.modules)
    calls: Counter[str] = Counter()

    def hook(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename.endswith(ends):
            name = frame.f_code.co_filename.rsplit("/", 1)[1]
            calls[f"{name}:{frame.f_code.co_name}"] += 1

    texts = [*Rules.presets(), "classic(carte_blanche=250,trick_scoring=card-points)"]
    sys.setprofile(hook)
    try:
        for text in texts:
            suite.check_deals(
                Rules.from_string(text), range(args.deals), resample_every=1, round_trip_every=4
            )
    finally:
        sys.setprofile(None)
    print(f"{len(texts)} rule sets, {args.deals} deals each; calls into {', '.join(ends)}:")
    for name, count in calls.most_common():
        print(f"  {name}: {count}")
    if not calls:
        print("  none")


if __name__ == "__main__":
    main()
