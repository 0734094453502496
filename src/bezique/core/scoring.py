"""Scoring rules written once: what a trick is worth, what a declaration scores, the turn-up
bonus, the Greek club's bonus for one trump three deals running, and who wins when a side
reaches the target (RULES.md 2.1-2.2).  The deal engine, the match, the score-keeper, the bots,
the server and the terminal call these functions rather than writing the rules again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .cards import ACE, BRISQUE_RANKS, CARD_POINTS, SEVEN, WILD, parse_card, rank_of, suit_of
from .events import EventKind
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

DOUBLING: frozenset[int] = frozenset({ROYAL_MARRIAGE, BEZIQUE, TRUMP_SEQUENCE})
"""Melds a seat's repeats of which score double each time under ``repeat_doubles``."""


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


SETTLING_BRISQUE_WEIGHT = 0.1
"""What a brisque that only settles a per-deal game (``brisques_only_to_settle``: Rubicon)
counts, in points, where a deal is valued by its points (the search players' utility): a
tie-breaker worth a tenth of its face value, since it is not added to the score."""


def valued_trick_values(rules: Rules) -> tuple[tuple[float, ...], float]:
    """:func:`trick_values` as a deal's value counts them: brisques that only settle a
    per-deal game weigh :data:`SETTLING_BRISQUE_WEIGHT` each point."""
    per_rank, per_trick = trick_values(rules)
    scale = SETTLING_BRISQUE_WEIGHT if rules.brisques_only_to_settle else 1.0
    return tuple(scale * p for p in per_rank), float(per_trick)


@per_rules
def kind_values(rules: Rules) -> tuple[int, ...]:
    """:func:`trick_values` by card kind: ``kind_values(rules)[k]``, a wild card worth 0."""
    per_rank = trick_values(rules)[0]
    return (*(per_rank[k & 7] for k in range(WILD)), 0)


def valued_kind_values(rules: Rules) -> tuple[float, ...]:
    """:func:`valued_trick_values` by card kind, as :func:`kind_values` (a wild card 0)."""
    scale = SETTLING_BRISQUE_WEIGHT if rules.brisques_only_to_settle else 1.0
    return tuple(scale * p for p in kind_values(rules))


def seven_capture_points(rules: Rules) -> int:
    """What each seven of trumps in a trick brings the trick's taker
    (``second_seven_scores='capture'``, HAITIAN.md section 4); 0 where sevens score otherwise."""
    return rules.seven_of_trumps if rules.second_seven_scores == "capture" else 0


def trick_sevens(
    rules: Rules, trump: int, trick: Sequence[tuple[int, int]], winner: int
) -> list[tuple[int, int, bool]]:
    """The sevens of trumps a complete trick scores under ``second_seven_scores`` play-always or
    capture (HAITIAN.md section 4): for each one in ``trick`` (``(seat, kind)`` in play order),
    ``(seat scored, points, captured)``; it scores for its player, or (capture) for ``winner``.

    >>> from bezique.core.rules import Rules
    >>> trick_sevens(Rules.preset("haitian"), 1, [(0, 15), (1, 8)], 1)
    [(0, 10, False)]
    """
    if not rules.seven_of_trumps or rules.second_seven_scores not in ("play-always", "capture"):
        return []
    seven = trump * 8 + SEVEN
    capture = rules.second_seven_scores == "capture"
    return [
        (winner if capture else s, rules.seven_of_trumps, capture) for s, k in trick if k == seven
    ]


def trick_points(rules: Rules, kinds: Sequence[int]) -> int:
    """What a trick of these kinds is worth to its winner (a wild card is worth nothing)."""
    per_kind = kind_values(rules)
    return trick_values(rules)[1] + sum(per_kind[k] for k in kinds)


def meld_points(
    rules: Rules,
    meld: int,
    masks: Sequence[int] = (),
    *,
    fixes_trump: bool,
    repeats: int,
    beziques_before: int,
) -> int:
    """What a declaration of ``meld`` scores when it is made: the deal engine and the
    score-keeper both ask here.  Its value (:func:`meld_score`), except that a double royal
    marriage that fixes trump (``fixes_trump``) scores ``trump_double_marriage`` where that is
    set; the first bezique of a game (``beziques_before``: beziques declared earlier in the
    game, by anyone) scores ``first_bezique`` where that is set; with ``repeat_doubles`` a royal
    marriage, bezique or trump sequence doubles for each one of it the same seat declared
    earlier in the deal (``repeats``).

    With ``trump_set_scoring='cumulative'`` (old Russian, RULES.md 2.8) a set of trump cards of
    a rank (or of bezique jacks) pays the amount of every card beyond the largest set its cards
    have already shown (``masks``: each card's melds before this one, 0 for a card from the
    hand): five trump queens from the hand pay 176 + 100, a fifth added to four shown 100.

    >>> from bezique.core.rules import Rules
    >>> r = Rules.preset("classic", repeat_doubles=True)
    >>> meld_points(r, BEZIQUE, fixes_trump=False, repeats=2, beziques_before=2)
    160
    """
    points = meld_score(rules, meld)
    if fixes_trump and meld == DOUBLE_ROYAL_MARRIAGE and rules.trump_double_marriage:
        points = rules.trump_double_marriage
    if meld == BEZIQUE and rules.first_bezique and not beziques_before:
        points = rules.first_bezique
    if repeats and rules.repeat_doubles and meld in DOUBLING:
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


def action_points(rules: Rules, action: Action | str) -> int | None:
    """The points a legal declaration shows beside it: a meld's value (:func:`meld_score`), the
    exchange's seven of trumps (nothing for another card); None for plays, passes and handing
    over to a partner.  :func:`declaration_points` gives what it scores in a given state.

    >>> from bezique.core.rules import Rules
    >>> r = Rules.preset("classic")
    >>> action_points(r, "meld bezique QS JD"), action_points(r, "exchange 7H"), action_points(r, "play AS")
    (40, 10, None)
    """
    if isinstance(action, str):
        if action.startswith("play ") or action == "pass":  # most actions: no parse needed
            return None
        action = Action.parse(action)
    if action.verb == "exchange":
        card = action.cards[0].partition("@")[0] if action.cards else ""
        return rules.seven_of_trumps if card and rank_of(parse_card(card)) == SEVEN else 0
    if action.verb == "meld" and action.meld in MELD_BY_NAME:
        return meld_score(rules, MELD_BY_NAME[action.meld].id)
    return None


def declaration_points(obs: Observation, action: Action | str) -> int | None:
    """What a legal declaration of the seat to move scores if made now (:func:`meld_points`,
    from what the observation shows: repeats that double, the game's first bezique, a set shown
    at once), for showing beside the action; None for plays, passes and handing over."""
    if isinstance(action, str):
        if action.startswith("play ") or action == "pass":  # most actions: no parse needed
            return None
        action = Action.parse(action)
    if action.verb != "meld" or action.meld not in MELD_BY_NAME:
        return action_points(obs.rules, action)
    meld = MELD_BY_NAME[action.meld].id
    seat = obs.to_move if obs.to_move is not None else obs.seat
    table = obs.tables[seat] if seat is not None else ()
    masks = []
    for ref in action.cards:
        card, where = split_ref(ref)
        if where and where != "table":
            masks.append(profile_mask(where.split("+")))
        elif where or card not in obs.hand:  # a declared copy, of the one history it has
            held = [split_ref(t)[1] for t in table if split_ref(t)[0] == card]
            masks.append(profile_mask(held[0].split("+")) if held else 0)
        else:
            masks.append(0)
    melds = [e for e in obs.events if e.kind is EventKind.MELD]
    return meld_points(
        obs.rules,
        meld,
        masks,
        fixes_trump=obs.trump is None and meld in TRUMP_FIXING,
        repeats=sum(1 for e in melds if e.seat == seat and e.meld == action.meld),
        beziques_before=obs.game_bezique + sum(1 for e in melds if e.meld == "bezique"),
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


def trump_run_bonus(rules: Rules, trumps: Sequence[str | None]) -> int:
    """The Greek club's bonus (``turn_up_bonus='greek-club'``) to the dealer's side when the
    last three deals, ``trumps`` (each deal's trump so far, this one last), have the same trump:
    +20, or -20 when it is clubs; 0 otherwise.

    >>> from bezique.core.rules import Rules
    >>> trump_run_bonus(Rules.preset("classic", turn_up_bonus="greek-club"), ["H", "C", "C", "C"])
    -20
    """
    if rules.turn_up_bonus != "greek-club" or len(trumps) < 3 or trumps[-1] is None:
        return 0
    if len(set(trumps[-3:])) != 1:
        return 0
    return -20 if trumps[-1] == "C" else 20


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
    "DOUBLING",
    "SETTLING_BRISQUE_WEIGHT",
    "action_points",
    "declaration_points",
    "kind_values",
    "meld_points",
    "seven_capture_points",
    "target_winner",
    "trick_points",
    "trick_sevens",
    "trick_values",
    "trump_run_bonus",
    "turn_up_bonus",
    "valued_kind_values",
    "valued_trick_values",
]
