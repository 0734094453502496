"""The strength acceptance runs of the computer players, as one command.

Runs the arena pairs that docs/strength.md reports and writes each run's JSON (every deal and
the figures) plus a summary table::

    python benchmarks/strength.py --decks 2000 --jobs 16 --out strength-results
    python benchmarks/strength.py --decks 50 --jobs 2 --only ladder     # a small sample
    python benchmarks/strength.py --decks 2000 --ray ray://head:10001   # on a Ray cluster

Pairs (A against B, classic unless ``--variant``):

* the ladder: ``easy`` - ``beginner``, ``medium`` - ``easy``, ``hard`` - ``medium``,
  ``expert`` - ``hard`` (every level against the one below: the margin interval should be
  above zero);
* ``expert`` - ``heuristic`` (share of matches to the target won; goal at least 70%);
* ``hard`` - ``random`` (goal: at least 95% of matches);
* ``oracle`` - ``expert`` and ``oracle`` - ``heuristic`` (the gap to a player that sees every
  card);
* ``pimc`` - ``ismcts`` at equal budgets (engine steps, ``--equal-nodes``, default the
  expert level's);
* ``expert`` - ``openspiel-ismcts`` (OpenSpiel's IS-MCTS, the ``rl`` extra) at equal CPU time a
  move (``--equal-time``, default 0.8 s, the expert's median).

Every deck is played twice with the seats swapped; ``--decks 2000`` is 4,000 deals a pair.
At about 0.7 s a move for the expert, a 2,000-deck expert pair is roughly 2 x 2,000 x 30 x 0.7 s,
about 23 hours of one core: use ``--jobs``, or ``--ray [ADDRESS]`` to play every deck as a Ray
task (the ``cluster`` extra; docs/distributed.md): ``--ray`` alone starts a local instance,
``--ray auto`` or ``--ray ray://HOST:PORT`` uses a cluster.  One connection serves all the pairs;
the results are the same as without Ray.
"""

from __future__ import annotations

import argparse
import json
import time
from contextlib import nullcontext
from pathlib import Path

from bezique.arena import run_arena
from bezique.arena.distributed import LOCAL, ClusterError, ray_session

EQUAL_NODES = 20_000
"""Engine steps a move each for the two reference-core searches compared (``search``)."""

GROUPS: dict[str, list[tuple[str, str]]] = {
    "ladder": [
        ("easy", "beginner"),
        ("medium", "easy"),
        ("hard", "medium"),
        ("expert", "hard"),
    ],
    "targets": [("expert", "heuristic"), ("hard", "random")],
    "oracle": [("oracle", "expert"), ("oracle", "heuristic")],
    "search": [("pimc:nodes={n}", "ismcts:nodes={n}")],
    "openspiel": [("expert", "openspiel-ismcts:time={t}")],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL,
        default=None,
        metavar="ADDRESS",
        help="play the decks as Ray tasks: a local instance, or ADDRESS (auto, ray://HOST:PORT)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--only", nargs="*", choices=sorted(GROUPS), default=sorted(GROUPS))
    parser.add_argument("--equal-nodes", type=int, default=EQUAL_NODES)
    parser.add_argument("--equal-time", type=float, default=0.8)
    parser.add_argument("--out", type=Path, default=Path("strength-results"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    # one Ray connection (or local instance) for every pair
    try:
        with ray_session(args.ray, args.jobs) if args.ray else nullcontext():
            rows = run_pairs(args)
    except ClusterError as e:
        raise SystemExit(f"error: {e}") from None
    (args.out / "summary.json").write_text(json.dumps(rows, indent=1) + "\n")


def run_pairs(args: argparse.Namespace) -> list[dict[str, object]]:
    """Play every pair of the chosen groups, write each run's JSON, return the summary rows."""
    rows = []
    for group in args.only:
        for a, b in GROUPS[group]:
            budget = {"n": args.equal_nodes, "t": args.equal_time}
            a, b = a.format(**budget), b.format(**budget)
            start = time.perf_counter()
            result = run_arena(
                a,
                b,
                args.variant,
                decks=args.decks,
                seed=args.seed,
                jobs=None if args.ray else args.jobs,
                ray=args.ray,
            )
            name = f"{a}_vs_{b}".replace(":", "-").replace("=", "")
            (args.out / f"{name}.json").write_text(json.dumps(result.to_json(), indent=1) + "\n")
            print(result.text(), flush=True)
            print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
            s = result.summary()
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "decks": args.decks,
                    "margin": s["margin"],
                    "deal_win_rate": s["deal_win_rate"],
                    "match_win_rate": s["match_win_rate"],
                    "elo": s["elo"],
                }
            )
    return rows


if __name__ == "__main__":
    main()
