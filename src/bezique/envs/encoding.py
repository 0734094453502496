"""Numbers for machines: a flat observation tensor and dense action ids, defined once per `Rules`.

Everything here is computed from one seat's :class:`~bezique.core.observation.Observation`
(what :meth:`Deal.observation(seat) <bezique.core.deal.Deal.observation>` returns) and from the
:class:`~bezique.core.rules.Rules`; nothing reads a :class:`~bezique.core.deal.Deal`.  The
Gymnasium, PettingZoo and OpenSpiel adapters all use this one module, so the three frameworks see
the same numbers.  :data:`ENCODING_VERSION` changes whenever either layout changes.

Conventions
-----------

*Card kinds.*  The kind axis lists the card kinds the pack holds, in card-kind order
(``AS TS KS QS JS 9S 8S 7S AH ... 7C``, then ``XX`` where the rules have wild cards); a pack
without some ranks (old Russian) has a shorter axis.  ``Encoding.kinds`` gives the codes.

*Relative seats.*  Per-seat blocks start with the observing seat and go clockwise: row 0 is the
observer, row 1 the next seat, and so on.  Per-side blocks start with the observer's side.

*Values.*  Counts and points are raw numbers (not scaled); flags and one-hots are 0 or 1.

Observation layout (version 1)
------------------------------

``n`` is the number of players, ``s`` of sides, ``K`` of card kinds, ``M`` of meld kinds in
the action table (:attr:`Encoding.meld_names`).  Blocks follow each other in this order:

==================  ===========  ==============================================================
block               shape        meaning
==================  ===========  ==============================================================
hand                K            own concealed cards, copies per kind
table               n x K        declared cards on the table, per seat
table_class         n x K x 4    declared copies that have scored in a meld of class
                                 A (marriages, sequences), B (beziques), C (quartets and sets),
                                 S (sevens); a broken meld (re-forming) counts in its class
known               n x K        concealed cards every player knows the seat holds
played              K            cards played to completed tricks
trick               n x K        the card each seat has played to the trick in progress
leader              n            one-hot: the seat that leads the trick in progress
melds_scored        n x M        declarations scored this deal, per seat and meld kind
exchanges           n            exchanges of the turn-up, per seat (only with a turn-up)
live_melds          n x M        melds whose cards are all still on the table (only with
                                 ``meld_reforming``)
carte_blanche       n            carte blanche scores, per seat (only with ``carte_blanche``)
trump               4            one-hot trump suit (S H D C); all 0 while not fixed
turn_up             K            one-hot turn-up card; all 0 once taken (only with a turn-up)
stock               1            face-down cards left to draw
hand_sizes          n            cards held (concealed and declared), per seat
points              s            points so far this deal, per side
phase               3            one-hot: play, declare, over
stage               2            one-hot: stage 1 (stock left), stage 2
to_move             n            one-hot: the seat to move; all 0 once the deal is over
dealer              n            one-hot: the dealer
declared            1            declarations already made after this trick
exchanged           1            1 if the turn-up was exchanged after this trick (only with
                                 a turn-up)
tricks_won          n            completed tricks won, per seat
==================  ===========  ==============================================================

Action ids (version 1)
----------------------

=====================  ==============================================================
ids                    meaning
=====================  ==============================================================
0                      ``pass``
1 (if any)             ``exchange`` (the seven, or the nine, of trumps for the turn-up)
next (if any)          ``partner`` (hand the declaration to the partner)
play block             ``play``: for each card kind, ``1 + copies`` ids: offset 0 plays
                       a concealed copy, offset ``v >= 1`` plays a declared copy with
                       the ``v``-th distinct history among the seat's declared copies of
                       that kind (histories in ascending order of their meld bit mask)
meld block             ``meld``: one id per (meld kind, multiset of card kinds, number of
                       declared copies used of each kind in it); see below
alternate block        further declarations that share a meld id (see below)
=====================  ==============================================================

The meld table is enumerated from the rules: every meld kind that scores under them (carte
blanche, which is never declared, excepted; the double royal marriage included where
``trump_double_marriage`` scores it), every trump suit (and none, before trump is fixed), every
way :func:`bezique.core.melds.slots` allows the meld to be formed, and, with wild cards, every
such multiset with one card replaced by ``XX``.  For each multiset, each kind ``k`` in it that
is needed ``c`` times contributes a count ``0..c`` of declared copies; a combination that uses
no concealed card is left out unless the rules have ``meld_reforming`` (only then may a meld be
formed again from declared cards alone, those of a broken meld).  Ids run in meld-kind order,
then multiset order, then declared counts.  :meth:`Encoding.describe` names every id.

Two legal declarations get the same meld id only when they use the same numbers of declared
copies but declared copies with different histories (``meld bezique QS@marriage JD`` and
``meld bezique QS@four-queens JD``).  Then, in that state, the one whose notation sorts first
keeps the meld id and the others take ids from the alternate block, in order of meld id and
then of notation.  The block holds ``4 x (most copies of a kind) + 8`` ids (``8 x ... + 8`` with
meld re-forming), several times what any position needed in scans of random deals
(``scripts/scan_action_ids.py``); a position that would need more raises ``RuntimeError`` (an
action is never dropped or substituted).

``Encoding(rules).num_actions`` is the size of the whole range; it depends on the variant.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..core.cards import CODES, SUITS, parse_card
from ..core.melds import (
    DOUBLE_ROYAL_MARRIAGE,
    MELDS,
    meld_score,
    profile_mask,
    slots,
)
from ..core.notation import Action
from ..core.observation import Observation
from ..core.rules import Rules

ENCODING_VERSION = 1
"""Version of the observation layout and the action ids; changes whenever either changes."""

MELD_CLASSES = ("A", "B", "C", "S")
"""Meld classes in the ``table_class`` block: marriages and sequences, beziques, quartets and
sets, sevens."""

WILD_CODE = "XX"
PHASES = ("play", "declare", "over")

Multiset = tuple[tuple[int, int], ...]
"""A multiset of card kinds as sorted ``(kind, count)`` pairs."""


@dataclass(frozen=True)
class Block:
    """One named part of the observation tensor."""

    name: str
    offset: int
    shape: tuple[int, ...]
    high: float
    """The largest value an entry can take (the smallest is 0, or ``-high`` for points)."""
    doc: str

    @property
    def size(self) -> int:
        """Number of entries."""
        return int(np.prod(self.shape))

    @property
    def signed(self) -> bool:
        """True when entries may be negative (points)."""
        return self.name == "points"


@dataclass(frozen=True)
class MeldId:
    """What one id of the meld block stands for."""

    meld: str
    """The meld kind, by notation name."""
    cards: Multiset
    """The card kinds it takes, with their counts."""
    declared: tuple[int, ...]
    """For each kind of :attr:`cards`, how many of its copies come from the table."""

    def text(self) -> str:
        """A readable description, e.g. ``meld bezique QS JD (declared: QS)``."""
        cards = " ".join(CODES[k] for k, n in self.cards for _ in range(n))
        used = [
            f"{CODES[k]}" + (f"x{t}" if t > 1 else "")
            for (k, _), t in zip(self.cards, self.declared, strict=True)
            if t
        ]
        return f"meld {self.meld} {cards}" + (f" (declared: {' '.join(used)})" if used else "")


def max_points(rules: Rules) -> float:
    """A generous bound on the points one side can make in a deal (no real deal comes near)."""
    scores = [meld_score(rules, m.id) for m in MELDS]
    top_meld = max([*scores, rules.trump_double_marriage, rules.seven_of_trumps, 0])
    declarations = rules.stage1_tricks * (rules.melds_scored_per_trick + 1) + 1
    melds = float(top_meld) * declarations
    if rules.repeat_doubles:
        melds *= 2.0 ** min(declarations, 100)
    per_trick = 11 * rules.players + 10
    tricks = float(per_trick * rules.tricks + rules.last_trick_bonus)
    carte = float(rules.carte_blanche) * (rules.stage1_tricks + 1)
    return melds + tricks + carte + 100.0


class Encoding:
    """The observation layout and the action ids of one rule set (see the module docstring).

    Build it with :meth:`for_rules` (cached): ``Encoding.for_rules(rules).encode(observation)``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        """The rules this encoding is for."""
        counts = Counter(rules.pack_kinds)
        self.kind_ids: tuple[int, ...] = tuple(sorted(counts))
        """Card kinds of the pack, in kind order (the kind axis)."""
        self.kinds: tuple[str, ...] = tuple(CODES[k] for k in self.kind_ids)
        """Codes of the kind axis."""
        self.copies: tuple[int, ...] = tuple(counts[k] for k in self.kind_ids)
        """Copies of each kind in the pack."""
        self._kind_index = {k: i for i, k in enumerate(self.kind_ids)}
        self._code_index = {CODES[k]: i for i, k in enumerate(self.kind_ids)}
        n = rules.players

        # --- action ids -------------------------------------------------------------------
        self.pass_id = 0
        nxt = 1
        self.exchange_id: int | None = None
        if rules.turn_up:
            self.exchange_id, nxt = nxt, nxt + 1
        self.partner_id: int | None = None
        if rules.partnerships and rules.partner_declaring == "winner-or-partner":
            self.partner_id, nxt = nxt, nxt + 1
        self.play_base = nxt
        self._play_offset: list[int] = []
        for c in self.copies:
            self._play_offset.append(nxt)
            nxt += 1 + c
        self.meld_base = nxt
        self.meld_ids: tuple[MeldId, ...] = tuple(self._meld_table())
        """What each id of the meld block stands for, from :attr:`meld_base` on."""
        self._meld_id = {
            (m.meld, tuple((k, c, t) for (k, c), t in zip(m.cards, m.declared, strict=True))): i
            + self.meld_base
            for i, m in enumerate(self.meld_ids)
        }
        nxt += len(self.meld_ids)
        self.alt_base = nxt
        self.num_alternates = (8 if rules.meld_reforming else 4) * max(self.copies) + 8
        """Size of the alternate block."""
        nxt += self.num_alternates
        self.num_actions = nxt
        """The number of distinct action ids (``num_distinct_actions`` in OpenSpiel)."""
        self.meld_names: tuple[str, ...] = tuple(dict.fromkeys(m.meld for m in self.meld_ids))
        """Meld kinds of the action table, in meld-kind order (the ``melds_scored`` axis)."""
        self._meld_column = {name: i for i, name in enumerate(self.meld_names)}
        self._klass = {
            m.name: MELD_CLASSES.index(m.klass) for m in MELDS if m.klass in MELD_CLASSES
        }

        # --- observation layout ------------------------------------------------------------
        K, M, top = len(self.kind_ids), len(self.meld_names), float(max(self.copies))
        pts = max_points(rules)
        spec: list[tuple[str, tuple[int, ...], float, str]] = [
            ("hand", (K,), top, "own concealed cards, copies per kind"),
            ("table", (n, K), top, "declared cards on the table, per seat"),
            ("table_class", (n, K, 4), top, "declared copies that have scored in class A/B/C/S"),
            ("known", (n, K), top, "concealed cards every player knows the seat holds"),
            ("played", (K,), top, "cards played to completed tricks"),
            ("trick", (n, K), 1.0, "card each seat has played to the trick in progress"),
            ("leader", (n,), 1.0, "one-hot: seat leading the trick in progress"),
            (
                "melds_scored",
                (n, M),
                float(rules.tricks * rules.melds_scored_per_trick),
                "declarations per seat and meld kind",
            ),
        ]
        if rules.turn_up:
            spec.append(
                ("exchanges", (n,), float(rules.tricks), "exchanges of the turn-up, per seat")
            )
        if rules.meld_reforming:
            spec.append(
                ("live_melds", (n, M), float(rules.cards), "live melds, per seat and meld kind")
            )
        if rules.carte_blanche:
            spec.append(
                ("carte_blanche", (n,), float(rules.cards), "carte blanche scores, per seat")
            )
        spec += [
            ("trump", (4,), 1.0, "one-hot trump suit S H D C; all 0 while not fixed"),
        ]
        if rules.turn_up:
            spec.append(("turn_up", (K,), 1.0, "one-hot turn-up card"))
        spec += [
            ("stock", (1,), float(rules.cards), "face-down cards left to draw"),
            ("hand_sizes", (n,), float(rules.cards), "cards held, per seat"),
            ("points", (rules.sides,), pts, "points so far this deal, per side"),
            ("phase", (3,), 1.0, "one-hot: play, declare, over"),
            ("stage", (2,), 1.0, "one-hot: stage 1, stage 2"),
            ("to_move", (n,), 1.0, "one-hot: seat to move"),
            ("dealer", (n,), 1.0, "one-hot: dealer"),
            (
                "declared",
                (1,),
                float(rules.melds_scored_per_trick + 1),
                "declarations after this trick",
            ),
        ]
        if rules.turn_up:
            spec.append(("exchanged", (1,), 1.0, "1 if the turn-up was exchanged after this trick"))
        spec.append(("tricks_won", (n,), float(rules.tricks), "completed tricks won, per seat"))
        blocks, offset = [], 0
        for name, shape, high, doc in spec:
            b = Block(name, offset, shape, high, doc)
            blocks.append(b)
            offset += b.size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        """The observation blocks, in order."""
        self.block: dict[str, Block] = {b.name: b for b in blocks}
        """The observation blocks by name."""
        self.size = offset
        """Length of the observation tensor."""
        self.low = np.zeros(self.size, np.float32)
        """Lower bounds of the observation entries."""
        self.high = np.zeros(self.size, np.float32)
        """Upper bounds of the observation entries."""
        for b in blocks:
            self.high[b.offset : b.offset + b.size] = b.high
            if b.signed:
                self.low[b.offset : b.offset + b.size] = -b.high
        self._parsed: dict[str, tuple[str, str, tuple[tuple[int, str], ...]]] = {}

    @classmethod
    def for_rules(cls, rules: Rules) -> Encoding:
        """The encoding of a rule set (built once per rule set)."""
        return _encoding(rules)

    # --- the meld table -------------------------------------------------------------------------
    def _declarable(self) -> list[int]:
        rules = self.rules
        out = []
        for m in MELDS:
            if m.klass == "X":
                continue
            if meld_score(rules, m.id) > 0 or (
                m.id == DOUBLE_ROYAL_MARRIAGE and rules.trump_double_marriage
            ):
                out.append(m.id)
        return out

    def _multisets(self, meld: int) -> list[Multiset]:
        rules = self.rules
        avail = dict(zip(self.kind_ids, self.copies, strict=True))
        found: set[Multiset] = set()
        for trump in (None, 0, 1, 2, 3):
            for req in slots(rules, meld, trump):
                per_slot = [list(_fill(kinds, n)) for kinds, n in req]
                for combo in itertools.product(*per_slot):
                    total: Counter[int] = Counter()
                    for part in combo:
                        total.update(part)
                    variants = [total]
                    if rules.wild_cards and sum(total.values()) > 1:
                        wild = parse_card(WILD_CODE)
                        for k in list(total):
                            v = total.copy()
                            v[k] -= 1
                            v[wild] += 1
                            variants.append(+v)
                    for v in variants:
                        if all(avail.get(k, 0) >= c for k, c in v.items()):
                            found.add(tuple(sorted(v.items())))
        return sorted(found)

    def _meld_table(self) -> Iterator[MeldId]:
        reform = self.rules.meld_reforming
        for meld in self._declarable():
            name = MELDS[meld].name
            for ms in self._multisets(meld):
                for declared in itertools.product(*(range(c + 1) for _, c in ms)):
                    if reform or sum(declared) < sum(c for _, c in ms):
                        yield MeldId(name, ms, tuple(declared))

    # --- actions ----------------------------------------------------------------------------------
    def _parse(self, text: str) -> tuple[str, str, tuple[tuple[int, str], ...]]:
        got = self._parsed.get(text)
        if got is None:
            a = Action.parse(text)
            refs = []
            for r in a.cards:
                card, _, where = r.partition("@")
                refs.append((self._code_index[card], where))
            got = self._parsed[text] = (a.verb, a.meld, tuple(refs))
        return got

    def legal_ids(self, obs: Observation) -> list[tuple[int, str]]:
        """The legal actions of the observation as ``(id, notation)`` pairs, sorted by id.

        Empty unless the observing seat is to move.  Raises ``RuntimeError`` if a position needs
        more alternate ids than the encoding reserves, and ``KeyError`` for an action the
        table lacks (neither should happen; both are bugs to report).
        """
        if not obs.legal:
            return []
        seat = obs.seat
        assert seat is not None
        concealed = set(obs.hand)
        histories: dict[str, list[int]] | None = None
        out: list[tuple[int, str]] = []
        melds: dict[int, list[str]] = {}
        for text in obs.legal:
            verb, meld, refs = self._parse(text)
            if verb == "play":
                ki, where = refs[0]
                if not where and CODES[self.kind_ids[ki]] in concealed:
                    v = 0
                elif where and where != "table":
                    if histories is None:
                        histories = _histories(obs.tables[seat])
                    v = 1 + histories[self.kinds[ki]].index(profile_mask(where.split("+")))
                else:
                    v = 1
                out.append((self._play_offset[ki] + v, text))
            elif verb == "meld":
                need: Counter[int] = Counter()
                decl: Counter[int] = Counter()
                for ki, where in refs:
                    k = self.kind_ids[ki]
                    need[k] += 1
                    if where or CODES[k] not in concealed:
                        decl[k] += 1
                key = (meld, tuple((k, need[k], decl[k]) for k in sorted(need)))
                mid = self._meld_id.get(key)
                if mid is None:
                    raise KeyError(f"{text!r} has no id in the action table of {self.rules}")
                melds.setdefault(mid, []).append(text)
            elif verb == "pass":
                out.append((self.pass_id, text))
            elif verb == "exchange" and self.exchange_id is not None:
                out.append((self.exchange_id, text))
            elif verb == "partner" and self.partner_id is not None:
                out.append((self.partner_id, text))
            else:
                raise KeyError(f"{text!r} has no id in the action table of {self.rules}")
        alt = self.alt_base
        for mid in sorted(melds):
            texts = sorted(melds[mid])
            out.append((mid, texts[0]))
            for text in texts[1:]:
                if alt >= self.num_actions:
                    raise RuntimeError(
                        f"more than {self.num_alternates} alternate declarations in one position "
                        f"of {self.rules}; please report it with the position string"
                    )
                out.append((alt, text))
                alt += 1
        out.sort()
        return out

    def action_mask(self, obs: Observation) -> np.ndarray:
        """A 0/1 ``int8`` vector over every action id, 1 for the legal ones."""
        mask = np.zeros(self.num_actions, np.int8)
        for i, _ in self.legal_ids(obs):
            mask[i] = 1
        return mask

    def action(self, obs: Observation, action_id: int) -> Action:
        """The legal action with this id; ``ValueError`` if the id is not legal here."""
        for i, text in self.legal_ids(obs):
            if i == action_id:
                return Action.parse(text)
        raise ValueError(
            f"action id {action_id} ({self.describe(int(action_id))}) is not legal here"
        )

    def action_id(self, obs: Observation, action: Action | str) -> int:
        """The id of a legal action; ``ValueError`` if it is not one of ``obs.legal``."""
        text = str(action) if isinstance(action, Action) else str(Action.parse(action))
        for i, t in self.legal_ids(obs):
            if t == text:
                return i
        raise ValueError(f"{text!r} is not a legal action here")

    def describe(self, action_id: int) -> str:
        """What an id stands for, whatever the position (``play QS (declared, history 1)``)."""
        i = int(action_id)
        if i == self.pass_id:
            return "pass"
        if i == self.exchange_id:
            return "exchange"
        if i == self.partner_id:
            return "partner"
        if self.play_base <= i < self.meld_base:
            ki = max(j for j, off in enumerate(self._play_offset) if off <= i)
            v = i - self._play_offset[ki]
            return f"play {self.kinds[ki]}" + (f" (declared, history {v})" if v else "")
        if self.meld_base <= i < self.alt_base:
            return self.meld_ids[i - self.meld_base].text()
        if self.alt_base <= i < self.num_actions:
            return f"alternate declaration {i - self.alt_base}"
        raise ValueError(f"no action id {action_id}: ids run from 0 to {self.num_actions - 1}")

    # --- observations -------------------------------------------------------------------------------
    def zeros(self) -> np.ndarray:
        """A zero observation vector."""
        return np.zeros(self.size, np.float32)

    def encode(
        self, obs: Observation, out: np.ndarray | None = None, seat: int | None = None
    ) -> np.ndarray:
        """The observation tensor of a seat's view (``float32``, length :attr:`size`).

        ``out`` is filled in place if given.  The spectator's view (``obs.seat`` None) needs
        ``seat``, the seat whose rows come first; its ``hand`` block is empty.
        """
        me = obs.seat if obs.seat is not None else seat
        if me is None:
            raise ValueError("the spectator's view needs a seat to order the seats from")
        rules, n = self.rules, self.rules.players
        K = len(self.kind_ids)
        x = self.zeros() if out is None else out
        if out is not None:
            x.fill(0.0)
        ci = self._code_index
        blk = self.block

        def rel(seat: int) -> int:
            return (seat - me) % n

        o = blk["hand"].offset
        for c in obs.hand:
            x[o + ci[c]] += 1
        o_t, o_c = blk["table"].offset, blk["table_class"].offset
        klass = self._klass
        for seat, refs in enumerate(obs.tables):
            r = rel(seat)
            for ref in refs:
                card, _, where = ref.partition("@")
                ki = ci[card]
                x[o_t + r * K + ki] += 1
                seen = set()
                for name in where.split("+"):
                    cl = klass.get(name.removeprefix("broken-"))
                    if cl is not None and cl not in seen:
                        seen.add(cl)
                        x[o_c + (r * K + ki) * 4 + cl] += 1
        o = blk["known"].offset
        for seat, cards in enumerate(obs.known):
            r = rel(seat)
            for c in cards:
                x[o + r * K + ci[c]] += 1
        o = blk["played"].offset
        o_w = blk["tricks_won"].offset
        for _, cards, winner in obs.tricks:
            for c in cards:
                x[o + ci[c]] += 1
            x[o_w + rel(winner)] += 1
        o = blk["trick"].offset
        for seat, c in obs.trick:
            x[o + rel(seat) * K + ci[c]] = 1
        x[blk["leader"].offset + rel(obs.leader)] = 1
        M = len(self.meld_names)
        o_m = blk["melds_scored"].offset
        o_e = blk["exchanges"].offset if "exchanges" in blk else -1
        o_cb = blk["carte_blanche"].offset if "carte_blanche" in blk else -1
        col = self._meld_column
        for _, seat, what, _ in obs.events:
            if what.startswith("meld "):
                j = col.get(what.split(" ", 2)[1])
                if j is not None:
                    x[o_m + rel(seat) * M + j] += 1
            elif what.startswith("exchange ") and o_e >= 0:
                x[o_e + rel(seat)] += 1
            elif what == "carte blanche" and o_cb >= 0:
                x[o_cb + rel(seat)] += 1
        if "live_melds" in blk:
            o = blk["live_melds"].offset
            for seat, name, _ in obs.live_melds:
                j = col.get(name)
                if j is not None:
                    x[o + rel(seat) * M + j] += 1
        if obs.trump is not None:
            x[blk["trump"].offset + SUITS.index(obs.trump)] = 1
        if obs.turn_up is not None and "turn_up" in blk:
            x[blk["turn_up"].offset + ci[obs.turn_up]] = 1
        x[blk["stock"].offset] = obs.stock_size
        o = blk["hand_sizes"].offset
        for seat, size in enumerate(obs.hand_sizes):
            x[o + rel(seat)] = size
        o, sides = blk["points"].offset, rules.sides
        mine = rules.side_of(me)
        for side, p in enumerate(obs.points):
            x[o + (side - mine) % sides] = p
        x[blk["phase"].offset + PHASES.index(obs.phase)] = 1
        x[blk["stage"].offset + (0 if obs.stage == 1 else 1)] = 1
        if obs.to_move is not None:
            x[blk["to_move"].offset + rel(obs.to_move)] = 1
        x[blk["dealer"].offset + rel(obs.dealer)] = 1
        x[blk["declared"].offset] = obs.declared_this_trick
        if "exchanged" in blk:
            x[blk["exchanged"].offset] = 1 if obs.exchanged_this_trick else 0
        return x

    def view(self, x: np.ndarray, name: str) -> np.ndarray:
        """The named block of an observation vector, in its shape (a view, not a copy)."""
        b = self.block[name]
        return x[b.offset : b.offset + b.size].reshape(b.shape)

    def layout_table(self) -> str:
        """The observation layout of these rules as a text table (for docs and debugging)."""
        rows = [f"{'block':<14} {'offset':>6} {'shape':<12} meaning"]
        for b in self.blocks:
            shape = " x ".join(str(s) for s in b.shape)
            rows.append(f"{b.name:<14} {b.offset:>6} {shape:<12} {b.doc}")
        return "\n".join(rows)

    def action_table(self) -> str:
        """The action-id ranges of these rules as a text table (for docs and debugging)."""
        rows = [f"{'ids':<12} meaning", f"{self.pass_id:<12} pass"]
        if self.exchange_id is not None:
            rows.append(f"{self.exchange_id:<12} exchange")
        if self.partner_id is not None:
            rows.append(f"{self.partner_id:<12} partner")
        for lo, hi, what in (
            (self.play_base, self.meld_base, "play (card kind x copy history)"),
            (self.meld_base, self.alt_base, f"meld ({len(self.meld_ids)} ids)"),
            (self.alt_base, self.num_actions, "alternate declarations"),
        ):
            rows.append(f"{f'{lo}-{hi - 1}':<12} {what}")
        return "\n".join(rows)


@cache
def _encoding(rules: Rules) -> Encoding:
    return Encoding(rules)


def _fill(kinds: Sequence[int], n: int) -> Iterator[Counter[int]]:
    """Every multiset of ``n`` cards drawn from ``kinds`` (with repetition)."""
    for combo in itertools.combinations_with_replacement(sorted(kinds), n):
        yield Counter(combo)


def _histories(refs: Iterable[str]) -> dict[str, list[int]]:
    """Per card code, the distinct meld masks of the declared copies, ascending."""
    out: dict[str, set[int]] = {}
    for ref in refs:
        card, _, where = ref.partition("@")
        out.setdefault(card, set()).add(profile_mask(where.split("+")))
    return {card: sorted(masks) for card, masks in out.items()}


def relative_points(points: Sequence[float]) -> list[float]:
    """Each side's margin: its points less the mean of the other sides' (they sum to 0)."""
    s = len(points)
    total = float(sum(points))
    return [float(p) - (total - p) / (s - 1) for p in points]


def outcome(winners: Sequence[int], sides: int) -> list[float]:
    """Per side: a sole winner +1 and the others ``-1/(sides-1)``; ``w`` tied winners share
    so that the values still sum to 0; no winner (a tie of all) gives 0 to all."""
    w = len(winners)
    if w == 0 or w == sides:
        return [0.0] * sides
    win = (sides - w) / (w * (sides - 1))
    lose = -1.0 / (sides - 1)
    return [win if s in winners else lose for s in range(sides)]


__all__ = [
    "ENCODING_VERSION",
    "MELD_CLASSES",
    "Block",
    "Encoding",
    "MeldId",
    "max_points",
    "outcome",
    "relative_points",
]


def scan(rules: Rules, deals: int, seed: int = 0) -> dict[str, int]:
    """Play ``deals`` random deals (half of them declaring whenever they can) and check that
    the ids of the legal actions are distinct in every position; returns the counts
    (positions, positions needing alternate ids, most alternates in one position)."""
    import random

    from ..core.deal import Deal

    enc = Encoding.for_rules(rules)
    positions = with_alternates = most = 0
    for i in range(deals):
        deal = Deal.new(rules, seed=seed + i, dealer=i % rules.players)
        rng = random.Random(seed + i)
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            ids = enc.legal_ids(obs)
            if len({a for a, _ in ids}) != len(obs.legal) or sorted(t for _, t in ids) != sorted(
                obs.legal
            ):
                raise AssertionError(f"ids not one-to-one in {obs.to_string()}")
            alts = sum(1 for a, _ in ids if a >= enc.alt_base)
            positions += 1
            with_alternates += alts > 0
            most = max(most, alts)
            actions = deal.legal_actions()
            melds = [a for a in actions if a.verb == "meld"]
            deal.apply(rng.choice(melds if melds and i % 2 == 0 else actions))
    return {"positions": positions, "with_alternates": with_alternates, "most_alternates": most}
