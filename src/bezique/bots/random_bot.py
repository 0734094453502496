"""The random bot: a uniform choice among the legal actions, reproducible from its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..core.observation import Observation
from .base import Bot, Limit, PlayResult, legal_actions, salt_for, view_rng_seed


class RandomBot(Bot):
    """Plays a legal action chosen uniformly at random.

    The choice depends only on the seed and the observation, so the same bot, or another one
    built with the same seed, answers the same observation the same way.  Without a seed the
    bot draws one of its own when it is built.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._salt = salt_for(seed)

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        o = observation
        i = self.index(len(actions), o.rules, o.seat, o.dealer, o.turn_up, o.history, o.hand)
        return PlayResult(actions[i], {"reason": f"uniform choice among {len(actions)}"})

    def index(
        self,
        count: int,
        rules: object,
        seat: int | None,
        dealer: int,
        turn_up: str | None,
        history: Sequence[str],
        hand: Sequence[str],
    ) -> int:
        """The index :meth:`play` picks among ``count`` legal actions (in ``observation.legal``
        order) for the view with these parts (the observation's fields of the same names):
        the same choice without building an :class:`Observation`."""
        seed = view_rng_seed(self._salt, rules, seat, dealer, turn_up, history, hand)
        return random.Random(seed).randrange(count)

    def index_on(self, deal: Any, history: Sequence[str], count: int | None = None) -> int:
        """:meth:`index` for the seat to move of a :class:`bezique.fast.FastDeal` whose
        actions so far, in notation, are ``history``: an index into ``deal.legal_texts()``
        (``count``: its length, if the caller has it)."""
        seat = deal.to_move
        n = len(deal.legal_texts()) if count is None else count
        return self.index(
            n, deal.rules, seat, deal.dealer, deal.turn_up, history, deal.concealed(seat)
        )
