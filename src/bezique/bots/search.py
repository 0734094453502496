"""Search players: the shared frame, and perfect-information Monte Carlo (PIMC).

A search player sees only its observation.  It builds *worlds* from it with
:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>` (the unseen cards dealt
again at random among the places they could be) and searches those.  All its randomness comes
from one generator seeded by the bot's seed and the observation, so equal observations get equal
answers, however the bot got there and whatever the hidden cards really are.

When the world is known (stage 2 of the two-handed game: every unseen card is in the one other
hand) the stage-2 solver plays perfectly (:mod:`.solver`).

:class:`PimcBot` samples worlds; in each it tries every legal action and plays the deal out with
the default policy (:mod:`.playout`), the same random numbers for every action (common random
numbers, so that the actions are compared on the same luck); in stage 2 it solves each world
exactly instead.  The action with the best mean over the worlds is played.
"""

from __future__ import annotations

import random
from abc import abstractmethod

from ..core.deal import Deal
from ..core.notation import Action
from ..core.observation import Observation
from .base import Bot, InfoDict, Limit, PlayResult, legal_actions, observation_rng_seed
from .playout import Budget, action_kind, playout, utility
from .solver import SolverLimit, exact_values

SOLVER_NODE_COST = 0.25
"""What one solver node counts for against a ``nodes`` budget (an engine step is 1)."""


def world_is_known(obs: Observation) -> bool:
    """True when the observation pins down every card's place (stage 2 with at most one other
    seat holding cards this seat has not seen)."""
    if obs.stage != 2 or obs.phase != "play" or obs.stock_size or obs.turn_up is not None:
        return False
    hidden = [
        s
        for s in range(obs.rules.players)
        if s != obs.seat and obs.hand_sizes[s] > len(obs.known[s]) + len(obs.tables[s])
    ]
    return len(hidden) <= 1


class SearchBot(Bot):
    """What the search players share: seeding, budgets, the exact stage-2 shortcut."""

    default_limit: Limit = Limit(nodes=20_000)
    """The budget when :meth:`play` is given no limit."""
    solver_nodes: int = 20_000
    """Most solver nodes for one world with more than two hands (then playouts decide)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._salt = seed if seed is not None else random.SystemRandom().getrandbits(32)

    def rng(self, observation: Observation) -> random.Random:
        """The generator for one decision: a function of the seed and the observation only."""
        return random.Random(observation_rng_seed(self._salt, observation))

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) == 1:
            return PlayResult(
                actions[0], {"reason": "the only legal action", "scores": {str(actions[0]): 0.0}}
            )
        rng = self.rng(observation)
        budget = Budget.of(limit, self.default_limit)
        if world_is_known(observation):
            result = self._solve_known(observation, actions, rng, budget)
            if result is not None:
                return result
        return self.search(observation, actions, rng, budget)

    @abstractmethod
    def search(
        self, observation: Observation, actions: list[Action], rng: random.Random, budget: Budget
    ) -> PlayResult:
        """Choose among ``actions`` (more than one) within the budget."""

    def _solve_known(
        self, obs: Observation, actions: list[Action], rng: random.Random, budget: Budget
    ) -> PlayResult | None:
        world = Deal.from_observation(obs, rng)
        assert obs.seat is not None
        side = obs.rules.side_of(obs.seat)
        limit = None if obs.rules.players == 2 else self.solver_nodes * 10
        try:
            sol, offset = exact_values(world, side, max_nodes=limit)
        except SolverLimit:
            return None
        budget.spend(nodes=int(sol.nodes * SOLVER_NODE_COST))
        scores = {str(a): sol.values[action_kind(a)] + offset for a in actions}
        best = max(actions, key=lambda a: scores[str(a)])  # first of equals, in legal order
        pv = [f"play {_code(k)}" for _, k in sol.pv] if action_kind(best) == sol.best else []
        info: InfoDict = {
            "value": round(scores[str(best)], 3),
            "scores": {a: round(v, 3) for a, v in scores.items()},
            "visits": sol.nodes,
            "reason": "stage 2 solved exactly: every card is known",
        }
        if pv:
            info["pv"] = pv
        return PlayResult(best, info)


def _code(k: int) -> str:
    from ..core.cards import CODES

    return CODES[k]


class PimcBot(SearchBot):
    """Perfect-information Monte Carlo: see the module docstring.

    ``iterations`` counts worlds; ``nodes`` counts engine steps over all worlds."""

    name = "pimc"
    default_limit = Limit(nodes=20_000)

    def search(
        self, observation: Observation, actions: list[Action], rng: random.Random, budget: Budget
    ) -> PlayResult:
        assert observation.seat is not None
        side = observation.rules.side_of(observation.seat)
        totals = [0.0] * len(actions)
        worlds = solved = 0
        use_solver = observation.stage == 2
        while worlds == 0 or budget.left():
            world = Deal.from_observation(observation, rng)
            values, exact = self.world_values(
                world, actions, side, rng.getrandbits(32), budget, use_solver
            )
            use_solver = use_solver and exact  # one world too big to solve: play out the rest
            solved += exact
            for i, v in enumerate(values):
                totals[i] += v
            worlds += 1
            budget.spend(iterations=1)
        means = [t / worlds for t in totals]
        best = max(range(len(actions)), key=lambda i: (means[i], -i))
        spent = budget.elapsed()
        how = "solved exactly" if solved == worlds else "played out"
        return PlayResult(
            actions[best],
            {
                "value": round(means[best], 3),
                "scores": {str(a): round(m, 3) for a, m in zip(actions, means, strict=True)},
                "visits": worlds,
                "nps": round(budget.used_nodes / spent, 1) if spent > 0 else 0.0,
                "pv": [str(actions[best])],
                "reason": f"mean margin over {worlds} sampled worlds, each {how}",
            },
        )

    def world_values(
        self,
        world: Deal,
        actions: list[Action],
        side: int,
        seed: int,
        budget: Budget,
        use_solver: bool = True,
    ) -> tuple[list[float], bool]:
        """The value of every action in one world, and whether it was solved exactly (in stage
        2, where affordable) rather than played out."""
        if use_solver and world.stage == 2 and world.phase == "play":
            limit = None if world.rules.players == 2 else self.solver_nodes
            try:
                sol, offset = exact_values(world, side, max_nodes=limit)
            except SolverLimit:
                budget.spend(nodes=int(self.solver_nodes * SOLVER_NODE_COST))
            else:
                budget.spend(nodes=int(sol.nodes * SOLVER_NODE_COST) + 1)
                return [sol.values[action_kind(a)] + offset for a in actions], True
        values = []
        for a in actions:
            w = world.clone()
            w.apply(a)
            n = playout(w, random.Random(seed))
            budget.spend(nodes=n + 1)
            values.append(utility(w, side))
        return values, False
