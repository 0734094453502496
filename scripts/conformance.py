"""Run the conformance suite (tests/conformance.py) at scale, in parallel.

    python scripts/conformance.py --deals 20000            # every preset, 20000 deals each
    python scripts/conformance.py --deals 2000 --variations 500 --jobs 8
    python scripts/conformance.py --rules "classic(carte_blanche=true)" --deals 1000
    python scripts/conformance.py --journal run.jsonl     # resumable: stop and run again

Prints what was checked and every kind of failure with its first reproduction; the exit status
is 1 when anything failed.  With ``--journal`` every finished work unit is appended to a file as
one JSON line; run the same command again (after a stop, a crash or in another session) and the
units already in the file are counted from it rather than run again, so a run too long for one
sitting can be finished in several.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib.util
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
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


def code_fingerprint() -> str:
    """A hash of the code a unit's result depends on: the rules core and the suite.  A unit
    journaled under other code is run again, so a pooled run checks one version of the core."""
    root = SUITE.parent.parent
    digest = hashlib.sha256()
    for path in [*sorted((root / "src" / "bezique" / "core").rglob("*.py")), SUITE]:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _unit_key(rules_text: str, seeds: range, every: dict[str, int], code: str) -> str:
    """What identifies a work unit in the journal: the code, the rules, the seeds, the rates."""
    return json.dumps([code, rules_text, seeds.start, seeds.stop, every], sort_keys=True)


def _stats_to_json(stats: Any) -> dict[str, Any]:
    data = dataclasses.asdict(stats)
    # asdict rebuilds a Counter from its (key, count) pairs, which it then counts as keys
    data["failure_counts"] = dict(stats.failure_counts)
    return data


def _stats_from_json(suite: ModuleType, data: dict[str, Any]) -> Any:
    data = dict(data)
    data["failure_counts"] = Counter(data.get("failure_counts", {}))
    return suite.Stats(**data)


def _read_journal(path: Path, suite: ModuleType) -> dict[str, Any]:
    """Units already done, by key; a torn last line (the run was killed mid-write) is ignored."""
    done: dict[str, Any] = {}
    if not path.exists():
        return done
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            done[entry["key"]] = _stats_from_json(suite, entry["stats"])
        except (ValueError, KeyError, TypeError) as e:
            print(f"journal {path}: line {number} skipped ({e})", file=sys.stderr)
    return done


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
    parser.add_argument(
        "--journal",
        type=Path,
        help="append each finished unit to this file and skip units it already holds",
    )
    args = parser.parse_args(argv)
    if args.journal is not None and args.journal.exists() and not args.journal.is_file():
        parser.error(f"--journal {args.journal}: not a file")
    suite = _suite()
    every = {"resample_every": args.resample_every, "round_trip_every": args.round_trip_every}
    if args.rules:
        plan = [(str(Rules.from_string(r)), args.deals) for r in args.rules]
    else:
        variations = args.variations if args.variations is not None else max(1, args.deals // 8)
        plan = [(str(r), args.deals) for _, r in suite.preset_rule_sets()]
        plan += [(str(r), variations) for _, r in suite.variation_rule_sets()]
    done = _read_journal(args.journal, suite) if args.journal else {}
    written = args.journal.read_bytes() if args.journal and args.journal.exists() else b""
    if written and not written.endswith(b"\n"):
        with args.journal.open("a") as f:
            f.write("\n")  # end a torn line, so the next entry starts a line of its own
    code = code_fingerprint()
    stats = {rules_text: suite.Stats() for rules_text, _ in plan}
    todo: list[tuple[str, range]] = []
    reused = 0
    for index, (rules_text, deals) in enumerate(plan):
        first = args.first_seed + 1_000_000 * index
        for s in range(first, first + deals, args.chunk):
            seeds = range(s, min(s + args.chunk, first + deals))
            key = _unit_key(rules_text, seeds, every, code)
            if key in done:
                stats[rules_text].add(done[key])
                reused += 1
            else:
                todo.append((rules_text, seeds))
    if args.journal:
        print(
            f"journal {args.journal} (code {code}): {reused} units done before, {len(todo)} to run",
            flush=True,
        )
    start = time.time()
    # one job runs in this process: nothing to pickle, and the suite may be loaded by path
    pool: Executor = (
        ThreadPoolExecutor(max_workers=1)
        if args.jobs == 1
        else ProcessPoolExecutor(max_workers=args.jobs)
    )
    with pool:
        futures = {pool.submit(_chunk, text, seeds, every): (text, seeds) for text, seeds in todo}
        for future in as_completed(futures):
            text, seeds = futures[future]
            part = future.result()
            stats[text].add(part)
            if args.journal:
                entry = {"key": _unit_key(text, seeds, every, code), "stats": _stats_to_json(part)}
                with args.journal.open("a") as f:
                    f.write(json.dumps(entry) + "\n")
    failed = False
    total_deals = 0
    for index, (rules_text, deals) in enumerate(plan):
        first = args.first_seed + 1_000_000 * index
        total_deals += stats[rules_text].deals
        failed = failed or bool(stats[rules_text].failures)
        print(f"== {rules_text} (seeds {first}..{first + deals - 1})")
        print(stats[rules_text].report(), flush=True)
    print(
        f"{total_deals} deals checked ({reused} units from the journal) in "
        f"{time.time() - start:.0f} s; {'FAILED' if failed else 'ok'}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
