"""Scoring rules written once: what a trick is worth, the turn-up bonus, and who wins when a
side reaches the target (RULES.md 2.1-2.2).  The deal engine, the match, the score-keeper and
the arena call these functions rather than writing the rules again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import ACE, BRISQUE_RANKS, CARD_POINTS, SEVEN, WILD, rank_of, suit_of
from .percache import per_rules

if TYPE_CHECKING:
    from .rules import Rules


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


def turn_up_bonus(rules: Rules, kind: int, dealer: int) -> list[tuple[int, int]]:
    """What the card turned up at the deal scores, as ``(seat, points)`` in order: with
    ``turn_up_bonus='seven'`` a seven gives the dealer 10; with ``'greek-club'`` the trump ace
    gives the dealer 20 (black) or 12 (red), and a seven gives the dealer 10 and every seat of
    the other sides -5."""
    scheme = rules.turn_up_bonus
    if scheme == "seven" and rank_of(kind) == SEVEN:
        return [(dealer, 10)]
    if scheme == "greek-club":
        if rank_of(kind) == ACE:
            return [(dealer, 20 if suit_of(kind) in (0, 3) else 12)]
        if rank_of(kind) == SEVEN:
            side = rules.side_of(dealer)
            return [(dealer, 10)] + [
                (s, -5) for s in range(rules.players) if rules.side_of(s) != side
            ]
    return []


def target_winner(rules: Rules, totals: Sequence[float], recent_sides: Iterable[int]) -> int | None:
    """The side that has won the match with these totals at the end of a deal, or None.

    One side at or over the target wins.  When several are, ``both_reach_target`` decides:
    ``'higher-score'`` takes the highest total (a tie goes on to the next rule); otherwise,
    and after a tie, the side among them that took a trick most recently wins
    (``recent_sides``: the sides of the trick winners, the last trick first).
    """
    reached = [s for s, t in enumerate(totals) if t >= rules.target]
    if len(reached) <= 1:
        return reached[0] if reached else None
    if rules.both_reach_target == "higher-score":
        top = max(totals[s] for s in reached)
        reached = [s for s in reached if totals[s] == top]
        if len(reached) == 1:
            return reached[0]
    for side in recent_sides:
        if side in reached:
            return side
    return reached[0]


__all__ = ["kind_values", "target_winner", "trick_points", "trick_values", "turn_up_bonus"]
