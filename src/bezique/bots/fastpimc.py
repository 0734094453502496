"""PIMC in the compiled engine: the ``pimc-c`` family, the search behind ``hard`` and ``expert``.

The player sees only its observation.  It rebuilds one deal from it
(:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>`), copies it into the
compiled engine (:mod:`bezique.fast`), and from there everything runs in C
(:func:`bezique.fast.search.pimc`): each *world* deals the cards the seat has not seen again at random
(determinization); in each world every candidate action is applied and the deal played on
with a default policy from the *same* random numbers (common random numbers, so candidates
are compared on the same luck, world by world); from the first trick of stage 2 the exact
stage-2 solver finishes each playout (every hand is known inside a world).

Every choice of the search is a field of :class:`PimcSettings`, written in a spec string
(:mod:`.spec`): ``pimc-c:prior=learned,playout=learned,learned_bar=2/1.5``.  The main ones:

* ``playout``: the playout policy.  ``smart`` plays stage 1 by the heuristic player's rules of
  thumb in C (about even with it, where the plain ``heuristic`` policy loses some 50 points a
  deal to it); ``learned`` plays the learned policy (:mod:`.learned`) with coupled draws where
  the rules have learned weights.  ``couple``: in a world each seat draws from its own pile of
  the stock whoever wins a trick, so that two candidates whose tricks go otherwise still draw
  the same cards.
* ``prior``: the move the search starts from, the heuristic's or the learned policy's.
* ``bar``, ``learned_bar``, ``late_stock`` and ``late_bar``: the bar to overrule it (below).
* ``inference``, ``belief``: worlds weighed by the opponent's past plays
  (:mod:`.inference`), or dealt by a belief model of the other hand (:mod:`.belief`).
* ``cut``: playouts stopped a few tricks on and scored by the learned evaluation (:mod:`.value`).
* ``endgame_stock``: near the end of the stock a world's value may be its exact value instead of
  a playout (``fast/endgame.c``); it assumes an opponent who sees every card, and is off by
  default.

Worlds come in batches.  After each batch the candidates whose paired difference with the
leader is clearly negative (``prune_z`` standard errors) are dropped, so the rest get the
remaining rollouts; the move the search started from is never dropped (``keep_prior``).

**Overruling the starting move.**  In stage 1 the paired difference of two candidates spreads
150-240 points from one world to the next (the playouts after two different cards soon
diverge: other tricks, other draws, other melds), so a few hundred worlds leave a standard error
of 10-15 points, about the size of the real differences.  Picking the best mean then picks the
luckiest candidate (``bar=2/0,keep_prior=no,futility=off`` does that, with a 2-point head start
for the heuristic's choice, and loses to the heuristic).  The player therefore plays the move it
started from unless another candidate beats it, world by world, by more than the ``bar``'s
points *and* its standard errors of the paired difference: a margin the search must clear, not a
veto (late in stage 1, in the declarations and in stage 2 the differences are large and clear,
and the search decides).

Budgets count rollouts (one candidate played out in one world): ``Limit(iterations=N)``;
``Limit(nodes=N)`` is read as ``N // NODES_PER_ROLLOUT`` rollouts, and ``Limit(time=s)`` stops
after the batch that passes ``s`` seconds; ``Limit(cpu_budget=s)`` stops the search when the
thread has spent ``s`` seconds of CPU and plays the best so far; with no budget,
:data:`DEFAULT_ROLLOUTS`.  Where the
compiled engine is missing or does not play the rules (more cards than it holds), the
reference-core :class:`~.search.PimcBot` plays instead.  The calls into the engine are in one
place, :func:`_playouts_in_c`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
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
from .spec import Codec, setting

NODES_PER_ROLLOUT = 40
"""Engine steps one rollout counts for, to read a ``nodes`` budget."""


class CompiledSearchBot(Bot):
    """What the compiled search players share: the seed their worlds are drawn from, the one
    legal action answered at once, and the reference-core twin that plays where the compiled
    engine cannot (:meth:`reference`, given :attr:`fallback_nodes` engine steps unless the
    limit is in nodes or seconds)."""

    def __init__(self, seed: int | None = None, fallback_nodes: int = 6_000) -> None:
        super().__init__(seed)
        self._salt = salt_for(seed)
        self.fallback_nodes = fallback_nodes
        """The reference-core search's budget where the compiled engine cannot play (unless
        the limit given is in nodes or seconds)."""

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


DEFAULT_ROLLOUTS = 1_500
"""Rollouts a move when the caller gives no budget."""

_POINTS = Codec("float", 0, 1000)
_Z = Codec("float", 0, 10)
_BAR = Codec("pair", 0, 1000)
_SHARE = Codec("float", 0, 1)
_POWER = Codec("float", 0, 10)


@dataclass(frozen=True)
class PimcSettings:
    """The settings of the ``pimc-c`` family, one field a spec key (see the module docstring)."""

    prior: str = setting(
        "heuristic",
        Codec("word", words=("heuristic", "learned")),
        "the move the search starts from and must beat: the heuristic's, or the learned "
        "policy's where the rules have learned weights",
    )
    playout: str = setting(
        "heuristic",
        Codec("word", words=("heuristic", "meld", "smart", "learned")),
        "the playout policy in C: heuristic; meld (a trick worth the declaration it opens); "
        "smart (the heuristic player's rules of thumb); learned (smart with the learned "
        "weights and coupled draws where the rules have them, else heuristic)",
    )
    couple: bool = setting(
        False,
        Codec("flag"),
        "each seat draws from its own pile of a world's stock, whoever wins a trick, so the "
        "candidates of a world draw the same cards",
    )
    explore: float = setting(0.1, _SHARE, "chance of a uniform move at each playout step")
    learned_explore: float | None = setting(
        None,
        Codec("float", 0, 1, off=True),
        "the chance of a uniform move where the playouts follow the learned policy (off: explore)",
    )
    bar: tuple[float, float] = setting(
        (5.0, 2.5),
        _BAR,
        "points and standard errors of the paired difference by which a candidate must beat "
        "the move the search starts from",
    )
    learned_bar: tuple[float, float] | None = setting(
        None,
        Codec("pair", 0, 1000, off=True),
        "the bar where the playouts follow the learned policy (off: bar)",
    )
    late_stock: int | None = setting(
        None,
        Codec("int", 0, 200, off=True),
        "at or below this many cards in the stock the bar is late_bar (off: never)",
    )
    late_bar: tuple[float, float] = setting((5.0, 2.5), _BAR, "the bar late in the stock")
    futility: float | None = setting(
        1.0,
        Codec("float", 0, 10, off=True),
        "drop a candidate that cannot clear the bar, even this many standard errors up, with "
        "the worlds left (off: never)",
    )
    keep_prior: bool = setting(
        True,
        Codec("flag"),
        "the starting move stays a candidate to the end (no: the best mean is played, the "
        "starting move given bar's points as a head start)",
    )
    inference: float = setting(
        0.0,
        _POWER,
        "worlds count by how likely the opponent's past plays make them, the play model's "
        "likelihood to this power (two hands; 0: alike)",
    )
    belief: float = setting(
        0.0,
        _POWER,
        "worlds dealt by the belief model of the other hand at this strength (two hands, "
        "stage 1; 0: uniform)",
    )
    opponent: str = setting(
        "same",
        Codec("word", words=("same", "smart")),
        "where the playouts follow the learned policy, the other side's moves: the same, or "
        "the heuristic player's rules of thumb (smart)",
    )
    weights: str | None = setting(
        None,
        Codec("path", off=True),
        "the learned policy's weights, a JSON file fit on the classic rules (off: the shipped "
        "ones)",
    )
    cut: tuple[int, int] | None = setting(
        None,
        Codec("int-pair", 0, 200, off=True),
        "tricks/stock: playouts stop that many tricks on while the stock holds more cards, "
        "scored by the value model (two sides, rules with one; off: played to the end)",
    )
    value: str | None = setting(
        None,
        Codec("path", off=True),
        "the value model that scores cut playouts, a JSON file (off: the shipped one)",
    )
    verify: int = setting(
        0,
        Codec("int", 0, 100_000),
        "a move that clears the bar is played only if it clears it again on this many fresh "
        "worlds (0: no second look)",
    )
    endgame_stock: int = setting(
        0,
        Codec("int", 0, 100),
        "where a candidate leaves at most this many cards in the stock, a world's exact value "
        "instead of a playout (two hands; 0: never)",
    )
    endgame_worlds: int = setting(
        32, Codec("int", 1, 100_000), "most worlds a move where the end of the stock is solved"
    )
    batch: int = setting(8, Codec("int", 1, 10_000), "worlds per call into C, between prunings")
    min_worlds: int = setting(
        16, Codec("int", 1, 100_000), "worlds every candidate sees before any is dropped"
    )
    prune_z: float = setting(
        2.5, _Z, "a candidate this many standard errors below the leader is dropped"
    )
    solver_nodes: int = setting(
        20_000,
        Codec("int", 0, 100_000_000),
        "most solver nodes for a stage-2 position of two hands (beyond: played out)",
    )
    solver_nodes_many: int = setting(
        4_000, Codec("int", 0, 100_000_000), "most solver nodes with more than two hands"
    )
    fallback_nodes: int = setting(
        6_000,
        Codec("int", 1, 100_000_000),
        "engine steps for the reference-core pimc where the compiled engine cannot play",
    )


class FastPimcBot(CompiledSearchBot):
    """Perfect-information Monte Carlo over worlds and playouts in C: see the module docstring.
    Every choice it makes is set by its :class:`PimcSettings`."""

    name = "pimc-c"

    def __init__(self, seed: int | None = None, settings: PimcSettings | None = None) -> None:
        self.settings = settings if settings is not None else PimcSettings()
        super().__init__(seed, self.settings.fallback_nodes)
        self._bar = self.settings.bar

    def _rollouts(self, limit: Limit | None) -> tuple[int, float | None]:
        if limit is None:
            return DEFAULT_ROLLOUTS, None
        n = limit.iterations
        if n is None and limit.nodes is not None:
            n = max(1, limit.nodes // NODES_PER_ROLLOUT)
        if n is None:
            n = DEFAULT_ROLLOUTS if limit.time is None else 1 << 30
        return n, limit.time

    def reference(self, seed: int) -> Bot:
        from .search import PimcBot

        return PimcBot(seed)

    def _search(
        self, observation: Observation, actions: list[Action], limit: Limit | None
    ) -> PlayResult:
        assert observation.seat is not None
        cfg = self.settings
        seat = observation.seat
        side = observation.rules.side_of(seat)
        start = time.perf_counter()
        deadline = None if limit is None else search.deadline_for(limit.cpu_budget) or None

        def spent() -> bool:
            """True once the move's CPU budget is spent."""
            return deadline is not None and time.thread_time() >= deadline

        learned_prior = cfg.prior == "learned"
        world, index, prior, seed = compiled_world(
            observation, actions, self._salt, heuristic=not learned_prior
        )
        whose = "the heuristic's"
        params = None
        if learned_prior or cfg.playout == "learned":
            from .learned import learned_params

            params = learned_params(observation.rules, cfg.weights)
        if learned_prior:  # the heuristic only where the learned policy does not choose
            from .learned import learned_choice

            pick = None if params is None else learned_choice(world, params)
            if pick is None:
                prior = heuristic_choice(observation, actions, self._salt)
            else:
                prior, whose = index.index(pick), "the learned policy's"
        plan = self._plan(observation, params)
        budget, seconds = self._rollouts(limit)
        if cfg.endgame_stock and world.stock_size <= cfg.endgame_stock + 1:
            budget = min(budget, cfg.endgame_worlds * len(actions))
        self._bar = self.bar_for(observation.stock_size)
        if plan.learned and cfg.learned_bar is not None:
            self._bar = cfg.learned_bar
        n = len(actions)
        per_world: list[list[float]] = [[] for _ in range(n)]
        active = list(range(n))
        known = world_is_known(observation)  # every world is this one: one suffices
        bias = None
        if cfg.belief > 0 and not known:
            from .belief import shipped_belief

            bias = shipped_belief().bias(observation, cfg.belief)
        weigh = self._weigher(observation, world, seed, bias) if not known else None
        weights: list[float] | None = [] if weigh else None

        def playouts(candidates: list[int], first: int, count: int) -> tuple[list[float], int, int]:
            return _playouts_in_c(
                world, seat, side, candidates, first, count, seed, plan, bias, deadline
            )

        first = rollouts = solved = nodes = 0
        while True:
            count = 1 if known else max(1, min(cfg.batch, (budget - rollouts) // len(active)))
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
            if first >= cfg.min_worlds and len(active) > 1:
                active = self._prune(active, per_world, first, prior, weights)
                if cfg.keep_prior and cfg.futility is not None:
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
        if best != prior and not known and cfg.verify > 0 and spent():
            best, unconfirmed = prior, True  # no budget left to confirm it
        elif best != prior and not known and cfg.verify > 0:
            count = cfg.verify  # worlds first.. onwards: no candidate has seen them
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
                f"; a better-looking move not confirmed on {cfg.verify} fresh worlds"
                if unconfirmed
                else ""
            ),
        }
        return PlayResult(actions[best], info)

    def _plan(self, observation: Observation, params: tuple[float, ...] | None) -> _Plan:
        """How the playouts of this search run under these rules (see :class:`_Plan`)."""
        cfg = self.settings
        rules = observation.rules
        policy = "heuristic" if cfg.playout == "learned" else cfg.playout
        couple, explore = cfg.couple, cfg.explore
        playout_params = other_params = None
        learned = cfg.playout == "learned" and params is not None
        if learned:
            policy, couple, playout_params = "smart", True, params
            if cfg.learned_explore is not None:
                explore = cfg.learned_explore
            if cfg.opponent == "smart":
                from ..fast.smart import SMART_DEFAULT

                other_params = SMART_DEFAULT
        cut = None
        if cfg.cut is not None and rules.sides == 2:
            model = _value_model(rules, cfg.value)
            if model is not None:
                cut = (*cfg.cut, model.packed)
        return _Plan(
            policy=policy,
            couple=couple,
            explore=explore,
            solver_nodes=self.solver_cap(rules),
            endgame_stock=cfg.endgame_stock,
            params=playout_params,
            other_params=other_params,
            cut=cut,
            learned=learned,
        )

    def _weigher(
        self,
        observation: Observation,
        world: Any,
        seed: int,
        bias: list[float] | None = None,
    ) -> Callable[[int, int], list[float]] | None:
        """What gives the worlds ``first`` .. ``first + count - 1`` of this search their weights
        (see the ``inference`` setting), or None where every world counts alike."""
        rules = observation.rules
        power = self.settings.inference
        if power <= 0 or rules.players != 2 or rules.wild_cards:
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
                out.append(math.exp(max(-50.0, min(50.0, power * (log - base[0])))))
            return out

        return weigh

    def solver_cap(self, rules: Rules) -> int:
        """Most solver nodes for one stage-2 position under these rules (``solver_nodes``
        with two hands, ``solver_nodes_many`` with more)."""
        cfg = self.settings
        return cfg.solver_nodes if rules.players == 2 else cfg.solver_nodes_many

    def bar_for(self, stock_size: int) -> tuple[float, float]:
        """The bar to overrule the heuristic with this many cards in the stock: points and
        standard errors (``late_bar`` at or below ``late_stock`` cards, else ``bar``)."""
        cfg = self.settings
        if cfg.late_stock is not None and stock_size <= cfg.late_stock:
            return cfg.late_bar
        return cfg.bar

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
        # with keep_prior off the starting move has the bar's points as a head start here too
        keep_prior = self.settings.keep_prior
        head = 0.0 if keep_prior else self.settings.bar[0]
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
            if (i == prior and keep_prior) or mu + self.settings.prune_z * math.sqrt(var / m) >= 0:
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
        futility = self.settings.futility
        if futility is None:
            return active
        keep = []
        for i in active:
            if i != prior:
                mu, var, m = _paired(per_world[i], per_world[prior], weights)
                sd = math.sqrt(var)
                points, z = self._bar
                bar = points + z * sd / math.sqrt(max(m, most_worlds))
                if mu + futility * sd / math.sqrt(m) < bar:
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
        world by world by more than the bar's points and standard errors (with 0 standard
        errors: the best mean, the starting move given the bar's points as a head start)."""
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


@dataclass(frozen=True)
class _Plan:
    """How one search's playouts run under the rules at hand: the settings resolved against
    what the rules offer (learned weights, a value model)."""

    policy: str
    """The playout policy in C: ``'heuristic'``, ``'meld'`` or ``'smart'``."""
    couple: bool
    explore: float
    solver_nodes: int
    endgame_stock: int
    params: tuple[float, ...] | None
    """The ``'smart'`` policy's weights (None: the heuristic player's)."""
    other_params: tuple[float, ...] | None
    """The weights the other sides' playout moves follow (None: :attr:`params`)."""
    cut: tuple[int, int, bytes] | None
    learned: bool
    """Whether the playouts follow the learned policy (so ``learned_bar`` applies)."""


# --- the calls into the compiled engine -------------------------------------------------------


def _playouts_in_c(
    world: Any,
    seat: int,
    side: int,
    candidates: list[int],
    first: int,
    count: int,
    seed: int,
    plan: _Plan,
    bias: list[float] | None,
    deadline: float | None,
) -> tuple[list[float], int, int]:
    """Each candidate (an index into the world's legal actions) played out in the worlds
    ``first`` to ``first + count - 1``: their values world by world, the playouts the solver
    finished and its nodes (:func:`bezique.fast.search.pimc`; fewer worlds where the thread's
    CPU passes ``deadline``)."""
    settings = search.PimcSettings(
        explore=plan.explore,
        solver_nodes=plan.solver_nodes,
        policy=plan.policy,
        couple_draws=plan.couple,
        endgame_stock=plan.endgame_stock,
        smart_params=plan.params,
        bias=bias,
        other_params=plan.other_params,
        cut=plan.cut,
    )
    return search.pimc(
        world, seat, side, candidates, first, count, seed, settings, deadline=deadline
    )


@cache
def _read_value_model(path: str) -> Any:
    from .value import ValueModel

    return ValueModel.load(path)


def _value_model(rules: Rules, path: str | None) -> Any:
    """The value model that scores cut playouts under these rules: the shipped one, or the one
    in the file ``path`` where it was fit on these rules; None where there is none."""
    from .value import has_model, shipped_model

    if path is None:
        return shipped_model(str(rules)) if has_model(rules) else None
    model = _read_value_model(path)
    return model if model.rules == str(rules) else None
