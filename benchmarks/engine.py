"""Engine throughput: complete random deals a second, and the cost of clone() and legal_actions().

Run: ``python benchmarks/engine.py [--deals N] [--preset NAME ...]`` (``make bench``).

``--before REV`` also plays the same random deals on the engine of git revision ``REV`` (checked
out into a temporary folder and run in a child process, batches alternating with this tree's)
and prints the ratio of deals a second, this tree to that one; with ``--instructions`` it counts
the machine instructions of those deals instead (``valgrind --tool=callgrind``, less the cost
of starting Python and of :data:`WARM_DEALS` deals played first, so that tables built once per
rule set are not counted; every child with ``PYTHONHASHSEED=0``), which a busy machine does not
disturb.  ``--resample`` prints, per
preset, the cost of one determinized world over every position of some random deals: rebuilt
from the seat's observation (``Deal.from_observation``) and reshuffled at the id level
(``Deal.resample``), with their ratio; with ``--instructions``, in machine instructions per
world (callgrind) rather than µs.  ``--ids`` compares random deals played by action ids
(``legal_ids``/``apply_id``) with the same by ``Action``.  ``--cpu`` times by the process's CPU time instead of the wall
clock (in ``--before`` runs, each child's own), for a machine busy with other work.

Each figure is the best of several batches in this one run, so a busy machine shows up as a
spread between batches rather than a wrong figure; the ratio to the goal (1,000 deals a second
on one core) is printed beside it.  Pin the process to one core for steadier figures:
``taskset -c 1 python benchmarks/engine.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bezique import Deal, Observation, Rules

GOAL_DEALS_PER_SECOND = 1000
CLOCK = time.perf_counter
"""The timer of every figure in seconds: wall time, or with ``--cpu`` this process's CPU time
(``time.process_time``), which a machine busy with other work disturbs far less."""


def random_deals(rules: Rules, count: int, seed: int) -> tuple[float, int, int]:
    """Play ``count`` deals choosing uniformly among legal actions;
    (seconds, actions, cards played)."""
    actions = 0
    start = CLOCK()
    for i in range(count):
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
            actions += 1
    seconds = CLOCK() - start
    plays = 0
    for i in range(count):  # counted apart from the timing
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while not deal.is_over:
            action = rng.choice(deal.legal_actions())
            plays += action.verb == "play"
            deal.apply(action)
    return seconds, actions, plays


def by_ids_or_actions(rules: Rules, count: int, rounds: int = 3) -> tuple[float, float]:
    """µs per action of random deals played by ``legal_actions``/``apply`` and by
    ``legal_ids``/``apply_id`` (the same seeds; each the best of ``rounds``, interleaved)."""
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for by_id in (False, True):
            actions = 0
            start = CLOCK()
            for i in range(count):
                deal = Deal.new(rules, seed=i, dealer=i % rules.players)
                rng = random.Random(i)
                while not deal.is_over:
                    if by_id:
                        deal.apply_id(rng.choice(deal.legal_ids()))
                    else:
                        deal.apply(rng.choice(deal.legal_actions()))
                    actions += 1
            best[by_id] = min(best[by_id], (CLOCK() - start) / actions * 1e6)
    return best[0], best[1]


def per_call(fn: object, repeat: int) -> float:
    """Best-of-5 time of one call, in microseconds."""
    best = float("inf")
    for _ in range(5):
        start = CLOCK()
        for _ in range(repeat):
            fn()  # type: ignore[operator]
        best = min(best, (CLOCK() - start) / repeat)
    return best * 1e6


def midgame(rules: Rules, seed: int, steps: int) -> Deal:
    """A deal some random steps in, for the per-call costs."""
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def bench(rules: Rules, deals: int, batches: int) -> dict[str, float]:
    """Deals a second (best and median batch), actions a second, and per-call costs."""
    rates, action_rates, card_costs = [], [], []
    for b in range(batches):
        seconds, actions, plays = random_deals(rules, deals, seed=1000 * b)
        rates.append(deals / seconds)
        action_rates.append(actions / seconds)
        card_costs.append(seconds / plays * 1e6)
    deal = midgame(rules, seed=3, steps=20)

    def fresh_legal() -> None:
        deal._legal = None  # measure the computation, not the cache
        deal.legal_actions()

    return {
        "deals_best": max(rates),
        "deals_median": statistics.median(rates),
        "actions_best": max(action_rates),
        "card_us": min(card_costs),
        "clone_us": per_call(deal.clone, 5000),
        "legal_us": per_call(fresh_legal, 5000),
        "new_us": per_call(lambda: Deal.new(rules, seed=5), 1000),
    }


def positions(rules: Rules, deals: int = 4) -> list[tuple[Deal, int, Observation]]:
    """Every position of ``deals`` random deals: (deal, seat to move, its observation)."""
    worlds = []
    for seed in range(deals):
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            worlds.append((deal.clone(), seat, deal.observation(seat)))
            deal.apply(rng.choice(deal.legal_actions()))
    return worlds


WORLD_METHODS: dict[str, Callable[[Deal, int, Observation, random.Random], object]] = {
    "none": lambda deal, seat, obs, rng: None,
    "from_obs": lambda deal, seat, obs, rng: Deal.from_observation(obs, rng),
    "obs+from_obs": lambda deal, seat, obs, rng: Deal.from_observation(deal.observation(seat), rng),
    "resample": lambda deal, seat, obs, rng: deal.resample(seat, rng),
    "clone": lambda deal, seat, obs, rng: deal.clone(),
}
"""The ways to get a world that ``--resample`` compares (``none``: the baseline)."""


WORLDS_A_POSITION = 5
"""Worlds made at each position under callgrind, as many as one timed reading makes: a search
player draws many worlds from one position, and ``deal.resample`` keeps what it works out
there for the next world."""


def worlds_only(preset: str, method: str) -> None:
    """Make :data:`WORLDS_A_POSITION` worlds by ``method`` at every position (the child run
    under callgrind)."""
    rng = random.Random(1)
    make = WORLD_METHODS[method]
    for deal, seat, obs in positions(Rules.preset(preset)):
        for _ in range(WORLDS_A_POSITION):
            make(deal, seat, obs, rng)


def resample_instructions(preset: str) -> tuple[float, float, float, float]:
    """:func:`resample_costs` in machine instructions per world (callgrind), not µs."""
    counts = {}
    n = len(positions(Rules.preset(preset)))
    for method in WORLD_METHODS:
        with tempfile.NamedTemporaryFile() as out:
            args = [sys.executable, __file__, "--world-only", method, "--preset", preset]
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", *args],
                check=True,
                capture_output=True,
                text=True,
            )
        counts[method] = int(run.stderr.rpartition("Collected : ")[2].split()[0])
    n *= WORLDS_A_POSITION
    a, b, c, d = ((counts[m] - counts["none"]) / n for m in list(WORLD_METHODS)[1:])
    return a, b, c, d


def resample_costs(rules: Rules, deals: int = 4) -> tuple[float, float, float, float]:
    """Mean µs per world over every position of ``deals`` random deals: rebuilt from the
    seat's observation (``Deal.from_observation(obs)``, the observation at hand); the same
    with the observation made first (what ``deal.resample`` cost before it worked on ids);
    by the id-level ``deal.resample``; and a bare ``clone`` (each the best of 3, interleaved)."""
    worlds = positions(rules, deals)
    rng = random.Random(1)
    reps = WORLDS_A_POSITION  # calls a reading: a CPU-time reading is a system call, long
    # beside a clone
    total = [0.0, 0.0, 0.0, 0.0]
    for deal, seat, obs in worlds:
        best = [float("inf")] * 4
        makers: tuple[Callable[[], object], ...] = (
            partial(Deal.from_observation, obs, rng),
            lambda d=deal, s=seat: Deal.from_observation(d.observation(s), rng),  # type: ignore[misc]
            partial(deal.resample, seat, rng),
            deal.clone,
        )
        for _ in range(3):
            for i, make in enumerate(makers):  # interleaved: a busy spell hits all four
                t0 = CLOCK()
                for _ in range(reps):
                    make()
                best[i] = min(best[i], (CLOCK() - t0) / reps)
        total = [a + b for a, b in zip(total, best, strict=True)]
    a, b, c, d = (t / len(worlds) * 1e6 for t in total)
    return a, b, c, d


def deals_rate(presets: list[str], deals: int) -> dict[str, float]:
    """Deals a second (best of 2 batches) for each preset, on the engine this process imports."""
    out = {}
    for name in presets:
        rules = Rules.preset(name)
        out[name] = max(deals / random_deals(rules, deals, seed=1000 * b)[0] for b in range(2))
    return out


def play_only(presets: list[str], deals: int) -> None:
    """Play the random deals and nothing else (the child run under callgrind)."""
    for name in presets:
        rules = Rules.preset(name)
        Deal.new(rules, seed=0)
        for i in range(deals):
            deal = Deal.new(rules, seed=i, dealer=i % rules.players)
            rng = random.Random(i)
            while not deal.is_over:
                deal.apply(rng.choice(deal.legal_actions()))


WARM_DEALS = 4
"""Deals played before the counted ones under ``--instructions``: the first deals of a rule set
build its tables (legal-move, id and meld tables), a one-off cost that would otherwise be spread
over the counted deals and hide a change in the cost of a deal itself."""


def instructions(src: Path, preset: str, deals: int) -> int:
    """Instructions to play ``deals`` random deals of a preset on the engine in ``src``, after
    :data:`WARM_DEALS` others (the same seeds on every engine)."""
    counts = []
    for n in (WARM_DEALS, WARM_DEALS + deals):
        with tempfile.NamedTemporaryFile() as out:
            args = [sys.executable, __file__, "--play-only", "--deals", str(n), "--preset", preset]
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", *args],
                # one hash seed for every child: string hashing moves a count by up to 1%
                env={**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"},
                check=True,
                capture_output=True,
                text=True,
            )
        counts.append(int(run.stderr.rpartition("Collected : ")[2].split()[0]))
    return counts[1] - counts[0]


def compare_before(
    rev: str, presets: list[str], deals: int, rounds: int, count: bool = False, cpu: bool = False
) -> None:
    """Deals a second (or instructions) on this tree and on revision ``rev``."""
    root = Path(__file__).resolve().parent.parent
    if count:
        with tempfile.TemporaryDirectory() as tmp:
            archive = subprocess.run(
                ["git", "-C", str(root), "archive", rev, "src"], check=True, capture_output=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
            print(f"{'preset':<12} {'instructions now':>16} {'before':>12} {'now/before':>10}")
            for name in presets:
                now = instructions(root / "src", name, deals)
                then = instructions(Path(tmp) / "src", name, deals)
                print(f"{name:<12} {now:>16,} {then:>12,} {now / then:>9.3f}x  ({deals} deals)")
        return
    here = {name: 0.0 for name in presets}
    there = {name: 0.0 for name in presets}
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", rev, "src"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        args = [sys.executable, __file__, "--rates", "--deals", str(deals)]
        if cpu:
            args.append("--cpu")
        for name in presets:
            args += ["--preset", name]
        for _ in range(rounds):
            for src, best in ((root / "src", here), (Path(tmp) / "src", there)):
                env = {**os.environ, "PYTHONPATH": str(src)}
                out = subprocess.run(args, env=env, check=True, capture_output=True, text=True)
                for name, rate in json.loads(out.stdout).items():
                    best[name] = max(best[name], rate)
    print(f"{'preset':<12} {'deals/s now':>12} {'before':>8} {'now/before':>10}  (before: {rev})")
    for name in presets:
        print(
            f"{name:<12} {here[name]:>12.0f} {there[name]:>8.0f} {here[name] / there[name]:>9.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per batch (default 300)")
    parser.add_argument("--batches", type=int, default=5, help="batches (default 5)")
    parser.add_argument(
        "--preset", action="append", help="preset(s) to measure (default: every preset)"
    )
    parser.add_argument("--before", metavar="REV", help="compare deals a second with a git rev")
    parser.add_argument("--rounds", type=int, default=3, help="alternations for --before")
    parser.add_argument("--resample", action="store_true", help="cost of a determinized world")
    parser.add_argument(
        "--instructions", action="store_true", help="--before and --resample by callgrind"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="time by this process's CPU time, not wall time"
    )
    parser.add_argument("--ids", action="store_true", help="random deals by action ids vs Actions")
    parser.add_argument("--rates", action="store_true", help=argparse.SUPPRESS)  # child of --before
    parser.add_argument("--play-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--world-only", choices=list(WORLD_METHODS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu:
        global CLOCK
        CLOCK = time.process_time
    presets = args.preset or Rules.presets()
    if args.play_only:
        play_only(presets, args.deals)
        return
    if args.ids:
        print(f"{'preset':<12} {'µs/action':>10} {'by id':>8} {'id/action':>9}")
        for name in presets:
            by_action, by_id = by_ids_or_actions(Rules.preset(name), max(args.deals // 10, 5))
            print(f"{name:<12} {by_action:>10.1f} {by_id:>8.1f} {by_id / by_action:>8.2f}x")
        return
    if args.rates:
        print(json.dumps(deals_rate(presets, args.deals)))
        return
    if args.before:
        compare_before(args.before, presets, args.deals, args.rounds, args.instructions, args.cpu)
        return
    if args.world_only:
        worlds_only(presets[0], args.world_only)
        return
    if args.resample:
        unit = "kinstr" if args.instructions else "µs"
        print(
            f"{'preset':<12} {'from_obs ' + unit:>15} {'obs+from_obs ' + unit:>19} "
            f"{'resample ' + unit:>15} {'clone ' + unit:>12} {'ratio':>6} {'ratio2':>6}"
        )
        for name in presets:
            if args.instructions:
                text, old, ids, bare = (x / 1000 for x in resample_instructions(name))
            else:
                text, old, ids, bare = resample_costs(Rules.preset(name))
            print(
                f"{name:<12} {text:>15.1f} {old:>19.1f} {ids:>15.1f} {bare:>12.1f} "
                f"{text / ids:>5.1f}x {old / ids:>5.1f}x"
            )
        print(
            "per world, mean over every position of 4 random deals; ratio: from_obs / resample, "
            "ratio2: obs+from_obs (the resample of before) / resample (goal >= 20)"
        )
        return
    print(
        f"{'preset':<12} {'deals/s best':>12} {'median':>8} {'vs goal':>8} "
        f"{'actions/s':>10} {'µs/card':>8} {'vs classic':>10} {'clone µs':>9} "
        f"{'legal µs':>9} {'new µs':>7}"
    )
    classic_card = bench(Rules.preset("classic"), args.deals, args.batches)["card_us"]
    for name in presets:
        r = bench(Rules.preset(name), args.deals, args.batches)
        print(
            f"{name:<12} {r['deals_best']:>12.0f} {r['deals_median']:>8.0f} "
            f"{r['deals_best'] / GOAL_DEALS_PER_SECOND:>7.2f}x {r['actions_best']:>10.0f} "
            f"{r['card_us']:>8.1f} {r['card_us'] / classic_card:>9.2f}x "
            f"{r['clone_us']:>9.1f} {r['legal_us']:>9.1f} {r['new_us']:>7.1f}"
        )
    print(
        "vs goal: classic deals a second / 1000 (goal >= 1); vs classic: time per card played "
        "relative to classic in this run (goal <= 5 for every preset)"
    )


if __name__ == "__main__":
    main()
