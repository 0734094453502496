"""Fit the learned terms of the compiled ``'smart'`` policy to the search's values (expert iteration).

One round: positions from self-play of the policy (two hands, stage 1, a card to play; each move
a uniform legal one with chance ``--explore`` so the positions spread), and for each the value
of every card by PIMC inside C (``FastDeal.pimc``: ``--worlds`` determinizations of the seat's
view, every card played out in the same worlds by the policy itself, the exact stage-2 solver
finishing each).  The search's advantage of each card (its value less the position's mean) is
fit by ridge least squares to the policy's own value and the
:data:`~bezique.fast.smart.LEARNED_FEATURES` of the card, both centred the same way, so the new
policy is the old one plus a learned correction (the fit's weights divided by the weight of the
old value).  The new weights then play the old ones on ``--check-decks`` mirrored decks
(:func:`bezique.fast.duel`, stage 2 solved exactly); the points a deal and their standard error
are printed and written with the weights.

    .venv/bin/python lab/scripts/train_policy.py --rounds 3 --positions 20000 --worlds 32 --seed 1 \\
        --data policy-data --out policy.json

``--rounds`` chains rounds, each one's positions played and searched with the weights of the
last (expert iteration), round k from seed ``--seed + k - 1``; ``--base FILE`` starts from an
earlier run's weights (its ``params``) instead of the heuristic's; ``--data`` keeps each round's
positions, so a second run with other ``--ridge`` only refits.  ``--net`` fits the learned
terms afresh together with a small network over the rules' value and the same features
(:data:`bezique.fast.smart.NET_SHAPE`), by Adam on the same advantages; ``--also`` adds positions
kept by other runs from the same base to a round's fit.
Needs numpy (the ``rl`` or ``cluster`` extra).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bezique import Rules, fast
from bezique.fast.search import PimcSettings, pimc
from bezique.fast.smart import (
    LEARNED_NAMES,
    NET_NAMES,
    NET_SHAPE,
    SMART_DEFAULT,
    SMART_NAMES,
    check_params,
)


def positions(
    rules: Rules,
    params: tuple[float, ...],
    count: int,
    worlds: int,
    seed: int,
    explore: float,
    keep: float,
) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """``count`` positions of self-play: per position the cards' values and features under
    ``params``, the search's value of each card, and the cards' values by the rules alone."""
    rng = random.Random(seed)
    values: list[Any] = []
    features: list[Any] = []
    targets: list[Any] = []
    rules_values: list[Any] = []
    rules_only = params[: len(SMART_NAMES)]
    deal_no = 0
    while len(values) < count:
        deal = fast.FastDeal.new(rules, seed=seed * 1_000_003 + deal_no, dealer=deal_no % 2)
        deal_no += 1
        while not deal.is_over and len(values) < count:
            n = len(deal.legal_ids())
            view = deal.smart_features(params) if n > 1 else None
            if view is not None and rng.random() < keep:
                seat = deal.to_move
                assert seat is not None
                margins, _, _ = pimc(
                    deal,
                    seat,
                    deal.side_of(seat),
                    list(range(n)),
                    0,
                    worlds,
                    rng.getrandbits(63),
                    PimcSettings(
                        policy="smart", explore=0.0, couple_draws=True, smart_params=params
                    ),
                )
                q = [statistics.fmean(margins[w * n + i] for w in range(worlds)) for i in range(n)]
                values.append(view[0])
                features.append(view[1])
                targets.append(q)
                plain = deal.smart_features(rules_only)
                assert plain is not None
                rules_values.append(plain[0])
            if rng.random() < explore:
                deal.apply_index(rng.randrange(n))
            elif view is not None:
                deal.apply_index(max(range(n), key=lambda i: (view[0][i], -i)))
            else:
                deal.apply_index(deal._c.policy_pick("smart-exact", 0))
    return values, features, targets, rules_values


def _rows(
    values: list[Any], features: list[Any], targets: list[Any], centre_x: bool
) -> tuple[Any, Any, Any, Any]:
    """One row a card: its value and features (centred within the position where ``centre_x``),
    the search's value less the position's mean, the position's number, and whether the
    position is held out (every tenth)."""
    import numpy as np

    rows_x, rows_y, group = [], [], []
    for g, (v, f, q) in enumerate(zip(values, features, targets, strict=True)):
        x = np.column_stack([np.asarray(v), np.asarray(f)])
        y = np.asarray(q)
        rows_x.append(x - x.mean(axis=0) if centre_x else x)
        rows_y.append(y - y.mean())
        group.extend([g] * len(q))
    groups = np.asarray(group)
    return np.vstack(rows_x), np.concatenate(rows_y), groups, groups % 10 == 9


def fit(
    values: list[Any], features: list[Any], targets: list[Any], ridge: float
) -> tuple[Any, dict[str, float]]:
    """The learned weights (in the policy's own units) and the fit's figures."""
    import numpy as np

    x, y, _, held = _rows(values, features, targets, centre_x=True)
    scale = x[~held].std(axis=0)
    scale[scale == 0] = 1.0
    xs = x / scale
    a = xs[~held]
    coef = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ y[~held]) / scale
    old, fit_y = x[~held, 0], y[~held]
    only_old = float(np.dot(old, fit_y) / np.dot(old, old))

    def r2(pred: Any) -> float:
        return float(1 - ((y[held] - pred[held]) ** 2).sum() / (y[held] ** 2).sum())

    figures = {
        "rows": len(y),
        "old_value_weight": float(coef[0]),
        "r2_held_out": r2(x @ coef),
        "r2_held_out_old_value_only": r2(x[:, 0] * only_old),
    }
    if coef[0] <= 0:
        raise SystemExit(
            f"the fit gives the policy's own value a weight of {coef[0]:.3f}: nothing to build on"
        )
    return coef[1:] / coef[0], figures


def fit_net(
    rules_values: list[Any],
    features: list[Any],
    targets: list[Any],
    ridge: float,
    epochs: int,
    seed: int,
) -> tuple[Any, Any, dict[str, float]]:
    """The learned terms' weights and the network's (both in the policy's own units) fit to the
    search's advantages, and the fit's figures.

    The prediction of a card's advantage is ``w . z + u . relu(W z + b)``, centred within its
    position, ``z`` the standardized rules' value of the card (no learned terms) and its
    features: what the compiled network reads.  The linear part starts from the ridge fit and the
    network at zero weight, so the first epoch is the ridge fit; Adam on the squared error,
    keeping the epoch with the least held-out error.  With ``a`` the weight on the rules' value,
    the new value is the rules' plus the rest of the fit divided by ``a``."""
    import numpy as np

    x, y, groups, held = _rows(rules_values, features, targets, centre_x=False)
    mu = x[~held].mean(axis=0)
    sd = x[~held].std(axis=0)
    sd[sd == 0] = 1.0
    z = (x - mu) / sd
    sizes = np.bincount(groups).astype(float)

    def centred(p: Any, g: Any = groups, n: Any = sizes) -> Any:
        return p - (np.bincount(g, weights=p, minlength=len(n)) / np.maximum(n, 1))[g]

    zc = np.column_stack([centred(z[:, j]) for j in range(z.shape[1])])
    a = zc[~held]
    w = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ y[~held])
    hidden = NET_SHAPE[0]
    rng = np.random.default_rng(seed)
    big_w = rng.normal(0.0, 1.0 / math.sqrt(z.shape[1]), (z.shape[1], hidden))
    b = np.zeros(hidden)
    u = np.zeros(hidden)
    params = [w, big_w, b, u]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]

    def predict(rows: Any) -> Any:
        return z[rows] @ w + np.maximum(z[rows] @ big_w + b, 0.0) @ u

    every = np.arange(len(y))

    def r2() -> float:
        pred = centred(predict(every))
        return float(1 - ((y[held] - pred[held]) ** 2).sum() / (y[held] ** 2).sum())

    ridge_r2 = r2()
    best = (ridge_r2, 0, [p.copy() for p in params])
    train_groups = np.unique(groups[~held])
    step = 0
    for epoch in range(1, epochs + 1):
        rng.shuffle(train_groups)
        for batch in np.array_split(train_groups, max(1, len(train_groups) // 256)):
            rows = np.flatnonzero(np.isin(groups, batch))
            _, local = np.unique(groups[rows], return_inverse=True)
            zb = z[rows]
            h = np.maximum(zb @ big_w + b, 0.0)
            p = zb @ w + h @ u
            n = np.bincount(local).astype(float)
            grad_p = 2.0 * (centred(p, local, n) - y[rows]) / len(rows)
            grad_h = np.outer(grad_p, u) * (h > 0)
            grads = [zb.T @ grad_p, zb.T @ grad_h, grad_h.sum(axis=0), h.T @ grad_p]
            step += 1
            for param, grad, (m1, m2) in zip(params, grads, moments, strict=True):
                m1 *= 0.9
                m1 += 0.1 * grad
                m2 *= 0.999
                m2 += 0.001 * grad * grad
                param -= 1e-3 * (m1 / (1 - 0.9**step)) / (np.sqrt(m2 / (1 - 0.999**step)) + 1e-8)
        score = r2()
        if score > best[0]:
            best = (score, epoch, [p.copy() for p in params])
    w, big_w, b, u = best[2]
    value_weight = w[0] / sd[0]
    if value_weight <= 0:
        raise SystemExit(
            f"the fit gives the policy's own value a weight of {value_weight:.3f}: nothing to build on"
        )
    learned = (w[1:] / sd[1:]) / value_weight
    scaled = big_w / sd[:, None]  # inputs in the policy's units
    net_b = b - (mu / sd) @ big_w
    net = [*scaled.T.reshape(-1), *net_b, *(u / value_weight)]
    figures = {
        "rows": len(y),
        "old_value_weight": float(value_weight),
        "r2_held_out_ridge": ridge_r2,
        "r2_held_out": best[0],
        "best_epoch": best[1],
    }
    return learned, np.asarray(net), figures


def one_round(
    args: argparse.Namespace, rules: Rules, base: tuple[float, ...], seed: int, data: Path | None
) -> tuple[list[float], dict[str, Any]]:
    """One round from ``base``: positions (read from ``data`` where it exists, else played and
    kept there), the fit, and the duel of the new weights against ``base``."""
    import numpy as np

    start = time.process_time()
    if data and data.exists():
        values, features, targets, rules_values = _read(data, base)
        print(f"read {len(values)} positions from {data}")
    else:
        values, features, targets, rules_values = positions(
            rules, base, args.positions, args.worlds, seed, args.explore, args.keep
        )
        if data:
            obj = np.empty(len(values), dtype=object)
            np.savez(
                data,
                **{
                    k: _objects(obj, v)
                    for k, v in (
                        ("values", values),
                        ("features", features),
                        ("targets", targets),
                        ("rules_values", rules_values),
                    )
                },
            )
        print(f"{len(values)} positions, {time.process_time() - start:.0f} s of CPU")
    for extra_data in args.also:
        more = _read(extra_data, base)
        for mine, theirs in zip((values, features, targets, rules_values), more, strict=True):
            mine.extend(theirs)
        print(f"and {len(more[0])} positions from {extra_data}")
    nlinear = len(SMART_NAMES) + len(LEARNED_NAMES)
    if args.net:
        learned, net, figures = fit_net(
            rules_values, features, targets, args.ridge, args.epochs, seed
        )
        params = list(base[: len(SMART_NAMES)]) + [float(w) for w in learned]
        params += [float(v) for v in net]
    else:
        learned, figures = fit(values, features, targets, args.ridge)
        params = (
            list(base[: len(SMART_NAMES)])
            + [b + float(w) for b, w in zip(base[len(SMART_NAMES) : nlinear], learned, strict=True)]
            + list(base[nlinear:])
        )
    per_deck = [
        (a + b) / 2 for a, b in fast.duel(rules, args.check_decks, args.check_seed, params, base)
    ]
    gain = statistics.fmean(per_deck)
    se = statistics.stdev(per_deck) / math.sqrt(len(per_deck))
    figures.update({"seed": seed, "duel_gain": gain, "duel_se": se, "duel_decks": args.check_decks})
    print(json.dumps(figures, indent=1))
    print(
        f"new weights against the old: {gain:+.1f} ({se:.1f}) points a deal over {args.check_decks} decks"
    )
    return params, figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="classic", help="two-handed rules (default classic)")
    parser.add_argument(
        "--positions", type=int, default=4000, help="positions a round (default 4000)"
    )
    parser.add_argument("--worlds", type=int, default=16, help="worlds a position (default 16)")
    parser.add_argument(
        "--seed", type=int, default=1, help="self-play and worlds of round 1; round k: seed + k - 1"
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="rounds, each from the last (default 1)"
    )
    parser.add_argument(
        "--explore", type=float, default=0.1, help="chance of a uniform move in self-play"
    )
    parser.add_argument(
        "--keep", type=float, default=0.5, help="share of the positions kept (default 0.5)"
    )
    parser.add_argument(
        "--ridge", type=float, default=1.0, help="ridge penalty, standardized features"
    )
    parser.add_argument("--base", type=Path, help="start from this earlier run's weights")
    parser.add_argument(
        "--net",
        action="store_true",
        help="fit the network too (a small one over the features; replaces any in --base)",
    )
    parser.add_argument("--epochs", type=int, default=60, help="the network's epochs (default 60)")
    parser.add_argument(
        "--also",
        type=Path,
        nargs="*",
        default=[],
        help="positions kept by other runs from the same base (round-K.npz), fit with this round's",
    )
    parser.add_argument(
        "--data",
        type=Path,
        help="keep each round's positions in this folder (round-K.npz), or read them back",
    )
    parser.add_argument("--check-decks", type=int, default=20000, help="decks of the duel check")
    parser.add_argument("--check-seed", type=int, default=77, help="the check's decks")
    parser.add_argument("--out", type=Path, help="write the weights and the figures here (JSON)")
    args = parser.parse_args(argv)
    if not fast.available():
        print("the compiled engine is not built", file=sys.stderr)
        return 2
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("train_policy needs numpy: pip install 'bezique[rl]'", file=sys.stderr)
        return 2
    rules = Rules.preset(args.preset)
    if rules.players != 2:
        parser.error(f"--preset {args.preset} has {rules.players} hands: the smart rules need two")
    if args.rounds < 1 or args.positions < 10 or args.worlds < 2:
        parser.error("--rounds must be at least 1, --positions at least 10, --worlds at least 2")
    if args.epochs < 0:
        parser.error("--epochs must be 0 (the ridge fit alone) or more")
    missing = [str(path) for path in args.also if not path.is_file()]
    if missing:
        parser.error(f"--also: no such file: {', '.join(missing)}")
    base = check_params(json.loads(args.base.read_text())["params"] if args.base else SMART_DEFAULT)
    full = len(SMART_NAMES) + len(LEARNED_NAMES)
    if len(base) < full:
        base = base + (0.0,) * (full - len(base))
    if args.data:
        args.data.mkdir(parents=True, exist_ok=True)
    rounds = []
    for k in range(1, args.rounds + 1):
        print(f"round {k}")
        data = args.data / f"round-{k}.npz" if args.data else None
        params, figures = one_round(args, rules, base, args.seed + k - 1, data)
        rounds.append(figures)
        base = tuple(params)
    if args.out:
        args.out.write_text(
            json.dumps(
                {
                    "params": list(base),
                    "names": list((SMART_NAMES + LEARNED_NAMES + NET_NAMES)[: len(base)]),
                    "rounds": rounds,
                    "command": "python lab/scripts/train_policy.py "
                    + " ".join(sys.argv[1:] if argv is None else argv),
                },
                indent=1,
            )
            + "\n"
        )
    return 0


def _read(path: Path, base: tuple[float, ...]) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """Positions kept by an earlier run (played with ``base``'s weights): the values, features,
    search values and the rules' values (worked out from ``base`` where an older file lacks
    them, which needs a base with no network)."""
    import numpy as np

    saved = np.load(path, allow_pickle=True)
    values, features, targets = (list(saved[k]) for k in ("values", "features", "targets"))
    if "rules_values" in saved:
        return values, features, targets, list(saved["rules_values"])
    nlinear = len(SMART_NAMES) + len(LEARNED_NAMES)
    if len(base) > nlinear:
        raise SystemExit(f"{path} has no rules' values, and the base has a network")
    lin = np.asarray(base[len(SMART_NAMES) : nlinear])
    rules_values = [
        np.asarray(v) - np.asarray(f) @ lin for v, f in zip(values, features, strict=True)
    ]
    return values, features, targets, rules_values


def _objects(template: Any, rows: list[Any]) -> Any:
    out = template.copy()
    for i, row in enumerate(rows):
        out[i] = row
    return out


if __name__ == "__main__":
    sys.exit(main())
