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
:func:`playout` steps the world by action id (:func:`playout_play_id` picks the card by id).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.cards import (
    ALL_KINDS,
    CODES,
    JACK,
    KING,
    QUEEN,
    SUITS,
    WILD,
)
from ..core.deal import Deal
from ..core.ids import play_ids
from ..core.melds import (
    BEZIQUE,
    DOUBLE_BEZIQUE,
    MARRIAGE,
    QUARTET_RANK,
    ROYAL_MARRIAGE,
    TRUMP_SEQUENCE,
    bezique_kinds,
    meld_score,
)
from ..core.notation import Action
from ..core.percache import per_rules
from ..core.rules import Rules
from ..core.scoring import (
    SETTLING_BRISQUE_WEIGHT,
    action_points,
    valued_trick_values,
)
from ..core.tricks import beats
from .base import Limit

_KIND_OF_CODE = {c: k for k, c in enumerate(CODES)}


class _PerRules:
    """Tables the default policy works out once per rule set (kept with :func:`per_rules`)."""

    __slots__ = ("declare", "melds", "rank_points")

    def __init__(self, rules: Rules) -> None:
        self.declare: dict[Action, float] = {}
        self.melds: dict[int, _MeldTable] = {}
        self.rank_points = valued_trick_values(rules)


@per_rules
def _per_rules(rules: Rules) -> _PerRules:
    return _PerRules(rules)


def action_kind(action: Action) -> int:
    """The card kind a ``play`` action plays."""
    return _KIND_OF_CODE[action.cards[0].partition("@")[0]]


def declare_points(rules: Rules, action: Action) -> float:
    """Points a declaration scores at once (a meld's value, the exchange's ten; pass 0), as the
    default policy weighs it (an exchange a little above its points)."""
    cache = _per_rules(rules).declare
    v = cache.get(action)
    if v is None:
        points = action_points(rules, action)
        v = float(points or 0) + (0.5 if action.verb == "exchange" else 0.0)
        cache[action] = v
    return v


def rank_points(rules: Rules) -> tuple[tuple[float, ...], float]:
    """What each rank brings to the winner of a trick in the search players' utility, and the
    flat points per trick."""
    return _per_rules(rules).rank_points


def side_values(deal: Deal) -> list[float]:
    """Per side, the points of a finished deal as the search players count them."""
    result = deal.result
    if result is None:
        raise ValueError("the deal is not over")
    return [r.total + SETTLING_BRISQUE_WEIGHT * r.brisques for r in result]


def margins(values: list[float]) -> list[float]:
    """Per side: its value less the mean of the others'."""
    n = len(values)
    total = sum(values)
    return [v - (total - v) / (n - 1) for v in values]


def utility(deal: Deal, side: int) -> float:
    """The margin of a finished deal for ``side`` (see the module docstring)."""
    return margins(side_values(deal))[side]


_POWER = (3.0, 2.5, 1.5, 1.2, 1.0, 0.5, 0.25, 0.0)
"""Trick-taking worth of a card by rank (A T K Q J 9 8 7); a trump adds :data:`_TRUMP_POWER`."""
_TRUMP_POWER = 4.0
_WILD_KEEP = 30.0
"""What the default policy holds a wild card (old Russian game) to be worth in melds."""


@dataclass(frozen=True)
class _MeldTable:
    """Meld points the default policy weighs when it decides which cards to keep."""

    marriage: tuple[float, ...]
    """Per suit, what a marriage in it scores."""
    bezique: tuple[int, int, float, float] | None
    """(queen kind, jack kind, single points, double points) or None."""
    quartet: tuple[float, ...]
    """Per rank, what four of it score."""
    sequence: float
    trump: int


def _meld_table(rules: Rules, trump: int) -> _MeldTable:
    tables = _per_rules(rules).melds
    table = tables.get(trump)
    if table is None:
        score = meld_score
        plain = float(score(rules, MARRIAGE))
        royal = float(score(rules, ROYAL_MARRIAGE))
        marriage = tuple(royal if s == trump else plain for s in range(4))
        if trump < 0:  # not fixed yet: the first marriage fixes it and scores as royal
            marriage = (max(plain, royal),) * 4
        pair = bezique_kinds(rules, None if trump < 0 else trump)
        bezique = (
            None
            if pair is None
            else (
                pair[0],
                pair[1],
                float(score(rules, BEZIQUE)),
                float(score(rules, DOUBLE_BEZIQUE)),
            )
        )
        quartet = [0.0] * 8
        for meld, rank in QUARTET_RANK.items():
            quartet[rank] = max(quartet[rank], float(score(rules, meld)))
        sequence = float(score(rules, TRUMP_SEQUENCE)) if trump >= 0 else 0.0
        table = tables[trump] = _MeldTable(marriage, bezique, tuple(quartet), sequence, trump)
    return table


def _meld_bonus(k: int, held: list[int], by_rank: list[int], table: _MeldTable) -> float:
    """What keeping card kind ``k`` may still be worth in melds, given the cards held."""
    if k == WILD:
        return _WILD_KEEP
    r, s = k & 7, k >> 3
    bonus = 0.0
    if r in (KING, QUEEN):
        other = held[k + 1] if r == KING else held[k - 1]
        bonus += table.marriage[s] * (0.5 if other else 0.12)
    bez = table.bezique
    if bez is not None and (k == bez[0] or k == bez[1]):
        other = held[bez[1]] if k == bez[0] else held[bez[0]]
        bonus += bez[2] * (0.5 if other else 0.2)
        if held[bez[0]] + held[bez[1]] >= 3:
            bonus += bez[3] * 0.25
    quartet = table.quartet[r]
    if quartet:
        c = by_rank[r]
        bonus += quartet * 0.6 * min(c / 4.0, 1.0) ** 2
    if s == table.trump and r <= JACK and table.sequence:
        m = sum(1 for rr in range(5) if held[s * 8 + rr])
        bonus += table.sequence * 0.4 * (m / 5.0) ** 2
    return bonus


def card_points(per_rank: tuple[float, ...], k: int) -> float:
    """What card kind ``k`` brings to a trick's winner (a wild card: nothing)."""
    return 0.0 if k == WILD else per_rank[k & 7]


def playout_action(deal: Deal, rng: random.Random, explore: float = 0.1) -> Action:
    """A quick, reasonable action for the seat to move in a world (the default policy).

    Declares the meld worth the most.  In stage 1 a card's *keep value* is its trick-taking power
    plus the meld points it may still bring (pairs and quartets held, bezique and sequence cards);
    a lead is the card that costs least to give up; a follower wins the trick when its points
    (and the chance to declare) are worth the card spent, else throws the cheapest card."""
    if deal.phase == "declare":
        return _declaration(deal)
    return deal.id_action(playout_play_id(deal, rng, explore))


def _declaration(deal: Deal) -> Action:
    """The default policy's declaration: the one worth the most, the first listed of equals."""
    actions = deal.legal_actions()
    if len(actions) == 1:
        return actions[0]
    rules = deal.rules
    best, best_v = actions[0], -1.0
    for a in actions:
        v = declare_points(rules, a)
        if v > best_v:
            best, best_v = a, v
    return best


def playout_play_id(deal: Deal, rng: random.Random, explore: float = 0.1) -> int:
    """The default policy's card to play (:func:`playout_action` in the play phase), as an
    action id: each candidate's card kind is read from the rules' id table, not from its
    notation."""
    actions = deal.legal_ids()  # ascending: the order legal_actions() lists plays in
    if len(actions) == 1:
        return actions[0]
    rules = deal.rules
    if rng.random() < explore:
        return actions[rng.randrange(len(actions))]
    layout = play_ids(rules)
    play_kind, offset = layout.play_kind, layout.play_offset
    trump = deal.trump
    t = -1 if trump is None else SUITS.index(trump)
    seat = deal.to_move
    assert seat is not None
    stage1 = deal.stage == 1
    per_rank, per_trick = rank_points(rules)
    code_kind = _KIND_OF_CODE
    if stage1:
        held = [0] * ALL_KINDS
        by_rank = [0] * 8
        for c in deal.hand(seat):
            k = code_kind[c]
            held[k] += 1
            if k != WILD:
                by_rank[k & 7] += 1
        table = _meld_table(rules, t)
        declared = [0] * ALL_KINDS
        for c in deal.table(seat):
            declared[code_kind[c]] += 1
    trick = deal.trick
    noise = rng.random
    # keep value of each candidate
    keeps = []
    for a in actions:
        k = play_kind[a]
        keep = 0.0 if k == WILD else _POWER[k & 7] + (_TRUMP_POWER if k >> 3 == t else 0.0)
        if stage1:
            bonus = _meld_bonus(k, held, by_rank, table)
            # a declared copy (an id past the kind's first: its notation names a history,
            # or it is the only kind of copy held)
            if a != offset[k] or held[k] == declared[k]:
                bonus *= 0.3  # a declared copy has scored already
            keep += bonus
        keeps.append((a, k, keep + 0.01 * noise()))
    if not trick:
        best_v, choice = -1e9, actions[0]
        for a, k, keep in keeps:
            v = -keep - (0.5 * card_points(per_rank, k) if stage1 else 0.0)
            if v > best_v:
                best_v, choice = v, a
        return choice
    side_of = rules.side_of
    win_seat, win = trick[0][0], code_kind[trick[0][1]]
    lead_wins = rules.wild_card_lead_wins
    points = per_trick + card_points(per_rank, win)
    for s, c in trick[1:]:
        k = code_kind[c]
        points += card_points(per_rank, k)
        if beats(k, win, t, lead_wins):
            win, win_seat = k, s
    partner_wins = side_of(win_seat) == side_of(seat)
    last = len(trick) == rules.active_players - 1
    held_on = 1.0 if last else 0.6
    win_extra = 8.0 if stage1 else 0.0  # the lead, and the right to declare
    best_v, choice = -1e9, actions[0]
    for a, k, keep in keeps:
        mine = card_points(per_rank, k)
        wins = beats(k, win, t, lead_wins)
        if partner_wins:
            v = (mine if last else 0.0) - keep
        elif wins:
            v = held_on * (points + mine + win_extra) - (1 - held_on) * (points + mine) - keep
        else:
            v = -(points + mine + win_extra) - keep
        if v > best_v:
            best_v, choice = v, a
    return choice


class BudgetSpent(Exception):
    """A search's CPU budget ran out part-way through a playout (see :meth:`Budget.cpu_spent`)."""


def playout(
    deal: Deal, rng: random.Random, explore: float = 0.1, stop: Callable[[], bool] | None = None
) -> int:
    """Play a world to its end with the default policy; the number of actions applied.
    Cards are played by id; a declaration (chosen among the listed actions) by action.
    ``stop`` (asked every few actions) raises :class:`BudgetSpent` when it says True."""
    n = 0
    while not deal.is_over:
        if stop is not None and stop():
            raise BudgetSpent
        if deal.phase == "declare":
            deal.apply(_declaration(deal))
        else:
            deal.apply_id(playout_play_id(deal, rng, explore))
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
    cpu_budget: float | None = None
    """CPU seconds of this thread (:attr:`Limit.cpu_budget`), from ``cpu_start``."""
    cpu_start: float = 0.0
    _asked: float = field(default=0.0, repr=False)
    """When :meth:`cpu_spent` was last asked (thread CPU time; 0: never)."""
    _longest_step: float = field(default=0.0, repr=False)
    """The longest CPU time between two questions to :meth:`cpu_spent` so far."""

    @classmethod
    def of(cls, limit: Limit | None, default: Limit) -> Budget:
        """The budget for a limit (the bot's ``default`` where the limit sets nothing)."""
        cpu = None if limit is None else limit.cpu_budget
        if limit is None or (
            limit.time is None and limit.iterations is None and limit.nodes is None
        ):
            limit = default
        return cls(
            limit.iterations,
            limit.nodes,
            limit.time,
            time.perf_counter(),
            cpu_budget=cpu,
            cpu_start=time.thread_time(),
        )

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
        if self.cpu_spent():
            return False
        return not (self.time is not None and time.perf_counter() - self.start >= self.time)

    def cpu_spent(self) -> bool:
        """True once the CPU budget (if any) is spent, or would be by the time the next step
        ends: a search asks before each step (even inside a world) and one step of a deal with
        many packs can take tens of milliseconds, so the longest gap seen between two questions
        is kept back from the budget."""
        if self.cpu_budget is None:
            return False
        now = time.thread_time()
        if self._asked:
            self._longest_step = max(self._longest_step, now - self._asked)
        self._asked = now
        return now - self.cpu_start + self._longest_step >= self.cpu_budget

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.start
