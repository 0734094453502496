"""Does inference pay inside a search?  PIMC with worlds drawn by the inference weights against
the same PIMC with uniform worlds, on mirrored decks (docs/learning.md).

    .venv/bin/python lab/benchmarks/inference_pimc.py --decks 40 --seed 7 --worlds 16 --jobs 2

Both players are the same small PIMC in Python over the compiled engine: ``--worlds`` worlds
(``FastDeal.resample``), each legal action applied in each and the deal played out with the
heuristic policy in C (``FastDeal.playout``, the same playout seed for every action of a world),
the best mean margin played, the heuristic's choice given 2 points as a tie-break; where every
card is known (stage 2 of the two-handed game) the heuristic plays, counting exactly.  The one
difference: ``weighted`` draws its worlds from ``4 * worlds`` uniform ones in proportion to
:func:`bezique.bots.inference.world_weights`.  Each deck is played twice, seats swapped; the
figure is the weighted player's margin a deal, with a 95% interval over decks.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from multiprocessing import Pool

from bezique import Deal, Rules, fast
from bezique.arena.stats import mean_interval
from bezique.bots import inference
from bezique.bots.base import Bot, Limit, PlayResult, legal_actions, observation_rng_seed
from bezique.bots.heuristic import HeuristicBot
from bezique.bots.solver import world_is_known
from bezique.core.observation import Observation
from bezique.envs.encoding import relative_points


class WorldPimc(Bot):
    """The small PIMC of the module docstring."""

    name = "world-pimc"

    def __init__(self, seed: int, worlds: int, weighted: bool) -> None:
        super().__init__(seed)
        self.worlds = worlds
        self.weighted = weighted

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        heuristic = HeuristicBot(self.seed)
        if len(actions) == 1 or world_is_known(observation):
            return heuristic.play(observation)
        seat = observation.seat
        assert seat is not None
        side = observation.rules.side_of(seat)
        n = observation.rules.players
        rng = random.Random(observation_rng_seed(self.seed, observation))
        root = fast.FastDeal.from_deal(Deal.from_observation(observation, rng))
        pool = self.worlds * (4 if self.weighted else 1)
        worlds = [root.resample(seat, rng.getrandbits(62)) for _ in range(pool)]
        if self.weighted:
            guesses = [
                inference.world_hidden(observation, [w.hand(s) for s in range(n)]) for w in worlds
            ]
            ws = inference.world_weights(observation, guesses)
            worlds = [worlds[i] for i in rng.choices(range(pool), weights=ws, k=self.worlds)]
        prior = actions.index(heuristic.choose(observation))
        totals = [0.0] * len(actions)
        for w in worlds:
            pseed = rng.getrandbits(62)
            for i, a in enumerate(actions):
                c = w.clone()
                c.apply(a)
                totals[i] += relative_points(c.playout("heuristic", pseed))[side]
        means = [t / len(worlds) + (2.0 if i == prior else 0.0) for i, t in enumerate(totals)]
        best = max(range(len(actions)), key=lambda i: (means[i], -i))
        return PlayResult(actions[best], {"value": means[best]})


def play_deck(job: tuple[int, int, int]) -> float:
    """The weighted player's mean margin over the deck's two seatings."""
    seed, deck, worlds = job
    rules = Rules.preset("classic")
    total = 0.0
    for weighted_seat in (0, 1):
        deal = Deal.new(rules, seed=seed * 100_000 + deck, dealer=deck % 2)
        bots = [WorldPimc(seed * 1000 + deck * 2 + s, worlds, s == weighted_seat) for s in (0, 1)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.observation(seat)))
        total += relative_points(deal.points)[weighted_seat]
    return total / 2


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--decks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--worlds", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the result here")
    args = ap.parse_args(argv)
    start = time.perf_counter()
    jobs = [(args.seed, d, args.worlds) for d in range(args.decks)]
    margins: list[float] = []
    with Pool(args.jobs) as pool:
        for m in pool.imap(play_deck, jobs):
            margins.append(m)
            est = mean_interval(margins) if len(margins) > 1 else None
            print(f"deck {len(margins)}: {m:+.0f}; so far {est}", flush=True)
    est = mean_interval(margins)
    result = {
        "command": "lab/benchmarks/inference_pimc.py " + " ".join(argv or sys.argv[1:]),
        "rules": "classic",
        "decks": args.decks,
        "deals": 2 * args.decks,
        "worlds": args.worlds,
        "margin": est.mean,
        "low": est.low,
        "high": est.high,
        "seconds": round(time.perf_counter() - start),
    }
    print(json.dumps(result))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
