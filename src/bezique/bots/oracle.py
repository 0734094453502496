"""The oracle: a player that cheats, for measurement only.

It is given the real :class:`~bezique.core.deal.Deal` (every hand and the order of the stock)
through its own, separately named method :meth:`OracleBot.play_with_deal`, and it is not a
:class:`~bezique.bots.base.Bot`: :func:`bezique.bots.make` does not know it, no level uses it and
no person is offered it.  The arena builds it by name (``oracle``) to give an upper bound that
the honest players can be compared with.

In stage 1 it tries every legal action on the real deal and plays each out with the default
policy several times (the playouts differ only in the policy's own random choices: the draws
are the real ones); in stage 2 it solves the real deal exactly (within a node limit with three
or four hands).
"""

from __future__ import annotations

import random

from ..core.deal import Deal
from .base import Limit, PlayResult, observation_rng_seed, salt_for
from .playout import Budget, playout, utility
from .solver import exact_choice


class OracleBot:
    """Perfect information: see the module docstring.  Not a :class:`Bot`: it needs the deal."""

    name = "oracle"
    default_limit = Limit(nodes=20_000)
    solver_nodes = 100_000

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._salt = salt_for(seed)

    def play_with_deal(self, deal: Deal, limit: Limit | None = None) -> PlayResult:
        """Choose for the seat to move, looking at the whole deal (the cheating path)."""
        seat = deal.to_move
        if seat is None:
            raise ValueError("the deal is over: nobody is to move")
        actions = deal.legal_actions()
        if len(actions) == 1:
            return PlayResult(actions[0], {"reason": "the only legal action"})
        if deal.stage == 2 and deal.phase == "play":
            exact = exact_choice(deal, actions, self.solver_nodes)
            if exact is not None:
                best, scores = exact
                return PlayResult(best, {"scores": scores, "reason": "stage 2 solved exactly"})
        side = deal.rules.side_of(seat)
        rng = random.Random(observation_rng_seed(self._salt, deal.observation(seat)))
        budget = Budget.of(limit, self.default_limit)
        ids = deal.listed_ids()  # in the order of ``actions``
        totals = [0.0] * len(actions)
        rounds = 0
        while rounds == 0 or budget.left():
            seed = rng.getrandbits(32)
            for i, a in enumerate(ids):
                world = deal.clone()
                world.apply_id(a)
                budget.spend(nodes=playout(world, random.Random(seed)) + 1)
                totals[i] += utility(world, side)
            rounds += 1
            budget.spend(iterations=1)
        best_i = max(range(len(actions)), key=lambda i: (totals[i], -i))
        return PlayResult(
            actions[best_i],
            {
                "value": round(totals[best_i] / rounds, 3),
                "scores": {
                    str(a): round(t / rounds, 3) for a, t in zip(actions, totals, strict=True)
                },
                "visits": rounds,
                "reason": f"{rounds} playouts of each action on the real deal",
            },
        )

    def __repr__(self) -> str:
        return f"<OracleBot seed={self.seed}>"
