"""Search players: the shared frame, and perfect-information Monte Carlo (PIMC).

A search player sees only its observation.  It builds *worlds* from it with
:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>` (the unseen cards dealt
again at random among the places they could be) and searches those.  All its randomness comes
from one generator seeded by the bot's seed and the observation, so equal observations get equal
answers, however the bot got there and whatever the hidden cards really are.

When the world is known (stage 2 of the two-handed game: every unseen card is in the one other
hand) the stage-2 solver plays perfectly (:mod:`.solver`).

**Anchoring.**  Monte Carlo estimates of a bezique deal are noisy: the margin of a deal varies by
hundreds of points from one sampled world to the next, and a few hundred playouts rarely tell two
reasonable cards apart.  So a search player starts from the heuristic player's choice (the
*anchor*, :mod:`.heuristic`) and plays another action only when its search finds that action
better by a clear margin: at least ``override_margin`` points and
:meth:`SearchBot.override_threshold` standard errors (the bar rises with the number of
alternatives, since the best of several noisy estimates looks better than it is).  Where
playouts are short (the end of the stock, declarations) the search overrules the heuristic
often; early in the deal, seldom.  ``anchored=no`` gives the plain search.

:class:`PimcBot` samples worlds; in each it tries every action still in the running and plays
the deal out with the default policy (:mod:`.playout`), with the same random numbers for every
action (common random numbers: the actions are compared on the same luck, so their differences
are measured world by world).  After a few worlds the actions clearly worse than the anchor are
dropped, so the rest get more worlds.  In stage 2 each world is solved exactly instead (within a
node limit).
"""

from __future__ import annotations

import math
import random
from abc import abstractmethod
from dataclasses import dataclass

from ..core.deal import Deal
from ..core.ids import play_ids
from ..core.notation import Action
from ..core.observation import Observation
from .base import (
    Bot,
    InfoDict,
    Limit,
    PlayResult,
    legal_actions,
    observation_rng_seed,
    only_action,
    salt_for,
)
from .playout import Budget, BudgetSpent, action_kind, playout, utility
from .solver import SolverLimit, exact_values, world_is_known
from .spec import Codec, setting

SOLVER_NODE_COST = 0.25
"""What one solver node counts for against a ``nodes`` budget (an engine step is 1)."""


@dataclass(frozen=True)
class SearchSettings:
    """The settings the reference-core search players share, one field a spec key."""

    anchored: bool = setting(
        True,
        Codec("flag"),
        "start from the heuristic's choice and play another only when the search finds it "
        "better with confidence (no: the plain search)",
    )
    override_z: float = setting(
        2.0,
        Codec("float", 0, 10),
        "standard errors by which an action must search better than the anchor (more with "
        "more alternatives)",
    )
    override_margin: float = setting(
        2.0, Codec("float", 0, 1000), "and points by which it must, at least"
    )
    override_min: int = setting(
        8, Codec("int", 1, 1_000_000), "and samples (worlds, or visits of both) it needs"
    )
    solver_nodes: int = setting(
        20_000,
        Codec("int", 1, 100_000_000),
        "most solver nodes for one world (beyond them, playouts decide)",
    )


class SearchBot(Bot):
    """What the search players share: seeding, budgets, the exact stage-2 shortcut."""

    default_limit: Limit = Limit(nodes=20_000)
    """The budget when :meth:`play` is given no limit."""
    settings: SearchSettings

    def __init__(self, seed: int | None = None, settings: SearchSettings | None = None) -> None:
        super().__init__(seed)
        self.settings = settings if settings is not None else self.default_settings()
        self._salt = salt_for(seed)

    def default_settings(self) -> SearchSettings:
        """The settings a bot of this kind is built with when none are given."""
        return SearchSettings()

    def override_threshold(self, alternatives: int) -> float:
        """The standard errors needed to overrule the anchor when the best of ``alternatives``
        other actions is the challenger: the best of several noisy estimates looks better than
        it is, so the bar rises with their number."""
        return self.settings.override_z + 0.3 * math.log(max(1, alternatives))

    def anchor(self, observation: Observation, actions: list[Action]) -> tuple[int, str]:
        """The index of the action the search starts from, and why: the heuristic player's
        choice (when ``anchored``), else the first legal action.

        Monte Carlo estimates of a bezique deal are noisy: a few hundred playouts rarely tell
        two reasonable cards apart.  So the search does not replace a good heuristic's judgement
        by its noise; it overrules it where it finds a clearly better action."""
        if not self.settings.anchored:
            return 0, "no anchor"
        from .heuristic import HeuristicBot  # (it builds on this module)

        choice = HeuristicBot(self._salt).choose(observation)
        return actions.index(choice), f"the heuristic's choice {choice} stands"

    def rng(self, observation: Observation) -> random.Random:
        """The generator for one decision: a function of the seed and the observation only."""
        return random.Random(observation_rng_seed(self._salt, observation))

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) == 1:
            return only_action(actions[0])
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
        limit = self.settings.solver_nodes * 5
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


def _se(total: list[float], squares: list[float], i: int, n: int) -> float:
    """Standard error of the mean of ``n`` samples with this sum and sum of squares."""
    if n < 2:
        return math.inf
    mean = total[i] / n
    var = max(squares[i] / n - mean * mean, 0.0) * n / (n - 1)
    return math.sqrt(var / n)


def _code(k: int) -> str:
    from ..core.cards import CODES

    return CODES[k]


@dataclass(frozen=True)
class PimcPySettings(SearchSettings):
    """The settings of the ``pimc`` family (the reference-core PIMC)."""

    explore_worlds: int = setting(
        6,
        Codec("int", 1, 1_000_000),
        "worlds in which every action is tried before the clearly worse ones are dropped",
    )
    prune_z: float = setting(
        2.0, Codec("float", 0, 10), "an action this many standard errors worse is dropped"
    )


class PimcBot(SearchBot):
    """Perfect-information Monte Carlo: see the module docstring.

    ``iterations`` counts worlds; ``nodes`` counts engine steps over all worlds."""

    name = "pimc"
    default_limit = Limit(nodes=20_000)
    settings: PimcPySettings

    def default_settings(self) -> PimcPySettings:
        return PimcPySettings()

    def search(
        self, observation: Observation, actions: list[Action], rng: random.Random, budget: Budget
    ) -> PlayResult:
        assert observation.seat is not None
        side = observation.rules.side_of(observation.seat)
        n = len(actions)
        anchor, anchor_why = self.anchor(observation, actions)
        totals = [0.0] * n
        counts = [0] * n
        diff = [0.0] * n  # paired differences with the anchor, world by world
        diff2 = [0.0] * n
        active = list(range(n))
        worlds = solved = 0
        use_solver = observation.stage == 2
        # one world built from the observation's text; the others by reshuffling its unseen
        # cards at the id level (Deal.resample), which parses nothing
        root = Deal.from_observation(observation, rng)
        # the seat's own legal actions have the same ids in every world (in the order of
        # ``actions``, as the observation lists them)
        ids = root.listed_ids()
        while (worlds == 0 and not budget.cpu_spent()) or budget.left():
            world = root.resample(observation.seat, rng)
            try:
                values, exact = self.world_values(
                    world, [ids[i] for i in active], side, rng.getrandbits(32), budget, use_solver
                )
            except BudgetSpent:  # the CPU budget ran out inside the world: the anchor stands
                break
            use_solver = use_solver and exact  # one world too big to solve: play out the rest
            solved += exact
            base = values[active.index(anchor)]
            for i, v in zip(active, values, strict=True):
                totals[i] += v
                counts[i] += 1
                d = v - base
                diff[i] += d
                diff2[i] += d * d
            worlds += 1
            budget.spend(iterations=1)
            if worlds >= self.settings.explore_worlds and len(active) > 2:
                # drop the actions clearly worse than the anchor
                active = [
                    i
                    for i in active
                    if i == anchor
                    or diff[i] / worlds + self.settings.prune_z * _se(diff, diff2, i, worlds) >= 0
                ]
        means = [t / c if c else -math.inf for t, c in zip(totals, counts, strict=True)]
        best, why = anchor, anchor_why
        challenger = max(active, key=lambda i: (diff[i], -i))
        if challenger != anchor and counts[challenger]:
            gain = diff[challenger] / counts[challenger]
            se = _se(diff, diff2, challenger, counts[challenger])
            if (
                counts[challenger] >= self.settings.override_min
                and gain >= self.settings.override_margin
                and gain >= self.override_threshold(n - 1) * se
            ):
                best = challenger
                why = f"searched better than the heuristic's choice by {gain:.1f} (± {se:.1f})"
            else:
                why += f"; the best alternative searched {gain:+.1f} (± {se:.1f})"
        spent = budget.elapsed()
        how = "solved exactly" if solved == worlds else "played out"
        return PlayResult(
            actions[best],
            {
                "value": round(means[best], 3) if counts[best] else 0.0,
                "scores": {
                    str(a): round(m, 3)
                    for a, m in zip(actions, means, strict=True)
                    if m != -math.inf
                },
                "visits": worlds,
                "nodes": budget.used_nodes,
                "nps": round(budget.used_nodes / spent, 1) if spent > 0 else 0.0,
                "pv": [str(actions[best])],
                "reason": f"{worlds} sampled worlds, each {how}: {why}",
            },
        )

    def world_values(
        self,
        world: Deal,
        actions: list[int],
        side: int,
        seed: int,
        budget: Budget,
        use_solver: bool = True,
    ) -> tuple[list[float], bool]:
        """The value of every action (given by id) in one world, and whether it was solved
        exactly (in stage 2, where affordable) rather than played out."""
        if use_solver and world.stage == 2 and world.phase == "play":
            limit = self.settings.solver_nodes
            try:
                sol, offset = exact_values(world, side, max_nodes=limit)
            except SolverLimit:
                budget.spend(nodes=int(self.settings.solver_nodes * SOLVER_NODE_COST))
            else:
                budget.spend(nodes=int(sol.nodes * SOLVER_NODE_COST) + 1)
                play_kind = play_ids(world.rules).play_kind
                return [sol.values[play_kind[i]] + offset for i in actions], True
        values = []
        for i in actions:
            if budget.cpu_spent():
                raise BudgetSpent
            w = world.clone()
            w.apply_id(i)
            n = playout(w, random.Random(seed), stop=budget.cpu_spent)
            budget.spend(nodes=n + 1)
            values.append(utility(w, side))
        return values, False
