"""IS-MCTS in the compiled engine with the heuristic as a prior: the bot ``ismcts-c``.

The player sees only its observation.  It rebuilds one deal from it
(:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>`), copies it into the
compiled engine and runs :meth:`FastDeal.ismcts <bezique.fast.FastDeal.ismcts>` there: a
single-observer IS-MCTS whose every iteration deals a world the seat cannot tell from its own
(the C determinization), walks one tree of actions as the seat sees them by PUCT, adds a node,
and plays the world out with the ``'smart'`` policy (the heuristic player's stage-1 rules of
thumb in C), the stage-2 solver finishing each playout from the first trick of stage 2.

Where ``pimc-c`` keeps the heuristic's choice unless another candidate clears a confidence bar
(a veto), here the heuristic is a *prior*: its action gets ``prior_weight``
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
from dataclasses import dataclass

from ..core.notation import Action
from ..core.observation import Observation
from ..core.percache import per_rules
from ..core.rules import Rules
from ..fast import search
from .base import Bot, InfoDict, Limit, PlayResult
from .compiled import compiled_world
from .fastpimc import CompiledSearchBot
from .solver import world_is_known
from .spec import Codec, setting

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


DEFAULT_ITERATIONS = 600
"""Iterations a move when the caller gives no budget."""


@dataclass(frozen=True)
class IsmctsSettings:
    """The settings of the ``ismcts-c`` family, one field a spec key."""

    prior_weight: float = setting(
        0.7,
        Codec("float", 0, 1),
        "share of the PUCT prior on the heuristic's action (the rest spread over the others)",
    )
    c_puct: float = setting(
        1.5, Codec("float", 0, 100), "PUCT constant, in units of the squashed value"
    )
    scale: float | None = setting(
        None,
        Codec("float", 1, 100_000, off=True),
        "points of margin that squash to tanh(1) (off: the spread of a deal's margin under "
        "the rules, about 200 points in classic)",
    )
    fpu: float = setting(
        0.1, Codec("float", 0, 2), "an untried action is worth its tried siblings' mean less this"
    )
    explore: float = setting(0.1, Codec("float", 0, 1), "chance of a uniform playout move")
    playout: str = setting(
        "smart",
        Codec("word", words=("heuristic", "meld", "smart")),
        "the playout policy in C (see pimc-c)",
    )
    solver_nodes: int = setting(
        20_000,
        Codec("int", 0, 100_000_000),
        "most solver nodes for a stage-2 position (beyond: played out)",
    )
    max_tree_nodes: int = setting(
        200_000,
        Codec("int", 1, 100_000_000),
        "the tree's node cap (past it the tree stops growing)",
    )
    stop_early: bool = setting(
        True, Codec("flag"), "stop once no root action can catch up with the most visited one"
    )
    fallback_nodes: int = setting(
        6_000,
        Codec("int", 1, 100_000_000),
        "engine steps for the reference-core ismcts where the compiled engine cannot play",
    )


class FastIsmctsBot(CompiledSearchBot):
    """Single-observer IS-MCTS in C with a PUCT prior on the heuristic's action (see the module
    docstring), set by its :class:`IsmctsSettings`."""

    name = "ismcts-c"

    def __init__(self, seed: int | None = None, settings: IsmctsSettings | None = None) -> None:
        self.settings = settings if settings is not None else IsmctsSettings()
        super().__init__(seed, self.settings.fallback_nodes)

    def _iterations(self, limit: Limit | None) -> tuple[int, float]:
        if limit is None:
            return DEFAULT_ITERATIONS, 0.0
        n = limit.iterations
        if n is None and limit.nodes is not None:
            n = max(1, limit.nodes // NODES_PER_ITERATION)
        if n is None:
            n = DEFAULT_ITERATIONS if limit.time is None else (1 << 31) - 1
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
        cfg = self.settings
        found = search.ismcts(  # the call into the compiled engine
            world,
            seat,
            index[heuristic],
            iterations,
            seed,
            search.IsmctsSettings(
                prior_weight=cfg.prior_weight,
                c_puct=cfg.c_puct,
                scale=cfg.scale or margin_scale(observation.rules),
                fpu=cfg.fpu,
                explore=cfg.explore,
                solver_nodes=cfg.solver_nodes,
                policy=cfg.playout,
                max_tree_nodes=cfg.max_tree_nodes,
                stop_early=cfg.stop_early,
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
        values, _, nodes = search.pimc(  # one world, solved: the call into the compiled engine
            world,
            observation.seat,
            side,
            index,
            0,
            1,
            seed,
            search.PimcSettings(
                explore=self.settings.explore, solver_nodes=self.settings.solver_nodes
            ),
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
