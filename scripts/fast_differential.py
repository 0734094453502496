"""The big differential run: the compiled engine in lockstep with the reference core.

Usage: ``python scripts/fast_differential.py [--deals N] [--jobs J] [--seed S] [--first C]
[--log FILE] [--bots A,B]``.
Plays ``N`` deals (default 100,000) spread over every preset and over random option
variations (a third of the deals), random, stacked and part-played, comparing after every action
what ``bezique.fast.differential.compare`` compares; action ids are checked on every step.
With ``--bots`` the named players choose every action (seat ``s`` of deal ``d`` takes name
``(s + d) mod count``), not random play: their deals reach long declarations random play seldom
does (the run that found the engine cutting a 606-character eight-pack declaration short was
``--bots heuristic,learned``).
Prints the deals and actions checked, and the first mismatch with its position if any
(exit status 1).  The deals come in chunks of 25 numbered from 0; ``--first C`` starts at chunk
``C``, so runs on disjoint chunk ranges of one seed add up (each run prints its range).  The CI
sample is ``tests/test_fast.py``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time

from bezique import Rules
from bezique.bots import registry
from bezique.fast.differential import PRESETS, Mismatch, deals, lockstep, random_rules

CHUNK = 25


def work(job: tuple[int, int, str]) -> tuple[int, int, int, str]:
    """Play one chunk of deals: (chunk, deals, actions, error text or '')."""
    index, seed, bots = job
    rng = random.Random(seed * 1_000_003 + index)
    # a third of the chunks take random option variations, the others the presets in turn
    rules = random_rules(rng) if index % 3 == 2 else Rules.preset(PRESETS[index % len(PRESETS)])
    names = bots.split(",") if bots else []
    n = actions = 0
    try:
        for deal, greedy in deals(rules, CHUNK, seed=seed * 1_000_003 + index):
            d = index * CHUNK + n
            players = [
                registry.make(names[(s + d) % len(names)], seed=d * rules.players + s)
                for s in range(rules.players)
            ] if names else None  # fmt: skip
            actions += lockstep(deal, rng, greedy=greedy, players=players)
            n += 1
    # RuntimeError: FastDeal.apply found the engine refusing a move the reference allows
    except (Mismatch, RuntimeError) as e:
        return index, n, actions, f"{rules}: {e}"
    return index, n, actions, ""


def read_log(path: str, seed: int, bots: str = "") -> dict[int, tuple[int, int]]:
    """Chunks of this seed (played by these bots, or at random) already checked, from a log
    written by ``--log``."""
    done: dict[int, tuple[int, int]] = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) not in (5, 6) or parts[0] != "chunk" or int(parts[2]) != seed:
                    continue
                if (parts[5] if len(parts) == 6 else "") == bots:
                    done[int(parts[1])] = (int(parts[3]), int(parts[4]))
    except FileNotFoundError:
        pass
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="first chunk (of 25 deals)")
    parser.add_argument(
        "--log",
        help="append each checked chunk to this file, and skip the chunks it already holds "
        "(a run stopped part-way goes on where it left off; the totals count them all)",
    )
    parser.add_argument(
        "--bots",
        default="",
        help="players that choose the actions, comma-separated (default: random play)",
    )
    args = parser.parse_args()
    for name in filter(None, args.bots.split(",")):
        if name not in registry.names():
            parser.error(f"no bot named {name!r}; bots: {', '.join(registry.names())}")
    bots = ",".join(filter(None, args.bots.split(",")))
    wanted = range(args.first, args.first + -(-args.deals // CHUNK))
    done = read_log(args.log, args.seed, bots) if args.log else {}
    done = {i: v for i, v in done.items() if i in wanted}
    chunks = [(i, args.seed, bots) for i in wanted if i not in done]
    played = f", played by {bots}" if bots else ""
    print(
        f"seed {args.seed}, chunks {wanted.start} to {wanted.stop - 1} ({CHUNK} deals each){played}"
    )
    total = sum(n for n, _ in done.values())
    actions = sum(a for _, a in done.values())
    if done:
        print(f"{len(done)} chunks already checked ({total} deals) in {args.log}")
    log = open(args.log, "a") if args.log else None  # noqa: SIM115 (kept open for the run)
    start = time.time()
    with multiprocessing.Pool(args.jobs) as pool:
        for index, n, a, error in pool.imap_unordered(work, chunks):
            total += n
            actions += a
            if error:
                print(f"MISMATCH in chunk {index} after {total} deals: {error}")
                pool.terminate()
                sys.exit(1)
            if log:
                print(f"chunk {index} {args.seed} {n} {a} {bots}".rstrip(), file=log, flush=True)
            if total % 1000 < CHUNK:
                print(f"{total} deals, {actions} actions, {time.time() - start:.0f} s", flush=True)
    print(
        f"ok: {total} deals, {actions} actions in lockstep, no difference ({time.time() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
