"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

One tree, over the actions of every seat as the observing seat sees them.  Every iteration deals
a fresh world from the observation (:meth:`Deal.from_observation
<bezique.core.deal.Deal.from_observation>`), walks down the tree choosing among the actions legal
*in that world* by UCB1 with availability counts (a child's exploration term counts the times it
could have been chosen, not the parent's visits), adds one node, plays the world out with the
default policy (:mod:`.playout`) and credits each node on the path with the margin of the side
whose move it was.  The most visited action at the root is played if it searched clearly better
than the heuristic's choice (the anchor, see :mod:`.search`); otherwise the anchor is.

``iterations`` counts iterations; ``nodes`` counts engine steps (tree moves and playout moves).
The exploration constant is scaled by the spread of the margins seen so far, so the one setting
serves games scored in tens and games scored in thousands.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..core.deal import Deal
from ..core.notation import Action
from ..core.observation import Observation
from .base import Limit, PlayResult
from .playout import Budget, margins, playout, side_values
from .search import SearchBot, SearchSettings
from .spec import Codec, setting


class _Node:
    __slots__ = ("avail", "children", "side", "squares", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side = side
        """The side whose move led to this node (its margins are summed here)."""
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0
        self.avail = 1


@dataclass(frozen=True)
class IsmctsPySettings(SearchSettings):
    """The settings of the ``ismcts`` family (the reference-core IS-MCTS)."""

    exploration: float = setting(
        0.7, Codec("float", 0, 100), "UCB1 constant, in standard deviations of the margins"
    )


class IsmctsBot(SearchBot):
    """SO-ISMCTS with UCB1 and availability counts (see the module docstring)."""

    name = "ismcts"
    default_limit = Limit(nodes=20_000)
    settings: IsmctsPySettings

    def default_settings(self) -> IsmctsPySettings:
        return IsmctsPySettings()

    def search(
        self, observation: Observation, actions: list[Action], rng: random.Random, budget: Budget
    ) -> PlayResult:
        assert observation.seat is not None
        rules = observation.rules
        side_of = [rules.side_of(s) for s in range(rules.players)]
        root = _Node(side_of[observation.seat])
        root_side = root.side
        anchor, anchor_why = self.anchor(observation, actions)
        # a first visit of every root action, so that each has a value to report
        iterations = 0
        s1 = s2 = 0.0
        log, sqrt = math.log, math.sqrt
        # one world built from the observation's text, the others reshuffled from it by id
        base = Deal.from_observation(observation, rng)
        while iterations < len(actions) or budget.left():
            world = base.resample(observation.seat, rng)
            node = root
            path: list[_Node] = []
            steps = 0
            while not world.is_over:
                seat = world.to_move
                assert seat is not None
                # the tree is keyed by action, as the observing seat names it (the same id
                # can name different actions in different worlds); the world steps by id
                legal = world.legal_actions()
                ids = world.listed_ids()
                children = node.children
                untried = []
                for j, a in enumerate(legal):
                    child = children.get(a)
                    if child is None:
                        untried.append(j)
                    else:
                        child.avail += 1
                if untried:
                    j = untried[0] if node is root else untried[rng.randrange(len(untried))]
                    child = children[legal[j]] = _Node(side_of[seat])
                    world.apply_id(ids[j])
                    path.append(child)
                    steps += 1
                    break
                done = max(iterations, 1)
                spread = math.sqrt(max(s2 / done - (s1 / done) ** 2, 1.0))
                c = self.settings.exploration * spread
                best_j, best_child, best_score = 0, None, -math.inf
                for j, a in enumerate(legal):
                    child = children[a]
                    score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if score > best_score:
                        best_j, best_child, best_score = j, child, score
                assert best_child is not None
                world.apply_id(ids[best_j])
                path.append(best_child)
                node = best_child
                steps += 1
            steps += playout(world, rng)
            u = margins(side_values(world))
            for child in path:
                child.visits += 1
                child.total += u[child.side]
            path[0].squares += u[root_side] ** 2
            root.visits += 1
            s1 += u[root_side]
            s2 += u[root_side] ** 2
            iterations += 1
            budget.spend(iterations=1, nodes=steps)
        stats = [root.children.get(a) for a in actions]
        visits = [0 if n is None else n.visits for n in stats]
        means = [0.0 if n is None or not n.visits else n.total / n.visits for n in stats]
        best = max(range(len(actions)), key=lambda i: (visits[i], means[i], -i))
        why = f"most visited ({visits[best]} visits, mean margin {means[best]:.1f})"
        if self.settings.anchored and best != anchor:
            gain, se = _gain(stats[best], stats[anchor])
            if (
                min(visits[best], visits[anchor]) >= self.settings.override_min
                and gain >= self.settings.override_margin
                and gain >= self.override_threshold(len(actions) - 1) * se
            ):
                why = f"searched better than the heuristic's choice by {gain:.1f} (± {se:.1f})"
            else:
                best = anchor
                why = (
                    f"{anchor_why}; the most visited alternative searched {gain:+.1f} (± {se:.1f})"
                )
        elif self.settings.anchored:
            why = f"the heuristic's choice, also the most visited ({visits[best]} visits)"
        spent = budget.elapsed()
        return PlayResult(
            actions[best],
            {
                "value": round(means[best], 3),
                "scores": {str(a): round(m, 3) for a, m in zip(actions, means, strict=True)},
                "visits": iterations,
                "nodes": budget.used_nodes,
                "nps": round(budget.used_nodes / spent, 1) if spent > 0 else 0.0,
                "pv": _principal_line(root, actions[best]),
                "reason": f"{iterations} iterations: {why}",
            },
        )


def _gain(a: _Node | None, b: _Node | None) -> tuple[float, float]:
    """How much better node ``a`` searched than ``b`` (the difference of their means), and the
    standard error of that difference."""
    if a is None or b is None or a.visits < 2 or b.visits < 2:
        return 0.0, math.inf
    var = 0.0
    for n in (a, b):
        mean = n.total / n.visits
        var += max(n.squares / n.visits - mean * mean, 0.0) / (n.visits - 1)
    return a.total / a.visits - b.total / b.visits, math.sqrt(var)


def _principal_line(root: _Node, first: Action, depth: int = 6) -> list[str]:
    line = [str(first)]
    node = root.children.get(first)
    while node is not None and node.children and len(line) < depth:
        a, node = max(node.children.items(), key=lambda item: item[1].visits)
        line.append(str(a))
    return line
