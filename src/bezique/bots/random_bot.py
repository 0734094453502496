"""The random bot: a uniform choice among the legal actions, reproducible from its seed."""

from __future__ import annotations

import random

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult, legal_actions, observation_rng_seed


class RandomBot(Bot):
    """Plays a legal action chosen uniformly at random.

    The choice depends only on the seed and the observation, so the same bot, or another one
    built with the same seed, answers the same observation the same way.  Without a seed the
    bot draws one of its own when it is built.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._salt = seed if seed is not None else random.SystemRandom().getrandbits(32)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        rng = random.Random(observation_rng_seed(self._salt, observation))
        action = actions[rng.randrange(len(actions))]
        return PlayResult(action, {"reason": f"uniform choice among {len(actions)}"})
