"""Train the learned evaluation (bezique.bots.value) from a seed, reproducibly.

    .venv/bin/python lab/scripts/train_value.py --deals 1200 --seed 1 --jobs 2 \
        --out src/bezique/bots/value_classic.json

``--target search`` fits the model to the ``expert`` search's own playouts instead (see step 1).

Steps (docs/learning.md):

1. self-play positions: ``--deals`` deals of the heuristic bot in every seat, each move a
   uniform one with chance 0.05, every second decision kept, its target the mean margin of 16
   playouts of the rest of the deal in the compiled engine (:mod:`bezique.arena.valuedata`;
   ``--target search``: 16 playouts as the ``expert`` level's search makes them, each from a
   world dealt for the seat from its observation);
   cached in ``--data`` (a directory of chunk files; chunks already there are reused);
2. features of each position's observation (:func:`bezique.bots.value.features`);
3. a network fit by Adam on the squared error (numpy, seeded), its last 10% of deals held out
   to pick the epoch, and a ridge (least-squares) linear model beside it for the report;
4. the figures printed: held-out mean squared error and R^2 of the constant, the ridge and the
   network predictors, against the rollout target and the deal's final margin.

Needs numpy (the ``rl`` or ``cluster`` extra).  Under an hour on the 2-core machine for 1200
deals with ``--jobs 2`` (the data is most of it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from bezique.arena import valuedata
from bezique.bots.value import FEATURES_VERSION, ValueModel, features

CHUNK = 50


def chunks(ranges: str, size: int = CHUNK) -> list[tuple[int, int]]:
    """``0:600,2000:2600`` to chunks ``(first, count)`` of at most ``size`` deals."""
    out = []
    for part in ranges.split(","):
        a, b = (int(v) for v in part.split(":"))
        out += [(f, min(size, b - f)) for f in range(a, b, size)]
    return out


def data_name(rules: str, target: str) -> str:
    """The part of the cache files' names that says what they hold: the rules, and the target
    where it is not the heuristic one (so the first files' names are kept)."""
    return rules if target == "heuristic" else f"{rules}_{target}"


def rows_for(
    rules: str, ranges: str, seed: int, data: Path, jobs: int | None, target: str = "heuristic"
) -> list[valuedata.Row]:
    """The rows of the deals in ``ranges``, from the cache where it has them."""
    data.mkdir(parents=True, exist_ok=True)
    rows = []
    name = data_name(rules, target)
    for first, n in chunks(ranges):
        path = data / f"{name}_s{seed}_{first:05d}_{n}.jsonl.gz"
        if not path.exists():
            t = time.perf_counter()
            chunk = valuedata.generate(
                rules, deals=n, seed=seed, first=first, jobs=jobs, target=target
            )
            valuedata.save(chunk, path)
            print(
                f"deals {first}..{first + n - 1}: {len(chunk)} positions "
                f"({time.perf_counter() - t:.0f} s)",
                flush=True,
            )
        rows += valuedata.load(path)
    return rows


def arrays(rows: list[valuedata.Row]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features, rollout targets, final margins and deal indices of rows."""
    x = np.array([features(r.obs()) for r in rows], np.float64)
    roll = np.array([r.rollout if r.rollout is not None else r.margin for r in rows], np.float64)
    final = np.array([r.margin for r in rows], np.float64)
    deal = np.array([r.deal for r in rows], np.int64)
    return x, roll, final, deal


def fit_ridge(z: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Least squares with an L2 penalty (the bias column, all ones after standardizing to 0,
    is added here and not penalized)."""
    a = np.hstack([z, np.ones((len(z), 1))])
    reg = lam * np.eye(a.shape[1])
    reg[-1, -1] = 0.0
    return np.linalg.solve(a.T @ a + reg, a.T @ y)


def fit_net(
    z: np.ndarray,
    y: np.ndarray,
    zv: np.ndarray,
    yv: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
    start: np.ndarray,
) -> tuple[dict[str, np.ndarray], list[float]]:
    """``y ~ b + z.w + v.relu(z W + c)`` by Adam on minibatches, the linear part started from
    the ridge fit ``start`` (weights, then the bias); the epoch with the least held-out error
    is kept (epoch 0 is the ridge fit itself, so the network is never worse on it)."""
    rng = np.random.default_rng(seed)
    d = z.shape[1]
    ys = float(y.std())
    p = {
        "w": start[:d].copy(),
        "b": np.array([float(start[d])]),
        "W": rng.normal(0.0, 1.0 / np.sqrt(d), (d, hidden)),
        "c": np.zeros(hidden),
        "v": rng.normal(0.0, ys / np.sqrt(hidden) * 0.1, hidden),
    }
    m = {k: np.zeros_like(a) for k, a in p.items()}
    s = {k: np.zeros_like(a) for k, a in p.items()}
    lr, b1, b2, decay, step = 2e-3, 0.9, 0.999, 1e-4, 0

    def predict(q: dict[str, np.ndarray], zz: np.ndarray) -> np.ndarray:
        out: np.ndarray = q["b"][0] + zz @ q["w"] + np.maximum(zz @ q["W"] + q["c"], 0.0) @ q["v"]
        return out

    zero = {**p, "v": np.zeros(hidden)}
    curve = [float(np.mean((predict(zero, zv) - yv) ** 2))]
    best = (curve[0], {k: a.copy() for k, a in zero.items()})

    for _ in range(epochs):
        order = rng.permutation(len(z))
        for i in range(0, len(z), 256):
            idx = order[i : i + 256]
            zb, yb = z[idx], y[idx]
            h = zb @ p["W"] + p["c"]
            a = np.maximum(h, 0.0)
            err = (p["b"][0] + zb @ p["w"] + a @ p["v"] - yb) / ys**2 * 2 / len(idx)
            dh = np.outer(err, p["v"]) * (h > 0)
            g = {
                "w": zb.T @ err + decay * p["w"],
                "b": np.array([err.sum()]),
                "W": zb.T @ dh + decay * p["W"],
                "c": dh.sum(0),
                "v": a.T @ err + decay * p["v"],
            }
            step += 1
            for k in p:
                m[k] = b1 * m[k] + (1 - b1) * g[k]
                s[k] = b2 * s[k] + (1 - b2) * g[k] ** 2
                mh = m[k] / (1 - b1**step)
                sh = s[k] / (1 - b2**step)
                scale = ys if k == "b" else 1.0
                p[k] = p[k] - lr * scale * mh / (np.sqrt(sh) + 1e-8)
        mse = float(np.mean((predict(p, zv) - yv) ** 2))
        curve.append(mse)
        if mse < best[0]:
            best = (mse, {k: a.copy() for k, a in p.items()})
    return best[1], curve


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--deals", default="0:1200", help="deal ranges, first:stop,...")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--data", type=Path, default=Path("value-data"))
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument(
        "--target",
        choices=valuedata.TARGETS,
        default="heuristic",
        help="what the rollout target averages: the plain C policy's playouts from the true "
        "state (the shipped model), or the expert search's own from the seat's worlds",
    )
    args = ap.parse_args(argv)
    start = time.perf_counter()
    rows = rows_for(args.rules, args.deals, args.seed, args.data, args.jobs, args.target)
    deals = len({r.deal for r in rows})
    name = data_name(args.rules, args.target)
    cache = args.data / f"features_v{FEATURES_VERSION}_{name}_s{args.seed}_{args.deals}.npz"
    if cache.exists():
        with np.load(cache) as f:
            x, roll, final, deal = f["x"], f["roll"], f["final"], f["deal"]
    else:
        x, roll, final, deal = arrays(rows)
        np.savez(cache, x=x, roll=roll, final=final, deal=deal)
    print(
        f"{len(rows)} positions from {deals} deals, {x.shape[1]} features "
        f"({time.perf_counter() - start:.0f} s so far)",
        flush=True,
    )
    held = deal % 10 == 9  # whole deals held out (a deal's positions are alike): 1 in 10
    mean = x[~held].mean(0)
    scale = x[~held].std(0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    const = float(roll[~held].mean())

    def report(name: str, pred: np.ndarray) -> dict[str, float]:
        out = {}
        for tname, t in (("rollout", roll), ("final", final)):
            mse = float(np.mean((pred[held] - t[held]) ** 2))
            var = float(np.mean((const - t[held]) ** 2))
            out[f"mse_{tname}"] = round(mse, 1)
            out[f"r2_{tname}"] = round(1.0 - mse / var, 4)
        print(f"{name:<9} held-out: {out}", flush=True)
        return out

    figures = {"constant": report("constant", np.full(len(roll), const))}
    beta = fit_ridge(z[~held], roll[~held], lam=10.0)
    figures["ridge"] = report("ridge", np.hstack([z, np.ones((len(z), 1))]) @ beta)
    p, curve = fit_net(
        z[~held], roll[~held], z[held], roll[held], args.hidden, args.epochs, args.seed, beta
    )
    pred = p["b"][0] + z @ p["w"] + np.maximum(z @ p["W"] + p["c"], 0.0) @ p["v"]
    figures["network"] = report("network", pred)
    model = ValueModel(
        rules=args.rules,
        mean=tuple(float(a) for a in mean),
        scale=tuple(float(a) for a in scale),
        linear=tuple(float(a) for a in p["w"]),
        bias=float(p["b"][0]),
        hidden_w=tuple(tuple(float(a) for a in col) for col in p["W"].T),
        hidden_b=tuple(float(a) for a in p["c"]),
        out_w=tuple(float(a) for a in p["v"]),
        constant=const,
        info={
            "command": "lab/scripts/train_value.py "
            + " ".join(sys.argv[1:] if argv is None else argv),
            "deals": args.deals,
            "deal_count": deals,
            "seed": args.seed,
            "positions": len(rows),
            "held_out": "deals whose index ends in 9",
            "figures": figures,
            "epochs_mse": [round(c, 1) for c in curve],
        },
    )
    # the pure-Python evaluation must give the numbers numpy fit
    check = [model.predict(list(x[i])) for i in range(min(50, len(x)))]
    assert np.allclose(check, pred[: len(check)], atol=1e-6 * max(1.0, float(np.abs(pred).max())))
    if args.out is not None:
        model.save(args.out)
        print(f"wrote {args.out}")
    print(json.dumps(figures))
    print(f"{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
