"""The scoring and trick rules written once in the core (bezique.core.scoring, bezique.core.tricks).

Rule facts: RULES.md section 2.1 "Dealer bonus" (a seven turned up gives the dealer 10) and
"Both reach the target" (the taker of the last trick wins; or the higher score by agreement);
decision 11 (a wild card never wins a trick); the Greek club bonuses (RULES.md 000-A l.13-17).
"""

from __future__ import annotations

from bezique import Rules
from bezique.core.cards import WILD, parse_card
from bezique.core.scoring import target_winner, trick_points, turn_up_bonus
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
