"""Scoring rules written once: what a trick is worth, the turn-up bonus, and who wins when a
side reaches the target (RULES.md 2.1-2.2).  The deal engine, the match, the score-keeper and
the arena call these functions rather than writing the rules again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import ACE, BRISQUE_RANKS, CARD_POINTS, SEVEN, WILD, rank_of, suit_of
from .melds import (
    BEZIQUE,
    DOUBLE_ROYAL_MARRIAGE,
    MELD_BY_NAME,
    ROYAL_MARRIAGE,
    SET_MELDS,
    TRUMP_FIXING,
    TRUMP_SEQUENCE,
    meld_score,
    profile_mask,
    set_family,
)
from .notation import Action, split_ref
from .percache import per_rules

if TYPE_CHECKING:
    from .observation import Observation
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


REPEAT_DOUBLING = frozenset({ROYAL_MARRIAGE, BEZIQUE, TRUMP_SEQUENCE})
"""Melds whose repeats by one player in a deal score double the one before (``repeat_doubles``)."""


def meld_points(
    rules: Rules,
    meld: int,
    masks: Sequence[int] = (),
    *,
    repeats: int = 0,
    bezique_before: bool = False,
    fixes_trump: bool = False,
) -> int:
    """What declaring ``meld`` scores: the deal engine and the score-keeper both ask here.

    ``masks``: the meld profile of each of its cards before this declaration (0 for a card from
    the hand); ``repeats``: how often the declarer has declared this meld before in the deal;
    ``bezique_before``: a bezique was declared earlier in this game; ``fixes_trump``: the
    declaration fixes trump (a game without a turn-up).

    With ``trump_set_scoring='cumulative'`` (old Russian, RULES.md 2.8) a set of trump cards of a
    rank (or of bezique jacks) pays the amount of every card beyond the largest set of its cards
    already shown: five trump queens from the hand pay 176 + 100, a fifth added to four shown
    pays 100.
    """
    points = meld_score(rules, meld)
    if fixes_trump and meld == DOUBLE_ROYAL_MARRIAGE and rules.trump_double_marriage:
        points = rules.trump_double_marriage
    if meld == BEZIQUE and rules.first_bezique and not bezique_before:
        points = rules.first_bezique
    if repeats and rules.repeat_doubles and meld in REPEAT_DOUBLING:
        points <<= repeats
    if rules.trump_set_scoring == "cumulative":
        family = set_family(meld)
        if family is not None:
            rank, count = family
            members = SET_MELDS[rank]
            shown = max(
                (n for n, m in members.items() if any(mask >> m & 1 for mask in masks)),
                default=0,
            )
            low = max(shown + 1, min(members)) if shown < count else count
            points = sum(meld_score(rules, members[n]) for n in range(low, count + 1))
    return points


def declaration_points(obs: Observation, action: Action | str) -> int | None:
    """What a legal declaration of the seat to move would score now (:func:`meld_points`, from
    what the observation shows), for showing beside the action; None for plays, passes and
    handing over."""
    a = action if isinstance(action, Action) else Action.parse(action)
    rules = obs.rules
    if a.verb == "exchange":
        return rules.seven_of_trumps if a.cards and a.cards[0][0] == "7" else 0
    if a.verb != "meld" or a.meld not in MELD_BY_NAME:
        return None
    meld = MELD_BY_NAME[a.meld].id
    seat = obs.to_move if obs.to_move is not None else obs.seat
    table = obs.tables[seat] if seat is not None else ()
    masks = []
    for ref in a.cards:
        card, where = split_ref(ref)
        if where and where != "table":
            masks.append(profile_mask(where.split("+")))
        elif where or card not in obs.hand:  # a declared copy, of the one history it has
            held = [split_ref(t)[1] for t in table if split_ref(t)[0] == card]
            masks.append(profile_mask(held[0].split("+")) if held else 0)
        else:
            masks.append(0)
    before = f"meld {a.meld} "
    return meld_points(
        rules,
        meld,
        masks,
        repeats=sum(1 for _, s, what, _ in obs.events if s == seat and what.startswith(before)),
        bezique_before=obs.game_bezique
        or any(what.startswith("meld bezique ") for _, _, what, _ in obs.events),
        fixes_trump=obs.trump is None and meld in TRUMP_FIXING,
    )


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


__all__ = [
    "REPEAT_DOUBLING",
    "declaration_points",
    "kind_values",
    "meld_points",
    "target_winner",
    "trick_points",
    "trick_values",
    "turn_up_bonus",
]
