"""The heuristic bot: the simple bot's rules of thumb, sharpened the way a club player counts.

It keeps everything :class:`~bezique.bots.simple.SimpleBot` does (meld values with the cards
still unseen, brisques, the seven of trumps) and adds:

* **Counting the last tricks.**  Once the stock is empty in the two-handed game every card is
  known, and the bot plays the last tricks perfectly with the stage-2 solver (:mod:`.solver`);
  with three or four hands it keeps the simple bot's reading of the trick.
* **The end of the stock.**  While the stock runs low, winning a trick matters more (the last
  declarations, and the lead into the last tricks), and so does keeping trumps and aces for
  them: both weights grow as the stock shrinks.
* **Upgrades.**  Declaring a marriage that can grow into the sequence, or a bezique that can grow
  into the double, is weighed with the chance of completing it (the simple bot's meld values,
  with more weight on what stays possible).

Everything is read from the observation; the only search is the exact one over known cards.
"""

from __future__ import annotations

from ..core.deal import Deal
from ..core.observation import Observation
from .base import InfoDict, Limit, PlayResult, legal_actions
from .simple import SimpleBot
from .solver import exact_choice, world_is_known
from .view import View


class HeuristicBot(SimpleBot):
    """A stronger club player's heuristic (see the module docstring)."""

    name = "heuristic"
    future_weight = 0.6
    meld_weight = 0.7
    endgame_weight = 1.0
    """How much the approach of the last tricks adds to trump and ace keeping, and to winning."""
    solver_nodes = 60_000
    """Most solver nodes for an exact stage 2 (beyond them, the rules of thumb)."""

    def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
        actions = legal_actions(observation)
        if len(actions) > 1 and world_is_known(observation):
            world = Deal.from_observation(observation, 0)  # unique: every card is known
            exact = exact_choice(world, actions, self.solver_nodes)
            if exact is not None:
                best, scores = exact
                info: InfoDict = {
                    "value": round(scores[str(best)], 3),
                    "scores": {a: round(v, 3) for a, v in scores.items()},
                    "reason": "stage 2: every card is known; counted out exactly",
                }
                return PlayResult(best, info)
        return super().play(observation, limit)

    def _stock_left(self, view: View) -> float:
        """How close the stock is to running out: 0 at the start, 1 at the last draw."""
        rules = view.rules
        full = rules.cards - rules.players * rules.hand_size
        return 1.0 - view.obs.stock_size / full if full > 0 else 1.0

    def keep_value(self, view: View, index: int) -> float:
        value = super().keep_value(view, index)
        if view.obs.stage == 1:
            k = view.holdings[index][0]
            late = self._stock_left(view) ** 2
            if view.trump is not None and k >> 3 == view.trump:
                value += self.endgame_weight * late * (4.0 - 0.4 * (k & 7))
            elif k & 7 == 0:
                value += self.endgame_weight * late * 2.0
        return value

    def _win_bonus(self, view: View, rest: list[tuple[int, int]]) -> float:
        bonus = super()._win_bonus(view, rest)
        if view.obs.stage == 1 and view.obs.stock_size <= view.players:
            bonus += 6.0 * self.endgame_weight  # the last declaration and the lead into stage 2
        return bonus
