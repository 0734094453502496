"""Run the compiled engine's checks under AddressSanitizer (or valgrind) with zero errors.

Usage: ``python scripts/fast_memcheck.py [--deals N] [--tool asan|valgrind]``.

The child process plays the differential lockstep test on every supported preset, feeds the
engine bad input of every kind (ids out of range, malformed text, bad seats), and runs
``simulate``, playouts, the stage-2 solver, determinization, the IS-MCTS (``ismcts.c``), duels
of the smart policy's weights (``duel.c``) and the worlds of ``pimc_hidden``.

* ``asan`` (default): the extension is compiled again with ``-fsanitize=address,undefined``
  into a temporary copy of the package, and the child runs with the sanitizer runtime
  preloaded; any report fails the run.
* ``valgrind``: memcheck on the installed extension with ``PYTHONMALLOC=malloc``.  The Python
  interpreter itself is not clean under valgrind, so only errors with a frame in the engine's
  sources count (they must be zero).

Exit status 0 only when no error was found.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

CHILD = r"""
import random, sys
from bezique import Deal, IllegalAction, Rules, fast
from bezique.fast.differential import PRESETS, deals, lockstep
from bezique.fast.search import IsmctsSettings, PimcSettings, ismcts, pimc, pimc_hidden
n = int(sys.argv[1])
for preset in PRESETS:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for deal, greedy in deals(rules, n, seed=1):
        lockstep(deal, rng, greedy=greedy)
    fast.simulate(rules, 20, seed=1, policy="heuristic")
    f = fast.FastDeal.new(rules, seed=2)
    for bad in (-1, 10**9, 2**80, "x", None, 1.5, True):
        try:
            f.apply_id(bad)
        except IllegalAction:
            pass
    for bad in ("", "play", "play ZZ", "meld", "meld nothing QS", "pass pass", "x" * 10000):
        try:
            f.apply(bad)
        except IllegalAction:
            pass
    for seat in (-1, 99):
        try:
            f.hand(seat)
        except ValueError:
            pass
    g = f.resample(0, 3)
    g.playout("heuristic", seed=1)
    while not g.is_over:
        if g.phase == "play" and g.stage == 2:
            g.solve(0)
        g.apply_id(random.Random(4).choice(g.legal_ids()))
# the Haitian jokers at every table, with the wild-card options varied
for players, extra in ((3, {}), (4, {}), (4, {"partnerships": True}),
                       (2, {"stage2_wild_card": "last-resort", "four_wild_cards": 200,
                            "wild_card_melds": "any", "second_seven_scores": "capture"})):
    haitian = Rules.preset("haitian", players=players, **extra)
    for deal, greedy in deals(haitian, n, seed=5):
        lockstep(deal, random.Random(5), greedy=greedy)
    fast.simulate(haitian, 20, seed=1, policy="meld")
    g = fast.FastDeal.new(haitian, seed=4)
    while not g.is_over:
        if g.phase == "play" and g.stage == 2:
            g.solve(0)
            g.resample(g.to_move, 1).playout("heuristic", seed=2)
        g.apply_index(0)
    for bad in (-1, 10**9, haitian.cards):
        try:
            fast._engine.Core.load(fast._config(haitian), 0, [[bad]] * players, -1, [], {})
        except (ValueError, OverflowError, KeyError):
            pass
# IS-MCTS (ismcts.c): stage-1 searches in three presets (the node cap hit in two), a stage-2
# search, bad input
for preset, cap in (("classic", 5), ("four", 200_000), ("three", 3)):
    g = fast.FastDeal.new(Rules.preset(preset), seed=6)
    for _ in range(7):
        g.apply_index(0)
    ismcts(g, g.to_move, 0, 60, 1, IsmctsSettings(max_tree_nodes=cap, stop_early=True))
g = fast.FastDeal.new(Rules.preset("classic"), seed=6)
while not (g.stage == 2 and g.phase == "play"):
    g.apply_index(0)
ismcts(g, g.to_move, 0, 40, 2)
ismcts(g, g.to_move, 0, 40, 2, IsmctsSettings(cpu_budget=0.0))
for bad in ({"prior_weight": 2.0}, {"max_tree_nodes": 0}):
    try:
        ismcts(g, g.to_move, 0, 10, 1, IsmctsSettings(**bad))
    except ValueError:
        pass
for args in ((g.to_move, 99, 10, 1), (9, 0, 10, 1)):
    try:
        ismcts(g, *args)
    except ValueError:
        pass
# the smart policy's weights: duels (duel.c), pimc with weights and the worlds it names
from bezique.fast import duel
from bezique.fast.smart import SMART_DEFAULT
duel(Rules.preset("classic"), 5, 1, SMART_DEFAULT, [0.0] * len(SMART_DEFAULT))
duel(Rules.preset("rubicon"), 3, 2, SMART_DEFAULT, SMART_DEFAULT, solver_nodes=50)
for bad in ([1.0], [float("nan")] * len(SMART_DEFAULT), None):
    try:
        duel(Rules.preset("classic"), 1, 1, SMART_DEFAULT, bad)
    except (ValueError, TypeError):
        pass
for preset in ("classic", "four"):
    g = fast.FastDeal.new(Rules.preset(preset), seed=8)
    for _ in range(9):
        g.apply_index(0)
    pimc(g, g.to_move, 0, [0, 1], 0, 3, 5, PimcSettings(policy="smart", smart_params=SMART_DEFAULT))
    pimc(g, g.to_move, 0, [0, 1], 0, 3, 5, PimcSettings(cpu_budget=0.0))
    pimc_hidden(g, g.to_move, 2, 4, 9)
# the learned terms: features, duels and playouts with them, bad weights refused
from bezique.fast.smart import LEARNED_NAMES
full = list(SMART_DEFAULT) + [0.5] * len(LEARNED_NAMES)
g = fast.FastDeal.new(Rules.preset("classic"), seed=4)
while not g.is_over:
    g.smart_features(full)
    g.apply_index(g._c.policy_pick("smart", 1))
duel(Rules.preset("classic"), 3, 4, full, SMART_DEFAULT)
g = fast.FastDeal.new(Rules.preset("classic"), seed=5)
g.apply_index(0)
pimc(g, g.to_move, 0, [0, 1], 0, 3, 5, PimcSettings(explore=0.0, policy="smart", smart_params=full))
for bad in ([0.0] * (len(full) + 1), "weights", [None] * len(full)):
    for call in (g.smart_features, g._c.smart_features):
        try:
            call(bad)
        except (ValueError, TypeError):
            pass
import numpy as np
from bezique.envs import Encoding
for preset in ("haitian", "classic"):
    enc = Encoding.for_rules(Rules.preset(preset))
    f = fast.FastDeal.new(Rules.preset(preset), seed=2)
    f.encode(0, np.zeros(enc.size, np.float32), enc)
for bad in (np.zeros(3, np.float32), np.zeros(enc.size), b"x" * 4 * enc.size, None):
    try:
        f.encode(0, bad, enc)
    except (ValueError, TypeError, BufferError):
        pass
try:
    f.encode(9, np.zeros(enc.size, np.float32), enc)
except ValueError:
    pass
print("done")
"""


ROOT = Path(__file__).resolve().parent.parent


def run_asan(deals: int) -> int:
    """Compile a sanitized engine into a copy of the package and run the child with it."""
    libasan = subprocess.run(
        ["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True, check=True
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        pkg = Path(tmp) / "bezique"
        shutil.copytree(ROOT / "src" / "bezique", pkg, ignore=shutil.ignore_patterns("*.so"))
        fast_dir = pkg / "fast"
        target = fast_dir / ("_engine" + sysconfig.get_config_var("EXT_SUFFIX"))
        cmd = [
            "gcc",
            "-std=c11",
            "-O1",
            "-g",
            "-fPIC",
            "-shared",
            "-fsanitize=address,undefined",
            "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer",
            f"-I{sysconfig.get_paths()['include']}",
            *(str(p) for p in sorted(fast_dir.glob("*.c"))),  # every source of the extension
            "-o",
            str(target),
        ]
        subprocess.run(cmd, check=True)
        env = {
            **os.environ,
            "PYTHONPATH": tmp,
            "LD_PRELOAD": libasan,
            "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=0:exitcode=99",
            "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1:exitcode=98",
            "PYTHONMALLOC": "malloc",
        }
        child = CHILD.replace(
            "from bezique import",
            "import bezique; assert bezique.__file__.startswith("
            + repr(tmp)
            + "); from bezique import",
        )
        done = subprocess.run(
            [sys.executable, "-c", child, str(deals)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    print(done.stdout.strip())
    reports = done.stderr.count("ERROR: AddressSanitizer") + done.stderr.count("runtime error:")
    print(f"AddressSanitizer/UBSan: {reports} reports, exit status {done.returncode}")
    if done.returncode != 0 or reports or "done" not in done.stdout:
        print(done.stderr[-6000:], file=sys.stderr)
        return 1
    return 0


def run_valgrind(deals: int) -> int:
    """memcheck on the installed engine; errors with an engine frame must be zero."""
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    env = {**os.environ, "PYTHONMALLOC": "malloc"}
    cmd = [
        "valgrind",
        "--tool=memcheck",
        "--leak-check=no",
        "--num-callers=40",
        sys.executable,
        "-c",
        CHILD,
        str(deals),
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    print(done.stdout.strip())
    # error blocks are separated by blank "==pid== " lines
    blocks = re.split(r"\n==\d+== \n", done.stderr)
    ours = [
        b
        for b in blocks
        if "bezique/fast/" in b and re.search(r"== (Invalid|Conditional|Use of)", b)
    ]
    total = re.findall(r"ERROR SUMMARY: (\d+) errors", done.stderr)
    print(f"valgrind: {len(ours)} errors in the engine ({total[-1] if total else '?'} in all)")
    if ours or "done" not in done.stdout:
        print("\n\n".join(ours)[-6000:] or done.stderr[-3000:], file=sys.stderr)
        return 1
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3, help="deals per preset (default 3)")
    parser.add_argument("--tool", choices=("asan", "valgrind"), default="asan")
    args = parser.parse_args()
    sys.exit(run_asan(args.deals) if args.tool == "asan" else run_valgrind(args.deals))


if __name__ == "__main__":
    main()
