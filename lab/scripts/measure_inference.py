"""Fit the play model of bezique.bots.inference and measure it on held-out deals.

    .venv/bin/python lab/scripts/measure_inference.py --data value-data --deals 1200 \
        --out src/bezique/bots/play_model.json

Reads the self-play positions lab/scripts/train_value.py caches (``--data``; chunks missing are
generated, without rollouts: the play model needs none), fits the card scores by maximum
likelihood (a conditional logit over the cards of the hand, numpy) and the pass chances by
counting, on the first 90% of deals.  Then, on the positions of the last 10% (stage 1, the
seat to move observing), it prints the figure: the mean over positions of

    log P_weighted(true hidden cards) - log P_uniform(true hidden cards)
      = log w(true) - log mean_{uniform guesses} w(guess)

in nats (``--samples`` uniform guesses per position for the mean); above 0 means the weighted
worlds put more probability on the truth than uniform determinization does.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from bezique.arena import valuedata
from bezique.bots.inference import (
    MELD_CLASSES,
    PlayModel,
    card_column,
    log_weight,
    sample_uniform,
)
from bezique.core.cards import SUITS, parse_card
from bezique.core.observation import Observation
from bezique.core.tricks import beats

sys.path.insert(0, str(Path(__file__).parent))
from train_value import chunks  # the sibling script, found through sys.path


def load_rows(rules: str, ranges: str, seed: int, data: Path) -> list[valuedata.Row]:
    rows: list[valuedata.Row] = []
    data.mkdir(parents=True, exist_ok=True)
    for first, n in chunks(ranges):
        path = data / f"{rules}_s{seed}_{first:05d}_{n}.jsonl.gz"
        if not path.exists():
            valuedata.save(valuedata.generate(rules, deals=n, seed=seed, first=first), path)
        rows += valuedata.load(path)
    return rows


def actions_taken(
    rows: list[valuedata.Row], parsed: list[Observation]
) -> list[tuple[valuedata.Row, Observation, str]]:
    """Each row with its observation and the action its seat took (read from a later row of
    the same deal, whose history holds it)."""
    out = []
    for i, (r, nxt) in enumerate(itertools.pairwise(rows)):
        if nxt.deal != r.deal:
            continue
        obs = parsed[i]
        if obs.phase == "declare":
            obs = r.obs(legal=True)  # the melds it could declare
        out.append((r, obs, parsed[i + 1].history[r.ply]))
    return out


def fit_play(samples: list[tuple[Observation, str]], iters: int = 300) -> dict[str, object]:
    """Card scores by maximum likelihood: 16 lead + 16 follow + 3 extra parameters."""
    groups = []  # (feature matrix of the candidates, index of the chosen one)
    for obs, action in samples:
        me = obs.seat
        assert me is not None
        trump = SUITS.index(obs.trump) if obs.trump is not None else -1
        cands = sorted(
            {parse_card(c) for c in obs.hand}
            | {parse_card(r.split("@")[0]) for r in obs.tables[me]}
        )
        card = parse_card(action.split(" ")[1].split("@")[0])
        if card not in cands or len(cands) < 2:
            continue
        led = parse_card(obs.trick[0][1]) if obs.trick else None
        f = np.zeros((len(cands), 35))
        for i, k in enumerate(cands):
            col = card_column(k, trump)
            if led is None:
                f[i, col] = 1
            else:
                f[i, 16 + col] = 1
                win = beats(k, led, trump)
                f[i, 32] = win
                if k & 7 <= 1:
                    f[i, 33 if win else 34] = 1
        groups.append((f, cands.index(card)))
    width = max(len(f) for f, _ in groups)
    feats = np.zeros((len(groups), width, 35))
    mask = np.full((len(groups), width), -np.inf)
    chosen = np.array([c for _, c in groups])
    for g, (f, _) in enumerate(groups):
        feats[g, : len(f)] = f
        mask[g, : len(f)] = 0.0
    rows_ = np.arange(len(groups))
    theta = np.zeros(35)
    for _ in range(iters):
        s = feats @ theta + mask
        s -= s.max(1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(1, keepdims=True)
        ll = float(np.log(p[rows_, chosen]).sum())
        grad = (feats[rows_, chosen] - np.einsum("gc,gcf->gf", p, feats)).sum(0)
        theta += 0.5 * (grad / len(groups) - 1e-3 * theta)
    print(
        f"play model: {len(groups)} choices, mean log-likelihood {ll / len(groups):.3f} "
        f"(uniform {-statistics.mean(math.log(len(f)) for f, _ in groups):.3f})"
    )
    return {"theta": theta, "choices": len(groups), "ll": ll / len(groups)}


def meld_class(action: str, trump: str | None) -> str | None:
    parts = action.split(" ")
    if parts[0] == "exchange" or (parts[0] == "meld" and parts[1] == "seven"):
        return "seven"
    if parts[0] != "meld":
        return None
    name = parts[1]
    if name.startswith("four-"):
        return "four"
    return name if name in MELD_CLASSES else None


def fit_passes(samples: list[tuple[Observation, str]]) -> dict[str, float]:
    """Per meld class, the share of declaring chances with such a meld legal where the winner
    declared nothing (a pseudo-count keeps the rare ones off 0 and 1)."""
    chances: Counter[str] = Counter()
    passed: Counter[str] = Counter()
    for obs, action in samples:
        legal = {meld_class(a, obs.trump) for a in obs.legal} - {None}
        for klass in legal:
            assert klass is not None
            chances[klass] += 1
            if meld_class(action, obs.trump) is None:
                passed[klass] += 1
    return {k: (passed[k] + 1) / (chances[k] + 2) for k in MELD_CLASSES}


def measure(
    pairs: list[tuple[valuedata.Row, Observation]], model: PlayModel, samples: int, seed: int
) -> dict[str, float]:
    rng = random.Random(seed)
    gains = []
    for row, obs in pairs:
        me = obs.seat
        assert me is not None
        others = [s for s in range(obs.rules.players) if s != me and row.hidden[s]]
        if not others:
            continue
        guesses = [sample_uniform(obs, rng) for _ in range(samples)]
        gain = 0.0
        for s in others:
            truth = log_weight(obs, s, row.hidden[s], model)
            logs = [log_weight(obs, s, g[s], model) for g in guesses]
            top = max(logs)
            norm = top + math.log(sum(math.exp(v - top) for v in logs) / len(logs))
            gain += truth - norm
        gains.append(gain)
    mean = statistics.mean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
    return {"positions": len(gains), "gain_nats": mean, "ci95": half}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--deals", default="0:1200", help="deal ranges, first:stop,...")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", type=Path, default=Path("value-data"))
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--max-held-out", type=int, default=600)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rows = load_rows(args.rules, args.deals, args.seed, args.data)
    parsed = [r.obs() for r in rows]
    taken = actions_taken(rows, parsed)
    train = [(o, a) for r, o, a in taken if r.deal % 10 != 9 and o.to_move == o.seat]
    plays = [
        (o, a) for o, a in train if o.phase == "play" and o.stage == 1 and a.startswith("play ")
    ]
    declares = [(o, a) for o, a in train if o.phase == "declare" and o.stage == 1]
    fit = fit_play(plays)
    theta = fit["theta"]
    assert isinstance(theta, np.ndarray)
    passes = fit_passes(declares)
    print("pass chances:", {k: round(v, 3) for k, v in passes.items()})
    model = PlayModel(
        lead=tuple(float(a) for a in theta[:16]),
        follow=tuple(float(a) for a in theta[16:32]),
        beats=float(theta[32]),
        beats_brisque=float(theta[33]),
        loses_brisque=float(theta[34]),
        pass_chance=passes,
        info={
            "deals": args.deals,
            "held_out": "deals whose index ends in 9",
            "seed": args.seed,
            "choices": fit["choices"],
            "command": "lab/scripts/measure_inference.py " + " ".join(argv or sys.argv[1:]),
        },
    )
    held = [(r, o) for r, o in zip(rows, parsed, strict=True) if r.deal % 10 == 9]
    held = [(r, o) for r, o in held if o.stage == 1][::3][: args.max_held_out]  # spread over deals
    figure = measure(held, model, args.samples, args.seed)
    base = measure(held, PlayModel(), args.samples, args.seed)
    print(
        f"held-out log-likelihood gain over uniform: {figure['gain_nats']:+.3f} nats "
        f"+- {figure['ci95']:.3f} (95%) over {figure['positions']} positions "
        f"(an untrained model: {base['gain_nats']:+.3f})"
    )
    if args.out is not None:
        model = PlayModel(**{**model.__dict__, "info": {**model.info, "held_out": figure}})
        model.save(args.out)
        print(f"wrote {args.out}")
    print(json.dumps(figure))
    return 0


if __name__ == "__main__":
    sys.exit(main())
