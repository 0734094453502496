"""PIMC in the compiled engine: the search behind the ``hard`` and ``expert`` levels.

The player sees only its observation.  It rebuilds one deal from it
(:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>`), copies it into the
compiled engine (:mod:`bezique.fast`), and from there everything runs in C
(``bezique.fast.search.pimc``): each *world* deals the cards the seat has not seen again at random
(determinization); in each world every candidate action is applied and the deal played on
with a default policy from the *same* random numbers (common random numbers, so candidates
are compared on the same luck, world by world); from the first trick of stage 2 the exact
stage-2 solver finishes each playout (every hand is known inside a world).

``pimc-c-smart`` (:class:`FastPimcSmartBot`) plays out with the ``'smart'`` policy, the
heuristic player's stage-1 rules of thumb in C (:attr:`FastPimcBot.playout_policy`), and
*coupled draws* (:attr:`FastPimcBot.couple_draws`): in a world each seat draws from its own
pile of the stock whoever wins a trick, so that two candidates whose tricks go otherwise still
draw the same cards.  It is not yet shown stronger than ``pimc-c`` (docs/strength.md), so
``pimc-c`` keeps the plain policy.  ``pimc-c-late`` (:class:`FastPimcLateBot`) is
``pimc-c-smart`` with a lower bar late in the stock (:attr:`FastPimcBot.late_stock`), also on
trial.

Near the end of the stock a world's value may be its exact value instead of a playout
(:attr:`FastPimcBot.endgame_stock`, ``fast/endgame.c``).  It is off in every named bot: against
the heuristic it did worse than the ``smart`` playouts (docs/strength.md, session 6), which
play the rest of the deal as the heuristic would, where the exact value assumes an opponent who
sees every card.

Worlds come in batches.  After each batch the candidates whose paired difference with the
leader is clearly negative (:attr:`FastPimcBot.prune_z` standard errors) are dropped, so the
rest get the remaining rollouts; the heuristic player's choice is never dropped.

**Overruling the heuristic.**  In stage 1 the paired difference of two candidates spreads
150-240 points from one world to the next (the playouts after two different cards soon
diverge: other tricks, other draws, other melds), so a few hundred worlds leave a standard error
of 10-15 points, about the size of the real differences.  Picking the best mean then picks the
luckiest candidate, and the first version (``pimc-c-v1``, which did just that with a 2-point
prior) lost to the heuristic.  The player therefore plays the heuristic's choice unless another
candidate beats it, world by world, by more than :attr:`FastPimcBot.overrule_points` *and* by
:attr:`FastPimcBot.overrule_z` standard errors of the paired difference: a margin the search
must clear, not a veto (late in stage 1, in the declarations and in stage 2 the differences are
large and clear, and the search decides).

Budgets count rollouts (one candidate played out in one world): ``Limit(iterations=N)``;
``Limit(nodes=N)`` is read as ``N // NODES_PER_ROLLOUT`` rollouts, and ``Limit(time=s)`` stops
after the batch that passes ``s`` seconds.  Where the compiled engine is missing or does not
play the rules (more cards than it holds), the reference-core :class:`~.search.PimcBot` plays instead.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules
from ..fast import search
from .base import (
    Bot,
    InfoDict,
    Limit,
    PlayResult,
    fallback_limit,
    legal_actions,
    only_action,
    salt_for,
)
from .compiled import compiled_world, heuristic_choice
from .solver import world_is_known

NODES_PER_ROLLOUT = 40
"""Engine steps one rollout counts for, to read a ``nodes`` budget."""


class CompiledSearchBot(Bot):
    """What the compiled search players share: the seed their worlds are drawn from, the one
    legal action answered at once, and the reference-core twin that plays where the compiled
    engine cannot (:meth:`reference`, given :attr:`fallback_nodes` engine steps unless the
    limit is in nodes or seconds)."""

    fallback_nodes = 6_000
    """The reference-core search's budget where the compiled engine cannot play (unless the
    limit given is in nodes or seconds)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._salt = salt_for(seed)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) == 1:
            return only_action(actions[0])
        from .. import fast

        if not fast.supports(observation.rules):
            budget = fallback_limit(limit, self.fallback_nodes)
            return self.reference(self._salt).play(observation, budget)
        return self._search(observation, actions, limit)

    def reference(self, seed: int) -> Bot:
        """The reference-core twin of this search, seeded alike."""
        raise NotImplementedError

    def _search(
        self, observation: Observation, actions: list[Action], limit: Limit | None
    ) -> PlayResult:
        raise NotImplementedError


class FastPimcBot(CompiledSearchBot):
    """Perfect-information Monte Carlo over worlds and playouts in C: see the module docstring."""

    name = "pimc-c"
    default_rollouts = 1_500
    """Rollouts when :meth:`play` is given no limit."""
    batch = 8
    """Worlds per call into C, between prunings."""
    min_worlds = 16
    """Worlds in which every candidate is tried before any is dropped."""
    prune_z = 2.5
    """A candidate this many standard errors below the leader (paired) is dropped."""
    overrule_points = 5.0
    """Points a candidate must gain over the heuristic's choice, on average, to be played."""
    overrule_z = 2.5
    """Standard errors of the paired difference by which it must clear those points (about
    one chance in 20 that one of seven equal candidates clears it by luck)."""
    late_stock = -1
    """At or below this many cards in the stock the bar is :attr:`late_points` and
    :attr:`late_z` instead (-1: never): near the end of the stock the playouts are short, the
    paired spread small and the departures pay."""
    late_points = 5.0
    """:attr:`overrule_points` late in the stock (see :attr:`late_stock`)."""
    late_z = 2.5
    """:attr:`overrule_z` late in the stock (see :attr:`late_stock`)."""
    futility_z: float | None = 1.0
    """A candidate is dropped when even this many standard errors above its paired gain over
    the heuristic's choice stay below the bar it could clear with every world the budget
    has left (None: never): most moves early in stage 1 stop well before the budget."""
    keep_prior = True
    """Whether the heuristic's choice stays a candidate to the end (the paired comparison
    with it needs it)."""
    explore = 0.1
    """Chance of a uniform move at each step of a playout (as the default policy in C)."""
    meld_aware = False
    """Whether the playouts use the ``'meld'`` policy (a stage-1 trick worth the declaration it
    opens, see :meth:`FastDeal.playout <bezique.fast.FastDeal.playout>`) instead of the plain
    one (read only where :attr:`playout_policy` is None)."""
    playout_policy: str | None = None
    """The playout policy by name (``'heuristic'``, ``'meld'``, ``'smart'``; None: by
    :attr:`meld_aware`).  ``'smart'`` plays stage 1 by the heuristic player's rules of thumb
    (about even with it, where the plain policy loses some 50 points a deal to it), so the
    playouts are less biased; a rollout costs about 1.7 times as much."""
    couple_draws = False
    """Whether each seat draws from its own pile of a world's stock whoever wins a trick
    (:func:`bezique.fast.search.pimc`): the candidates of a world then draw
    the same cards, and the paired difference spreads less (median 114 points a world instead
    of 150 over 45 stage-1 positions), each rollout's value unchanged in expectation."""
    endgame_stock = 0
    """Where a candidate leaves at most this many cards in the stock (two hands), its value in
    a world is that world's exact value (``bezique.fast.search.pimc(..., endgame_stock=...)``: alpha-beta
    over the rest of stage 1, the stage-2 solver at the leaves) instead of a playout; 0: never."""
    endgame_worlds = 32
    """Most worlds a move where the end of the stock is solved (each solve costs some 1-5 ms
    where a playout costs 0.2-0.4 ms)."""
    solver_nodes = 20_000
    """Most solver nodes for one stage-2 position of two hands (beyond them the policy plays it
    out)."""
    solver_nodes_many = 4_000
    """:attr:`solver_nodes` with more than two hands.  With four hands about 45% of the stage-2
    positions took more than 20,000 nodes, all of them spent before the policy took over: the
    expert level's p95 reached 4-5 s a move.  At 4,000 the same bot chose alike in 181 of 184
    four-handed decisions and took 0.061 s a move median, 0.72 s p95, instead of 0.147 s and
    1.52 s (two deals, docs/strength.md)."""

    inference_power = 0.0
    """Where above 0 (two hands, no wild card), each world counts in proportion to how likely
    the opponent's past plays and passes are with the cards the world deals it
    (:func:`bezique.bots.inference.world_log_weight`, the likelihood raised to this power:
    1 is the play model as fit, below 1 trusts it less); 0: every world counts alike."""

    belief_power = 0.0
    """Where above 0 (two hands, no wild card, stage 1), the worlds are dealt by the belief
    model (:mod:`.belief`): the opponent's unseen cards drawn with chance proportional to
    ``exp(belief_power * score)`` of their kind, so the likely hands come up more often and
    every world still counts alike; 0: uniform worlds."""

    opponent_rules = False
    """With :attr:`learned_playouts` where the rules have learned weights: the other side's
    playout moves by the heuristic player's rules of thumb (the ``'smart'`` policy without the
    learned terms, a model of an opponent that plays by them) while this side's follow the
    learned policy; False: both sides by the learned policy."""

    learned_prior = False
    """Whether the choice the search starts from (and must be beaten by the bar) is the learned
    policy's (:mod:`.learned`) where it has weights for the rules and chooses, instead of the
    heuristic's."""

    learned_playouts = False
    """Whether the playouts use the ``'smart'`` policy with the learned weights (:mod:`.learned`)
    and coupled draws where the rules have such weights (elsewhere :attr:`playout_policy` and
    :attr:`couple_draws` as they are): the playouts then play stage 1 as the learned policy
    does, some 8 points a deal better than the heuristic's rules in C duels."""

    learned_version: str | None = None
    """Which shipped learned weights the search reads (:func:`.learned.learned_params`): None the
    present ones, ``"net"`` those with a network on top (on trial)."""

    learned_explore: float | None = None
    """With :attr:`learned_playouts` where the rules have learned weights, the chance of a
    uniform playout move in place of :attr:`explore` (None: :attr:`explore`); elsewhere the
    playouts keep :attr:`explore`, so rules without learned weights play as before."""

    learned_bar: tuple[float, float] | None = None
    """With :attr:`learned_playouts`, the bar to overrule the choice the search starts from
    (points and standard errors) where the rules have learned weights, in place of
    :attr:`overrule_points` and :attr:`overrule_z` (None: those).  Playouts by the learned
    policy are less biased, so smaller gains can be trusted."""

    value_cut: tuple[int, int] | None = None
    """``(tricks, stock)``: where the rules have a shipped value model (:mod:`.value`) and two
    sides, each playout stops at the first trick led once ``tricks`` more tricks are complete,
    while the stock holds more than ``stock`` cards, and the model scores it from the leader's
    view (``bezique.fast.search.pimc(..., cut=...)``); the end of the stock is still played out and stage 2
    solved.  None: playouts run to the end."""

    value_version: str | None = None
    """Which shipped value model scores the cut playouts (:func:`.value.shipped_model`): None
    the one :func:`.value.evaluate` uses, ``"search"`` the one fit to this search's own
    playouts (on trial)."""

    verify_worlds = 0
    """Where above 0, a candidate that clears the bar is played only if it clears it again
    against the choice the search started from on this many fresh worlds, not seen while the
    candidates were pruned and compared: the best of several noisy challengers looks better
    than it is (the winner's curse), and fresh worlds measure it without that bias; 0: no
    second look."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._bar = (self.overrule_points, self.overrule_z)

    def _rollouts(self, limit: Limit | None) -> tuple[int, float | None]:
        if limit is None:
            return self.default_rollouts, None
        n = limit.iterations
        if n is None and limit.nodes is not None:
            n = max(1, limit.nodes // NODES_PER_ROLLOUT)
        if n is None:
            n = self.default_rollouts if limit.time is None else 1 << 30
        return n, limit.time

    def reference(self, seed: int) -> Bot:
        from .search import PimcBot

        return PimcBot(seed)

    def _search(
        self, observation: Observation, actions: list[Action], limit: Limit | None
    ) -> PlayResult:
        assert observation.seat is not None
        seat = observation.seat
        side = observation.rules.side_of(seat)
        start = time.perf_counter()
        deadline = None if limit is None else search.deadline_for(limit.cpu_budget) or None

        def spent() -> bool:
            """True once the move's CPU budget is spent."""
            return deadline is not None and time.thread_time() >= deadline

        world, index, prior, seed = compiled_world(
            observation, actions, self._salt, heuristic=not self.learned_prior
        )
        whose = "the heuristic's"
        params = None
        if self.learned_prior or self.learned_playouts:
            from .learned import learned_choice, learned_params

            params = learned_params(observation.rules, self.learned_version)
        if self.learned_prior:  # the heuristic only where the learned policy does not choose
            pick = None if params is None else learned_choice(world, params)
            if pick is None:
                prior = heuristic_choice(observation, actions, self._salt)
            else:
                prior, whose = index.index(pick), "the learned policy's"
        policy, couple, playout_params = self.playout_policy, self.couple_draws, None
        other_params = None
        explore = self.explore
        if self.learned_playouts and params is not None:
            policy, couple, playout_params = "smart", True, params
            if self.learned_explore is not None:
                explore = self.learned_explore
            if self.opponent_rules:
                from ..fast.smart import SMART_DEFAULT

                other_params = SMART_DEFAULT
        cut = None
        if self.value_cut is not None and observation.rules.sides == 2:
            from .value import has_model, shipped_model

            if has_model(observation.rules, self.value_version):
                packed = shipped_model(str(observation.rules), self.value_version).packed
                cut = (*self.value_cut, packed)
        budget, seconds = self._rollouts(limit)
        if self.endgame_stock and world.stock_size <= self.endgame_stock + 1:
            budget = min(budget, self.endgame_worlds * len(actions))
        self._bar = self.bar_for(observation.stock_size)
        if playout_params is not None and self.learned_bar is not None:
            self._bar = self.learned_bar
        n = len(actions)
        per_world: list[list[float]] = [[] for _ in range(n)]
        active = list(range(n))
        known = world_is_known(observation)  # every world is this one: one suffices
        solver_nodes = self.solver_cap(observation.rules)
        bias = None
        if self.belief_power > 0 and not known:
            from .belief import shipped_belief

            bias = shipped_belief().bias(observation, self.belief_power)
        weigh = self._weigher(observation, world, seed, bias) if not known else None
        weights: list[float] | None = [] if weigh else None
        settings = search.PimcSettings(
            explore=explore,
            solver_nodes=solver_nodes,
            policy=policy or ("meld" if self.meld_aware else "heuristic"),
            couple_draws=couple,
            endgame_stock=self.endgame_stock,
            smart_params=playout_params,
            bias=bias,
            other_params=other_params,
            cut=cut,
        )

        def playouts(candidates: list[int], first: int, count: int) -> tuple[list[float], int, int]:
            """Each candidate (an index into the world's legal actions) played out in the worlds
            ``first`` to ``first + count - 1``: their values world by world, the playouts the
            solver finished and its nodes."""
            return search.pimc(
                world, seat, side, candidates, first, count, seed, settings, deadline=deadline
            )

        first = rollouts = solved = nodes = 0
        while True:
            count = 1 if known else max(1, min(self.batch, (budget - rollouts) // len(active)))
            values, done, used = playouts([index[i] for i in active], first, count)
            short = len(values) < count * len(active)  # the CPU budget ran out
            count = len(values) // len(active)
            if weigh and weights is not None:
                weights.extend(weigh(first, count))
            first += count
            rollouts += count * len(active)
            solved += done
            nodes += used
            for w in range(count):
                row = values[w * len(active) : (w + 1) * len(active)]
                for i, v in zip(active, row, strict=True):
                    per_world[i].append(v)
            if known or rollouts >= budget or short or spent():
                break
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
            if first >= self.min_worlds and len(active) > 1:
                active = self._prune(active, per_world, first, prior, weights)
                if self.keep_prior and self.futility_z is not None:
                    left = (budget - rollouts) // len(active)
                    active = self._futile(active, per_world, prior, first + left, weights)
                if len(active) == 1:
                    break
        # a dropped candidate saw the first worlds only: its weights are the first ones
        means = [_mean(v, weights) if v else -math.inf for v in per_world]
        if known:  # exact values: the best one, no margin needed
            best = max(active, key=lambda i: (means[i], -i))
        else:
            best = self._overrule(active, per_world, means, prior, weights)
        unconfirmed = False
        if best != prior and not known and self.verify_worlds > 0 and spent():
            best, unconfirmed = prior, True  # no budget left to confirm it
        elif best != prior and not known and self.verify_worlds > 0:
            count = self.verify_worlds  # worlds first.. onwards: no candidate has seen them
            values, done, used = playouts([index[prior], index[best]], first, count)
            count = len(values) // 2  # fewer where the CPU budget ran out
            fresh = weigh(first, count) if weigh else None
            rollouts += 2 * count
            solved += done
            nodes += used
            mu, var, m = _paired(values[1::2], values[0::2], fresh)
            points, z = self._bar
            if not mu > points + z * math.sqrt(var / m):
                best, unconfirmed = prior, True
        info: InfoDict = {
            "value": round(means[best], 3),
            "scores": {str(actions[i]): round(means[i], 3) for i in range(n) if per_world[i]},
            "visits": rollouts,
            "nodes": nodes,
            "pv": [str(actions[best])],
            "reason": self._reason(known, whose, first, solved, rollouts, best, prior, actions)
            + (
                f"; a better-looking move not confirmed on {self.verify_worlds} fresh worlds"
                if unconfirmed
                else ""
            ),
        }
        return PlayResult(actions[best], info)

    def _weigher(
        self,
        observation: Observation,
        world: Any,
        seed: int,
        bias: list[float] | None = None,
    ) -> Callable[[int, int], list[float]] | None:
        """What gives the worlds ``first`` .. ``first + count - 1`` of this search their weights
        (see :attr:`inference_power`), or None where every world counts alike."""
        rules = observation.rules
        if self.inference_power <= 0 or rules.players != 2 or rules.wild_cards:
            return None
        from .inference import world_weigher

        seat = observation.seat
        assert seat is not None
        log_weight = world_weigher(observation)
        base: list[float] = []

        def weigh(first: int, count: int) -> list[float]:
            out = []
            for hidden in search.pimc_hidden(world, seat, first, count, seed, bias):
                log = log_weight(hidden)
                if not base:
                    base.append(log)  # weights are relative: the first world's is 1
                out.append(math.exp(max(-50.0, min(50.0, self.inference_power * (log - base[0])))))
            return out

        return weigh

    def solver_cap(self, rules: Rules) -> int:
        """Most solver nodes for one stage-2 position under these rules (:attr:`solver_nodes`
        with two hands, :attr:`solver_nodes_many` with more)."""
        return self.solver_nodes if rules.players == 2 else self.solver_nodes_many

    def bar_for(self, stock_size: int) -> tuple[float, float]:
        """The bar to overrule the heuristic with this many cards in the stock: points and
        standard errors (:attr:`late_points` and :attr:`late_z` at or below
        :attr:`late_stock`)."""
        if stock_size <= self.late_stock:
            return self.late_points, self.late_z
        return self.overrule_points, self.overrule_z

    def _prune(
        self,
        active: list[int],
        per_world: list[list[float]],
        worlds: int,
        prior: int,
        weights: list[float] | None = None,
    ) -> list[int]:
        """The candidates not clearly worse than the leader, compared on the worlds both saw
        (the latest ``worlds`` of each: every active candidate saw every world so far)."""
        # v1 (keep_prior off) gave the heuristic's choice its head start here too
        head = 0.0 if self.keep_prior else self.overrule_points
        leader = max(
            active,
            key=lambda i: (_mean(per_world[i], weights) + (head if i == prior else 0.0), -i),
        )
        keep = []
        for i in active:
            if i == leader:
                keep.append(i)
                continue
            mu, var, m = _paired(per_world[i], per_world[leader], weights)
            if i == prior:
                mu += head
            if (i == prior and self.keep_prior) or mu + self.prune_z * math.sqrt(var / m) >= 0:
                keep.append(i)
        return keep

    def _futile(
        self,
        active: list[int],
        per_world: list[list[float]],
        prior: int,
        most_worlds: int,
        weights: list[float] | None = None,
    ) -> list[int]:
        """The candidates that may still clear the overrule bar within ``most_worlds`` worlds
        (the heuristic's choice always stays)."""
        if self.futility_z is None:
            return active
        keep = []
        for i in active:
            if i != prior:
                mu, var, m = _paired(per_world[i], per_world[prior], weights)
                sd = math.sqrt(var)
                points, z = self._bar
                bar = points + z * sd / math.sqrt(max(m, most_worlds))
                if mu + self.futility_z * sd / math.sqrt(m) < bar:
                    continue
            keep.append(i)
        return keep

    def _overrule(
        self,
        active: list[int],
        per_world: list[list[float]],
        means: list[float],
        prior: int,
        weights: list[float] | None = None,
    ) -> int:
        """The heuristic's choice, or the candidate with the best mean among those that beat it
        world by world by more than :attr:`overrule_points` and :attr:`overrule_z` standard
        errors (with ``overrule_z`` 0: the best mean, the heuristic's choice given a head start
        of :attr:`overrule_points`)."""
        if prior not in active:  # only where keep_prior is off: the best of the rest
            return max(active, key=lambda i: (means[i], -i))
        base = per_world[prior]
        points, z = self._bar
        clear = []
        for i in active:
            if i == prior:
                continue
            mu, var, m = _paired(per_world[i], base, weights)
            se = math.sqrt(var) / math.sqrt(m) if z else 0.0
            if mu > points + z * se:
                clear.append(i)
        return max(clear, key=lambda i: (means[i], -i)) if clear else prior

    @staticmethod
    def _reason(
        known: bool,
        whose: str,
        worlds: int,
        solved: int,
        rollouts: int,
        best: int,
        prior: int,
        actions: list[Action],
    ) -> str:
        if known:
            return "stage 2 solved exactly: every card is known"
        why = (
            f"{whose} choice, confirmed"
            if best == prior
            else f"searched better than {whose} {actions[prior]}"
        )
        return f"{worlds} worlds, {rollouts} rollouts ({solved} finished by the solver): {why}"


def _mean(values: list[float], weights: list[float] | None) -> float:
    """The mean of ``values``, weighted by as many of ``weights`` (None: alike)."""
    if weights is None:
        return sum(values) / len(values)
    w = weights[: len(values)]
    return sum(x * y for x, y in zip(values, w, strict=True)) / sum(w)


def _paired(
    a: list[float], b: list[float], weights: list[float] | None = None
) -> tuple[float, float, float]:
    """Mean and variance of a - b over the latest worlds both saw, and their number (the
    variance is infinite with one world).  With ``weights`` (one a world, from the first; a and
    b's latest worlds are the latest of them): the weighted mean and variance, and the
    effective number of worlds, (sum of weights)² / sum of squared weights."""
    m = min(len(a), len(b))
    d = [x - y for x, y in zip(a[len(a) - m :], b[len(b) - m :], strict=True)]
    if weights is None:
        mu = sum(d) / m
        var = sum((x - mu) ** 2 for x in d) / (m - 1) if m > 1 else math.inf
        return mu, var, m
    w = weights[len(weights) - m :] if len(weights) > m else weights
    sw, sw2 = sum(w), sum(x * x for x in w)
    mu = sum(x * y for x, y in zip(d, w, strict=True)) / sw
    denom = sw - sw2 / sw
    var = (
        sum(y * (x - mu) ** 2 for x, y in zip(d, w, strict=True)) / denom if denom > 0 else math.inf
    )
    return mu, var, sw * sw / sw2


class FastPimcSmartBot(FastPimcBot):
    """``pimc-c`` with the ``'smart'`` playout policy and coupled draws (see the module
    docstring): less biased, less noisy playouts, not yet shown to play better."""

    name = "pimc-c-smart"
    playout_policy = "smart"
    couple_draws = True


class FastPimcLateBot(FastPimcSmartBot):
    """``pimc-c-smart`` with a lower bar near the end of the stock (12 cards or fewer: 2 points
    and 1.5 standard errors), where its departures from the heuristic were found to pay (on
    trial, docs/strength.md)."""

    name = "pimc-c-late"
    late_stock = 12
    late_points = 2.0
    late_z = 1.5


class FastPimcModelBot(FastPimcLateBot):
    """``pimc-c-late`` whose playouts make no uniform moves (:attr:`FastPimcBot.explore` 0):
    each playout plays the rest of stage 1 as the heuristic player's rules of thumb would, a
    model of the opponent and of the player's own later moves (on trial, docs/strength.md)."""

    name = "pimc-c-model"
    explore = 0.0


class FastPimcInferenceBot(FastPimcBot):
    """``pimc-c`` whose worlds count by how likely the opponent's past plays and passes make
    them (:attr:`FastPimcBot.inference_power` 1: the play model of :mod:`.inference`, fit to the
    heuristic's self-play), on trial."""

    name = "pimc-c-inf"
    inference_power = 1.0


class FastPimcLearnedBot(FastPimcBot):
    """``pimc-c`` starting from the learned policy's choice (:mod:`.learned`) instead of the
    heuristic's where it has weights, on trial."""

    name = "pimc-c-learned"
    learned_prior = True


class FastPimcLearnedPlayoutsBot(FastPimcLearnedBot):
    """``pimc-c-learned`` whose playouts play the learned policy too, with coupled draws: the
    search starts from the learned choice, values each candidate by playing on as the learned
    policy would, and overrules that choice at a lower bar (2 points and 1.5 standard errors
    instead of 5 and 2.5).  Where the rules have no learned weights it is ``pimc-c``."""

    name = "pimc-c-lp"
    learned_playouts = True
    learned_bar = (2.0, 1.5)


class FastPimcLearnedNetBot(FastPimcLearnedPlayoutsBot):
    """``pimc-c-lp`` on the learned weights with a network on top (``"net"``), on trial."""

    name = "pimc-c-lpn"
    learned_version = "net"


class FastPimcBeliefBot(FastPimcLearnedPlayoutsBot):
    """``pimc-c-lp`` whose worlds are dealt by the belief model (:mod:`.belief`, fit to the
    heuristic's self-play): the opponent's likely cards come up in more of them, on trial."""

    name = "pimc-c-bel"
    belief_power = 1.0


class FastPimcOpponentBot(FastPimcLearnedPlayoutsBot):
    """``pimc-c-lp`` whose playouts play the other side by the heuristic's rules of thumb
    (:attr:`FastPimcBot.opponent_rules`), its own side by the learned policy, on trial."""

    name = "pimc-c-opp"
    opponent_rules = True


class FastPimcSteadyBot(FastPimcLearnedPlayoutsBot):
    """``pimc-c-lp`` whose playouts make no uniform moves where they follow the learned policy
    (:attr:`FastPimcBot.learned_explore` 0): each plays stage 1 as that policy would; the
    ``expert`` level since session 18.  Where the rules have no learned weights it is
    ``pimc-c``, random playout moves included, as ``pimc-c-lp`` is."""

    name = "pimc-c-lp0"
    learned_explore = 0.0


class FastPimcNetSteadyBot(FastPimcSteadyBot):
    """``pimc-c-lp0`` on the learned weights with a network on top (``"net"``, as
    ``pimc-c-lpn``): steady playouts by the stronger policy, on trial."""

    name = "pimc-c-lpn0"
    learned_version = "net"


class FastPimcSteadyOpponentBot(FastPimcOpponentBot):
    """``pimc-c-opp`` whose playouts make no uniform moves: the opponent played out by the
    heuristic's rules, this side by the learned policy, neither at random, on trial."""

    name = "pimc-c-opp0"
    learned_explore = 0.0


class FastPimcValueBot(FastPimcSteadyBot):
    """``pimc-c-lp0`` whose playouts stop four tricks after the move while the stock holds
    more than 8 cards, scored by the learned evaluation (:attr:`FastPimcBot.value_cut`), on
    trial.  Where the rules have no value model it is ``pimc-c-lp0``."""

    name = "pimc-c-lpv"
    value_cut = (4, 8)


class FastPimcValueShortBot(FastPimcSteadyBot):
    """``pimc-c-lpv`` cut one trick after the move: a one-trick look ahead scored by the
    learned evaluation while the stock holds more than 8 cards, on trial."""

    name = "pimc-c-lpv1"
    value_cut = (1, 8)


class FastPimcValueLongBot(FastPimcSteadyBot):
    """``pimc-c-lpv`` cut eight tricks after the move (while the stock holds more than 8
    cards): most of a playout's noise in the early stock gone, less of the model's bias, on
    trial."""

    name = "pimc-c-lpv8"
    value_cut = (8, 8)


class FastPimcSearchValueBot(FastPimcValueLongBot):
    """``pimc-c-lpv8`` scored by the value model fit to the search's own playouts from the
    seat's worlds (:data:`.value.VERSIONS` ``"search"``), on trial."""

    name = "pimc-c-lpvs"
    value_version = "search"


class FastPimcV1Bot(FastPimcBot):
    """The first ``pimc-c``, kept for comparison: it plays the candidate with the best mean, the
    heuristic's choice given a 2-point head start, and may drop the heuristic's choice."""

    name = "pimc-c-v1"
    overrule_points = 2.0
    overrule_z = 0.0
    futility_z = None
    keep_prior = False
