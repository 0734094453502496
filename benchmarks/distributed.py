"""Wall time of an arena run on a local Ray instance against the same run in worker processes.

Runs the command ``bezique arena A B --deals N --seed S`` twice in each round, once with
``--jobs K`` and once with ``--ray`` (a local Ray instance of K CPUs started for the run, its
start-up and shut-down included), alternating which goes first, and prints each wall time, the
ratio Ray / processes of the medians, and whether the two gave the same deals and figures::

    python benchmarks/distributed.py                      # 200 decks of heuristic - random
    python benchmarks/distributed.py --deals 50 --rounds 1 --jobs 2

The goal: on a 2-core machine the Ray run of 200 decks of ``heuristic`` - ``random``
takes at most 1.3 times the wall time of ``--jobs 2``, with identical figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BEZIQUE = [str(Path(sys.executable).with_name("bezique"))]
"""The installed ``bezique`` command next to this Python."""


def _run(args: list[str], out: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [*BEZIQUE, *args, "--quiet", "--json", str(out)], check=True, stdout=subprocess.DEVNULL
    )
    return time.perf_counter() - start


def _figures(path: Path) -> tuple[Any, Any]:
    """Everything but the timings: every play's scores and the summary's statistics."""
    data = json.loads(path.read_text())
    plays = [{k: v for k, v in p.items() if not k.endswith("seconds")} for p in data["plays"]]
    summary = {k: v for k, v in data["summary"].items() if not k.endswith("seconds_per_move")}
    return plays, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="heuristic")
    parser.add_argument("--b", default="random")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    common = [
        "arena", args.a, args.b, "--deals", str(args.deals), "--seed", str(args.seed)
    ]  # fmt: skip
    ways = {
        "processes": [*common, "--jobs", str(args.jobs)],
        "ray": [*common, "--jobs", str(args.jobs), "--ray"],
    }
    times: dict[str, list[float]] = {k: [] for k in ways}
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            order = list(ways) if r % 2 == 0 else list(reversed(ways))
            outs = {}
            for way in order:
                outs[way] = Path(tmp) / f"{way}-{r}.json"
                t = _run(ways[way], outs[way])
                times[way].append(t)
                load = os.getloadavg()[0]
                print(f"round {r + 1}  {way:<9}  {t:6.1f} s   (load {load:.1f})", flush=True)
            same = same and _figures(outs["ray"]) == _figures(outs["processes"])
            ratio = times["ray"][-1] / times["processes"][-1]
            print(f"round {r + 1}  ratio ray / processes {ratio:.2f}", flush=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"{args.a} - {args.b}, {args.deals} decks, seed {args.seed}, {args.jobs} CPUs")
    print(f"median wall time   processes {med['processes']:.1f} s   ray {med['ray']:.1f} s")
    print(f"ratio ray / processes  {med['ray'] / med['processes']:.2f}  (goal at most 1.30)")
    print(f"identical deals and figures: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
