"""IS-MCTS in the compiled engine with the heuristic as a prior: the bot ``ismcts-c``.

The player sees only its observation.  It rebuilds one deal from it
(:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>`), copies it into the
compiled engine and runs :meth:`FastDeal.ismcts <bezique.fast.FastDeal.ismcts>` there: a
single-observer IS-MCTS whose every iteration deals a world the seat cannot tell from its own
(the C determinization), walks one tree of actions as the seat sees them by PUCT, adds a node,
and plays the world out with the ``'smart'`` policy (the heuristic player's stage-1 rules of
thumb in C), the stage-2 solver finishing each playout from the first trick of stage 2.

Where ``pimc-c`` keeps the heuristic's choice unless another candidate clears a confidence bar
(a veto), here the heuristic is a *prior*: its action gets :attr:`FastIsmctsBot.prior_weight`
of the prior and the other legal actions share the rest, so the search spends most early
iterations on it and moves away only as far as the values seen pull it.  Deeper in the tree the
prior is the playout policy's own choice in each world.  The most visited root action is played
(ties: the better mean margin, then the heuristic's).

Values are margins squashed by ``tanh(margin / scale)`` into [-1, 1] so that the PUCT constant
has its usual meaning (raw margins of hundreds of points would make it greedy).

Budgets count iterations (one determinization, one tree walk, one playout each):
``Limit(iterations=N)``; ``Limit(nodes=N)`` is read as ``N // NODES_PER_ITERATION``;
``Limit(time=s)`` stops after ``s`` seconds (then the choice depends on the clock).  Once every
card is known (stage 2 of two hands) the exact solver decides, as in ``pimc-c``.  Where the
compiled engine is missing or does not play the rules, the reference-core
:class:`~.ismcts.IsmctsBot` plays instead.
"""

from __future__ import annotations

import time

from ..core.notation import Action
from ..core.observation import Observation
from ..core.percache import per_rules
from ..core.rules import Rules
from ..fast import search
from .base import Bot, InfoDict, Limit, PlayResult
from .compiled import compiled_world
from .fastpimc import CompiledSearchBot
from .solver import world_is_known

NODES_PER_ITERATION = 40
"""Engine steps one iteration counts for, to read a ``nodes`` budget."""

SCALE_DEALS = 200
"""Deals of ``'smart'`` self-play that :func:`margin_scale` measures."""


@per_rules
def margin_scale(rules: Rules) -> float:
    """The standard deviation of the first two sides' margin over :data:`SCALE_DEALS` deals
    of the compiled ``'smart'`` policy playing itself (seed 0: the same for every player and
    every run), at least 1 point.  No observation enters it: it depends on the rules only."""
    from .. import fast

    points = fast.simulate(rules, SCALE_DEALS, seed=0, policy="smart")
    margins = [float(row[0] - row[1]) for row in points]
    mean = sum(margins) / len(margins)
    spread = (sum((m - mean) ** 2 for m in margins) / (len(margins) - 1)) ** 0.5
    return max(1.0, float(spread))


class FastIsmctsBot(CompiledSearchBot):
    """Single-observer IS-MCTS in C with a PUCT prior on the heuristic's action (see the module
    docstring)."""

    name = "ismcts-c"
    default_iterations = 600
    """Iterations when :meth:`play` is given no limit."""
    prior_weight = 0.7
    """Share of the prior on the heuristic's action (the rest spread evenly over the others)."""
    c_puct = 1.5
    """PUCT constant, in units of the squashed value (a won deal is about +1)."""
    scale: float | None = None
    """Points of margin that squash to tanh(1) = 0.76 (None: :func:`margin_scale` of the
    rules, the spread of a deal's margin, so that most margins fall in the near-linear part of
    tanh whatever the rules score: about 200 points in classic, 700 in rubicon)."""
    fpu = 0.1
    """An untried action is taken to be worth the mean of its tried siblings less this."""
    explore = 0.1
    """Chance of a uniform move at each step of a playout."""
    playout_policy = "smart"
    """The playout policy by name (see :meth:`FastDeal.playout <bezique.fast.FastDeal.playout>`)."""
    solver_nodes = 20_000
    """Most solver nodes for one stage-2 position (beyond them the policy plays it out)."""
    max_tree_nodes = 200_000
    """The tree's node cap (about 10 MB); past it the tree stops growing."""
    stop_early = True
    """Stop once no root action can catch up with the most visited one."""

    def _iterations(self, limit: Limit | None) -> tuple[int, float]:
        if limit is None:
            return self.default_iterations, 0.0
        n = limit.iterations
        if n is None and limit.nodes is not None:
            n = max(1, limit.nodes // NODES_PER_ITERATION)
        if n is None:
            n = self.default_iterations if limit.time is None else (1 << 31) - 1
        return n, limit.time or 0.0

    def reference(self, seed: int) -> Bot:
        from .ismcts import IsmctsBot

        return IsmctsBot(seed)

    def _search(
        self, observation: Observation, actions: list[Action], limit: Limit | None
    ) -> PlayResult:
        assert observation.seat is not None
        seat = observation.seat
        world, index, heuristic, seed = compiled_world(observation, actions, self._salt)
        if world_is_known(observation):
            return self._exact(world, observation, actions, index, seed)
        iterations, seconds = self._iterations(limit)
        start = time.perf_counter()
        found = search.ismcts(
            world,
            seat,
            index[heuristic],
            iterations,
            seed,
            search.IsmctsSettings(
                prior_weight=self.prior_weight,
                c_puct=self.c_puct,
                scale=self.scale or margin_scale(observation.rules),
                fpu=self.fpu,
                explore=self.explore,
                solver_nodes=self.solver_nodes,
                policy=self.playout_policy,
                max_tree_nodes=self.max_tree_nodes,
                stop_early=self.stop_early,
                seconds=seconds,
                cpu_budget=None if limit is None else limit.cpu_budget,
            ),
        )
        visits = [found.visits[j] for j in index]
        margins = [found.margins[j] for j in index]

        def rank(i: int) -> tuple[int, float, bool]:
            m = margins[i]
            return visits[i], m if m is not None else float("-inf"), i == heuristic

        best = max(range(len(actions)), key=rank)
        why = (
            "the heuristic's choice, most visited"
            if best == heuristic
            else f"searched more than the heuristic's {actions[heuristic]}"
        )
        info: InfoDict = {
            "value": round(margins[best] or 0.0, 3),
            "scores": {
                str(a): round(m, 3) for a, m in zip(actions, margins, strict=True) if m is not None
            },
            "visits": found.iterations,
            "nodes": found.solver_nodes,
            "pv": [str(actions[best])],
            "reason": (
                f"{found.iterations} iterations, {found.tree_nodes} tree nodes, "
                f"{visits[best]} visits ({found.solved} playouts finished by the solver, "
                f"{time.perf_counter() - start:.3f} s): {why}"
            ),
        }
        return PlayResult(actions[best], info)

    def _exact(
        self,
        world: object,
        observation: Observation,
        actions: list[Action],
        index: list[int],
        seed: int,
    ) -> PlayResult:
        """Every card known: each action's exact value (one world, solved), the best played."""
        from .. import fast

        assert isinstance(world, fast.FastDeal) and observation.seat is not None
        side = observation.rules.side_of(observation.seat)
        values, _, nodes = search.pimc(
            world,
            observation.seat,
            side,
            index,
            0,
            1,
            seed,
            search.PimcSettings(explore=self.explore, solver_nodes=self.solver_nodes),
        )
        best = max(range(len(actions)), key=lambda i: (values[i], -i))
        info: InfoDict = {
            "value": round(values[best], 3),
            "scores": {str(a): round(v, 3) for a, v in zip(actions, values, strict=True)},
            "visits": 1,
            "nodes": nodes,
            "pv": [str(actions[best])],
            "reason": "stage 2 solved exactly: every card is known",
        }
        return PlayResult(actions[best], info)
