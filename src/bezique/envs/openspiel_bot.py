"""OpenSpiel's IS-MCTS as a :mod:`bezique.bots` player (``openspiel-ismcts``).

::

    >>> from bezique import Deal, Rules
    >>> from bezique.envs.openspiel_bot import make_openspiel_ismcts
    >>> bot = make_openspiel_ismcts(seed=1, iterations=20)
    >>> deal = Deal.new(Rules.preset("classic"), seed=7)
    >>> obs = deal.observation(deal.to_move)
    >>> str(bot.choose(obs)) in obs.legal
    True

The bot turns its observation into a ``python_bezique`` state with
:meth:`BeziqueGame.state_from_observation <bezique.envs.openspiel_game.BeziqueGame.state_from_observation>`
(the unseen cards dealt at random) and runs ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
from it, which resamples that state's information set at every iteration
(:meth:`~bezique.envs.openspiel_game.BeziqueState.resample_from_infostate`).  Leaves are valued
by random playouts: by default played on the core directly (:class:`CoreRolloutEvaluator`, the
same uniform random policy, many times faster), or with OpenSpiel's own
``RandomRolloutEvaluator`` (``evaluator="openspiel"``).

Importing this module registers the bot with :func:`bezique.bots.register` as
``openspiel-ismcts``; so does :func:`bezique.envs.register_bots` when OpenSpiel is installed.
"""

from __future__ import annotations

import random
import time as _time
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ..bots import Bot, InfoDict, Limit, PlayResult, register
from ..bots.base import legal_actions, observation_rng_seed
from ..core.observation import Observation
from ..core.rules import Rules
from .common import deal_winners
from .encoding import outcome, relative_points
from .openspiel_game import BeziqueState, load

NAME = "openspiel-ismcts"
DEFAULT_ITERATIONS = 200
"""Simulations per decision when neither the bot nor the limit says."""
DEFAULT_UCT_C = 0.01
"""The exploration constant, in units of :data:`DEFAULT_SCALE` points: the best of the sweep
``lab/benchmarks/openspiel_tune.py`` (docs/strength.md).  At ``expert-c``'s median time a move,
0.04 s or some 20 simulations, every setting that explored more did worse; 0.01 of 200 points
is the raw ``uct_c=2`` of the first version."""
DEFAULT_SCALE = 200.0
"""Points of margin that count as one unit of utility: about the spread (standard deviation) of
a classic deal's margin, 208 points between heuristic players (docs/learning.md)."""


class CoreRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Values a ``python_bezique`` state by uniformly random playouts of its deal on the core
    (no tensors, no action ids), returning what ``state.returns()`` would at the end."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)
        self.steps = 0
        """Actions applied in playouts so far."""

    def evaluate(self, state: BeziqueState) -> np.ndarray:
        deal = state.deal
        if deal is None:
            raise ValueError("cannot evaluate a state whose cards are still being dealt")
        sh = state._shared
        rules, rng = sh.rules, self._rng
        total = np.zeros(rules.players)
        for _ in range(self.n_rollouts):
            d = deal.clone()
            while not d.is_over:
                d.apply(rng.choice(d.legal_actions()))
                self.steps += 1
            if sh.utility == "points":
                values = relative_points(d.points)
            else:
                values = outcome(deal_winners(d), rules.sides)
            total += [values[rules.side_of(p)] for p in range(rules.players)]
        return total / self.n_rollouts

    def prior(self, state: BeziqueState) -> list[tuple[int, float]]:
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


class OpenSpielISMCTS(Bot):
    """A bot that searches with OpenSpiel's IS-MCTS (see the module docstring).

    Arguments:
        seed: seeds the search; equal seeds and observations give equal choices.
        rules: the rules to load the game with; None takes them from each observation.
        iterations: simulations per decision (``Limit.iterations`` overrides it).
        time: CPU seconds per decision instead of a number of simulations (``Limit.time``
            overrides it); the search stops after the first simulation past it.
            ``Limit.nodes`` caps the actions applied in playouts (plus one per simulation;
            with ``evaluator="openspiel"`` it is read as simulations).  With several limits
            the search stops at the first one reached.
        uct_c: the exploration constant, in units of ``scale`` points of margin.
        scale: with ``utility="points"``, the points that count as one unit of utility
            (default :data:`DEFAULT_SCALE`, about the spread of a deal's margin). OpenSpiel's
            UCT adds ``uct_c * sqrt(log N / n)`` to a mean utility, so on raw margins (scale 1,
            which an earlier version used with ``uct_c=2``) the exploration is negligible
            against differences of tens of points and the search nearly greedy.  Scaling
            the utilities by ``1/scale`` is the same as multiplying ``uct_c`` by ``scale``,
            which is how it is applied.  Ignored with ``utility="result"`` (already +-1).
        utility: ``"points"`` (maximise the deal-point margin) or ``"result"`` (win the deal).
        evaluator: ``"core"`` (:class:`CoreRolloutEvaluator`) or ``"openspiel"``.
        rollouts: random playouts per leaf.
    """

    name = NAME

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        iterations: int | None = None,
        time: float | None = None,
        uct_c: float | None = None,
        scale: float | None = None,
        utility: str = "points",
        evaluator: str = "core",
        rollouts: int = 1,
    ) -> None:
        super().__init__(seed)
        Limit(time=time, iterations=iterations)  # checks the values
        if evaluator not in ("core", "openspiel"):
            raise ValueError(f"evaluator must be 'core' or 'openspiel': got {evaluator!r}")
        self.rules = rules
        self.iterations = iterations
        self.time = time
        self.uct_c = DEFAULT_UCT_C if uct_c is None else uct_c
        self.scale = DEFAULT_SCALE if scale is None else scale
        if self.uct_c < 0 or self.scale <= 0:
            raise ValueError(f"uct_c must be >= 0 and scale > 0: got {uct_c}, {scale}")
        self.utility = utility
        self.evaluator = evaluator
        self.rollouts = rollouts
        self._salt = seed if seed is not None else random.SystemRandom().getrandbits(32)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        legal = legal_actions(observation)
        if len(legal) == 1:
            return PlayResult(legal[0], {"reason": "the only legal action"})
        rules = self.rules if self.rules is not None else observation.rules
        game = load(rules, utility=self.utility)
        seed = observation_rng_seed(self._salt, observation)
        state = game.state_from_observation(observation, random.Random(seed))
        iterations = (limit.iterations if limit else None) or self.iterations
        seconds = (limit.time if limit else None) or self.time
        nodes = limit.nodes if limit else None
        if iterations is None and seconds is None and nodes is None:
            iterations = DEFAULT_ITERATIONS
        rs = np.random.RandomState(seed)
        evaluator: mcts.Evaluator
        if self.evaluator == "core":
            evaluator = CoreRolloutEvaluator(self.rollouts, seed)
        else:
            evaluator = mcts.RandomRolloutEvaluator(self.rollouts, rs)
        searcher = _Search(
            game,
            evaluator,
            self.uct_c * (self.scale if self.utility == "points" else 1.0),
            iterations if iterations is not None else 1,
            random_state=rs,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        sampler = random.Random(seed).random  # seeded, so that equal seeds search alike
        searcher.set_resampler(lambda st, player: st.resample_from_infostate(player, sampler))
        start = _time.process_time()
        playouts = evaluator if isinstance(evaluator, CoreRolloutEvaluator) else None

        def spent() -> int:
            steps: int = searcher.simulations
            return steps + (playouts.steps if playouts is not None else 0)

        policy = searcher.search(state, iterations, seconds, nodes, spent)
        elapsed = _time.process_time() - start
        best = max(policy, key=lambda ap: ap[1])[0]
        enc = game.encoding
        action = enc.action(observation, int(best))
        root = searcher.root
        visits = {a: c.visits for a, c in root.child_info.items()}
        names = dict(enc.legal_ids(observation))
        info: InfoDict = {
            "visits": searcher.simulations,
            "nps": searcher.simulations / elapsed if elapsed > 0 else 0.0,
            "scores": {names[a]: float(c.value()) for a, c in root.child_info.items() if c.visits},
            "reason": f"IS-MCTS, {searcher.simulations} simulations, "
            f"{int(visits.get(best, 0))} visits to the choice",
        }
        if visits.get(best):
            info["value"] = float(root.child_info[best].value())
        return PlayResult(action, info)


class _Search(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a search that can also stop on time."""

    root: Any = None
    simulations = 0

    def search(
        self,
        state: BeziqueState,
        iterations: int | None,
        seconds: float | None,
        nodes: int | None = None,
        spent: Callable[[], int] | None = None,
    ) -> list[tuple[int, float]]:
        self.reset()
        self.root = self.create_new_node(state)
        key = self.get_state_key(state)
        deadline = None if seconds is None else _time.process_time() + seconds
        self.simulations = 0
        while self.simulations == 0 or (
            (iterations is None or self.simulations < iterations)
            and (deadline is None or _time.process_time() < deadline)
            and (nodes is None or spent is None or spent() < nodes)
        ):
            world = self.sample_root_state(state)
            if self.get_state_key(world) != key:
                raise RuntimeError("a resampled state has another information state")
            self.run_simulation(world)
            self.simulations += 1
        policy: list[tuple[int, float]] = self.get_final_policy(state, self.root)
        return policy


def make_openspiel_ismcts(
    rules: Rules | None = None,
    seed: int | None = None,
    iterations: int | None = None,
    time: float | None = None,
    **options: Any,
) -> OpenSpielISMCTS:
    """An :class:`OpenSpielISMCTS` bot: ``make_openspiel_ismcts(rules, seed, iterations=200)``
    or ``time=0.5`` seconds per decision (other keyword options as the class)."""
    return OpenSpielISMCTS(seed, rules=rules, iterations=iterations, time=time, **options)


def _factory(seed: int | None) -> Bot:
    return OpenSpielISMCTS(seed)


register(
    NAME,
    _factory,
    f"OpenSpiel's IS-MCTS on python_bezique, {DEFAULT_ITERATIONS} random-playout simulations a move",
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_SCALE",
    "DEFAULT_UCT_C",
    "NAME",
    "CoreRolloutEvaluator",
    "OpenSpielISMCTS",
    "make_openspiel_ismcts",
]
