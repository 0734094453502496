"""What the search players share: the value of a finished deal, a quick default policy for
playouts, and the budget a search may spend.

Search players only ever run these on *worlds*: deals rebuilt from their own observation by
:meth:`Deal.from_observation <bezique.core.deal.Deal.from_observation>`, never the real deal.

**Utility.**  Every search player maximises the expected point margin of the deal for its side:
its side's points less the mean of the other sides' points (the plain difference in the
two-sided games).  Where brisques count only to settle a per-deal game (Rubicon) they add a tenth
of their value, enough to break ties.  The per-deal settlement itself (game bonus, rubicon) is
not modelled: a known simplification, see ``docs/strength.md``.

**Default policy.**  :func:`playout_action` is a few microseconds of rules of thumb on top of the
engine's legal actions: declare the meld worth the most; lead a cheap card; win a trick that holds
points as cheaply as possible, else throw the cheapest card; a little randomness throughout.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..core.cards import BRISQUE_RANKS, CARD_POINTS, SUITS, parse_card
from ..core.deal import Deal
from ..core.melds import MELD_BY_NAME, meld_score
from ..core.notation import Action
from ..core.rules import Rules
from .base import Limit

#: What a card costs to give away, by rank (A T K Q J 9 8 7): points first, then trick power.
_CARD_COST = (14.0, 12.0, 5.0, 4.0, 3.0, 1.0, 0.5, 0.0)
_TRUMP_COST = 6.0

_KIND: dict[Action, int] = {}
_MELD_POINTS: dict[tuple[Rules, Action], float] = {}


def action_kind(action: Action) -> int:
    """The card kind a ``play`` action plays."""
    k = _KIND.get(action)
    if k is None:
        k = _KIND[action] = parse_card(action.cards[0].partition("@")[0])
    return k


def declare_points(rules: Rules, action: Action) -> float:
    """Points a declaration scores at once (a meld's value, the exchange's ten; pass 0)."""
    key = (rules, action)
    v = _MELD_POINTS.get(key)
    if v is None:
        if action.verb == "meld":
            v = float(meld_score(rules, MELD_BY_NAME[action.meld].id))
        elif action.verb == "exchange":
            v = float(rules.seven_of_trumps) + 0.5
        else:
            v = 0.0
        _MELD_POINTS[key] = v
    return v


def rank_points(rules: Rules) -> tuple[tuple[float, ...], float]:
    """What each rank brings to the winner of a trick in the search players' utility, and the
    flat points per trick."""
    scoring = rules.trick_scoring
    brisque = 1.0 if rules.brisques_only_to_settle else 10.0
    brisques = tuple(brisque if r in BRISQUE_RANKS else 0.0 for r in range(8))
    if scoring == "brisques":
        return brisques, 0.0
    if scoring == "card-points":
        scale = 0.1 if rules.brisques_only_to_settle else 1.0
        return tuple(scale * p for p in CARD_POINTS), 0.0
    if scoring == "greek-per-trick":
        return brisques, 10.0
    return (0.0,) * 8, 0.0


def side_values(deal: Deal) -> list[float]:
    """Per side, the points of a finished deal as the search players count them."""
    result = deal.result
    if result is None:
        raise ValueError("the deal is not over")
    return [r.total + 0.1 * r.brisques for r in result]


def margins(values: list[float]) -> list[float]:
    """Per side: its value less the mean of the others'."""
    n = len(values)
    total = sum(values)
    return [v - (total - v) / (n - 1) for v in values]


def utility(deal: Deal, side: int) -> float:
    """The margin of a finished deal for ``side`` (see the module docstring)."""
    return margins(side_values(deal))[side]


def playout_action(deal: Deal, rng: random.Random, explore: float = 0.1) -> Action:
    """A quick, reasonable action for the seat to move in a world (the default policy)."""
    actions = deal.legal_actions()
    if len(actions) == 1:
        return actions[0]
    rules = deal.rules
    if deal.phase == "declare":
        best, best_v = actions[0], -1.0
        for a in actions:
            v = declare_points(rules, a)
            if v > best_v:
                best, best_v = a, v
        return best
    if rng.random() < explore:
        return actions[rng.randrange(len(actions))]
    trump = deal.trump
    t = -1 if trump is None else SUITS.index(trump)
    trick = deal.trick
    if not trick:
        # lead the cheapest card; ties broken at random
        best_cost, choice = 1e9, actions[0]
        for a in actions:
            k = action_kind(a)
            c = _CARD_COST[k & 7] + (_TRUMP_COST if k >> 3 == t else 0.0) + rng.random()
            if c < best_cost:
                best_cost, choice = c, a
        return choice
    seat = deal.to_move
    side_of = rules.side_of
    # who is winning the trick so far
    win_seat, win = trick[0][0], parse_card(trick[0][1])
    points = 1 if win & 7 in BRISQUE_RANKS else 0
    for s, c in trick[1:]:
        k = parse_card(c)
        if k & 7 in BRISQUE_RANKS:
            points += 1
        if (k >> 3 == win >> 3 and k & 7 < win & 7) or (k >> 3 == t and win >> 3 != t):
            win, win_seat = k, s
    partner_wins = seat is not None and side_of(win_seat) == side_of(seat)
    last = len(trick) == rules.players - 1
    cheapest, cheapest_cost = actions[0], 1e9
    winner, winner_cost = None, 1e9
    for a in actions:
        k = action_kind(a)
        cost = _CARD_COST[k & 7] + (_TRUMP_COST if k >> 3 == t else 0.0)
        if cost < cheapest_cost:
            cheapest, cheapest_cost = a, cost
        if not partner_wins and (
            (k >> 3 == win >> 3 and k & 7 < win & 7) or (k >> 3 == t and win >> 3 != t)
        ):
            if k & 7 in BRISQUE_RANKS:
                cost -= 10.0 if last else 0.0  # a brisque that surely wins scores itself
            if cost < winner_cost:
                winner, winner_cost = a, cost
    if winner is not None and (points or deal.stage == 2 or winner_cost < 6.0):
        return winner
    return cheapest


def playout(deal: Deal, rng: random.Random, explore: float = 0.1) -> int:
    """Play a world to its end with the default policy; the number of actions applied."""
    n = 0
    apply = deal.apply
    while not deal.is_over:
        apply(playout_action(deal, rng, explore))
        n += 1
    return n


@dataclass
class Budget:
    """How much a search may spend: playouts (``iterations``), engine steps (``nodes``) and
    seconds, whichever runs out first.  ``nodes`` is what the levels use: it keeps a bot's
    choices reproducible while matching its time to how long the rest of the deal is."""

    iterations: int | None
    nodes: int | None
    time: float | None
    start: float = 0.0
    used_iterations: int = 0
    used_nodes: int = 0

    @classmethod
    def of(cls, limit: Limit | None, default: Limit) -> Budget:
        """The budget for a limit (the bot's ``default`` where the limit sets nothing)."""
        if limit is None or (
            limit.time is None and limit.iterations is None and limit.nodes is None
        ):
            limit = default
        return cls(limit.iterations, limit.nodes, limit.time, time.perf_counter())

    def spend(self, iterations: int = 0, nodes: int = 0) -> None:
        """Record what was spent."""
        self.used_iterations += iterations
        self.used_nodes += nodes

    def left(self) -> bool:
        """True while the search may go on."""
        if self.iterations is not None and self.used_iterations >= self.iterations:
            return False
        if self.nodes is not None and self.used_nodes >= self.nodes:
            return False
        return not (self.time is not None and time.perf_counter() - self.start >= self.time)

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.start
