"""Fit the belief model of bezique.bots.belief and measure it on held-out deals.

    .venv/bin/python lab/scripts/train_belief.py --data belief-data --deals 0:6000 --seed 17 \
        --out src/bezique/bots/belief_classic.json

Plays (or reads back, from ``--data``) heuristic self-play deals of the classic rules
(``bezique.arena.valuedata``, no rollouts: the model needs only the positions and the true
hands), takes every kept stage-1 position of two hands, and fits the weights of
``bezique.bots.belief.FEATURES`` by logistic regression (Newton's method, numpy, a small ridge)
on the deals whose index does not end in 9: each unseen copy of a card kind is in the opponent's
hand or not, the base odds (its unseen concealed cards over every unseen card) an offset.
On the held-out deals (index ending in 9) it prints the mean gain in nats of the true hand's
cards over the base rate, overall and by how many cards the stock holds.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from bezique.arena import valuedata
from bezique.bots.belief import FEATURES, BeliefModel, card_features, log_gain
from bezique.core.cards import parse_card

sys.path.insert(0, str(Path(__file__).parent))
from train_value import chunks  # the sibling script, found through sys.path


def load(ranges: str, seed: int, data: Path) -> list[valuedata.Row]:
    rows: list[valuedata.Row] = []
    data.mkdir(parents=True, exist_ok=True)
    for first, n in chunks(ranges, size=1000):
        path = data / f"classic_s{seed}_{first:05d}.jsonl.gz"
        if not path.exists():
            part = valuedata.generate("classic", deals=n, seed=seed, first=first, rollouts=0)
            valuedata.save(part, path)
            print(f"played {path}", flush=True)
        rows += valuedata.load(path)
    return rows


def table(rows: list[valuedata.Row]) -> tuple[np.ndarray, ...]:
    """Features, unseen copies, copies held and offsets, one line a card kind of a position."""
    xs, us, ys, offs = [], [], [], []
    for r in rows:
        cr = card_features(r.obs())
        if cr is None:
            continue
        opp = 1 - r.seat
        held: dict[int, int] = defaultdict(int)
        for c in r.hidden[opp]:
            held[parse_card(c)] += 1
        for kind, u, x in zip(cr.kinds, cr.unseen, cr.x, strict=True):
            xs.append(x)
            us.append(u)
            ys.append(held[kind])
            offs.append(cr.offset)
    return (
        np.array(xs, dtype=np.float64),
        np.array(us, dtype=np.float64),
        np.array(ys, dtype=np.float64),
        np.array(offs, dtype=np.float64),
    )


def fit(x: np.ndarray, u: np.ndarray, y: np.ndarray, off: np.ndarray, ridge: float) -> np.ndarray:
    """Binomial logistic regression by Newton's method: y of u copies held, log-odds
    x . theta + off."""
    theta = np.zeros(x.shape[1])
    steps = 0
    for steps in range(1, 31):  # noqa: B007 - the count is printed
        z = x @ theta + off
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x.T @ (y - u * p) - ridge * theta
        w = u * p * (1 - p)
        hess = (x * w[:, None]).T @ x + ridge * np.eye(x.shape[1])
        delta = np.linalg.solve(hess, grad)
        theta += delta
        if float(np.abs(delta).max()) < 1e-7:
            break
    ll = float((y * np.log(p) + (u - y) * np.log1p(-p)).sum())
    print(f"fit: {len(y)} lines, {steps} Newton steps, log-likelihood {ll:.1f}")
    return theta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--deals", default="0:6000", help="deal ranges, first:stop,...")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--data", type=Path, default=Path("belief-data"))
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rows = load(args.deals, args.seed, args.data)
    train = [r for r in rows if r.deal % 10 != 9]
    held = [r for r in rows if r.deal % 10 == 9]
    x, u, y, off = table(train)
    theta = fit(x, u, y, off, args.ridge)
    model = BeliefModel(tuple(float(t) for t in theta))
    gains: dict[str, list[float]] = defaultdict(list)
    for r in held:
        obs = r.obs()
        cr = card_features(obs)
        if cr is None:
            continue
        g = log_gain(model, cr, r.hidden[1 - r.seat])
        gains["all"].append(g)
        band = (
            "stock > 32"
            if obs.stock_size > 32
            else "stock 17-32"
            if obs.stock_size > 16
            else "stock <= 16"
        )
        gains[band].append(g)
    figure = {}
    for band, gs in gains.items():
        mean = statistics.mean(gs)
        half = 1.96 * statistics.stdev(gs) / math.sqrt(len(gs))
        figure[band] = {"positions": len(gs), "gain_nats": round(mean, 4), "ci95": round(half, 4)}
        print(
            f"held-out gain over the base rate, {band}: {mean:+.3f} nats +- {half:.3f} "
            f"over {len(gs)} positions"
        )
    for name, t in sorted(zip(FEATURES, theta, strict=True), key=lambda p: -abs(p[1]))[:20]:
        print(f"  {name:28s} {t:+.3f}")
    if args.out is not None:
        info = {
            "deals": args.deals,
            "seed": args.seed,
            "ridge": args.ridge,
            "held_out": "deals whose index ends in 9",
            "figure": figure,
            "command": "lab/scripts/train_belief.py " + " ".join(argv or sys.argv[1:]),
        }
        BeliefModel(model.theta, info).save(args.out)
        print(f"wrote {args.out}")
    print(json.dumps(figure))
    return 0


if __name__ == "__main__":
    sys.exit(main())
