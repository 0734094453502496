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

Observation layout (version 2, the same as version 1)
-----------------------------------------------------

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

Action ids (version 2)
----------------------

The action ids are the core's own (:mod:`bezique.core.ids`, ``rules.num_actions``,
:meth:`Deal.legal_ids() <bezique.core.deal.Deal.legal_ids>`): pass, exchange, partner, a play
block with copy histories, a meld block and an alternate block.  An observation carries the ids
of its legal actions (``Observation.legal_ids``), so nothing here parses notation to find them.
Version 2 enlarged the alternate block (``num_actions`` grew; every version-1 id keeps its
meaning).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.cards import CODES, SUITS
from ..core.events import EventKind
from ..core.ids import ActionIds, MeldId, action_ids
from ..core.melds import MELD_CLASSES, MELDS, meld_score
from ..core.notation import Action
from ..core.observation import Observation
from ..core.percache import per_rules
from ..core.rules import Rules

ENCODING_VERSION = 2
"""Version of the observation layout and the action ids; changes whenever either changes
(2: the action ids' version 2, a larger alternate block; the observation is unchanged)."""

WILD_CODE = "XX"
PHASES = ("play", "declare", "over")


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
        # --- action ids: the core's (bezique.core.ids) -----------------------------------------
        ids = action_ids(rules)
        self.ids: ActionIds = ids
        """The action-id layout of the rules."""
        self.kind_ids: tuple[int, ...] = ids.kind_ids
        """Card kinds of the pack, in kind order (the kind axis)."""
        self.kinds: tuple[str, ...] = ids.kinds
        """Codes of the kind axis."""
        self.copies: tuple[int, ...] = ids.copies
        """Copies of each kind in the pack."""
        self._kind_index = {k: i for i, k in enumerate(self.kind_ids)}
        self._code_index = {CODES[k]: i for i, k in enumerate(self.kind_ids)}
        n = rules.players
        self.pass_id = ids.pass_id
        self.exchange_id = ids.exchange_id
        self.partner_id = ids.partner_id
        self.play_base = ids.play_base
        self.meld_base = ids.meld_base
        self.meld_ids: tuple[MeldId, ...] = ids.meld_ids
        """What each id of the meld block stands for, from :attr:`meld_base` on."""
        self.alt_base = ids.alt_base
        self.num_alternates = ids.num_alternates
        """Size of the alternate block."""
        self.num_actions = ids.num_actions
        """The number of distinct action ids (``num_distinct_actions`` in OpenSpiel)."""
        self.meld_names: tuple[str, ...] = ids.meld_names
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

    @classmethod
    def for_rules(cls, rules: Rules) -> Encoding:
        """The encoding of a rule set (built once per rule set)."""
        return _encoding(rules)

    # --- actions ----------------------------------------------------------------------------------
    def legal_ids(self, obs: Observation) -> list[tuple[int, str]]:
        """The legal actions of the observation as ``(id, notation)`` pairs, sorted by id.

        Empty unless the observing seat is to move.  The ids come with the observation
        (``obs.legal_ids``); an observation read from text without them is worked out by
        :meth:`bezique.core.ids.ActionIds.from_observation`.
        """
        if not obs.legal:
            return []
        if len(obs.legal_ids) == len(obs.legal):
            return sorted(zip(obs.legal_ids, obs.legal, strict=True))
        return self.ids.from_observation(obs)

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
        return self.ids.describe(action_id)

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
        for e in obs.events:
            kind = e.kind
            if kind is EventKind.MELD:
                j = col.get(e.meld)
                if j is not None:
                    x[o_m + rel(e.seat) * M + j] += 1
            elif kind is EventKind.EXCHANGE and o_e >= 0:
                x[o_e + rel(e.seat)] += 1
            elif kind is EventKind.CARTE_BLANCHE and o_cb >= 0:
                x[o_cb + rel(e.seat)] += 1
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
        return self.ids.table()


@per_rules
def _encoding(rules: Rules) -> Encoding:
    return Encoding(rules)


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
