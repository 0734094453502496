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

    .venv/bin/python scripts/train_policy.py --rounds 3 --positions 20000 --worlds 32 --seed 1 \\
        --data policy-data --out policy.json

``--rounds`` chains rounds, each one's positions played and searched with the weights of the
last (expert iteration), round k from seed ``--seed + k - 1``; ``--base FILE`` starts from an
earlier run's weights (its ``params``) instead of the heuristic's; ``--data`` keeps each round's
positions, so a second run with other ``--ridge`` only refits.
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
from bezique.fast.smart import LEARNED_NAMES, SMART_DEFAULT, SMART_NAMES, check_params


def positions(
    rules: Rules,
    params: tuple[float, ...],
    count: int,
    worlds: int,
    seed: int,
    explore: float,
    keep: float,
) -> tuple[list[Any], list[Any], list[Any]]:
    """``count`` positions of self-play: per position the cards' values and features under
    ``params``, and the search's value of each card."""
    rng = random.Random(seed)
    values: list[Any] = []
    features: list[Any] = []
    targets: list[Any] = []
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
                margins, _, _ = deal.pimc(
                    seat,
                    deal.side_of(seat),
                    list(range(n)),
                    0,
                    worlds,
                    rng.getrandbits(63),
                    explore=0.0,
                    policy="smart",
                    couple_draws=True,
                    smart_params=params,
                )
                q = [statistics.fmean(margins[w * n + i] for w in range(worlds)) for i in range(n)]
                values.append(view[0])
                features.append(view[1])
                targets.append(q)
            if rng.random() < explore:
                deal.apply_index(rng.randrange(n))
            elif view is not None:
                deal.apply_index(max(range(n), key=lambda i: (view[0][i], -i)))
            else:
                deal.apply_index(deal._c.policy_pick("smart-exact", 0))
    return values, features, targets


def fit(
    values: list[Any], features: list[Any], targets: list[Any], ridge: float
) -> tuple[Any, dict[str, float]]:
    """The learned weights (in the policy's own units) and the fit's figures."""
    import numpy as np

    rows_x, rows_y, group = [], [], []
    for g, (v, f, q) in enumerate(zip(values, features, targets, strict=True)):
        x = np.column_stack([np.asarray(v), np.asarray(f)])
        y = np.asarray(q)
        rows_x.append(x - x.mean(axis=0))
        rows_y.append(y - y.mean())
        group.extend([g] * len(q))
    x = np.vstack(rows_x)
    y = np.concatenate(rows_y)
    groups = np.asarray(group)
    held = groups % 10 == 9
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


def one_round(
    args: argparse.Namespace, rules: Rules, base: tuple[float, ...], seed: int, data: Path | None
) -> tuple[list[float], dict[str, Any]]:
    """One round from ``base``: positions (read from ``data`` where it exists, else played and
    kept there), the fit, and the duel of the new weights against ``base``."""
    import numpy as np

    start = time.process_time()
    if data and data.exists():
        saved = np.load(data, allow_pickle=True)
        values, features, targets = (list(saved[k]) for k in ("values", "features", "targets"))
        print(f"read {len(values)} positions from {data}")
    else:
        values, features, targets = positions(
            rules, base, args.positions, args.worlds, seed, args.explore, args.keep
        )
        if data:
            obj = np.empty(len(values), dtype=object)
            np.savez(
                data,
                **{
                    k: _objects(obj, v)
                    for k, v in (("values", values), ("features", features), ("targets", targets))
                },
            )
        print(f"{len(values)} positions, {time.process_time() - start:.0f} s of CPU")
    learned, figures = fit(values, features, targets, args.ridge)
    params = list(base[: len(SMART_NAMES)]) + [
        b + float(w) for b, w in zip(base[len(SMART_NAMES) :], learned, strict=True)
    ]
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
    base = check_params(json.loads(args.base.read_text())["params"] if args.base else SMART_DEFAULT)
    full = len(SMART_NAMES) + len(LEARNED_NAMES)
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
                    "names": list(SMART_NAMES + LEARNED_NAMES),
                    "rounds": rounds,
                    "command": "python scripts/train_policy.py "
                    + " ".join(sys.argv[1:] if argv is None else argv),
                },
                indent=1,
            )
            + "\n"
        )
    return 0


def _objects(template: Any, rows: list[Any]) -> Any:
    out = template.copy()
    for i, row in enumerate(rows):
        out[i] = row
    return out


if __name__ == "__main__":
    sys.exit(main())
