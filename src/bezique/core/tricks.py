"""Trick rules, written once: which card beats which, who wins a trick, what may be played,
and what a trick is worth (RULES.md 1.4-1.6, 2.2-2.3).

Everything works on card kinds (``suit * 8 + rank``, :mod:`bezique.core.cards`); a wild card
(``WILD``) has no suit of the four and never wins a trick (decision 11), unless the rules let a
wild card led win when nobody trumps (``wild_card_lead_wins``, Haitian).  The deal engine, the
endgame solver and the bots' playouts all call these functions, so the rules cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import BRISQUE_RANKS, CARD_POINTS, WILD
from .percache import per_rules

if TYPE_CHECKING:
    from .rules import Rules


def beats(k: int, best: int, trump: int | None, lead_wins: bool = False) -> bool:
    """Does kind ``k`` beat kind ``best``, played to the trick before it?  A higher card of
    the same suit, or a trump on a card that is not one; any card beats a wild card, which
    never wins (with ``lead_wins``, only a trump beats a wild card, which then wins when led);
    of two equal cards the first played wins."""
    s, bs = k >> 3, best >> 3
    if s == bs:
        return (k & 7) < (best & 7)
    return s == trump or (best == WILD and k != WILD and not lead_wins)


def trick_winner(kinds: Sequence[int], trump: int | None, lead_wins: bool = False) -> int:
    """The index, in play order, of the card that wins a trick of these kinds."""
    win, best = 0, kinds[0]
    for i in range(1, len(kinds)):
        if beats(kinds[i], best, trump, lead_wins):
            win, best = i, kinds[i]
    return win


def follow_duty(
    hand: Sequence[int],
    kind_of: Sequence[int],
    trick: Sequence[int],
    stage: int,
    trump: int | None,
    rules: Rules,
) -> Sequence[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played so far, in
    order).  ``kind_of[c]`` is the kind of card ``c`` (pass ``range(33)`` when the cards are
    kinds already).  Stage 1 lets anything be played unless ``stage1_must_follow_suit``;
    stage 2 asks to follow suit, and by the options to head the trick and to trump.  A wild
    card has no suit: after one is led there is no suit to follow; in stage 2 it is played as
    a discard, or (``stage2_wild_card=last-resort``) only when nothing else is held."""
    if (
        stage == 2
        and rules.stage2_wild_card == "last-resort"
        and hand
        and kind_of[hand[-1]] == WILD  # hands sort wild cards last
    ):
        duty = _follow_duty(hand, kind_of, trick, stage, trump, rules)
        return [c for c in duty if kind_of[c] != WILD] or duty
    return _follow_duty(hand, kind_of, trick, stage, trump, rules)


def _follow_duty(
    hand: Sequence[int],
    kind_of: Sequence[int],
    trick: Sequence[int],
    stage: int,
    trump: int | None,
    rules: Rules,
) -> Sequence[int]:
    if not trick or (stage == 1 and not rules.stage1_must_follow_suit):
        return hand
    led = kind_of[trick[0]] >> 3
    same = [c for c in hand if kind_of[c] >> 3 == led] if led < 4 else []  # WILD: no suit
    if stage == 1:
        return same or hand
    lead_wins = rules.wild_card_lead_wins
    best = kind_of[trick[0]]
    for c in trick[1:]:
        if beats(kind_of[c], best, trump, lead_wins):
            best = kind_of[c]
    if same:
        if rules.stage2_must_head:
            return [c for c in same if beats(kind_of[c], best, trump, lead_wins)] or same
        return same
    if trump is not None and rules.stage2_must_trump:
        trumps = [c for c in hand if kind_of[c] >> 3 == trump]
        if trumps:
            if rules.stage2_must_head:
                return [c for c in trumps if beats(kind_of[c], best, trump, lead_wins)] or hand
            return trumps
    return hand


@per_rules
def trick_values(rules: Rules) -> tuple[tuple[int, ...], int]:
    """Points a trick is worth: by the rank of each card in it, plus a flat amount per trick.
    (Under brisque-majority the brisques are counted so, then settled at the end.)"""
    scoring = rules.trick_scoring
    brisques = tuple(10 if r in BRISQUE_RANKS else 0 for r in range(8))
    if scoring in ("brisques", "brisque-majority"):
        return brisques, 0
    if scoring == "card-points":
        return CARD_POINTS, 0
    if scoring == "greek-per-trick":
        return brisques, 10
    return (0,) * 8, 0


@per_rules
def kind_values(rules: Rules) -> tuple[int, ...]:
    """:func:`trick_values` by card kind: ``kind_values(rules)[k]``, a wild card worth 0."""
    per_rank = trick_values(rules)[0]
    return (*(per_rank[k & 7] for k in range(WILD)), 0)


def trick_points(rules: Rules, kinds: Sequence[int]) -> int:
    """What a trick of these kinds is worth to its winner (a wild card is worth nothing)."""
    per_kind = kind_values(rules)
    return trick_values(rules)[1] + sum(per_kind[k] for k in kinds)


__all__ = ["beats", "follow_duty", "kind_values", "trick_points", "trick_values", "trick_winner"]
