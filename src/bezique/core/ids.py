"""Integer action ids: one fixed id space per :class:`~bezique.core.rules.Rules`.

Every decision a deal can offer has an id in ``range(rules.num_actions)``, so that a learning
program, an array of visit counts or the compiled engine can name actions by number.  A deal
lists its legal ids with :meth:`Deal.legal_ids() <bezique.core.deal.Deal.legal_ids>` and applies
one with :meth:`Deal.apply_id`; :meth:`Deal.action_id` and :meth:`Deal.id_action` turn an action
into its id and back in that position.  :meth:`ActionIds.describe` names an id whatever the
position.  :data:`IDS_VERSION` changes whenever the layout changes.

Layout (version 2)
------------------

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

Card kinds run in kind order (``AS TS KS QS JS 9S 8S 7S AH ... 7C``, then ``XX`` where the rules
have wild cards); a pack without some ranks (old Russian) has fewer.

The meld table is enumerated from the rules: every meld kind that scores under them (carte
blanche, which is never declared, excepted; the double royal marriage included where
``trump_double_marriage`` scores it), every trump suit (and none, before trump is fixed), every
way :func:`bezique.core.melds.slots` allows the meld to be formed, and, with wild cards, every
such multiset with one card replaced by ``XX``.  For each multiset, each kind ``k`` in it that
is needed ``c`` times contributes a count ``0..c`` of declared copies; a combination that uses
no concealed card is left out unless the rules have ``meld_reforming`` (only then may a meld be
formed again from declared cards alone, those of a broken meld).  Ids run in meld-kind order,
then multiset order, then declared counts.

Two legal declarations get the same meld id only when they use the same numbers of declared
copies but declared copies with different histories (``meld bezique QS@marriage JD`` and
``meld bezique QS@four-queens JD``).  Then, in that state, the one whose notation sorts first
keeps the meld id and the others take ids from the alternate block, in order of meld id and
then of notation.  The block holds ``16 x (most copies of a kind) + 32`` ids (``32 x ... + 32``
with meld re-forming or wild cards), several times what any position needed in scans of deals
played by the heuristic and learned players (``scripts/scan_action_ids.py --bots``), who keep
their declared cards and declare them again; a position that would need more raises
``RuntimeError`` (an action is never dropped or substituted).

Version 2 differs from version 1 only in the size of the alternate block (version 1 held
``4 x ... + 8``, or ``8 x ... + 8``, which such deals overran: an old Russian position needed 61
of its 40).  Every id of version 1 means the same in version 2; ``num_actions`` grew.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import ALL_KINDS, CODES, WILD
from .melds import DOUBLE_ROYAL_MARRIAGE, MELD_BY_NAME, MELDS, meld_score, profile_mask, slots
from .notation import PARTNER, PASS, Action
from .percache import per_rules

if TYPE_CHECKING:
    from .observation import Observation
    from .rules import Rules

IDS_VERSION = 2
"""Version of the action-id layout; changes whenever the layout changes."""

Multiset = tuple[tuple[int, int], ...]
"""A multiset of card kinds as sorted ``(kind, count)`` pairs."""

MeldKey = tuple[int, tuple[tuple[int, int, int], ...]]
"""(meld id, ((kind, copies needed, declared copies used), ...) sorted by kind)."""


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


class PlayIds:
    """The part of a rule set's id layout that needs no meld table: ``pass``, ``exchange``,
    ``partner`` and the play block, with the tables move generation and the search players
    read (cheap to build; get it with :func:`play_ids`).
    """

    __slots__ = (
        "card_play_id",
        "copies",
        "exchange_id",
        "kind_ids",
        "kinds",
        "meld_base",
        "meld_memo",
        "names",
        "partner_id",
        "pass_id",
        "play_base",
        "play_kind",
        "play_offset",
        "static_ids",
    )

    def __init__(self, rules: Rules) -> None:
        counts = Counter(rules.pack_kinds)
        self.kind_ids: tuple[int, ...] = tuple(sorted(counts))
        """Card kinds of the pack, in kind order."""
        self.kinds: tuple[str, ...] = tuple(CODES[k] for k in self.kind_ids)
        """Codes of :attr:`kind_ids`."""
        self.copies: tuple[int, ...] = tuple(counts[k] for k in self.kind_ids)
        """Copies of each kind in the pack."""
        self.pass_id = 0
        """The id of ``pass``."""
        nxt = 1
        self.exchange_id: int | None = None
        """The id of ``exchange`` (None in games without a turn-up)."""
        if rules.turn_up:
            self.exchange_id, nxt = nxt, nxt + 1
        self.partner_id: int | None = None
        """The id of ``partner`` (None unless the partner may declare)."""
        if rules.partnerships and rules.partner_declaring == "winner-or-partner":
            self.partner_id, nxt = nxt, nxt + 1
        self.play_base = nxt
        """The first id of the play block."""
        offsets = [-1] * ALL_KINDS
        for k, c in zip(self.kind_ids, self.copies, strict=True):
            offsets[k] = nxt
            nxt += 1 + c
        self.play_offset: tuple[int, ...] = tuple(offsets)
        """Per card kind (indexed by kind, ``-1`` where the pack has none), the id that plays
        a concealed copy; ``+ v`` plays a declared copy of the ``v``-th history."""
        self.meld_base = nxt
        """The first id of the meld block (the end of the play block)."""
        self.card_play_id: tuple[int, ...] = tuple(offsets[k] for k in sorted(rules.pack_kinds))
        """Per card id of a deal (ids run kind by kind), the id that plays it concealed."""
        kind_of = [-1] * nxt
        for k in self.kind_ids:
            for v in range(1 + counts[k]):
                kind_of[offsets[k] + v] = k
        self.play_kind: tuple[int, ...] = tuple(kind_of)
        """Per id below :attr:`meld_base`, the card kind it plays (``-1`` for pass, exchange
        and partner): what a search player reads instead of the action's notation."""
        names: dict[int, Action] = {0: PASS}
        if self.partner_id is not None:
            names[self.partner_id] = PARTNER
        for k in self.kind_ids:
            names[offsets[k]] = Action("play", "", (CODES[k],))
        # a dict, not a tuple: map(names.__getitem__, ...) is a fast call on a dict only
        self.names: dict[int, Action] = names
        """The action of each id whose notation is the same in every position: pass, partner,
        the play of a concealed copy."""
        self.static_ids: dict[Action, int] = {a: i for i, a in names.items()}
        """The id of each action of :attr:`names`: right wherever that id is legal."""
        self.meld_memo: dict[tuple[int, tuple[int, ...]], int] = {}
        """Meld ids met so far, by (meld, sorted ``kind << 1 | declared`` of its cards): what
        the id is made of, so a deal finds a meld's id again without the general way."""


@per_rules
def play_ids(rules: Rules) -> PlayIds:
    """The play part of a rule set's id layout (built once per rule set, cheaply)."""
    return PlayIds(rules)


class ActionIds:
    """The action-id layout of one rule set (see the module docstring).

    Get it with :func:`action_ids` (built once per rule set).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        """The rules this layout is for."""
        base = play_ids(rules)
        self.kind_ids: tuple[int, ...] = base.kind_ids
        """Card kinds of the pack, in kind order."""
        self.kinds: tuple[str, ...] = base.kinds
        """Codes of :attr:`kind_ids`."""
        self.copies: tuple[int, ...] = base.copies
        """Copies of each kind in the pack."""
        self.pass_id = 0
        """The id of ``pass``."""
        self.exchange_id: int | None = base.exchange_id
        """The id of ``exchange`` (None in games without a turn-up)."""
        self.partner_id: int | None = base.partner_id
        """The id of ``partner`` (None unless the partner may declare)."""
        self.play_base = base.play_base
        """The first id of the play block."""
        self.play_offset: tuple[int, ...] = base.play_offset
        """Per card kind (indexed by kind, ``-1`` where the pack has none), the id that plays
        a concealed copy; ``+ v`` plays a declared copy of the ``v``-th history."""
        nxt = self.meld_base = base.meld_base
        """The first id of the meld block."""
        self.meld_ids: tuple[MeldId, ...] = tuple(self._meld_table())
        """What each id of the meld block stands for, from :attr:`meld_base` on."""
        self.meld_key: dict[MeldKey, int] = {
            (
                MELD_BY_NAME[m.meld].id,
                tuple((k, c, t) for (k, c), t in zip(m.cards, m.declared, strict=True)),
            ): i + self.meld_base
            for i, m in enumerate(self.meld_ids)
        }
        """The meld id of each (meld, kinds with needed and declared counts)."""
        nxt += len(self.meld_ids)
        self.alt_base = nxt
        """The first id of the alternate block."""
        wide = rules.meld_reforming or WILD in self.kind_ids
        self.num_alternates = (32 if wide else 16) * max(self.copies) + 32
        """Size of the alternate block."""
        nxt += self.num_alternates
        self.num_actions = nxt
        """The number of distinct action ids (``num_distinct_actions`` in OpenSpiel)."""
        self.meld_names: tuple[str, ...] = tuple(dict.fromkeys(m.meld for m in self.meld_ids))
        """Meld kinds of the meld block, in meld-kind order."""

    # --- the meld table -------------------------------------------------------------------------
    def _declarable(self) -> list[int]:
        rules = self.rules
        return [
            m.id
            for m in MELDS
            if m.klass != "X"
            and (
                meld_score(rules, m.id) > 0
                or (m.id == DOUBLE_ROYAL_MARRIAGE and bool(rules.trump_double_marriage))
            )
        ]

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
                        for k in list(total):
                            v = total.copy()
                            v[k] -= 1
                            v[WILD] += 1
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

    # --- ids of legal actions ---------------------------------------------------------------------
    def assign(
        self,
        simple: list[tuple[int, Action]],
        melds: dict[int, list[Action]],
    ) -> list[tuple[int, Action]]:
        """The final ``(id, action)`` list, sorted by id: ``simple`` holds the actions whose id
        is known, ``melds`` the declarations by meld id (the alternate block resolves ties)."""
        out = simple
        alt = self.alt_base
        for mid in sorted(melds):
            group = melds[mid]
            if len(group) == 1:
                out.append((mid, group[0]))
                continue
            group = sorted(group, key=str)
            out.append((mid, group[0]))
            for action in group[1:]:
                if alt >= self.num_actions:
                    raise RuntimeError(
                        f"more than {self.num_alternates} alternate declarations in one position "
                        f"of {self.rules}; please report it with the position string"
                    )
                out.append((alt, action))
                alt += 1
        out.sort(key=_first)
        return out

    def meld_id(self, meld: int, need: Counter[int], declared: Counter[int]) -> int:
        """The meld-block id of a declaration: its meld and, per card kind, the copies it takes
        and how many of them come from the table.  ``KeyError`` if the table lacks it."""
        key = (meld, tuple((k, need[k], declared[k]) for k in sorted(need)))
        mid = self.meld_key.get(key)
        if mid is None:
            raise KeyError(f"{MELDS[meld].name} {key[1]} has no id in the action table")
        return mid

    def from_observation(self, obs: Observation) -> list[tuple[int, str]]:
        """The legal actions of an observation as ``(id, notation)`` pairs, sorted by id.

        For code that holds an observation and no deal (a deal's own :meth:`Deal.legal_ids`
        is quicker and gives the same ids).  Empty unless the observing seat is to move.
        """
        if not obs.legal:
            return []
        seat = obs.seat
        assert seat is not None
        concealed = set(obs.hand)
        histories: dict[str, list[int]] | None = None
        simple: list[tuple[int, Action]] = []
        melds: dict[int, list[Action]] = {}
        for text in obs.legal:
            a = Action.parse(text)
            if a.verb == "play":
                card, _, where = a.cards[0].partition("@")
                if not where and card in concealed:
                    v = 0
                elif where and where != "table":
                    if histories is None:
                        histories = _histories(obs.tables[seat])
                    v = 1 + histories[card].index(profile_mask(where.split("+")))
                else:
                    v = 1
                simple.append((self.play_offset[_KIND_OF_CODE[card]] + v, a))
            elif a.verb == "meld":
                need: Counter[int] = Counter()
                decl: Counter[int] = Counter()
                for ref in a.cards:
                    card, _, where = ref.partition("@")
                    k = _KIND_OF_CODE[card]
                    need[k] += 1
                    if where or card not in concealed:
                        decl[k] += 1
                mid = self.meld_id(MELD_BY_NAME[a.meld].id, need, decl)
                melds.setdefault(mid, []).append(a)
            else:
                simple.append((self.simple_id(a.verb), a))
        return [(i, str(a)) for i, a in self.assign(simple, melds)]

    def simple_id(self, verb: str) -> int:
        """The id of ``pass``, ``exchange`` or ``partner``; ``KeyError`` if these rules have
        no such action."""
        i = {"pass": self.pass_id, "exchange": self.exchange_id, "partner": self.partner_id}.get(
            verb
        )
        if i is None:
            raise KeyError(f"{verb!r} has no id in the action table of {self.rules}")
        return i

    # --- describing ids ---------------------------------------------------------------------------
    def describe(self, action_id: int) -> str:
        """What an id stands for, whatever the position (``play QS (declared, history 1)``).

        ``ValueError`` for an id out of range.
        """
        i = int(action_id)
        if i == self.pass_id:
            return "pass"
        if i == self.exchange_id:
            return "exchange"
        if i == self.partner_id:
            return "partner"
        if self.play_base <= i < self.meld_base:
            k = max(
                (k for k in self.kind_ids if self.play_offset[k] <= i),
                key=self.play_offset.__getitem__,
            )
            v = i - self.play_offset[k]
            return f"play {CODES[k]}" + (f" (declared, history {v})" if v else "")
        if self.meld_base <= i < self.alt_base:
            return self.meld_ids[i - self.meld_base].text()
        if self.alt_base <= i < self.num_actions:
            return f"alternate declaration {i - self.alt_base}"
        raise ValueError(f"no action id {action_id}: ids run from 0 to {self.num_actions - 1}")

    def table(self) -> str:
        """The id ranges of these rules as a text table (for docs and debugging)."""
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


@per_rules
def action_ids(rules: Rules) -> ActionIds:
    """The action-id layout of a rule set (built once per rule set)."""
    return ActionIds(rules)


_KIND_OF_CODE = {c: k for k, c in enumerate(CODES)}


def _first(pair: tuple[int, Action]) -> int:
    return pair[0]


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


__all__ = ["IDS_VERSION", "ActionIds", "MeldId", "PlayIds", "action_ids", "play_ids"]
