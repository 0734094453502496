"""What loading a long table costs the server: its log replayed whole, against the current deal
replayed after the finished deals' kept outcomes (what ``bezique serve`` does).

    python benchmarks/reload.py                    # a log of about 19,900 actions
    python benchmarks/reload.py --actions 5000 --repeat 5

A match between random players is played to a log of at least ``--actions`` entries (deal
starts included), ending at a deal's start, as a table's log would stand.  Each way is then run
as the server runs it, in a worker thread, while the event loop ticks every millisecond (as the
other tables' pings and acks need it): it prints the CPU seconds of the load, its peak memory
(tracemalloc), and the longest the loop waited for a tick, for both ways, with their ratio.
A benchmark, not a test: it never fails.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
import tracemalloc
from collections.abc import Mapping
from typing import Any

from bezique import Rules
from bezique.core.match import Match
from bezique.server.storage import NEXT_DEAL
from bezique.server.tables import replay_log

RULES = "classic(target=100000)"
"""A target no random match reaches in the log asked for: the match goes on."""


def long_log(actions: int, seed: int) -> tuple[Match, list[str]]:
    """A match played at random until its log holds ``actions`` entries, at a deal's start
    (that deal a few actions in, as a table reloaded mid-deal)."""
    match = Match(Rules.from_string(RULES), seed=seed)
    rng = random.Random(seed)
    log: list[str] = []
    while len(log) < actions or len(match.deal.history) < 5:
        if match.deal.is_over:
            match.next_deal()
            log.append(NEXT_DEAL)
        else:
            action = rng.choice(match.deal.legal_actions())
            match.deal.apply(action)
            log.append(str(action))
    return match, log


async def timed_load(
    match: Match, log: list[str], outcomes: Mapping[int, Mapping[str, Any]] | None
) -> tuple[float, float]:
    """CPU seconds of the load in a worker thread, and the longest wait of a 1 ms ticker
    in the event loop meanwhile."""
    assert match.seed is not None
    worst = 0.0
    done = False

    async def ticker() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            worst = max(worst, time.perf_counter() - before - 0.001)

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.01)

    def load() -> float:
        start = time.thread_time()
        replay_log(match.rules, match.seed or 0, None, log, outcomes)
        return time.thread_time() - start

    cpu = await asyncio.to_thread(load)
    done = True
    await ticking
    return cpu, worst


def peak_mib(match: Match, log: list[str], outcomes: Mapping[int, Any] | None) -> float:
    """Peak memory the load allocates (MiB, tracemalloc)."""
    tracemalloc.start()
    replay_log(match.rules, match.seed or 0, None, log, outcomes)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=19_877, help="log entries (default 19877)")
    parser.add_argument("--repeat", type=int, default=3, help="loads of each way (the best kept)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    match, log = long_log(args.actions, args.seed)
    kept = {i: p.outcome() for i, p in enumerate(match.finished[: len(match.deals) - 1])}
    print(
        f"{RULES}: a log of {len(log)} entries, {len(match.deals)} deals; the current deal "
        f"{len(match.deal.history)} actions in; load average {os.getloadavg()[0]:.2f}"
    )
    rows = {}
    for name, outcomes in (("whole log", None), ("current deal", kept)):
        runs = [asyncio.run(timed_load(match, log, outcomes)) for _ in range(args.repeat)]
        cpu = min(r[0] for r in runs)
        lag = min(r[1] for r in runs)
        rows[name] = (cpu, lag, peak_mib(match, log, outcomes))
        print(
            f"  {name:13} CPU {cpu * 1000:8.1f} ms   peak {rows[name][2]:6.1f} MiB   "
            f"event loop's longest wait {lag * 1000:6.1f} ms"
        )
    (a, la, ma), (b, lb, mb) = rows["whole log"], rows["current deal"]
    print(
        f"  ratio (current deal / whole log): CPU {b / a:.4f}, peak memory {mb / ma:.3f}, "
        f"longest wait {lb / la if la else 0:.3f}"
    )


if __name__ == "__main__":
    main()
