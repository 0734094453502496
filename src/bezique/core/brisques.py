"""Brisque-majority scoring (Haitian, HAITIAN.md section 6): the brisques settle at the end of
a hand by who holds more of them, not by their count alone.

The side holding more brisques (aces and tens won in tricks) scores 10 for each it holds; the
other loses ``brisque_loser_penalty``; on a tie each gains ``brisque_tie_bonus``.  Either
adjustment applies only to a side whose game score, the last trick included, is already at
least ``brisque_min_score``.  With ``score_floor_zero`` no loss takes a game score below 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules import Rules


def majority_adjustments(
    rules: Rules, brisque_points: Sequence[int], scores: Sequence[int]
) -> list[int]:
    """What each side gains (or loses) by the brisques at the end of a hand.

    ``brisque_points`` is 10 per brisque each side won; ``scores`` each side's game score before
    the brisques count (the score it came into the hand with, plus the hand's melds, sevens and
    last trick).
    """
    if len(brisque_points) != 2 or len(scores) != 2:
        raise ValueError("brisque-majority scoring is between two sides")
    a, b = brisque_points
    out = []
    for side, (mine, theirs) in enumerate(((a, b), (b, a))):
        score = scores[side]
        if score < rules.brisque_min_score:
            out.append(0)
        elif mine == theirs:
            out.append(rules.brisque_tie_bonus)
        elif mine > theirs:
            out.append(mine)
        else:
            loss = rules.brisque_loser_penalty
            out.append(-min(loss, max(score, 0)) if rules.score_floor_zero else -loss)
    return out
