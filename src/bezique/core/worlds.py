"""Determinization: the deals a seat cannot tell from the real one.

:meth:`Worlds.reshuffle` deals the unseen card ids of a deal again in place (no text is parsed);
:meth:`Worlds.from_observation` builds a deal from a seat's observation alone, for code that
holds no deal.  Both reach exactly the deals consistent with what the seat has seen.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import partial
from itertools import repeat, starmap
from typing import TYPE_CHECKING, Self

from .applying import DealIds
from .cards import (
    ALL_KINDS,
    CODES,
    SUITS,
    parse_card,
)
from .dealing import card_counts, check_carry, kinds_of, offsets
from .events import ScoreEvent
from .melds import (
    MELD_BY_NAME,
    profile_mask,
)
from .notation import Action, split_ref
from .scoring import trick_points
from .slots import OVER, PART_TRICKS, RngLike, ShufflePlan, as_rng

if TYPE_CHECKING:
    from .observation import Observation

_NO_ARGS = repeat(())
"""Endless empty argument tuples: ``starmap(f, _NO_ARGS)`` calls ``f()`` for each item asked."""


class Worlds(DealIds):
    """Determinization: deals a seat cannot tell from this one."""

    __slots__ = ()

    def resample(self, seat: int, rng: RngLike = None) -> Self:
        """A deal that ``seat`` cannot tell from this one: its observation is identical, and
        every card it has not seen is dealt again at random among the places it could be.

        A copy with :meth:`reshuffle` applied: no text is parsed, so a search player that
        holds one world (built once with :meth:`from_observation`) gets each further world
        for little more than a :meth:`clone`.  Call it on that one world each time: what it
        works out the first time (which cards are unseen, which stay) is kept on the deal
        until its next action.
        """
        plan = self._shuffle_plan
        if plan is None or plan[0] is not seat or plan[1] != len(self._history):
            plan = self._plan(seat)
        dealt = self._redeal(plan, rng)
        if dealt is None:
            d = self.clone()
        else:
            # the copy takes the new hands and stock as they are (no copy made to be dropped)
            hands, stock = dealt
            for s in plan[4]:
                hands[s] = hands[s][:]
            d = self._copy(hands, stock)
            if d._to_move != seat:  # the seat's own legal actions depend on its cards only
                d._legal = None
        d._shuffle_plan = plan  # the copy's cards are the same
        d.seed = None
        d.initial = None
        return d

    def reshuffle(self, seat: int, rng: RngLike = None) -> None:
        """Deal again, in place, every card ``seat`` has not seen: the other seats' concealed
        cards that are not publicly known, and the stock.  Each such card goes to one of those
        places uniformly at random; everything ``seat`` observes stays as it was.

        The deal forgets its seed and the cards as dealt (:attr:`initial`): they would tell
        the hidden cards of the real deal.
        """
        plan = self._plan(seat)
        self.seed = None
        self.initial = None
        dealt = self._redeal(plan, rng)
        if dealt is not None:
            self._hands, self._stock = dealt
            if self._to_move != seat:
                self._legal = None

    def _redeal(self, plan: ShufflePlan, rng: RngLike) -> tuple[list[list[int]], list[int]] | None:
        """The hands and stock of a new deal of the unseen cards by a plan from :meth:`_plan`:
        a new list of hands (new lists for the seats dealt to, this deal's own for the seats
        in ``plan[4]``) and a new stock; None when there is nothing to draw."""
        hidden, parts = plan[2], plan[3]
        if len(hidden) < 2 or (len(parts) == 1 and parts[0][2] == len(hidden)):
            return None  # one place for every unseen card (two hands, stage 2)
        if not isinstance(rng, random.Random):
            rng = as_rng(rng)
        # a uniform shuffle: the cards sorted by a random float each (two equal keys have
        # odds of about n**2 / 2**54); the key function is a chain of builtins (next over
        # starmap over rng.random), so no Python frame runs per card, unlike a lambda, and
        # far fewer instructions than random.shuffle's loop of _randbelow calls
        shuffled = sorted(hidden, key=partial(next, starmap(rng.random, _NO_ARGS)))
        hands = self._hands[:]
        pos = 0
        for s, kept, take in parts:
            h = kept + shuffled[pos : pos + take] if kept else shuffled[pos : pos + take]
            h.sort()
            hands[s] = h
            pos += take
        return hands, shuffled[pos:]

    def _plan(self, seat: int) -> ShufflePlan:
        """Which of this deal's cards ``seat`` has not seen, and which each other seat keeps:
        worked out once per seat and position (kept on the deal until its next action; a
        reshuffle leaves both the same)."""
        plan = self._shuffle_plan
        # ``is``: a seat that is the very int the plan was made for (never True for 1)
        if plan is not None and plan[0] is seat and plan[1] == len(self._history):
            return plan
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {n - 1}")
        M, known = self._mask, self._known
        hidden: list[int] = []
        parts = []
        same = []
        for s, h in enumerate(self._hands):
            unseen = [c for c in h if not M[c] and not known[c]] if s != seat else []
            if unseen:
                hidden += unseen
                parts.append((s, [c for c in h if M[c] or known[c]], len(unseen)))
            else:
                same.append(s)
        hidden += self._stock
        plan = (seat, len(self._history), hidden, tuple(parts), tuple(same))
        self._shuffle_plan = plan
        return plan

    @classmethod
    def from_observation(cls, obs: Observation, rng: RngLike = None) -> Self:
        """A deal consistent with an observation, the unseen cards placed at random.

        This is how the search players build the worlds they search: from what their seat
        knows, never from the real deal.
        """
        return cls._rebuild(obs, as_rng(rng), None)

    @classmethod
    def _rebuild(
        cls, obs: Observation, rng: random.Random, hidden: tuple[list[list[int]], list[int]] | None
    ) -> Self:
        rules = obs.rules
        n = rules.players
        d = cls._blank(rules, obs.dealer, kinds_of(rules))
        if obs.carry:
            d._carry = check_carry(rules, obs.carry)
        d._game_bezique = obs.game_bezique
        copies = [0] * ALL_KINDS
        pool_left = card_counts(rules)
        offset = offsets(rules)

        def take(k: int) -> int:
            if pool_left[k] <= 0:
                raise ValueError(f"inconsistent position: too many {CODES[k]}")
            pool_left[k] -= 1
            cid = offset[k] + copies[k]
            copies[k] += 1
            return cid

        def kinds_in(cards: Iterable[str]) -> list[int]:
            return [parse_card(c) for c in cards]

        d._hands = [[] for _ in range(n)]
        for seat in range(n):
            for ref in obs.tables[seat]:
                card, where = split_ref(ref)
                c = take(parse_card(card))
                d._mask[c] = profile_mask(where.split("+"))
                d._hands[seat].append(c)
            for k in kinds_in(obs.known[seat]):
                c = take(k)
                d._known[c] = True
                d._hands[seat].append(c)
        if obs.seat is not None:
            own_known = kinds_in(obs.known[obs.seat])
            for k in kinds_in(obs.hand):
                if k in own_known:
                    own_known.remove(k)  # already placed as a known card
                    continue
                d._hands[obs.seat].append(take(k))
            if own_known:
                raise ValueError("inconsistent position: known cards missing from the hand")
        d._trick = [(s, take(parse_card(c))) for s, c in obs.trick]
        d._tricks = [(ld, tuple(take(k) for k in kinds_in(cs)), w) for ld, cs, w in obs.tricks]
        d._turn_up = take(parse_card(obs.turn_up)) if obs.turn_up else None
        # the unseen cards
        if hidden is not None:
            for seat, ks in enumerate(hidden[0]):
                d._hands[seat].extend(take(k) for k in ks)
            stock = [take(k) for k in hidden[1]]
        else:
            unseen = [k for k in range(ALL_KINDS) for _ in range(pool_left[k])]
            rng.shuffle(unseen)
            for seat in range(n):
                short = obs.hand_sizes[seat] - len(d._hands[seat])
                if short < 0:
                    raise ValueError(f"inconsistent position: seat {seat} holds too many cards")
                d._hands[seat].extend(take(k) for k in unseen[:short])
                unseen = unseen[short:]
            stock = [take(k) for k in unseen]
        if len(stock) != obs.stock_size:
            raise ValueError(
                f"inconsistent position: {len(stock)} cards for a stock of {obs.stock_size}"
            )
        for seat in range(n):
            if len(d._hands[seat]) != obs.hand_sizes[seat]:
                raise ValueError(f"inconsistent position: seat {seat} hand size")
        if any(pool_left):
            raise ValueError("inconsistent position: the cards do not make up the pack")
        for h in d._hands:
            h.sort()
        K0 = d._kinds
        d._stock = stock[::-1]
        d._trump = None if obs.trump is None else SUITS.index(obs.trump)
        d._leader = obs.leader
        d._to_move = obs.to_move
        d._phase = obs.phase
        d._stage = obs.stage
        d._decl_count = obs.declared_this_trick
        d._exchanged = obs.exchanged_this_trick
        d._history = [str(Action.parse(a)) for a in obs.history]  # canonical notation
        for seat, name, refs in obs.live_melds:
            ids: list[int] = []
            for r in refs:
                card, where = split_ref(r)
                k, m = parse_card(card), profile_mask(where.split("+"))
                found = next(
                    (c for c in d._hands[seat] if K0[c] == k and d._mask[c] == m and c not in ids),
                    None,
                )
                if found is None:
                    raise ValueError(f"inconsistent position: meld {name} {r} not on the table")
                ids.append(found)
            d._instances.append((seat, MELD_BY_NAME[name].id, tuple(ids)))
        d._events = [ScoreEvent(*e) for e in obs.events]
        for e in d._events:
            d._pts[rules.side_of(e.seat)][e.part] += e.points
        K = d._kinds
        for _, cs, w in d._tricks:
            d._pts[rules.side_of(w)][PART_TRICKS] += trick_points(rules, [K[c] for c in cs])
        if d._phase == OVER:
            d._settle_tricks()
        return d
