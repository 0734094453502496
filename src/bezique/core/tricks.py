"""Trick rules, written once: which card beats which, who wins a trick, and what may be played
(RULES.md 1.4-1.6, 2.2-2.3; what a trick is worth is in :mod:`bezique.core.scoring`).

Everything works on card kinds (``suit * 8 + rank``, :mod:`bezique.core.cards`); a wild card
(``WILD``) has no suit of the four and never wins a trick (decision 11), unless the rules let a
wild card led win when nobody trumps (``wild_card_lead_wins``, Haitian).  The deal engine, the
endgame solver and the bots all call these functions, so the rules cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cards import ALL_KINDS, WILD

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


def beats_table(trump: int | None, lead_wins: bool = False) -> bytes:
    """:func:`beats` for every pair of kinds under one trump, as a table for the deal's
    inner loop: ``table[k << 6 | best]`` is 1 where ``beats(k, best, trump, lead_wins)``.

    >>> from bezique.core.cards import ACE, TEN, kind
    >>> table = beats_table(trump=1)
    >>> table[kind(0, ACE) << 6 | kind(0, TEN)], table[kind(0, TEN) << 6 | kind(0, ACE)]
    (1, 0)
    """
    table = bytearray(ALL_KINDS << 6)
    for k in range(ALL_KINDS):
        for best in range(ALL_KINDS):
            table[k << 6 | best] = beats(k, best, trump, lead_wins)
    return bytes(table)


def count_beaters(k: int, counts: Sequence[int], trump: int | None, lead_wins: bool = False) -> int:
    """How many of the cards counted in ``counts`` (copies per kind, indexed by kind) would beat
    kind ``k`` played to the trick before them (:func:`beats`).

    >>> from bezique.core.cards import ACE, KING, TEN, kind
    >>> counts = [0] * 33
    >>> counts[kind(0, ACE)], counts[kind(0, TEN)], counts[kind(1, KING)] = 1, 2, 3
    >>> count_beaters(kind(0, TEN), counts, trump=None), count_beaters(kind(0, TEN), counts, trump=1)
    (1, 4)
    """
    return sum(n for c, n in enumerate(counts) if n and beats(c, k, trump, lead_wins))


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
    trick: Sequence[tuple[int, int]],
    stage: int,
    trump: int | None,
    rules: Rules,
) -> Sequence[int]:
    """The cards of ``hand`` that may be played to ``trick`` (``(seat, card)`` for each card
    played so far, in order).  ``kind_of[c]`` is the kind of card ``c`` (pass ``range(33)`` when the cards are
    kinds already).  Stage 1 lets anything be played unless ``stage1_must_follow_suit``;
    stage 2 asks to follow suit, and by the options to head the trick and to trump.  A wild
    card has no suit: after one is led there is no suit to follow; in stage 2 it is played as
    a discard, or (``stage2_wild_card=last-resort``) only when nothing else is held."""
    duty = hand
    if trick and (stage == 2 or rules.stage1_must_follow_suit):
        best = kind_of[trick[0][1]]
        led = best >> 3
        same = [c for c in hand if kind_of[c] >> 3 == led] if led < 4 else []  # WILD: no suit
        if stage == 1:
            duty = same or hand
        else:
            lead_wins = rules.wild_card_lead_wins
            for _, c in trick[1:]:
                if beats(kind_of[c], best, trump, lead_wins):
                    best = kind_of[c]
            if same:
                if rules.stage2_must_head:
                    duty = [c for c in same if beats(kind_of[c], best, trump, lead_wins)] or same
                else:
                    duty = same
            elif trump is not None and rules.stage2_must_trump:
                trumps = [c for c in hand if kind_of[c] >> 3 == trump]
                if trumps:
                    if rules.stage2_must_head:
                        duty = [
                            c for c in trumps if beats(kind_of[c], best, trump, lead_wins)
                        ] or hand
                    else:
                        duty = trumps
    if (
        stage == 2
        and rules.stage2_wild_card == "last-resort"
        and hand
        and kind_of[hand[-1]] == WILD
    ):
        return [c for c in duty if kind_of[c] != WILD] or duty  # hands sort wild cards last
    return duty


__all__ = ["beats", "beats_table", "count_beaters", "follow_duty", "trick_winner"]
