"""Facts a heuristic player reads off its observation, and nothing more.

:class:`View` turns an :class:`~bezique.core.observation.Observation` into numbers: the seat's
holdings as ``(kind, mask)`` pairs (a declared card remembers the melds it has scored in), the
copies of each card kind that are still unseen, who is winning the trick, what a trick is worth,
and an estimate of the meld points the holdings may still bring (:meth:`View.meld_value`).
Everything comes from the observation: a bot built on it can see no more than its seat may.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import comb

from ..core.cards import ALL_KINDS, SUITS, parse_card
from ..core.melds import (
    MELD_BY_NAME,
    SEVEN_MELD,
    Slot,
    active_melds,
    blocked_masks,
    meld_score,
    profile_mask,
    slots,
)
from ..core.observation import Observation
from ..core.rules import Rules
from ..core.scoring import trick_points, trick_values
from ..core.tricks import count_beaters, trick_winner

Holding = tuple[int, int]
"""A card the seat holds: (card kind, mask of the melds it has scored in; 0 while concealed)."""


def trick_value(rules: Rules, kinds: Iterable[int], *, whole: bool = True) -> int:
    """Points the cards of a trick bring to whoever wins it (``whole``: include the per-trick
    points some rules give; :func:`bezique.core.scoring.trick_points`)."""
    points = trick_points(rules, tuple(kinds))
    return points if whole else points - trick_values(rules)[1]


def ref_card(ref: str) -> int:
    """The card kind of a reference such as ``'QS'`` or ``'QS@table'``."""
    return parse_card(ref.partition("@")[0])


def _at_least(miss: int, avail: int, q: float) -> float:
    """Chance of drawing at least ``miss`` of ``avail`` wanted cards, each with chance ``q``."""
    if q <= 0:
        return 0.0
    if q >= 1:
        return 1.0
    return sum(comb(avail, k) * q**k * (1 - q) ** (avail - k) for k in range(miss, avail + 1))


class View:
    """What an observation tells a heuristic player (see the module docstring)."""

    def __init__(self, observation: Observation) -> None:
        obs = observation
        if obs.seat is None:
            raise ValueError("a player's view needs a seat, not the public view")
        self.obs = obs
        self.rules = obs.rules
        self.seat: int = obs.seat
        self.players = obs.rules.players
        self.trump: int | None = None if obs.trump is None else SUITS.index(obs.trump)
        self.concealed: list[int] = [parse_card(c) for c in obs.hand]
        self.table: list[Holding] = []
        for ref in obs.tables[self.seat]:
            card, _, where = ref.partition("@")
            self.table.append((parse_card(card), profile_mask(where.split("+")) if where else 0))
        self.holdings: list[Holding] = [(k, 0) for k in self.concealed] + self.table
        """Every card the seat holds, concealed (mask 0) and declared."""
        # copies of each kind not yet seen anywhere: in other hands or in the stock
        # (sized for every kind the pack may hold, the old Russian wild card included)
        unseen = [0] * ALL_KINDS
        for k in self.rules.pack_kinds:
            unseen[k] += 1
        for k, _ in self.holdings:
            unseen[k] -= 1
        for seat in range(self.players):
            if seat != self.seat:
                for ref in obs.tables[seat]:
                    unseen[ref_card(ref)] -= 1
                for c in obs.known[seat]:
                    unseen[parse_card(c)] -= 1
        for _, cards, _ in obs.tricks:
            for c in cards:
                unseen[parse_card(c)] -= 1
        for _, c in obs.trick:
            unseen[parse_card(c)] -= 1
        if obs.turn_up is not None:
            unseen[parse_card(obs.turn_up)] -= 1
        self.unseen = [max(0, n) for n in unseen]
        """Per card kind, the copies whose place this seat does not know."""
        self.unseen_total = sum(self.unseen)
        draws = obs.stock_size / self.players if obs.stage == 1 else 0.0
        self.draw_chance = min(1.0, draws / self.unseen_total) if self.unseen_total else 0.0
        """The chance that one given unseen card will come to this seat from the stock."""
        self.trick_kinds: list[tuple[int, int]] = [(s, parse_card(c)) for s, c in obs.trick]
        self._meld_lists: list[tuple[int, float, list[Slot]]] | None = None
        self._cache: dict[tuple[Holding, ...], float] = {}

    # --- the trick ------------------------------------------------------------------------------
    def side(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def winning(self, trick: Sequence[tuple[int, int]] | None = None) -> tuple[int, int] | None:
        """(seat, kind) now winning a trick (the current one by default); None when empty."""
        trick = self.trick_kinds if trick is None else trick
        if not trick:
            return None
        kinds = [k for _, k in trick]
        return trick[trick_winner(kinds, self.trump, self.rules.wild_card_lead_wins)]

    def beaters_unseen(self, k: int) -> int:
        """Unseen copies of cards that would beat kind ``k`` if played after it."""
        return count_beaters(k, self.unseen, self.trump, self.rules.wild_card_lead_wins)

    # --- melds ------------------------------------------------------------------------------------
    def meld_lists(self) -> list[tuple[int, float, list[Slot]]]:
        """Every (meld, points, requirement list) that can still be declared in this game."""
        if self._meld_lists is None:
            rules = self.rules
            melds = list(active_melds(rules))
            if (
                rules.seven_of_trumps
                and self.trump is not None
                and rules.second_seven_scores == "declare"
            ):
                melds.append(SEVEN_MELD)
            if rules.two_trump_sevens and self.trump is not None:
                melds.append(MELD_BY_NAME["two-sevens"].id)
            out = []
            for m in melds:
                for req in slots(rules, m, self.trump):
                    out.append((m, float(meld_score(rules, m)), req))
            self._meld_lists = out
        return self._meld_lists

    def meld_chance(self, req: list[Slot], block: int, holdings: Sequence[Holding]) -> float:
        """The chance (roughly) that ``holdings`` can yet be made into this meld and declared."""
        chance = 1.0
        missing = 0
        fresh = False
        for kinds, count in req:
            have = 0
            for k, m in holdings:
                if k in kinds and not m & block:
                    have += 1
                    fresh = fresh or not m
            miss = count - have
            if miss > 0:
                avail = sum(self.unseen[k] for k in kinds)
                if avail < miss:
                    return 0.0
                chance *= _at_least(miss, avail, self.draw_chance)
                missing += miss
                if chance == 0.0:
                    return 0.0
        if not missing and not fresh:
            return 0.0  # every card already on the table: a declaration needs a new one
        return chance

    def meld_value(self, holdings: Sequence[Holding], kinds: set[int] | None = None) -> float:
        """Expected meld points the holdings may still score (melds touching ``kinds`` only,
        when given)."""
        key = tuple(sorted(holdings))
        if kinds is None:
            cached = self._cache.get(key)
            if cached is not None:
                return cached
        blocked = blocked_masks(self.rules)
        total = 0.0
        for m, points, req in self.meld_lists():
            if kinds is not None and not any(k in kinds for ks, _ in req for k in ks):
                continue
            total += points * self.meld_chance(req, blocked[m], holdings)
        if kinds is None:
            self._cache[key] = total
        return total

    def declarable_now(self, holdings: Sequence[Holding]) -> float:
        """Points of the best meld these holdings could declare at once (0 if none)."""
        blocked = blocked_masks(self.rules)
        best = 0.0
        for m, points, req in self.meld_lists():
            if points > best:
                ok = True
                fresh = False
                for kinds, count in req:
                    have = [mm for k, mm in holdings if k in kinds and not mm & blocked[m]]
                    if len(have) < count:
                        ok = False
                        break
                    fresh = fresh or any(mm == 0 for mm in have)
                if ok and fresh:
                    best = points
        return best

    def resolve(self, refs: Iterable[str], holdings: Sequence[Holding] | None = None) -> list[int]:
        """Indices into the holdings of the cards a list of references names."""
        holdings = self.holdings if holdings is None else holdings
        used: list[int] = []
        for ref in refs:
            card, _, where = ref.partition("@")
            k = parse_card(card)
            cands = [i for i, (kk, _) in enumerate(holdings) if kk == k and i not in used]
            if where == "table":
                pick = [i for i in cands if holdings[i][1]]
            elif where:
                mask = profile_mask(where.split("+"))
                pick = [i for i in cands if holdings[i][1] == mask]
            else:
                pick = [i for i in cands if not holdings[i][1]] or cands
            if not pick:
                raise ValueError(f"the seat does not hold {ref}")
            used.append(pick[0])
        return used
