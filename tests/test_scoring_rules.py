"""The scoring and trick rules written once in the core (bezique.core.scoring, bezique.core.tricks).

Rule facts: RULES.md section 2.1 "Dealer bonus" (a seven turned up gives the dealer 10) and
"Both reach the target" (the taker of the last trick wins; or the higher score by agreement);
decision 11 (a wild card never wins a trick); the Greek club bonuses (RULES.md 000-A l.13-17).
"""

from __future__ import annotations

import pytest

from bezique import Rules
from bezique.core.cards import WILD, parse_card
from bezique.core.events import EventKind, ScoreEvent
from bezique.core.melds import (
    BEZIQUE,
    DOUBLE_ROYAL_MARRIAGE,
    ROYAL_MARRIAGE,
    SEVEN_MELD,
    TRUMP_SEQUENCE,
    declarable_melds,
    meld_score,
)
from bezique.core.notation import Action
from bezique.core.scoring import (
    action_points,
    meld_points,
    target_winner,
    trick_points,
    trump_run_bonus,
    turn_up_bonus,
)
from bezique.core.slots import PART_LAST
from bezique.core.tricks import beats, follow_duty, trick_winner


def k(code: str) -> int:
    return parse_card(code)


def test_a_seven_turned_up_gives_the_dealer_ten() -> None:
    classic = Rules.preset("classic")
    assert turn_up_bonus(classic, k("7H"), dealer=1) == [(1, 10)]
    assert turn_up_bonus(classic, k("AH"), dealer=1) == []
    assert turn_up_bonus(Rules.preset("classic", turn_up_bonus="none"), k("7H"), 1) == []


def test_greek_club_bonuses() -> None:
    greek = Rules.preset("classic", turn_up_bonus="greek-club")
    assert turn_up_bonus(greek, k("AS"), dealer=0) == [(0, 20)]  # black ace
    assert turn_up_bonus(greek, k("AD"), dealer=0) == [(0, 12)]  # red ace
    assert turn_up_bonus(greek, k("7C"), dealer=0) == [(0, 10), (1, -5)]


def test_who_wins_when_several_sides_reach_the_target() -> None:
    classic = Rules.preset("classic")  # target 1000, the last trick decides
    assert target_winner(classic, [990, 900], [0]) is None
    assert target_winner(classic, [1010, 900], [1]) == 0
    assert target_winner(classic, [1010, 1200], [0, 1]) == 0  # side 0 took the last trick
    higher = classic.replace(both_reach_target="higher-score")
    assert target_winner(higher, [1010, 1200], [0, 1]) == 1
    assert target_winner(higher, [1100, 1100], [1, 0]) == 1  # a tie: the last trick decides


def test_trick_rules() -> None:
    trump = 1  # hearts
    assert beats(k("TS"), k("KS"), trump) and not beats(k("KS"), k("TS"), trump)
    assert beats(k("7H"), k("AS"), trump) and not beats(k("AD"), k("KS"), trump)
    assert not beats(k("AS"), k("AS"), trump)  # of two equal cards the first wins
    assert beats(k("7D"), WILD, trump) and not beats(WILD, k("7D"), trump)  # decision 11
    assert trick_winner([k("KS"), k("7H"), k("AS")], trump) == 1
    classic = Rules.preset("classic")
    assert trick_points(classic, [k("AS"), k("TH")]) == 20
    # stage 2: follow suit and head the trick when possible
    hand = [k("AS"), k("9S"), k("7H")]
    assert list(follow_duty(hand, range(33), [(0, k("TS"))], 2, trump, classic)) == [k("AS")]
    assert list(follow_duty(hand, range(33), [(0, k("TD"))], 2, trump, classic)) == [k("7H")]
    assert follow_duty(hand, range(33), [(0, k("TD"))], 1, trump, classic) == hand


def test_a_declaration_scores_by_the_doubling_sequences_and_the_trump_fixing_marriage() -> None:
    """RULES.md, old Russian game: the trump marriage scores 4, 8, 16, 32 and a bezique 25,
    50, 100 for one player's 1st, 2nd, 3rd declaration; no-trump game: a double marriage that
    fixes trump scores 50 (RULES.md "Trump-fixing marriage")."""
    old = Rules.preset("old-russian")
    points = [
        meld_points(old, ROYAL_MARRIAGE, fixes_trump=False, repeats=n, beziques_before=n)
        for n in range(4)
    ]
    assert points == [4, 8, 16, 32]
    assert [
        meld_points(old, BEZIQUE, fixes_trump=False, repeats=n, beziques_before=n) for n in range(3)
    ] == [25, 50, 100]
    classic = Rules.preset("classic")  # no repeat doubling: the second bezique scores 40 again
    assert meld_points(classic, BEZIQUE, fixes_trump=False, repeats=1, beziques_before=1) == 40
    no_trump = Rules.preset("no-trump")
    drm = DOUBLE_ROYAL_MARRIAGE
    assert meld_points(no_trump, drm, fixes_trump=True, repeats=0, beziques_before=0) == 50
    assert meld_points(no_trump, drm, fixes_trump=False, repeats=0, beziques_before=0) == (
        meld_score(no_trump, drm)
    )


def test_the_points_shown_beside_a_legal_declaration() -> None:
    """The server and the terminal show these beside each legal action (one function)."""
    classic = Rules.preset("classic")
    assert action_points(classic, "meld bezique QS JD") == 40
    assert action_points(classic, Action.parse("meld royal-marriage KH QH")) == 40
    assert action_points(classic, "exchange 7H") == 10
    assert action_points(classic, "play AS") is None
    assert action_points(classic, "pass") is None
    assert action_points(Rules.preset("old-russian"), "exchange 9H") == 0  # a nine: no points


def test_the_same_trump_three_deals_running() -> None:
    """RULES.md, Greek club (000-A l.13-17): the same trump three deals running gives the
    dealer +20, or -20 when it is clubs."""
    greek = Rules.preset("classic", turn_up_bonus="greek-club")
    assert trump_run_bonus(greek, ["H", "H", "H"]) == 20
    assert trump_run_bonus(greek, ["S", "C", "C", "C"]) == -20
    assert trump_run_bonus(greek, ["H", "S", "H"]) == 0
    assert trump_run_bonus(greek, ["H", "H"]) == 0
    assert trump_run_bonus(Rules.preset("classic"), ["H", "H", "H"]) == 0


def test_what_may_be_declared_before_and_after_trump_is_fixed() -> None:
    """RULES.md, no-trump game: before trump exists beziques and quartets may be declared but
    not a trump sequence; the first marriage fixes trump (a double marriage too, scoring 50)."""
    no_trump = Rules.preset("no-trump")
    before = declarable_melds(no_trump, False)
    after = declarable_melds(no_trump, True)
    assert TRUMP_SEQUENCE not in before and TRUMP_SEQUENCE in after
    assert DOUBLE_ROYAL_MARRIAGE in before and BEZIQUE in before and ROYAL_MARRIAGE in before
    assert SEVEN_MELD not in before  # no trump, no seven of trumps
    haitian = Rules.preset("haitian")  # only a marriage before trump (melds_before_trump)
    assert set(declarable_melds(haitian, False)) <= {ROYAL_MARRIAGE, DOUBLE_ROYAL_MARRIAGE}


def test_scoring_events_are_typed_and_keep_their_text() -> None:
    """Every event a deal records has a kind, and its text form reads back to the same event."""
    import random

    from bezique import Deal

    for preset in ("classic", "old-russian", "greek", "rubicon"):
        deal = Deal.new(Rules.preset(preset), seed=5)
        rng = random.Random(5)
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        for e in deal.events:
            assert isinstance(e.kind, EventKind)
            assert ScoreEvent.parse(e.text()) == e
            if e.kind is EventKind.MELD:
                assert e.meld and e.cards and e.what == f"meld {e.meld} {' '.join(e.cards)}"
    e = ScoreEvent(24, 1, "last trick", 10)
    assert (e.kind, e.part, e.cards) == (EventKind.LAST_TRICK, PART_LAST, ())
    with pytest.raises(ValueError):
        ScoreEvent.parse("3:0:bonus for nothing:10")
