"""The compiled engine's speed goals counted in machine instructions, which load does not change.

Run: ``python benchmarks/fast_instructions.py [--deals N] [--solves K] [--searches M] [--preset NAME]``
(``--preset haitian --solves 0``: the Haitian deals, jokers included, against classic ones;
``--search-bot pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5,cut=4/8``: another search's count, its playouts cut short by the value
model).

The shared machine's timings swing with its load, so this counts instructions with
``valgrind --tool=callgrind`` (repeatable to a few parts in a million), collected only inside
the engine's entry points (``--toggle-collect``, so Python's start-up is left out):

* ``simulate``: ``bezique.fast.simulate(rules, N)`` of random deals: instructions per deal;
* ``solve``: ``FastDeal.solve`` from the start of stage 2 of ``K`` random classic deals, one
  callgrind dump per solve (``--dump-after``): the median and the largest per solve;
* ``search`` (``--searches M``): the ``expert`` level's search (``EXPERT_SEARCH``, the learned
  playouts) at 1,500 rollouts on ``M`` stage-1 positions of classic heuristic self-play, inside
  ``FastDeal.pimc``: instructions a rollout, and a digest of the choices and values, which a
  change meant only to be faster must leave as it was.

To turn instructions into time it states an instructions-per-nanosecond figure measured in the
same run, outside valgrind: the CPU time (``time.process_time``, best of five) of the same
``simulate`` call, divided into its instruction count.  Deals a second and microseconds a solve
follow from that figure, for this machine as it ran; a faster or idler core runs more.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

from bezique import Deal, Observation, Rules, fast
from bezique.bots import Limit, make
from bezique.bots.heuristic import HeuristicBot

SIMULATE = "search_simulate"
SOLVE = "search_methods_solve"
PIMC = "search_methods_pimc"
SEARCH_ROLLOUTS = 1_500

EXPERT_SEARCH = "pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5"
"""The ``expert`` level's search without its budget (the count gives its own)."""


def stage2_starts(count: int) -> list[Deal]:
    """Classic deals played at random to the first trick of stage 2 (every hand known)."""
    rules = Rules.preset("classic")
    out: list[Deal] = []
    seed = 0
    while len(out) < count:
        seed += 1
        deal = Deal.new(rules, seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        while deal.stage == 1 and not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if deal.stage == 2 and deal.phase == "play" and not deal.trick:
            out.append(deal)
    return out


def search_positions(count: int) -> list[Observation]:
    """Stage-1 observations of classic heuristic self-play, a few tricks apart."""
    rules = Rules.preset("classic")
    out: list[Observation] = []
    for seed in range(1, count + 1):
        deal = Deal.new(rules, seed=seed)
        bots = [HeuristicBot(1), HeuristicBot(2)]
        for _ in range(10 + 7 * (seed % 7)):
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.observation(seat)))
        seat = deal.to_move
        assert seat is not None
        out.append(deal.observation(seat))
    return out


def searches(count: int, bot: str = EXPERT_SEARCH) -> tuple[int, str]:
    """Run the expert's search (or ``bot``'s) on the positions: the rollouts it made, a digest
    of its answers."""
    answers = []
    rollouts = 0
    for i, obs in enumerate(search_positions(count)):
        result = make(bot, i).play(obs, Limit(iterations=SEARCH_ROLLOUTS))
        rollouts += int(result.info["visits"])
        answers.append([str(result.action), result.info["scores"]])
    digest = hashlib.sha256(json.dumps(answers, sort_keys=True).encode()).hexdigest()[:16]
    return rollouts, digest


def child(what: str, n: int, preset: str, bot: str) -> None:
    """What runs under callgrind: only the entry point's instructions are collected."""
    rules = Rules.preset(preset)
    if what == "search":
        rollouts, digest = searches(n, bot)
        print(f"{rollouts} {digest}")
    elif what == "simulate":
        fast.simulate(rules, 1, seed=0)  # compile the rules before the counted call
        fast.simulate(rules, n, seed=1)
    else:
        starts = [fast.FastDeal.from_deal(d) for d in stage2_starts(n)]
        for f in starts:
            f.solve(rules.side_of(f.to_move or 0))


def totals(path: str) -> int:
    """The instruction total of a callgrind output file."""
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(1))
    raise RuntimeError(f"no totals in {path}")


def callgrind(
    what: str,
    n: int,
    preset: str,
    entry: str,
    dump: bool,
    printed: list[str] | None = None,
    bot: str = EXPERT_SEARCH,
) -> list[int]:
    """Instructions inside ``entry`` (one figure, or one per call with ``dump``); the child's
    output goes to ``printed`` where given."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--collect-atstart=no",
            f"--toggle-collect={entry}",
            *([f"--dump-after={entry}"] if dump else []),
            sys.executable,
            __file__,
            "--child",
            what,
            str(n),
            "--preset",
            preset,
            "--search-bot",
            bot,
        ]
        done = subprocess.run(cmd, check=True, capture_output=True, text=True)
        if printed is not None:
            printed.append(done.stdout.strip())
        files = sorted(glob.glob(out + "*"))
        counts = [totals(p) for p in files]
        return [c for c in counts if c] if dump else [sum(counts)]


def cpu_seconds(rules: Rules, n: int) -> float:
    """CPU seconds of ``simulate(rules, n)``, best of five (outside valgrind)."""
    fast.simulate(rules, 1, seed=0)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        fast.simulate(rules, n, seed=1)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--solves", type=int, default=60)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--searches", type=int, default=0, help="positions for the search count")
    parser.add_argument(
        "--search-bot", default=EXPERT_SEARCH, help="the spec of the search counted (the expert's)"
    )
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.preset, args.search_bot)
        return
    if not fast.available():
        sys.exit("the compiled engine is not built")
    rules = Rules.preset(args.preset)
    (sim,) = callgrind("simulate", args.deals, args.preset, SIMULATE, dump=False)
    per_deal = sim / args.deals
    seconds = cpu_seconds(rules, args.deals)
    per_ns = sim / (seconds * 1e9)
    print(f"simulate {args.preset}: {per_deal:,.0f} instructions a deal ({args.deals} deals)")
    print(
        f"this machine: {per_ns:.2f} instructions a ns (CPU time of the same call, best of 5)"
        f" -> {per_ns * 1e9 / per_deal:,.0f} deals a CPU second (goal >= 100,000)"
    )
    if args.preset != "classic":  # the same count for classic deals, for the ratio
        (base,) = callgrind("simulate", args.deals, "classic", SIMULATE, dump=False)
        print(
            f"simulate classic: {base / args.deals:,.0f} instructions a deal: "
            f"{args.preset} costs {sim / base:.2f}x classic a deal"
        )
    if args.searches:
        printed: list[str] = []
        (total,) = callgrind(
            "search", args.searches, "classic", PIMC, False, printed, args.search_bot
        )
        rollouts, digest = printed[0].split()
        print(
            f"search classic ({args.search_bot}, {SEARCH_ROLLOUTS:,} rollouts at most): "
            f"{total / int(rollouts):,.0f} instructions a rollout ({rollouts} rollouts, "
            f"{args.searches} positions; answers {digest})"
        )
    if not args.solves:
        return
    solves = callgrind("solve", args.solves, "classic", SOLVE, dump=True)
    med = statistics.median(solves)
    print(
        f"solve classic stage 2: median {med:,.0f} instructions, largest {max(solves):,} "
        f"({len(solves)} solves) -> median {med / per_ns / 1e3:.1f} us at {per_ns:.2f} "
        "instructions a ns (goal <= 100 us)"
    )


if __name__ == "__main__":
    main()
