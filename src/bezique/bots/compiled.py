"""The world a compiled search or policy starts from: a :class:`~bezique.fast.FastDeal` dealt
from a seat's observation (shared by :mod:`.fastpimc`, :mod:`.fastismcts` and :mod:`.learned`)."""

from __future__ import annotations

import random
from typing import Any

from ..core.deal import Deal
from ..core.notation import Action
from ..core.observation import Observation
from .base import observation_rng_seed


def compiled_world(
    observation: Observation, actions: list[Action], salt: int, heuristic: bool = True
) -> tuple[Any, list[int], int, int]:
    """What a compiled search starts from: one world consistent with ``observation`` (seeded by
    the observation and ``salt``, so a search is reproducible), the index in that world's legal
    actions of each of ``actions``, the index in ``actions`` of the heuristic's choice (-1
    without ``heuristic``: not asked), and the seed."""
    from .. import fast

    seed = observation_rng_seed(salt, observation)
    world = fast.FastDeal.from_deal(Deal.from_observation(observation, random.Random(seed)))
    order = world.legal_actions()
    index = [order.index(a) for a in actions]
    prior = heuristic_choice(observation, actions, salt) if heuristic else -1
    return world, index, prior, seed


def heuristic_choice(observation: Observation, actions: list[Action], salt: int) -> int:
    """The index in ``actions`` of the heuristic's choice, the move a compiled search starts
    from unless told otherwise."""
    from .heuristic import HeuristicBot

    return actions.index(HeuristicBot(salt).choose(observation))
