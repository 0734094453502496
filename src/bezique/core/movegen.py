"""Move generation: every distinct legal action of the seat to move, with the concrete move.

Two ways to form the same meld that leave different cards free for later melds are two actions;
equal observations list equal actions in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from operator import itemgetter
from typing import Any

from .cards import (
    CODES,
    KING,
    QUEEN,
    WILD,
    kind,
)
from .ids import action_ids
from .melds import (
    FOUR_WILD_CARDS,
    GHOST,
    MELDS,
    ROYAL_MARRIAGE,
    TRUMP_SEQUENCE,
    Slot,
    blocked_masks,
    choose,
    declarable_melds,
    profile_names,
    slot_needs,
    slots,
    wild_card_melds,
)
from .notation import PARTNER, PASS, Action
from .percache import per_rules
from .rules import Rules
from .slots import DECLARE, PLAY, DealBase, Move
from .tricks import follow_duty

_PlanItem = tuple[int, str, int, list[Slot]]
# a plan item with the card counts it needs: ((count, kinds bit set), ...), ((rank, count), ...)
_PlanEntry = tuple[_PlanItem, tuple[tuple[int, int], ...], list[tuple[int, int]]]


@per_rules
def meld_plan(rules: Rules, trump: int | None) -> list[_PlanEntry]:
    """The melds that can be declared under these rules and trump (None: not fixed yet), in
    the order the legal actions list them, with their reuse masks and card requirements,
    worked out once per rule set and trump.

    Each entry is ``((meld id, name, blocked mask, slots), needs, rank needs)``: ``needs`` the
    pairs (copies needed, bit set of the card kinds each needed that many times), ``rank
    needs`` the pairs (rank, copies of any suits).  The compiled engine's declarations
    (:mod:`bezique.fast`) are built from these same entries."""
    blocked = blocked_masks(rules)
    melds = declarable_melds(rules, trump is not None)
    plan: list[_PlanEntry] = []
    for meld in melds:
        for req in slots(rules, meld, trump):
            needs, rank_needs = slot_needs(req)
            plan.append(
                ((meld, MELDS[meld].name, blocked[meld], req), tuple(needs.items()), rank_needs)
            )
    return plan


class MoveGen(DealBase):
    """Legal moves: what the seat to move may play or declare, each with its id and notation.

    Move generation yields action ids (:mod:`bezique.core.ids`) directly: ``_legal`` maps each
    legal id to its concrete move, in the order :meth:`legal_actions` lists them, and
    ``_names`` gives each id's :class:`Action` (the rules-wide table of
    :class:`~bezique.core.ids.PlayIds` where every legal action has the same notation in every
    position, the most common case).  So playing by action and playing by id share one
    generator and neither converts (a meld's id waits until ids are asked for:
    :meth:`_by_id`).
    """

    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """Every distinct legal action for the seat to move (empty once the deal is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        names = self._names
        if names is self._idt.names:  # the rules-wide table: look each legal id up
            if len(legal) > 1:  # one C call for all (itemgetter of one id returns no tuple)
                return list(itemgetter(*legal)(names))
            return list(map(names.__getitem__, legal))
        return list(names.values())  # the position's own: the legal ids' actions, in order

    def _compute_legal(self) -> dict[int, Move]:
        """The legal moves by id (and ``_names`` set to match)."""
        if self._phase == PLAY:
            return self._play_actions(self._to_move)  # type: ignore[arg-type]
        if self._phase == DECLARE:
            # a world rebuilt from another seat's view may leave the declarer nothing to
            # declare: then it can only pass
            legal = self._declare_actions(self._to_move)  # type: ignore[arg-type]
            if legal:
                return legal
            self._names = self._idt.names
            return {0: ("pass",)}
        self._names = self._idt.names
        return {}

    def _namer(self, seat: int) -> Any:
        """A function naming a card (kind, mask) of this seat in notation."""
        K, M = self._kinds, self._mask
        table: dict[int, set[int]] = {}
        concealed = set()
        for c in self._hands[seat]:
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

    def _play_actions(self, seat: int) -> dict[int, Move]:
        K, M = self._kinds, self._mask
        hand = self._hands[seat]
        playable: Sequence[int]
        stage = self._stage
        if stage == 1 and not self.rules.stage1_must_follow_suit:
            playable = hand
        else:
            playable = follow_duty(hand, K, self._trick, stage, self._trump, self.rules)
        ids = self._idt
        if not any(map(M.__getitem__, hand)):
            # concealed cards only (most positions): one id per card kind, whose notation is
            # the same everywhere; hands are sorted by id, so by kind (and by play id): keep
            # the first copy of each kind
            self._names = ids.names
            pid = ids.card_play_id
            out: dict[int, Move] = {}
            prev = -1
            for c in playable:
                i = pid[c]
                if i != prev:
                    out[i] = c
                    prev = i
            return out
        seen: dict[int, int] = {}
        for c in playable:
            key = M[c] << 6 | K[c]
            if key not in seen:
                seen[key] = c
        # canonical order (suit, rank, history), so that equal observations list equal
        # actions: the order of the ids too, for a declared copy's id counts its history
        # among the seat's declared copies of its kind (all playable if one is), ascending
        name = self._namer(seat)
        offset, static = ids.play_offset, ids.names
        out = {}
        names: dict[int, Action] = {}
        prev = i = -1
        for key in sorted(seen, key=lambda key: (key & 63, key)):
            c = seen[key]
            k, m = K[c], M[c]
            if k != prev:  # a kind's first: concealed, else the first history
                prev = k
                i = offset[k] + 1 if m else offset[k]
            else:
                i += 1
            out[i] = c
            # a concealed copy's action is the rules-wide one (no new Action to build)
            names[i] = Action("play", "", (name(k, m),)) if m else static[i]
        self._names = names
        return out

    def _by_id(self) -> dict[int, Move]:
        """The legal moves keyed by their action ids (melds' provisional keys replaced)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if self._phase == PLAY or not legal or min(legal) >= 0:
            return legal
        # the common case in few steps: each meld's id from a memo keyed by its meld and its
        # cards' kinds and whether each is declared (what its id is made of)
        names = self._names
        ids = self._idt
        memo = ids.meld_memo
        K, M = self._kinds, self._mask
        out: dict[int, Move] = {}
        new_names: dict[int, Action] = {}
        for key, move in legal.items():
            i = key
            if key < 0:
                assert isinstance(move, tuple)
                if move[0] == "meld":
                    cards = tuple(sorted([K[c] << 1 | (M[c] != 0) for c in move[2]]))
                    i = memo.get((move[1], cards), -1)
                    if i < 0 or i in out:  # not met yet, or two share a meld id
                        break
                else:
                    i = ids.exchange_id if move[0] == "exchange" else ids.partner_id  # type: ignore[assignment]
            out[i] = move
            new_names[i] = names[key]
        else:
            self._names = new_names
            legal = self._legal = out
            return legal
        legal = self._legal = self._declaration_ids({names[i]: move for i, move in legal.items()})
        return legal

    def _declare_actions(self, seat: int) -> dict[int, Move]:
        """The seat's declarations by id (``_names`` set to match), in listing order: melds,
        exchange, partner, pass; empty if it has none.

        A meld's id needs the rules' meld table (:func:`action_ids`, milliseconds to build),
        which play by action never needs: so declarations are first keyed by provisional
        negative numbers (pass by its id, 0), and :meth:`_by_id` gives them their ids when ids
        are asked for (exchange and partner too, one look-up more when applied by action)."""
        rules = self.rules
        t = self._idt
        out: dict[Action, Move] = {}
        K, M = self._kinds, self._mask
        hand = self._hands[seat]
        trump = self._trump
        room = self._decl_count < rules.melds_scored_per_trick
        # min_tricks_before_declaring: no meld yet, though the seven may still be exchanged
        # where exchange_before_min_tricks allows it (the caller opens the phase only then)
        may_meld = not rules.min_tricks_before_declaring or self._won_enough(seat)
        if room and may_meld:
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
            plan = t.meld_plans.get(trump)
            if plan is None:
                plan = t.meld_plans[trump] = meld_plan(rules, trump)
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
        swap = t.exchange_rank
        if (
            swap is not None
            and self._turn_up is not None
            and trump is not None
            and not self._exchanged
            and (may_meld or rules.exchange_before_min_tricks)
            and (room or not rules.seven_exchange_counts_as_meld)
            and K[self._turn_up] != trump * 8 + swap
        ):
            card = trump * 8 + swap
            for c in hand:
                if K[c] == card and not M[c]:
                    out[Action("exchange", "", (CODES[card],))] = ("exchange", c)
                    break
        if (
            t.partner_id is not None  # the partner may declare (partner_declaring)
            and may_meld
            and seat == self._leader
            and not self._decl_count
            and not self._exchanged
        ):
            # offered whatever the partner holds, so the list reveals nothing of that hand
            out[PARTNER] = ("partner",)
        if not out:
            return {}
        # pass comes last in the list, its id 0
        keys = range(-1, -len(out) - 1, -1)
        names: dict[int, Action] = dict(zip(keys, out, strict=True))
        names[0] = PASS
        self._names = names
        legal = dict(zip(keys, out.values(), strict=True))
        legal[0] = ("pass",)
        return legal

    def _declaration_ids(self, acts: dict[Action, Move]) -> dict[int, Move]:
        """Ids for the declarations ``acts`` (listing order kept); ``_names`` set to match.
        Declarations that share a meld id take ids of the alternate block
        (:meth:`ActionIds.assign`)."""
        base = self._idt
        K, M = self._kinds, self._mask
        table = None
        id_of: dict[Action, int] = {}
        melds: dict[int, list[Action]] = {}
        for action, move in acts.items():
            assert isinstance(move, tuple)
            verb = move[0]
            if verb == "meld":
                if table is None:
                    table = action_ids(self.rules)
                need: dict[int, int] = {}
                declared: dict[int, int] = {}
                for c in move[2]:
                    k = K[c]
                    need[k] = need.get(k, 0) + 1
                    if M[c]:
                        declared[k] = declared.get(k, 0) + 1
                key = (move[1], tuple((k, need[k], declared.get(k, 0)) for k in sorted(need)))
                mid = table.meld_key.get(key)
                if mid is None:
                    raise KeyError(f"'{action}' has no id in the action table of {self.rules}")
                cards = tuple(sorted([K[c] << 1 | (M[c] != 0) for c in move[2]]))
                base.meld_memo[move[1], cards] = mid
                if mid in melds:
                    melds[mid].append(action)
                else:
                    melds[mid] = [action]
                    id_of[action] = mid
            elif verb == "exchange":
                id_of[action] = base.exchange_id  # type: ignore[assignment]
            elif verb == "partner":
                id_of[action] = base.partner_id  # type: ignore[assignment]
            else:
                id_of[action] = 0
        if table is not None and len(id_of) < len(acts):  # two declarations share a meld id
            shared = {mid: group for mid, group in melds.items() if len(group) > 1}
            for i, action in table.assign([], shared):
                id_of[action] = i
        self._names = {id_of[a]: a for a in acts}  # in the order of the legal moves
        return {id_of[a]: move for a, move in acts.items()}

    def _won_enough(self, seat: int) -> bool:
        """The seat has won the tricks ``min_tricks_before_declaring`` asks before declaring."""
        need = self.rules.min_tricks_before_declaring
        return not need or sum(1 for _, _, w in self._tricks if w == seat) >= need

    def _enumerate_melds(
        self, seat: int, possible: list[_PlanItem], out: dict[Action, Move]
    ) -> None:
        """Every distinct way to form each possible meld from the seat's cards."""
        K, M = self._kinds, self._mask
        # interchangeable cards: same kind, same history; concealed (history 0) first
        groups: dict[int, list[tuple[int, list[int]]]] = {}
        for c in self._hands[seat]:
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
        rules = self.rules
        wild_ok = wild_card_melds(rules) if wild else frozenset()
        # once-per-kind reuse: a wild card scores in one meld only
        wild_once = rules.meld_reuse == "once-per-kind"
        for meld, mname, block, req in possible:
            per_slot = []
            for kinds, n in req:
                cand = [
                    (k, gm, ids) for k in kinds for gm, ids in groups.get(k, ()) if not gm & block
                ]
                if meld in wild_ok:  # a wild card may stand in for a card of a meld (one a meld)
                    cand += [
                        (WILD, gm, ids) for gm, ids in wild if not (gm if wild_once else gm & block)
                    ]
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
                    if not fresh:  # at least one card comes from the concealed hand
                        continue
                    if meld == FOUR_WILD_CARDS:
                        if wild_once and any(M[c] for c in ids):
                            continue
                    elif wilds > 1 or len(ids) == wilds:
                        continue
                    elif meld == TRUMP_SEQUENCE and rules.sequence_needs_marriage:
                        quinte = self._on_marriage(seat, ids)
                        if quinte is None:
                            continue
                        ids = quinte
                    out[Action("meld", mname, tuple(refs))] = ("meld", meld, tuple(ids))

    def _on_marriage(self, seat: int, ids: list[int]) -> list[int] | None:
        """A trump sequence that must add its A 10 J to the declarer's own royal marriage on
        the table, neither card of it played (HAITIAN.md section 3): the sequence's cards with
        the K and Q of such a marriage (cards just like the ones chosen), or None."""
        K, M = self._kinds, self._mask
        at = {K[c]: i for i, c in enumerate(ids)}
        trump = self._trump or 0
        if kind(trump, KING) not in at or kind(trump, QUEEN) not in at:
            return None  # a wild card stands in for the K or the Q: no marriage on the table
        ki, qi = at[kind(trump, KING)], at[kind(trump, QUEEN)]
        king, queen = ids[ki], ids[qi]
        for s, meld, pair in self._instances:
            if s == seat and meld == ROYAL_MARRIAGE:
                k, q = pair if K[pair[0]] == K[king] else pair[::-1]
                if K[k] == K[king] and M[k] == M[king] and M[q] == M[queen]:
                    out = list(ids)
                    out[ki], out[qi] = k, q
                    return out
        return None
