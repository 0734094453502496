"""Two searches in two threads at once against one after the other: the compiled engine's long
calls (``bezique.fast.search.pimc``, ``ismcts``, ``simulate``, ``duel``) run without the GIL,
so on a machine with two free cores the two threads take about half the wall time.

    python benchmarks/gil.py                  # pimc, 400 worlds a search, best of 3
    python benchmarks/gil.py --worlds 800 --repeat 5

It prints the wall seconds of both ways and their ratio (threads / one after the other: 0.5 is
the most two cores can give, 1.0 is no gain), with the load average, since other processes on
a shared machine take cores away; and the same two searches in two processes, which share no
lock at all: the threads' ratio is as good as the machine allows when it matches that one.  A benchmark, not a test: it never fails.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import threading
import time
from collections.abc import Sequence
from multiprocessing.process import BaseProcess

from bezique import Rules, fast
from bezique.fast.search import pimc


def search(f: fast.FastDeal, worlds: int, seed: int) -> None:
    """One PIMC search of every legal action over ``worlds`` worlds."""
    seat = f.to_move
    assert seat is not None
    pimc(f, seat, f.rules.side_of(seat), list(range(len(f.legal_actions()))), 0, worlds, seed)


def one_after_the_other(deals: list[fast.FastDeal], worlds: int) -> float:
    """Wall seconds of the searches run in turn, in this thread."""
    start = time.perf_counter()
    for i, f in enumerate(deals):
        search(f, worlds, i)
    return time.perf_counter() - start


def _all_at_once(workers: Sequence[threading.Thread | BaseProcess]) -> float:
    """Wall seconds from starting every worker to the last one's end."""
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return time.perf_counter() - start


def at_once(deals: list[fast.FastDeal], worlds: int) -> float:
    """Wall seconds of the searches run each in its own thread, all at once."""
    return _all_at_once(
        [threading.Thread(target=search, args=(f, worlds, i)) for i, f in enumerate(deals)]
    )


def in_processes(deals: list[fast.FastDeal], worlds: int) -> float:
    """Wall seconds of the searches run each in a process of its own (forked), all at once: what
    the machine gives two searches that share nothing, the bound for the threads' ratio."""
    ctx = multiprocessing.get_context("fork")
    return _all_at_once(
        [ctx.Process(target=search, args=(f, worlds, i)) for i, f in enumerate(deals)]
    )


def beside_a_search(f: fast.FastDeal, worlds: int) -> tuple[int, float]:
    """Turns of a pure-Python loop this thread makes while another thread searches, and the
    search's wall seconds: with the GIL held through the search the loop would stand still
    (a few turns at its start and end), without it the loop runs the whole time."""
    done = threading.Event()

    def work() -> None:
        search(f, worlds, 7)
        done.set()

    worker = threading.Thread(target=work)
    turns = 0
    start = time.perf_counter()
    worker.start()
    while not done.is_set():
        turns += 1
    took = time.perf_counter() - start
    worker.join()
    return turns, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=400)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not fast.available():
        raise SystemExit("the compiled engine is not built")
    deals = [fast.FastDeal.new(Rules.preset("classic"), seed=i + 1) for i in range(args.threads)]
    search(deals[0], 10, 0)  # warm up (tables built once)
    serial = min(one_after_the_other(deals, args.worlds) for _ in range(args.repeat))
    parallel = min(at_once(deals, args.worlds) for _ in range(args.repeat))
    apart = min(in_processes(deals, args.worlds) for _ in range(args.repeat))
    load = os.getloadavg()[0]
    print(
        f"{args.threads} pimc searches of {args.worlds} worlds (classic), best of {args.repeat}, "
        f"load average {load:.2f} on {os.cpu_count()} cores"
    )
    print(f"one after the other: {serial:.3f} s")
    print(f"in {args.threads} threads at once: {parallel:.3f} s")
    print(f"ratio: {parallel / serial:.2f}")
    print(
        f"in {args.threads} processes at once: {apart:.3f} s, ratio {apart / serial:.2f} "
        "(the machine's own bound: cores that share caches and memory do not double)"
    )
    turns, took = beside_a_search(deals[0], args.worlds)
    print(
        f"a Python loop beside one search ({took:.3f} s): {turns} turns ({turns / took:.0f} a second)"
    )


if __name__ == "__main__":
    main()
