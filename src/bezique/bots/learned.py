"""The learned policy: the heuristic's rules of thumb with corrections fit to the search's values.

The compiled ``'smart'`` policy (``fast/policy.c``) is the heuristic player's stage-1 rules of
thumb in C.  Its learned terms (:data:`bezique.fast.smart.LEARNED_FEATURES`) add to each card's
value a weighted sum of features of the card as the seat to move sees it; the weights shipped in
``policy_classic.json`` were fit by ``scripts/train_policy.py`` to the values PIMC gives each card
(expert iteration: the search's choice, learned back into a policy that costs no search).

:class:`LearnedBot` plays that policy where its rules choose (a stage-1 card with two hands) and
the heuristic elsewhere (declarations, stage 2 solved exactly).  The compiled searches may take it
as the choice they start from (:attr:`bezique.bots.fastpimc.FastPimcBot.learned_prior`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..core.observation import Observation
from ..core.rules import Rules
from .base import Bot, Limit, PlayResult, legal_actions, only_action, salt_for

_FILES = {"classic": "policy_classic.json"}
"""The shipped weights, by the preset they were fit on."""

_VERSIONS = {"net": "policy_classic_net.json"}
"""Other shipped weights for the classic rules, on trial beside the present ones: ``net`` the
learned terms with a network on top (session 13, docs/learning.md)."""


@cache
def _shipped(name: str) -> tuple[float, ...]:
    from ..fast.smart import check_params

    data = json.loads(resources.files(__package__).joinpath(name).read_text())
    return check_params(data["params"])


@cache
def _classic() -> Rules:
    return Rules.preset("classic")


def learned_params(rules: Rules, version: str | None = None) -> tuple[float, ...] | None:
    """The shipped learned weights for these rules, or None where none were fit: they were fit
    on the classic preset and serve it alone (any other option changes what a card is worth).
    ``version`` names other weights on trial (``"net"``); None: the present ones."""
    if version is not None and version not in _VERSIONS:
        raise ValueError(f"no learned weights named {version!r}: {', '.join(sorted(_VERSIONS))}")
    if rules != _classic():
        return None
    return _shipped(_FILES["classic"] if version is None else _VERSIONS[version])


def learned_choice(world: Any, params: tuple[float, ...]) -> int | None:
    """The index in ``world.legal_actions()`` of the learned policy's choice, or None where its
    rules do not choose.  ``world`` is a :class:`~bezique.fast.FastDeal` consistent with the seat's
    view (the features read only that view)."""
    view = world.smart_features(params)
    if view is None:
        return None
    values = view[0]
    return max(range(len(values)), key=lambda i: (values[i], -i))


class LearnedBot(Bot):
    """The learned policy where it chooses, the heuristic elsewhere (see the module docstring).
    Where the rules have no learned weights, or the compiled engine is not built, it is the
    heuristic."""

    name = "learned"
    version: str | None = None
    """Which shipped weights it plays (:func:`learned_params`); None: the present ones."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        from .heuristic import HeuristicBot

        self._salt = salt_for(seed)
        self._heuristic = HeuristicBot(seed)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) == 1:
            return only_action(actions[0])
        from .. import fast

        params = learned_params(observation.rules, self.version)
        if params is not None and fast.available() and observation.stage == 1:
            from .compiled import compiled_world

            world, index, _, _ = compiled_world(observation, actions, self._salt, heuristic=False)
            pick = learned_choice(world, params)
            if pick is not None:
                action = actions[index.index(pick)]
                return PlayResult(
                    action, {"reason": "the heuristic's rules of thumb, learned corrections"}
                )
        return self._heuristic.play(observation, limit)


class LearnedNetBot(LearnedBot):
    """The learned policy with a network on top (the ``"net"`` weights), on trial."""

    name = "learned-net"
    version = "net"
