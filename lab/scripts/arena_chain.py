"""One arena pair over a list of seeds, one ``--json`` file a seed, for pools built over many sittings.

A long measurement (500 decks of a slow pair) is split into short runs, one file per seed, so
that a stop loses at most the run under way.  This runs the runs one after the
other in one process, pinned to one core where ``--core`` is given, and skips every seed whose
file exists or that another chain has claimed, so two chains (one counting up, one down) can
share a list without running a seed twice::

    python lab/scripts/arena_chain.py --out arena-runs/P --prefix eo --core 0 \\
        --seeds 8201-8330 -- expert expert-old --variant classic --deals 4
    python lab/scripts/arena_chain.py --out arena-runs/P --prefix eo --core 1 \\
        --seeds 8330-8201 -- expert expert-old --variant classic --deals 4

Everything after ``--`` goes to ``bezique arena`` (``--seed`` and ``--json`` are added).  A run
writes ``PREFIX-SEED.json.tmp`` and renames it when it ends, so a file that exists is a whole
run; its output goes to ``PREFIX-SEED.log``; the claim is ``PREFIX-SEED.claim``, left behind by
a run that did not finish (delete it to run that seed again).  Run it from a frozen copy of the
source (``PYTHONPATH``) when the players must not change while the pool grows.  When the pool
is complete, ``lab/scripts/records.py pack arena-runs/P`` keeps it in ``lab/records/pooled/``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def parse_seeds(text: str) -> list[int]:
    """Seeds from ``"8201-8210,8300"``: ranges (counting down where the first is larger) and
    single seeds, in the order given."""
    seeds: list[int] = []
    for part in text.split(","):
        first, sep, last = part.strip().partition("-")
        try:
            a = int(first)
            b = int(last) if sep else a
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a seed or a range of seeds: {part!r}") from None
        step = 1 if b >= a else -1
        seeds.extend(range(a, b + step, step))
    return seeds


def claim(out: Path, prefix: str, seed: int) -> bool:
    """Whether this chain takes ``seed``: no finished file, and no other chain's claim."""
    if (out / f"{prefix}-{seed}.json").exists():
        return False
    try:
        fd = os.open(out / f"{prefix}-{seed}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)
    return True


def run_seed(out: Path, prefix: str, seed: int, arena: list[str], core: int | None) -> int:
    """One arena run of the chain: its exit status; the file appears only if it succeeded."""
    final = out / f"{prefix}-{seed}.json"
    tmp = out / f"{prefix}-{seed}.json.tmp"
    cli = "import sys; from bezique.cli import main; sys.exit(main())"
    cmd = [sys.executable, "-c", cli, "arena", *arena, "--seed", str(seed), "--json", str(tmp)]
    if core is not None:
        cmd = ["taskset", "-c", str(core), *cmd]
    with open(out / f"{prefix}-{seed}.log", "w") as log:
        status = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False).returncode
    if status == 0 and tmp.exists():
        tmp.replace(final)
        (out / f"{prefix}-{seed}.claim").unlink(missing_ok=True)
    return status


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--" not in args:
        print("arena_chain.py: give the arena's arguments after --", file=sys.stderr)
        return 2
    split = args.index("--")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder of the run files")
    parser.add_argument("--prefix", required=True, help="run files are PREFIX-SEED.json")
    parser.add_argument("--seeds", type=parse_seeds, required=True, help="e.g. 8201-8330 or 9,7")
    parser.add_argument("--core", type=int, help="pin the runs to this core (taskset)")
    opts = parser.parse_args(args[:split])
    arena = args[split + 1 :]
    if "--seed" in arena or "--json" in arena:
        parser.error("--seed and --json are the chain's to give, not the arena's")
    opts.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for seed in opts.seeds:
        if claim(opts.out, opts.prefix, seed):
            status = run_seed(opts.out, opts.prefix, seed, arena, opts.core)
            if status:
                failed += 1
                print(f"seed {seed}: the arena failed ({status}), see its log", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
