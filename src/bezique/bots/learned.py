"""The learned policy: the heuristic's rules of thumb with corrections fit to the search's values.

The compiled ``'smart'`` policy (``fast/policy.c``) is the heuristic player's stage-1 rules of
thumb in C.  Its learned terms (:data:`bezique.fast.smart.LEARNED_FEATURES`) add to each card's
value a weighted sum of features of the card as the seat to move sees it; the weights shipped in
``policy_classic.json`` were fit by ``scripts/train_policy.py`` to the values PIMC gives each card
(expert iteration: the search's choice, learned back into a policy that costs no search).

:class:`LearnedBot` plays that policy where its rules choose (a stage-1 card with two hands) and
the heuristic elsewhere (declarations, stage 2 solved exactly).  The compiled searches may take it
as the choice they start from (``pimc-c:prior=learned``, :mod:`.fastpimc`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..core.observation import Observation
from ..core.rules import Rules
from .base import Bot, Limit, PlayResult, legal_actions, only_action, salt_for
from .spec import Codec, setting

SHIPPED = "policy_classic.json"
"""The shipped weights, fit on the classic preset."""


def _check(data: Any, where: str) -> tuple[float, ...]:
    from ..fast.smart import check_params

    if not isinstance(data, dict) or "params" not in data:
        raise ValueError(f"{where}: not learned weights (no params)")
    return check_params(data["params"])


@cache
def _shipped() -> tuple[float, ...]:
    return _check(json.loads(resources.files(__package__).joinpath(SHIPPED).read_text()), SHIPPED)


@cache
def _from_file(path: str) -> tuple[float, ...]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot read learned weights {path!r}: {e.strerror}") from None
    return _check(json.loads(text), path)


@cache
def _classic() -> Rules:
    return Rules.preset("classic")


def learned_params(rules: Rules, weights: str | None = None) -> tuple[float, ...] | None:
    """The learned weights for these rules, or None where none were fit: they are fit on the
    classic preset and serve it alone (any other option changes what a card is worth).
    ``weights``: a JSON file of other weights fit on the classic preset (``params``, as
    ``scripts/train_policy.py`` writes them); None: the shipped ones."""
    if rules != _classic():
        return None
    return _shipped() if weights is None else _from_file(weights)


def learned_choice(world: Any, params: tuple[float, ...]) -> int | None:
    """The index in ``world.legal_actions()`` of the learned policy's choice, or None where its
    rules do not choose.  ``world`` is a :class:`~bezique.fast.FastDeal` consistent with the seat's
    view (the features read only that view)."""
    view = world.smart_features(params)
    if view is None:
        return None
    values = view[0]
    return max(range(len(values)), key=lambda i: (values[i], -i))


@dataclass(frozen=True)
class LearnedSettings:
    """The settings of the ``learned`` player."""

    weights: str | None = setting(
        None,
        Codec("path", off=True),
        "the weights it plays, a JSON file fit on the classic rules (off: the shipped ones)",
    )


class LearnedBot(Bot):
    """The learned policy where it chooses, the heuristic elsewhere (see the module docstring).
    Where the rules have no learned weights, or the compiled engine is not built, it is the
    heuristic."""

    name = "learned"

    def __init__(self, seed: int | None = None, settings: LearnedSettings | None = None) -> None:
        super().__init__(seed)
        from .heuristic import HeuristicBot

        self.settings = settings if settings is not None else LearnedSettings()
        self._salt = salt_for(seed)
        self._heuristic = HeuristicBot(seed)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) == 1:
            return only_action(actions[0])
        from .. import fast

        params = learned_params(observation.rules, self.settings.weights)
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
