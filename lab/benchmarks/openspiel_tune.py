"""Tune OpenSpiel's IS-MCTS (``openspiel-ismcts``) for a fair baseline: a small sweep.

Each setting of the exploration constant and the utility scale plays ``--decks`` mirrored
classic decks against ``heuristic`` at a fixed CPU time a move (``--time``, default 0.04 s, the
median of ``expert-c`` in its 108-deck arena), all settings on the same decks (``--seed``), one
after another in this process::

    python lab/benchmarks/openspiel_tune.py --decks 24 --seed 1601 --json tune.json

The settings (``--grid`` picks some by label): raw point margins with ``uct_c`` 2 (the earlier
baseline) and 20, and margins in units of 200 points (about the spread of a deal's margin) with
``uct_c`` 0.5, 1, 2 and 4 (the same as raw ``uct_c`` 100, 200, 400 and 800), and the deal's
result (+1 / -1) with ``uct_c`` 1.  The best margin against the heuristic sets
:data:`bezique.envs.openspiel_bot.DEFAULT_UCT_C` and ``DEFAULT_SCALE``; docs/strength.md has
the figures.  Needs the ``rl`` extra (OpenSpiel).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bezique.arena import run_arena
from bezique.bots import register

GRID: dict[str, dict[str, Any]] = {
    "raw-c2": {"utility": "points", "scale": 1.0, "uct_c": 2.0},
    "raw-c20": {"utility": "points", "scale": 1.0, "uct_c": 20.0},
    "s200-c0.5": {"utility": "points", "scale": 200.0, "uct_c": 0.5},
    "s200-c1": {"utility": "points", "scale": 200.0, "uct_c": 1.0},
    "s200-c2": {"utility": "points", "scale": 200.0, "uct_c": 2.0},
    "s200-c4": {"utility": "points", "scale": 200.0, "uct_c": 4.0},
    "result-c1": {"utility": "result", "scale": 1.0, "uct_c": 1.0},
}


def _register(label: str, options: dict[str, Any]) -> str:
    from bezique.envs.openspiel_bot import OpenSpielISMCTS

    name = f"openspiel-tune-{label}"
    register(name, lambda seed: OpenSpielISMCTS(seed, **options), f"tuning: {options}")
    return name


def _f(x: float | None) -> str:
    return "—" if x is None else f"{x:+7.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1601)
    parser.add_argument("--time", type=float, default=0.04, help="CPU seconds a move")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--grid", nargs="*", choices=list(GRID), default=list(GRID))
    parser.add_argument("--json", type=Path, help="write every setting's figures here")
    args = parser.parse_args()
    rows = []
    for label in args.grid:
        name = _register(label, GRID[label])
        start = time.perf_counter()
        result = run_arena(
            f"{name}:time={args.time}", args.opponent, "classic", decks=args.decks, seed=args.seed
        )
        summary = result.summary()
        m = summary["margin"]
        t = summary["a_seconds_per_move"]
        rows.append({"label": label, **GRID[label], "summary": summary})
        print(
            f"{label:10} margin {_f(m['mean'])} [{_f(m['low'])}, {_f(m['high'])}]"
            f"  deal score {summary['deal_win_rate']['mean']:.3f}"
            f"  CPU s a move {t['median']:.3f} (p95 {t['p95']:.3f})"
            f"  {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        if args.json:  # after every setting, so that a stopped sweep keeps what it measured
            args.json.write_text(
                json.dumps(
                    {
                        "command": "python lab/benchmarks/openspiel_tune.py "
                        f"--decks {args.decks} --seed {args.seed} --time {args.time}",
                        "opponent": args.opponent,
                        "rows": rows,
                    },
                    indent=1,
                )
            )


if __name__ == "__main__":
    main()
