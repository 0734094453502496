"""One hand of bezique as a state machine: deal, stage 1 with declarations, stage 2, scoring.

The engine is the inner loop of every search player, so state is plain lists of small ints:
every physical card has an id, ``_kinds[id]`` is its kind, ``_mask[id]`` the melds it has scored
in (0 while concealed), ``_known[id]`` whether all players know where it is while concealed.
"""

from __future__ import annotations

import operator
import random
from bisect import insort
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product
from operator import itemgetter
from typing import Any

from .cards import (
    ALL_KINDS,
    BRISQUE_RANKS,
    CARD_POINTS,
    CODES,
    COURT_RANKS,
    NINE,
    SEVEN,
    SUITS,
    WILD,
    code,
    parse_card,
    rank_of,
    sort_key,
    suit_of,
)
from .cards import (
    kind as make_kind,
)
from .ids import action_ids
from .melds import (
    BEZIQUE,
    DOUBLE_ROYAL_MARRIAGE,
    GHOST,
    MELD_BY_NAME,
    MELDS,
    ROYAL_MARRIAGE,
    SEVEN_MELD,
    TRIPLE_BEZIQUE,
    TRUMP_FIXING,
    TRUMP_SEQUENCE,
    TWO_SEVENS,
    Slot,
    active_melds,
    blocked_masks,
    choose,
    meld_score,
    profile_mask,
    profile_names,
    slots,
)
from .notation import PARTNER, PASS, Action, IllegalAction, parse_ref, split_ref
from .observation import Observation, _decode, _encode
from .rules import Rules

PLAY, DECLARE, OVER = "play", "declare", "over"

# A concrete move: a card id to play | ('meld', meld id, card ids) | ('exchange', card id) | ('pass',)
Move = int | tuple[Any, ...]


@dataclass(frozen=True)
class SideResult:
    """How a side's points in a deal were made."""

    melds: int
    """Declarations, the seven of trumps included."""
    tricks: int
    """Brisques, card points or per-trick points."""
    last_trick: int
    bonuses: int
    """Turn-up bonuses (may be negative)."""
    brisques: int = 0
    """Brisques that count only to settle a per-deal game (Rubicon), not in the total."""

    @property
    def total(self) -> int:
        """The side's points for the deal (what :attr:`Deal.points` says at the end)."""
        return self.melds + self.tricks + self.last_trick + self.bonuses


RngLike = random.Random | int | None
_PLAY = [Action("play", "", (c,)) for c in CODES]
_PlanItem = tuple[int, str, int, list[Slot]]
# a plan item with the card counts it needs: ((count, kinds bit set), ...), ((rank, count), ...)
_PlanEntry = tuple[_PlanItem, tuple[tuple[int, int], ...], list[tuple[int, int]]]


_EXCHANGE_RANK = {"seven": SEVEN, "nine": NINE}
_TEXTS: dict[Action, str] = {}


def _action_text(action: Action) -> str:
    """``str(action)``, remembered: the same few thousand actions recur in every history."""
    text = _TEXTS.get(action)
    if text is None:
        text = _TEXTS[action] = str(action)
    return text


def _active_order(rules: Rules, dealer: int, first: int) -> list[int]:
    """The seats that take part in a deal, clockwise from ``first``."""
    n = rules.players
    seats = [(first + i) % n for i in range(n)]
    return [s for s in seats if s != dealer] if rules.dealer_sits_out else seats


_DOUBLING = frozenset({ROYAL_MARRIAGE, BEZIQUE, TRUMP_SEQUENCE})  # repeat_doubles


def _kinds_of(rules: Rules) -> tuple[int, ...]:
    """Kind of each card id: ids run kind by kind, as many copies of each as the pack holds."""
    kinds: tuple[int, ...] | None = rules.__dict__.get("_kinds")
    if kinds is None:
        kinds = rules.__dict__["_kinds"] = tuple(sorted(rules.pack_kinds))
    return kinds


def _counts(rules: Rules) -> list[int]:
    """How many cards of each kind the pack holds."""
    counts = [0] * ALL_KINDS
    for k in rules.pack_kinds:
        counts[k] += 1
    return counts


def _offsets(rules: Rules) -> list[int]:
    """The first card id of each kind."""
    offset, total = [0] * ALL_KINDS, 0
    for k, n in enumerate(_counts(rules)):
        offset[k] = total
        total += n
    return offset


def _trick_values(rules: Rules) -> tuple[tuple[int, ...], int]:
    """Points a trick is worth: by the rank of each card in it, plus a flat amount per trick."""
    values: tuple[tuple[int, ...], int] | None = rules.__dict__.get("_trick_values")
    if values is None:
        scoring = rules.trick_scoring
        brisques = tuple(10 if r in BRISQUE_RANKS else 0 for r in range(8))
        if scoring == "brisques":
            values = brisques, 0
        elif scoring == "card-points":
            values = CARD_POINTS, 0
        elif scoring == "greek-per-trick":
            values = brisques, 10
        else:
            values = (0,) * 8, 0
        rules.__dict__["_trick_values"] = values
    return values


def _plan(rules: Rules, trump: int | None) -> list[_PlanEntry]:
    """The melds that can be declared under these rules and trump, with their reuse masks and
    card requirements, worked out once per rule set (cached on the Rules value)."""
    cache: dict[int | None, list[_PlanEntry]] = rules.__dict__.setdefault("_meld_plan", {})
    plan = cache.get(trump)
    if plan is None:
        blocked = blocked_masks(rules)
        melds = list(active_melds(rules))
        if trump is None:
            # trump not fixed yet: a marriage (or, if allowed, a sequence) declared now fixes it
            if rules.trump_double_marriage and DOUBLE_ROYAL_MARRIAGE not in melds:
                melds.append(DOUBLE_ROYAL_MARRIAGE)
            if not rules.sequence_fixes_trump and TRUMP_SEQUENCE in melds:
                melds.remove(TRUMP_SEQUENCE)
        if rules.seven_of_trumps and trump is not None and rules.second_seven_scores == "declare":
            melds.append(SEVEN_MELD)
        if rules.two_trump_sevens and trump is not None:
            melds.append(TWO_SEVENS)
        plan = cache[trump] = []
        for meld in melds:
            for req in slots(rules, meld, trump):
                needs: dict[int, int] = {}
                rank_needs = []
                for kinds, n in req:
                    if len(kinds) == 1:
                        needs[n] = needs.get(n, 0) | 1 << kinds[0]
                    else:  # any suits of one rank
                        rank_needs.append((kinds[0] & 7, n))
                plan.append(
                    ((meld, MELDS[meld].name, blocked[meld], req), tuple(needs.items()), rank_needs)
                )
    return plan


def _rng(rng: RngLike) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


class Deal:
    """One hand (deal) of bezique.  Build with :meth:`new` or :meth:`from_cards`."""

    __slots__ = (
        "_decl_count",
        "_events",
        "_exchanged",
        "_history",
        "_instances",
        "_kinds",
        "_known",
        "_leader",
        "_legal",
        "_mask",
        "_phase",
        "_pts",
        "_stage",
        "_stock",
        "_to_move",
        "_trick",
        "_tricks",
        "_trump",
        "_turn_up",
        "dealer",
        "hands",
        "initial",
        "rules",
        "seed",
    )

    rules: Rules
    dealer: int
    hands: list[list[int]]
    seed: int | None
    """The seed it was shuffled from (None for a stacked or rebuilt deal)."""
    initial: tuple[tuple[tuple[str, ...], ...], str | None, tuple[str, ...]] | None
    """The cards as dealt: (hands, turn-up, stock in draw order); None for a rebuilt deal."""
    _kinds: tuple[int, ...]
    _mask: list[int]
    _known: list[bool]
    _stock: list[int]
    _turn_up: int | None
    _trump: int | None
    _trick: list[tuple[int, int]]
    _tricks: list[tuple[int, tuple[int, ...], int]]
    _events: list[tuple[int, int, str, int]]
    _history: list[Action]
    _instances: list[tuple[int, int, tuple[int, ...]]]
    _pts: list[list[int]]
    _leader: int
    _to_move: int | None
    _phase: str
    _stage: int
    _decl_count: int
    _exchanged: bool
    _legal: dict[Action, Move] | None

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, seed: int | None = None, dealer: int = 0) -> Deal:
        """A deal shuffled from ``seed`` (a fresh random one when None)."""
        _check_dealer(rules, dealer)
        rng = random.Random(seed)
        order = list(range(rules.cards))
        rng.shuffle(order)
        # card ids run kind by kind, so that a hand sorted by id is sorted by kind
        pack_kinds, offset = rules.pack_kinds, _offsets(rules)
        copies = [0] * ALL_KINDS
        for i, old in enumerate(order):
            k = pack_kinds[old]
            order[i] = offset[k] + copies[k]
            copies[k] += 1
        n = rules.players
        hands: list[list[int]] = [[] for _ in range(n)]
        pos = 0
        for size in rules.deal_packets:
            for seat in _active_order(rules, dealer, (dealer + 1) % n):
                hands[seat].extend(order[pos : pos + size])
                pos += size
        rest = order[pos:]
        turn_up = None
        if rules.turn_up:
            kinds = _kinds_of(rules)
            # a wild card cannot be the trump: it goes back into the stock at a random place
            # and the next card is turned (decision 11)
            while kinds[rest[0]] == WILD:
                rest.insert(rng.randrange(1, len(rest) + 1), rest.pop(0))
            turn_up = rest.pop(0)
        stock = rest
        d = cls._start(rules, dealer, _kinds_of(rules), hands, turn_up, stock)
        d.seed = seed
        return d

    @classmethod
    def from_cards(
        cls,
        rules: Rules,
        hands: Sequence[Iterable[str]],
        turn_up: str | None = None,
        stock: Iterable[str] = (),
        dealer: int = 0,
    ) -> Deal:
        """A stacked deal: each seat's cards, the turn-up and the stock (``stock[0]`` is drawn
        first).  The cards must make up the whole pack exactly."""
        _check_dealer(rules, dealer)
        n = rules.players
        if len(hands) != n:
            raise ValueError(f"{n} hands needed, got {len(hands)}")
        if (turn_up is not None) != rules.turn_up:
            raise ValueError(
                "these rules turn up a trump card: give turn_up"
                if rules.turn_up
                else "these rules have no turn-up card: leave turn_up out"
            )
        copies = [0] * ALL_KINDS
        counts, offset = _counts(rules), _offsets(rules)

        def take(text: str) -> int:
            k = parse_card(text)
            if copies[k] >= counts[k]:
                raise ValueError(f"too many {code(k)}: the pack holds {counts[k]}")
            cid = offset[k] + copies[k]
            copies[k] += 1
            return cid

        hand_ids = []
        for seat, h in enumerate(hands):
            ids = [take(c) for c in h]
            size = 0 if rules.dealer_sits_out and seat == dealer else rules.hand_size
            if len(ids) != size:
                raise ValueError(f"seat {seat} has {len(ids)} cards; {size} needed")
            hand_ids.append(ids)
        up = take(turn_up) if turn_up is not None else None
        if up is not None and parse_card(turn_up or "") == WILD:
            raise ValueError("a wild card cannot be the turn-up: it has no suit (O11)")
        stock_ids = [take(c) for c in stock]
        missing = [code(k) for k in range(ALL_KINDS) for _ in range(counts[k] - copies[k])]
        if missing:
            raise ValueError(f"the cards do not make up the pack: missing {' '.join(missing)}")
        return cls._start(rules, dealer, _kinds_of(rules), hand_ids, up, stock_ids)

    @classmethod
    def _blank(cls, rules: Rules, dealer: int, kinds: tuple[int, ...]) -> Deal:
        d = cls.__new__(cls)
        d.rules = rules
        d.dealer = dealer
        d._kinds = kinds
        d._mask = [0] * len(kinds)
        d._known = [False] * len(kinds)
        d._trick = []
        d._tricks = []
        d._events = []
        d._history = []
        d._instances = []
        d._pts = [[0, 0, 0, 0] for _ in range(rules.sides)]  # melds, tricks, last, bonuses
        d._decl_count = 0
        d._exchanged = False
        d._legal = None
        d._stage = 1
        d.seed = None
        d.initial = None
        return d

    @classmethod
    def _start(
        cls,
        rules: Rules,
        dealer: int,
        kinds: tuple[int, ...],
        hands: list[list[int]],
        turn_up: int | None,
        stock: list[int],
    ) -> Deal:
        d = cls._blank(rules, dealer, kinds)
        n = rules.players
        d.hands = [sorted(h) for h in hands]
        d.initial = (
            tuple(tuple(CODES[kinds[c]] for c in h) for h in hands),
            None if turn_up is None else CODES[kinds[turn_up]],
            tuple(CODES[kinds[c]] for c in stock),
        )
        d._stock = stock[::-1]  # drawn from the end
        d._turn_up = turn_up
        d._trump = suit_of(kinds[turn_up]) if turn_up is not None else None
        d._leader = (dealer + 1) % n if rules.first_lead_seat == "left" else (dealer - 1) % n
        d._to_move = d._leader
        d._phase = PLAY
        if turn_up is not None:
            d._turn_up_bonus(kinds[turn_up])
        if rules.carte_blanche:
            d._carte_blanche(_active_order(rules, dealer, d._leader), None)
        return d

    def _turn_up_bonus(self, k: int) -> None:
        rules, dealer = self.rules, self.dealer
        what = f"turn-up {code(k)}"
        if rules.turn_up_bonus == "seven" and rank_of(k) == SEVEN:
            self._score(dealer, 3, 10, what)
        elif rules.turn_up_bonus == "greek-club":
            if rank_of(k) == 0:
                self._score(dealer, 3, 20 if suit_of(k) in (0, 3) else 12, what)
            elif rank_of(k) == SEVEN:
                self._score(dealer, 3, 10, what)
                for seat in range(rules.players):
                    if rules.side_of(seat) != rules.side_of(dealer):
                        self._score(seat, 3, -5, what)

    # --- public state --------------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """Seat whose decision it is; None once the deal is over."""
        return self._to_move

    @property
    def phase(self) -> str:
        """'play', 'declare' or 'over'."""
        return self._phase

    @property
    def is_over(self) -> bool:
        """True once every trick has been played and the points are final."""
        return self._phase == OVER

    @property
    def stage(self) -> int:
        """1 while the stock lasts, 2 for the last tricks."""
        return self._stage

    @property
    def trump(self) -> str | None:
        """Trump suit letter, or None while not fixed."""
        return None if self._trump is None else SUITS[self._trump]

    @property
    def turn_up(self) -> str | None:
        """The face-up trump card under the stock (None once taken, or in games without one)."""
        return None if self._turn_up is None else CODES[self._kinds[self._turn_up]]

    @property
    def stock_size(self) -> int:
        """Face-down cards left to draw (the turn-up not counted)."""
        return len(self._stock)

    @property
    def leader(self) -> int:
        """Seat that led (or is to lead) the current trick."""
        return self._leader

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The trick in progress: (seat, card) in play order."""
        return [(s, CODES[self._kinds[c]]) for s, c in self._trick]

    @property
    def tricks_played(self) -> int:
        """Completed tricks."""
        return len(self._tricks)

    @property
    def history(self) -> list[str]:
        """Every action applied so far, in notation."""
        return [_action_text(a) for a in self._history]

    @property
    def points(self) -> list[int]:
        """Points per side so far; brisques counted at the end of the hand are added then."""
        if self.rules.brisques_only_to_settle:  # the match uses them to settle the game
            return [m + lt + b for m, _, lt, b in self._pts]
        count_tricks = self._phase == OVER or self._tricks_immediate()
        return [m + lt + b + (t if count_tricks else 0) for m, t, lt, b in self._pts]

    @property
    def result(self) -> list[SideResult] | None:
        """Per side, the breakdown of the points; None until the deal is over."""
        if self._phase != OVER:
            return None
        if self.rules.brisques_only_to_settle:
            return [SideResult(m, 0, lt, b, t) for m, t, lt, b in self._pts]
        return [SideResult(m, t, lt, b) for m, t, lt, b in self._pts]

    @property
    def last_trick_winner(self) -> int | None:
        """Seat that won the most recent trick (the last one once the deal is over)."""
        return self._tricks[-1][2] if self._tricks else None

    @property
    def trick_winners(self) -> list[int]:
        """Winner of each completed trick, in order."""
        return [w for _, _, w in self._tricks]

    @property
    def events(self) -> list[tuple[int, int, str, int]]:
        """Scoring events: (tricks completed before it, seat, what, points)."""
        return list(self._events)

    def hand(self, seat: int) -> list[str]:
        """Every card the seat holds, concealed and declared, as sorted codes."""
        return [CODES[k] for k in sorted((self._kinds[c] for c in self.hands[seat]), key=sort_key)]

    def table(self, seat: int) -> list[str]:
        """The seat's declared cards on the table, as sorted codes."""
        ks = [self._kinds[c] for c in self.hands[seat] if self._mask[c]]
        return [CODES[k] for k in sorted(ks, key=sort_key)]

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat."""
        return self.rules.side_of(seat)

    def _tricks_immediate(self) -> bool:
        return (
            self.rules.brisque_timing == "immediate"
            or self.rules.trick_scoring == "greek-per-trick"
        )

    # --- copying -------------------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (cheap: the search players call it constantly)."""
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.dealer = self.dealer
        d.seed = self.seed
        d.initial = self.initial
        d._kinds = self._kinds
        d.hands = [h[:] for h in self.hands]
        d._mask = self._mask[:]
        d._known = self._known[:]
        d._stock = self._stock[:]
        d._turn_up = self._turn_up
        d._trump = self._trump
        d._trick = self._trick[:]
        d._tricks = self._tricks[:]
        d._events = self._events[:]
        d._history = self._history[:]
        d._instances = self._instances[:]
        d._pts = [p[:] for p in self._pts]
        d._leader = self._leader
        d._to_move = self._to_move
        d._phase = self._phase
        d._stage = self._stage
        d._decl_count = self._decl_count
        d._exchanged = self._exchanged
        d._legal = self._legal
        return d

    __copy__ = clone

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        return self.clone()

    def __getstate__(self) -> dict[str, Any]:
        return {"position": self.position()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        other = Deal.from_position(state["position"])
        for name in Deal.__slots__:
            setattr(self, name, getattr(other, name))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.position() == other.position()

    def __hash__(self) -> int:
        return hash(self.position())

    def __repr__(self) -> str:
        return f"<Deal {self.rules} trick {len(self._tricks) + 1} {self._phase} to {self._to_move}>"

    # --- legal actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every distinct legal action for the seat to move (empty once the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def _compute_legal(self) -> dict[Action, Move]:
        if self._phase == PLAY:
            return self._play_actions(self._to_move)  # type: ignore[arg-type]
        if self._phase == DECLARE:
            # a world rebuilt from another seat's view may leave the declarer nothing to
            # declare: then it can only pass
            return self._declare_actions(self._to_move) or {PASS: ("pass",)}  # type: ignore[arg-type]
        return {}

    def _beats(self, k: int, best: int) -> bool:
        """Does kind ``k`` beat the kind ``best`` now winning the trick (played before it)?"""
        s, bs = k >> 3, best >> 3
        if s == bs:
            return (k & 7) < (best & 7)
        return s == self._trump or (best == WILD and k != WILD)  # a wild card never wins

    def _playable(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        trick = self._trick
        if not trick or (self._stage == 1 and not self.rules.stage1_must_follow_suit):
            return hand
        K = self._kinds
        led = K[trick[0][1]] >> 3
        same = [c for c in hand if K[c] >> 3 == led]
        if self._stage == 1:
            return same or hand
        rules = self.rules
        best = K[trick[0][1]]
        for _, c in trick[1:]:
            if self._beats(K[c], best):
                best = K[c]
        if same:
            if rules.stage2_must_head:
                heads = [c for c in same if self._beats(K[c], best)]
                return heads or same
            return same
        trump = self._trump
        if trump is not None and rules.stage2_must_trump:
            trumps = [c for c in hand if K[c] >> 3 == trump]
            if trumps:
                if rules.stage2_must_head:
                    return [c for c in trumps if self._beats(K[c], best)] or hand
                return trumps
        return hand

    def _namer(self, seat: int) -> Any:
        """A function naming a card (kind, mask) of this seat in notation."""
        K, M = self._kinds, self._mask
        table: dict[int, set[int]] = {}
        concealed = set()
        for c in self.hands[seat]:
            m = M[c]
            if m:
                table.setdefault(K[c], set()).add(m)
            else:
                concealed.add(K[c])

        def name(k: int, m: int) -> str:
            if not m:
                return CODES[k]
            if len(table[k]) > 1:
                return CODES[k] + "@" + "+".join(profile_names(m))
            return CODES[k] + "@table" if k in concealed else CODES[k]

        return name

    def _play_actions(self, seat: int) -> dict[Action, Move]:
        K, M = self._kinds, self._mask
        hand = self.hands[seat]
        if self._stage == 1 and not self.rules.stage1_must_follow_suit:
            playable = hand
        else:
            playable = self._playable(seat)
        if not any(map(M.__getitem__, hand)):
            # kinds sort canonically (suit, then rank) as plain ints
            # hands are sorted by id, so by kind: keep the first copy of each kind
            out: dict[Action, Move] = {}
            prev = -1
            for c in playable:
                k = K[c]
                if k != prev:
                    out[_PLAY[k]] = c
                    prev = k
            return out
        seen: dict[int, int] = {}
        for c in playable:
            key = M[c] << 6 | K[c]
            if key not in seen:
                seen[key] = c
        # canonical order (suit, rank, history), so that equal observations list equal actions
        name = self._namer(seat)
        out = {}
        for key in sorted(seen, key=lambda key: (key & 63, key)):
            c = seen[key]
            out[Action("play", "", (name(K[c], M[c]),))] = c
        return out

    def _declare_actions(self, seat: int) -> dict[Action, Move]:
        rules = self.rules
        out: dict[Action, Move] = {}
        K, M = self._kinds, self._mask
        hand = self.hands[seat]
        trump = self._trump
        room = self._decl_count < rules.melds_scored_per_trick
        if room:
            # cheap rejection on card counts alone, before any grouping by history:
            # have[n] is a bit set of the kinds held at least n times (hands are sorted by kind)
            have = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            by_rank = [0] * 8
            prev, run = -1, 0
            for c in hand:
                k = K[c]
                run = run + 1 if k == prev else 1
                prev = k
                if run < 10:
                    have[run] |= 1 << k
                by_rank[k & 7] += 1
            possible = []
            plan = _plan(rules, trump)
            if hand and K[hand[-1]] == WILD:  # a wild card may fill any gap: no pre-check
                possible = [item for item, _, _ in plan]
                plan = []
            for item, needs, rank_needs in plan:
                for n, kinds in needs:
                    if have[n] & kinds != kinds:
                        break
                else:
                    for r, n in rank_needs:
                        if by_rank[r] < n:
                            break
                    else:
                        possible.append(item)
            if possible:
                self._enumerate_melds(seat, possible, out)
        swap = _EXCHANGE_RANK.get(rules.turn_up_exchange)
        if (
            swap is not None
            and (swap != SEVEN or rules.seven_of_trumps)
            and self._turn_up is not None
            and trump is not None
            and not self._exchanged
            and (room or not rules.seven_exchange_counts_as_meld)
            and K[self._turn_up] != trump * 8 + swap
        ):
            card = trump * 8 + swap
            for c in hand:
                if K[c] == card and not M[c]:
                    out[Action("exchange", "", (CODES[card],))] = ("exchange", c)
                    break
        if (
            rules.partner_declaring == "winner-or-partner"
            and rules.partnerships
            and seat == self._leader
            and not self._decl_count
            and not self._exchanged
        ):
            # offered whatever the partner holds, so the list reveals nothing of that hand
            out[PARTNER] = ("partner",)
        if out:
            out[PASS] = ("pass",)
        return out

    def _enumerate_melds(
        self, seat: int, possible: list[_PlanItem], out: dict[Action, Move]
    ) -> None:
        """Every distinct way to form each possible meld from the seat's cards."""
        K, M = self._kinds, self._mask
        # interchangeable cards: same kind, same history; concealed (history 0) first
        groups: dict[int, list[tuple[int, list[int]]]] = {}
        for c in self.hands[seat]:
            k, m = K[c], M[c]
            glist = groups.setdefault(k, [])
            for gm, members in glist:
                if gm == m:
                    members.append(c)
                    break
            else:
                glist.append((m, [c]))
        for glist in groups.values():
            glist.sort(key=lambda g: g[0])
        name = self._namer(seat)
        wild = groups.get(WILD, [])
        for meld, mname, block, req in possible:
            per_slot = []
            for kinds, n in req:
                cand = [
                    (k, gm, ids) for k in kinds for gm, ids in groups.get(k, ()) if not gm & block
                ]
                if wild:  # a wild card may stand for any card of a meld (one per meld)
                    cand += [(WILD, gm, ids) for gm, ids in wild if not gm & block]
                ways: list[tuple[int, ...]]
                if len(cand) == 1:  # the usual case: one way or none
                    ways = [(n,)] if len(cand[0][2]) >= n else []
                else:
                    ways = list(choose([(i, len(g[2])) for i, g in enumerate(cand)], n))
                if not ways:
                    break
                per_slot.append((cand, ways))
            else:
                for combo in product(*(ways for _, ways in per_slot)):
                    ids: list[int] = []
                    refs: list[str] = []
                    fresh = False
                    wilds = 0
                    for (cand, _), takes in zip(per_slot, combo, strict=True):
                        for (k, gm, gids), t in zip(cand, takes, strict=True):
                            if t:
                                ids.extend(gids[:t])
                                refs.extend([name(k, gm)] * t)
                                # a new card, or one of a broken meld re-forming it
                                fresh = fresh or not gm or bool(gm >> (GHOST + meld) & 1)
                                wilds += t if k == WILD else 0
                    if fresh and wilds <= 1 and len(ids) > wilds:
                        # at least one card comes from the concealed hand
                        out[Action("meld", mname, tuple(refs))] = ("meld", meld, tuple(ids))

    def _carte_blanche(self, order: list[int], drawn: list[int] | None) -> None:
        """Score carte blanche where it is due (RULES.md 2.1, 2.5): after the deal (``drawn``
        None) or after a round of draws (``drawn[seat]`` the card each seat drew)."""
        rules, K = self.rules, self._kinds

        def blank(seat: int) -> bool:
            return not any(K[c] & 7 in COURT_RANKS for c in self.hands[seat])

        def show(seat: int) -> None:
            for c in self.hands[seat]:
                if not self._mask[c]:
                    self._known[c] = True
            self._score(seat, 0, rules.carte_blanche, "carte blanche")

        events = [(s, what) for _, s, what, _ in self._events if what.startswith("carte blanche")]
        if not rules.carte_blanche_repeat:
            if not events:
                for seat in order:
                    if blank(seat):
                        show(seat)
                        break
            return
        for seat in order:
            if drawn is None:
                if blank(seat):
                    show(seat)
                continue
            mine = [what for s, what in events if s == seat]
            if mine and mine[-1] == "carte blanche":
                c = drawn[seat]
                if K[c] & 7 in COURT_RANKS:
                    self._events.append((len(self._tricks), seat, "carte blanche ends", 0))
                else:
                    self._known[c] = True
                    self._score(seat, 0, rules.carte_blanche, "carte blanche")

    # --- applying actions ----------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        """Apply an action (or its notation) for the seat to move.

        Raises :class:`IllegalAction` saying why, and leaves the deal unchanged, if it is not legal.
        """
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action) is not Action:
            if isinstance(action, str):
                action = Action.parse(action)
            elif not isinstance(action, Action):
                raise IllegalAction(f"not an action: {action!r}")
        move = legal.get(action)
        if move is None:
            action = Action.parse(str(action))  # refuses a malformed Action built by hand
            move = legal.get(action)
            if move is None:
                action, move = self._resolve(action, legal)
        self._legal = None
        self._history.append(action)
        if isinstance(move, int):
            self._play(move)
            return
        verb = move[0]
        if verb == "meld":
            self._meld(move[1], move[2])
        elif verb == "exchange":
            self._exchange(move[1])
        elif verb == "partner":
            self._to_move = (self._leader + 2) % self.rules.players
            self._continue_declaring()
        else:
            self._draw()

    # --- integer action ids --------------------------------------------------------------------
    def legal_ids(self) -> list[int]:
        """The ids of the legal actions, ascending (see :mod:`bezique.core.ids`)."""
        return [i for i, _ in self._id_pairs()]

    def legal_id_actions(self) -> list[tuple[int, Action]]:
        """The legal actions with their ids, ascending by id."""
        return self._id_pairs()

    def apply_id(self, action_id: int) -> None:
        """Apply the legal action with this id; :class:`IllegalAction` (the deal unchanged)
        if it is not one."""
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        self.apply(self.id_action(action_id))

    def id_action(self, action_id: int) -> Action:
        """The legal action with this id here; :class:`IllegalAction` if there is none."""
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            try:  # numpy integers and the like
                if isinstance(action_id, bool):
                    raise TypeError
                action_id = operator.index(action_id)
            except TypeError:
                raise IllegalAction(f"an action id is an int: got {action_id!r}") from None
        for i, a in self._id_pairs():
            if i == action_id:
                return a
        ids = action_ids(self.rules)
        if not 0 <= action_id < ids.num_actions:
            raise IllegalAction(
                f"no action id {action_id}: ids run from 0 to {ids.num_actions - 1}"
            )
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal_ids = ", ".join(str(i) for i, _ in self._id_pairs())
        raise IllegalAction(
            f"action id {action_id} ({ids.describe(action_id)}) is not legal now; "
            f"legal ids: {legal_ids}"
        )

    def action_id(self, action: Action | str) -> int:
        """The id of a legal action (or its notation) here; :class:`IllegalAction` if it is
        not legal."""
        if self._phase == OVER:
            raise IllegalAction("the deal is over: no more actions")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if isinstance(action, str):
            action = Action.parse(action)
        elif not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if action not in legal:
            action = Action.parse(str(action))
            if action not in legal:
                action = self._resolve(action, legal)[0]
        for i, a in self._id_pairs():
            if a == action:
                return i
        raise AssertionError(f"{action} is legal but has no id")  # pragma: no cover

    def _id_pairs(self) -> list[tuple[int, Action]]:
        """``(id, action)`` for every legal action, sorted by id."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not legal:
            return []
        ids = action_ids(self.rules)
        K, M = self._kinds, self._mask
        offset = ids.play_offset
        simple: list[tuple[int, Action]] = []
        melds: dict[int, list[Action]] = {}
        histories: dict[int, list[int]] | None = None
        for action, move in legal.items():
            if isinstance(move, int):
                k = K[move]
                m = M[move]
                if not m:
                    simple.append((offset[k], action))
                    continue
                if histories is None:
                    histories = {}
                    for c in self.hands[self._to_move]:  # type: ignore[index]
                        if M[c]:
                            histories.setdefault(K[c], []).append(M[c])
                    for masks in histories.values():
                        masks[:] = sorted(set(masks))
                simple.append((offset[k] + 1 + histories[k].index(m), action))
                continue
            verb = move[0]
            if verb == "meld":
                need: dict[int, int] = {}
                declared: dict[int, int] = {}
                for c in move[2]:
                    k = K[c]
                    need[k] = need.get(k, 0) + 1
                    if M[c]:
                        declared[k] = declared.get(k, 0) + 1
                key = (move[1], tuple((k, need[k], declared.get(k, 0)) for k in sorted(need)))
                mid = ids.meld_key.get(key)
                if mid is None:
                    raise KeyError(f"'{action}' has no id in the action table of {self.rules}")
                melds.setdefault(mid, []).append(action)
            else:
                simple.append((ids.simple_id(verb), action))
        return ids.assign(simple, melds)

    def _resolve(self, action: Action, legal: dict[Action, Move]) -> tuple[Action, Move]:
        """Match an action written loosely (cards in another order, ``@table`` where a history
        was expected, ...) to exactly one legal action, or explain why it is not legal."""
        seat = self._to_move
        want = action.verb
        if self._phase == PLAY and want != "play":
            raise IllegalAction(f"seat {seat} must play a card now, not {action.verb}")
        if self._phase == DECLARE and want == "play":
            raise IllegalAction(
                f"seat {seat} won the trick and must declare or pass before anyone plays"
            )
        scored = [
            (loose, a, m)
            for a, m in legal.items()
            if a.verb == want
            and a.meld == action.meld
            and (loose := _refs_match(action.cards, a.cards)) is not None
        ]
        best = min((loose for loose, _, _ in scored), default=0)
        matches = [(a, m) for loose, a, m in scored if loose == best]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise IllegalAction(
                f"'{action}' is ambiguous: say which, one of: "
                + "; ".join(str(a) for a, _ in matches)
            )
        raise IllegalAction(self._why_illegal(action, legal))

    def _why_illegal(self, action: Action, legal: dict[Action, Move]) -> str:
        seat = self._to_move
        assert seat is not None
        held = [CODES[self._kinds[c]] for c in self.hands[seat]]
        for ref in action.cards:
            card, _ = split_ref(ref)
            if card not in held:
                return f"seat {seat} does not hold {card}"
        options = "; ".join(str(a) for a in legal)
        if action.verb == "play":
            card = split_ref(action.cards[0])[0]
            if self._stage == 2 or self.rules.stage1_must_follow_suit:
                return (
                    f"{card} may not be played now: the follower must "
                    + (
                        "follow suit, head the trick, or trump"
                        if self._stage == 2
                        else "follow suit"
                    )
                    + f"; legal: {options}"
                )
            return f"'{action}' is not legal now; legal: {options}"
        if action.verb == "exchange":
            if self._exchanged or (
                self._turn_up is not None
                and self._trump is not None
                and self._kinds[self._turn_up] == make_kind(self._trump, SEVEN)
            ):
                return "the seven of trumps has already been exchanged (only one exchange a hand)"
            return (
                f"'{action}' is not legal now: only a concealed seven of trumps may be exchanged, "
                f"once a trick is won, before drawing; legal: {options}"
            )
        if action.verb == "meld":
            if self._decl_count >= self.rules.melds_scored_per_trick:
                return "no more declarations may score on this trick: pass"
            if self._exchanged and self.rules.seven_exchange_counts_as_meld:
                return "the exchange of the seven was this trick's declaration: pass"
            return (
                f"'{action}' does not score: a meld needs the right cards, at least one card "
                f"from the concealed hand, and cards that have not scored in that meld or a "
                f"higher one of its class; legal: {options}"
            )
        return f"'{action}' is not legal now; legal: {options}"

    def _score(self, seat: int, part: int, points: int, what: str) -> None:
        self._pts[self.rules.side_of(seat)][part] += points
        self._events.append((len(self._tricks), seat, what, points))

    def _play(self, cid: int) -> None:
        seat = self._to_move
        assert seat is not None
        rules = self.rules
        self.hands[seat].remove(cid)
        K = self._kinds
        k = K[cid]
        if (
            k & 7 == SEVEN
            and self._stage == 1
            and rules.second_seven_scores == "play"
            and rules.seven_of_trumps
            and self._trump is not None
            and k == make_kind(self._trump, SEVEN)
            and not self._mask[cid]
        ):
            self._score(seat, 0, rules.seven_of_trumps, f"seven played {CODES[k]}")
        M = self._mask
        if M[cid]:
            if rules.meld_reforming:
                self._break_melds(cid)
            M[cid] = 0
        self._known[cid] = False
        trick = self._trick
        trick.append((seat, cid))
        n = rules.players
        if len(trick) < n - rules.dealer_sits_out:
            nxt = (seat + 1) % n
            if nxt == self.dealer and rules.dealer_sits_out:
                nxt = (nxt + 1) % n
            self._to_move = nxt
            return
        # resolve the trick: the highest trump, else the highest card of the suit led; of two
        # equal cards the first played wins
        win_seat, win_card = trick[0]
        best = K[win_card]
        trump = self._trump
        for i in range(1, len(trick)):
            s, c = trick[i]
            kc = K[c]
            if (
                (kc >> 3 == best >> 3 and kc & 7 < best & 7)
                or (kc >> 3 == trump and best >> 3 != trump)
                or (best == WILD and kc != WILD)  # a wild card never wins a trick
            ):
                best, win_seat, win_card = kc, s, c
        self._tricks.append((self._leader, tuple([c for _, c in trick]), win_seat))
        self._trick = []
        if (
            best & 7 == SEVEN
            and self._stage == 1
            and rules.second_seven_scores == "win-trick"
            and rules.seven_of_trumps
            and self._trump is not None
            and best == make_kind(self._trump, SEVEN)
        ):
            self._score(win_seat, 0, rules.seven_of_trumps, f"seven won {CODES[best]}")
        per_rank, per_trick = _trick_values(rules)
        value = per_trick
        for _, c in trick:
            value += per_rank[K[c] & 7]
        if value:
            self._pts[rules.side_of(win_seat)][1] += value
        led_by = self._leader
        self._leader = win_seat
        self._to_move = win_seat
        if self._stage == 1:
            self._decl_count = 0
            self._exchanged = False
            if (win_seat != led_by or not rules.declare_only_after_beating) and (
                not rules.min_tricks_before_declaring
                or sum(1 for _, _, w in self._tricks if w == win_seat)
                >= rules.min_tricks_before_declaring
            ):
                legal = self._declare_actions(win_seat)
                if legal:
                    self._phase = DECLARE
                    self._legal = legal
                    return
            self._draw()
        elif not self.hands[win_seat]:
            if rules.last_trick_bonus:
                self._score(win_seat, 2, rules.last_trick_bonus, "last trick")
            self._phase = OVER
            self._to_move = None

    def _break_melds(self, cid: int) -> None:
        """Re-forming (Rubicon): a meld one of whose cards is played no longer holds its other
        cards, which may score in that meld again with a like card added."""
        broken = [inst for inst in self._instances if cid in inst[2]]
        self._instances = [inst for inst in self._instances if cid not in inst[2]]
        M = self._mask
        for _, meld, ids in broken:
            for c in ids:
                if c != cid:
                    live = any(c in others and m == meld for _, m, others in self._instances)
                    if not live:  # the meld's bit becomes its broken ("ghost") bit
                        M[c] = (M[c] & ~(1 << meld)) | (1 << (GHOST + meld))

    def _meld(self, meld: int, ids: tuple[int, ...]) -> None:
        seat = self._to_move
        assert seat is not None
        rules = self.rules
        bit = 1 << meld
        M = self._mask
        for c in ids:
            M[c] |= bit
        points = meld_score(rules, meld)
        if self._trump is None and meld in TRUMP_FIXING:
            self._trump = self._kinds[ids[0]] >> 3
            if meld == DOUBLE_ROYAL_MARRIAGE and rules.trump_double_marriage:
                points = rules.trump_double_marriage
        if rules.meld_reforming:
            self._instances.append((seat, meld, ids))
        if rules.repeat_doubles and meld in _DOUBLING:
            before = f"meld {MELDS[meld].name} "
            points <<= sum(
                1 for _, s, what, _ in self._events if s == seat and what.startswith(before)
            )
        cards = " ".join(CODES[self._kinds[c]] for c in ids)
        self._score(seat, 0, points, f"meld {MELDS[meld].name} {cards}")
        self._decl_count += 1
        if meld == TRIPLE_BEZIQUE and rules.triple_bezique_wins_game:
            self._events.append((len(self._tricks), seat, "wins the game", 0))
        self._continue_declaring()

    def _exchange(self, cid: int) -> None:
        seat = self._to_move
        assert seat is not None and self._turn_up is not None
        rules = self.rules
        hand = self.hands[seat]
        hand.remove(cid)
        up = self._turn_up
        insort(hand, up)
        self._known[up] = True
        self._turn_up = cid
        self._exchanged = True
        if rules.seven_exchange_counts_as_meld:
            self._decl_count += 1
        points = rules.seven_of_trumps if self._kinds[cid] & 7 == SEVEN else 0
        self._score(seat, 0, points, f"exchange {CODES[self._kinds[cid]]}")
        self._continue_declaring()

    def _continue_declaring(self) -> None:
        legal = self._declare_actions(self._to_move)  # type: ignore[arg-type]
        if legal:
            self._legal = legal
        else:
            self._draw()

    def _draw(self) -> None:
        winner = self._leader
        n = self.rules.players
        stock = self._stock
        drawn = [0] * n
        order = _active_order(self.rules, self.dealer, winner)
        for i, seat in enumerate(order):
            if stock:
                c = stock.pop()
                if (
                    not stock
                    and self._turn_up is not None
                    and i == 0
                    and self.rules.reveal_last_draw
                ):
                    self._known[c] = True
            elif self._turn_up is not None:
                c = self._turn_up
                self._turn_up = None
                self._known[c] = True
            else:  # a short last round: the stock ran out (hands not played out)
                break
            insort(self.hands[seat], c)
            drawn[seat] = c
        self._phase = PLAY
        self._to_move = winner
        self._decl_count = 0
        self._exchanged = False
        if self.rules.carte_blanche and (stock or self._turn_up is not None):
            self._carte_blanche(order, drawn)
        if not stock and self._turn_up is None and not self.rules.play_out_hand:
            # the hand ends when the stock is drawn (decision 11)
            if self.rules.last_trick_bonus:
                self._score(winner, 2, self.rules.last_trick_bonus, "last trick")
            self._phase = OVER
            self._to_move = None
        elif not stock and self._turn_up is None:
            # stage 2: declared cards go back into the hands, still known to everyone
            self._stage = 2
            self._instances = []
            M, known = self._mask, self._known
            for h in self.hands:
                for c in h:
                    if M[c]:
                        M[c] = 0
                        known[c] = True

    # --- observation and determinization -------------------------------------------------------
    def observation(self, seat: int | None) -> Observation:
        """What ``seat`` may know (None: the public view a spectator gets)."""
        n = self.rules.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"no seat {seat}: seats are 0 to {n - 1}")
        K, M, known = self._kinds, self._mask, self._known

        def codes(ids: Iterable[int]) -> tuple[str, ...]:
            return tuple(CODES[k] for k in sorted((K[c] for c in ids), key=sort_key))

        def ref(c: int) -> str:
            return CODES[K[c]] + "@" + "+".join(profile_names(M[c]))

        tables = []
        known_cards = []
        for h in self.hands:
            t = sorted((c for c in h if M[c]), key=lambda c: (sort_key(K[c]), M[c]))
            tables.append(tuple(CODES[K[c]] + "@" + "+".join(profile_names(M[c])) for c in t))
            known_cards.append(codes(c for c in h if not M[c] and known[c]))
        legal: tuple[str, ...] = ()
        legal_ids: tuple[int, ...] = ()
        if seat is not None and seat == self._to_move:
            actions = self.legal_actions()
            legal = tuple(str(a) for a in actions)
            id_of = {a: i for i, a in self._id_pairs()}
            legal_ids = tuple(id_of[a] for a in actions)
        return Observation(
            rules=self.rules,
            seat=seat,
            dealer=self.dealer,
            phase=self._phase,
            to_move=self._to_move,
            stage=self._stage,
            leader=self._leader,
            trump=self.trump,
            turn_up=self.turn_up,
            stock_size=len(self._stock),
            hand=() if seat is None else codes(c for c in self.hands[seat] if not M[c]),
            hand_sizes=tuple(len(h) for h in self.hands),
            tables=tuple(tables),
            known=tuple(known_cards),
            trick=tuple((s, CODES[K[c]]) for s, c in self._trick),
            tricks=tuple((ld, tuple(CODES[K[c]] for c in cs), w) for ld, cs, w in self._tricks),
            events=tuple(self._events),
            points=tuple(self.points),
            declared_this_trick=self._decl_count,
            exchanged_this_trick=self._exchanged,
            history=tuple(_action_text(a) for a in self._history),
            legal=legal,
            live_melds=tuple(
                sorted(
                    (s, MELDS[meld].name, tuple(sorted(ref(c) for c in ids)))
                    for s, meld, ids in self._instances
                )
            ),
            legal_ids=legal_ids,
        )

    def resample(self, seat: int, rng: RngLike = None) -> Deal:
        """A deal that ``seat`` cannot tell from this one: its observation is identical, and
        every card it has not seen is dealt again at random among the places it could be.

        A copy with :meth:`reshuffle` applied: no text is parsed, so a search player that
        holds one world (built once with :meth:`from_observation`) gets each further world
        for little more than a :meth:`clone`.
        """
        d = self.clone()
        d.reshuffle(seat, rng)
        return d

    def reshuffle(self, seat: int, rng: RngLike = None) -> None:
        """Deal again, in place, every card ``seat`` has not seen: the other seats' concealed
        cards that are not publicly known, and the stock.  Each such card goes to one of those
        places uniformly at random; everything ``seat`` observes stays as it was.

        The deal forgets its seed and the cards as dealt (:attr:`initial`): they would tell
        the hidden cards of the real deal.
        """
        n = self.rules.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"no seat {seat!r}: seats are 0 to {n - 1}")
        M, known, hands = self._mask, self._known, self.hands
        hidden: list[int] = []
        for s, h in enumerate(hands):
            if s != seat:
                hidden.extend([c for c in h if not M[c] and not known[c]])
        hidden.extend(self._stock)
        self.seed = None
        self.initial = None
        if len(hidden) < 2:
            return
        # a uniform shuffle: the cards sorted by a random float each (two equal keys have
        # odds of about n**2 / 2**54); quicker than random.shuffle's loop of _randbelow calls
        rnd = _rng(rng).random
        keys = [rnd() for _ in hidden]
        shuffled = list(itemgetter(*sorted(range(len(hidden)), key=keys.__getitem__))(hidden))
        pos = 0
        for s, h in enumerate(hands):
            if s == seat:
                continue
            kept = [c for c in h if M[c] or known[c]]
            take = len(h) - len(kept)
            if take:
                kept += shuffled[pos : pos + take]
                pos += take
                kept.sort()
                h[:] = kept
        self._stock[:] = shuffled[pos:]
        self._legal = None

    @classmethod
    def from_observation(cls, obs: Observation, rng: RngLike = None) -> Deal:
        """A deal consistent with an observation, the unseen cards placed at random.

        This is how the search players build the worlds they search: from what their seat
        knows, never from the real deal.
        """
        return cls._rebuild(obs, _rng(rng), None)

    @classmethod
    def _rebuild(
        cls, obs: Observation, rng: random.Random, hidden: tuple[list[list[int]], list[int]] | None
    ) -> Deal:
        rules = obs.rules
        n = rules.players
        d = cls._blank(rules, obs.dealer, _kinds_of(rules))
        copies = [0] * ALL_KINDS
        pool_left = list(_counts(rules))
        offset = _offsets(rules)

        def take(k: int) -> int:
            if pool_left[k] <= 0:
                raise ValueError(f"inconsistent position: too many {CODES[k]}")
            pool_left[k] -= 1
            cid = offset[k] + copies[k]
            copies[k] += 1
            return cid

        def kinds_of(cards: Iterable[str]) -> list[int]:
            return [parse_card(c) for c in cards]

        d.hands = [[] for _ in range(n)]
        for seat in range(n):
            for ref in obs.tables[seat]:
                card, where = split_ref(ref)
                c = take(parse_card(card))
                d._mask[c] = profile_mask(where.split("+"))
                d.hands[seat].append(c)
            for k in kinds_of(obs.known[seat]):
                c = take(k)
                d._known[c] = True
                d.hands[seat].append(c)
        if obs.seat is not None:
            own_known = kinds_of(obs.known[obs.seat])
            for k in kinds_of(obs.hand):
                if k in own_known:
                    own_known.remove(k)  # already placed as a known card
                    continue
                d.hands[obs.seat].append(take(k))
            if own_known:
                raise ValueError("inconsistent position: known cards missing from the hand")
        d._trick = [(s, take(parse_card(c))) for s, c in obs.trick]
        d._tricks = [(ld, tuple(take(k) for k in kinds_of(cs)), w) for ld, cs, w in obs.tricks]
        d._turn_up = take(parse_card(obs.turn_up)) if obs.turn_up else None
        # the unseen cards
        if hidden is not None:
            for seat, ks in enumerate(hidden[0]):
                d.hands[seat].extend(take(k) for k in ks)
            stock = [take(k) for k in hidden[1]]
        else:
            unseen = [k for k in range(ALL_KINDS) for _ in range(pool_left[k])]
            rng.shuffle(unseen)
            for seat in range(n):
                short = obs.hand_sizes[seat] - len(d.hands[seat])
                if short < 0:
                    raise ValueError(f"inconsistent position: seat {seat} holds too many cards")
                d.hands[seat].extend(take(k) for k in unseen[:short])
                unseen = unseen[short:]
            stock = [take(k) for k in unseen]
        if len(stock) != obs.stock_size:
            raise ValueError(
                f"inconsistent position: {len(stock)} cards for a stock of {obs.stock_size}"
            )
        for seat in range(n):
            if len(d.hands[seat]) != obs.hand_sizes[seat]:
                raise ValueError(f"inconsistent position: seat {seat} hand size")
        if any(pool_left):
            raise ValueError("inconsistent position: the cards do not make up the pack")
        for h in d.hands:
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
        d._history = [Action.parse(a) for a in obs.history]
        for seat, name, refs in obs.live_melds:
            ids: list[int] = []
            for r in refs:
                card, where = split_ref(r)
                k, m = parse_card(card), profile_mask(where.split("+"))
                found = next(
                    (c for c in d.hands[seat] if K0[c] == k and d._mask[c] == m and c not in ids),
                    None,
                )
                if found is None:
                    raise ValueError(f"inconsistent position: meld {name} {r} not on the table")
                ids.append(found)
            d._instances.append((seat, MELD_BY_NAME[name].id, tuple(ids)))
        d._events = list(obs.events)
        for _, seat, what, pts in obs.events:
            part = 3 if what.startswith("turn-up") else 2 if what == "last trick" else 0
            d._pts[rules.side_of(seat)][part] += pts
        K = d._kinds
        per_rank, per_trick = _trick_values(rules)
        for _, cs, w in d._tricks:
            d._pts[rules.side_of(w)][1] += per_trick + sum(per_rank[K[c] & 7] for c in cs)
        return d

    # --- position strings ------------------------------------------------------------------------
    def position(self) -> str:
        """The full one-line position string (every hand and the stock order included)."""
        obs = self.observation(None)
        K, M = self._kinds, self._mask
        hands = "/".join(
            ",".join(
                CODES[k]
                for k in sorted((K[c] for c in h if not M[c] and not self._known[c]), key=sort_key)
            )
            for h in self.hands
        )
        deck = ",".join(CODES[K[c]] for c in reversed(self._stock))
        return _encode(obs, {"hands": hands, "deck": deck})

    @classmethod
    def from_position(cls, text: str) -> Deal:
        """Read a full position string written by :meth:`position`."""
        fields_, hidden = _decode(text)
        if set(hidden) != {"hands", "deck"}:
            raise ValueError(
                "this position string is one seat's view (no hands/deck): it cannot be "
                "turned back into a whole deal; use Deal.from_observation for a guess"
            )
        obs = _observation_fields(fields_, None)
        try:
            hands = [
                [parse_card(c) for c in part.split(",") if c] for part in hidden["hands"].split("/")
            ]
            deck = [parse_card(c) for c in hidden["deck"].split(",") if c]
        except ValueError as e:
            raise ValueError(f"bad position string: {e}") from None
        if len(hands) != obs.rules.players:
            raise ValueError("bad position string: wrong number of hands")
        d = cls._rebuild(obs, random.Random(0), (hands, deck))
        if d.position() != text.strip():
            raise ValueError("bad position string: it is not self-consistent")
        return d

    @classmethod
    def _observation_from_fields(cls, fields_: dict[str, str]) -> Observation:
        obs = _observation_fields(fields_, ())
        if obs.seat is not None and obs.to_move == obs.seat and obs.phase != OVER:
            world = cls.from_observation(obs, 0)
            seen = world.observation(obs.seat)
            obs = Observation(**{**obs.__dict__, "legal": seen.legal, "legal_ids": seen.legal_ids})
        return obs


def _check_dealer(rules: Rules, dealer: int) -> None:
    if not isinstance(dealer, int) or not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}: got {dealer!r}")


def _refs_match(given: tuple[str, ...], legal: tuple[str, ...]) -> int | None:
    """Can the references typed be read as the legal ones (in any order)?  ``QS@table`` takes
    any declared copy; a bare ``QS`` a concealed copy first, then a declared one.  None if
    not; else how many bare codes had to be read as declared copies."""
    if len(given) != len(legal):
        return None
    left = [split_ref(r) for r in legal]
    specific = [split_ref(g) for g in given if "@" in g]
    bare = [g for g in given if "@" not in g]
    for card, where in specific:
        i = next(
            (
                i
                for i, (lc, lw) in enumerate(left)
                if lc == card and (lw == where or (where == "table" and lw))
            ),
            None,
        )
        if i is None:
            return None
        del left[i]
    loose = 0
    for card in bare:
        i = next((i for i, (lc, lw) in enumerate(left) if lc == card and not lw), None)
        if i is None:
            loose += 1
            i = next((i for i, (lc, _) in enumerate(left) if lc == card), None)
        if i is None:
            return None
        del left[i]
    return loose


def _observation_fields(f: dict[str, str], legal: tuple[str, ...] | None) -> Observation:
    """Build an Observation from position-string fields, checking every value."""
    try:
        rules = Rules.from_string(f["rules"])
        n = rules.players

        def seat_or_none(v: str, none: str) -> int | None:
            if v == none:
                return None
            s = int(v)
            if not 0 <= s < n:
                raise ValueError(f"no seat {s}")
            return s

        def cards(v: str) -> tuple[str, ...]:
            return tuple(code(parse_card(c)) for c in v.split(",") if c)

        def refs(v: str) -> tuple[str, ...]:
            return tuple(parse_ref(c) for c in v.split(",") if c)

        def per_seat(v: str, fn: Any) -> tuple[Any, ...]:
            parts = v.split("/")
            if len(parts) != n:
                raise ValueError(f"expected {n} seats in {v!r}")
            return tuple(fn(p) for p in parts)

        def trick_item(t: str) -> tuple[int, tuple[str, ...], int]:
            ld, cs, w = t.split(":")
            return seat(ld), cards(cs.replace(".", ",")), seat(w)

        def event(t: str) -> tuple[int, int, str, int]:
            a, b, what, p = t.split(":")
            return int(a), seat(b), what, int(p)

        phase = f["phase"]
        if phase not in (PLAY, DECLARE, OVER):
            raise ValueError(f"bad phase {phase!r}")
        trump = None if f["trump"] == "-" else f["trump"]
        if trump is not None and (len(trump) != 1 or trump not in SUITS):
            raise ValueError(f"bad trump {trump!r}")

        def seat(v: str | int) -> int:
            s = int(v)
            if not 0 <= s < n:
                raise ValueError(f"no seat {s}")
            return s

        def counts(v: str, length: int, what: str) -> tuple[int, ...]:
            out = tuple(int(x) for x in v.split(","))
            if len(out) != length:
                raise ValueError(f"{what} needs {length} numbers, got {len(out)}")
            return out

        dealer = seat_or_none(f["dealer"], "")
        leader = seat_or_none(f["lead"], "")
        assert dealer is not None and leader is not None
        return Observation(
            rules=rules,
            seat=seat_or_none(f["seat"], "*"),
            dealer=dealer,
            phase=phase,
            to_move=seat_or_none(f["to"], "-"),
            stage=int(f["stage"]),
            leader=leader,
            trump=trump,
            turn_up=None if f["up"] == "-" else code(parse_card(f["up"])),
            stock_size=int(f["stock"]),
            hand=cards(f["hand"]),
            hand_sizes=counts(f["sizes"], n, "sizes"),
            tables=per_seat(f["tables"], refs),
            known=per_seat(f["known"], cards),
            trick=tuple(
                (seat(s), code(parse_card(c)))
                for s, c in (t.split(":") for t in f["trick"].split(",") if t)
            ),
            tricks=tuple(trick_item(t) for t in f["tricks"].split(",") if t),
            events=tuple(event(t) for t in f["events"].split(";") if t),
            points=counts(f["points"], rules.sides, "points"),
            declared_this_trick=int(f["declared"]),
            exchanged_this_trick=f["exchanged"] == "1",
            history=tuple(str(Action.parse(a)) for a in f["history"].split(",") if a),
            legal=legal or (),
            live_melds=tuple(
                (seat(a), b, tuple(parse_ref(r) for r in c.split(".")))
                for a, b, c in (t.split(":") for t in f["melds"].split(";") if t)
            ),
        )
    except (ValueError, IllegalAction, AssertionError) as e:
        raise ValueError(f"bad position string: {e}") from None


__all__ = ["DECLARE", "OVER", "PLAY", "Deal", "SideResult"]
_ = MELD_BY_NAME  # re-exported names used by other modules
