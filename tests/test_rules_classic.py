"""Rule facts C01-C52 of RULES.md section 5.1 (classic two-handed bezique), one test or more each.

Every test names its rule fact.  Deals are stacked with :func:`classic_kit.build`, which takes
the cards a test cares about and fills the rest of the 64-card pack with low plain cards first, so
that the pack is exact.  C47-C49 (the penalty schemes, kept by the score-keeper) are tested with
the keeper in test_keeper.py and test_rules_once.py.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bezique import Deal, Match, Rules
from classic_kit import (
    PACK,
    RANKS,
    Stage1,
    assert_illegal,
    build,
    card,
    drawn,
    legal,
    meld,
    melds,
    one_trick,
    play_random,
    settle,
    trick,
)


def test_c01_pack_has_64_cards_two_of_each() -> None:
    """C01 (RULES.md 5.1): two copies of each of the 32 cards, 64 in all."""
    for seed in range(5):
        hands, up, stock = Deal.new(Rules.preset("classic"), seed=seed).initial  # type: ignore[misc]
        cards = [c for h in hands for c in h] + [up, *stock]
        assert len(cards) == 64
        assert Counter(cards) == Counter({c: 2 for c in PACK})
    assert Rules.preset("classic").cards == 64


def test_c01_stacked_deal_must_be_the_exact_pack() -> None:
    """C01 (RULES.md 5.1): a stacked deal with a third copy of a card or a card missing is refused."""
    hands, up, stock = Deal.new(Rules.preset("classic"), seed=1).initial  # type: ignore[misc]
    rules = Rules.preset("classic")
    with pytest.raises(ValueError):
        Deal.from_cards(rules, [list(h) for h in hands], up, list(stock[:-1]))
    extra = "QS" if stock[-1] != "QS" else "JD"
    with pytest.raises(ValueError):
        Deal.from_cards(rules, [list(h) for h in hands], up, [*stock[:-1], extra])


RANK_PAIRS = [(hi, lo) for i, hi in enumerate(RANKS) for lo in RANKS[i + 1 :]]


@pytest.mark.parametrize(("hi", "lo"), RANK_PAIRS)
def test_c02_rank_order(hi: str, lo: str) -> None:
    """C02 (RULES.md 5.1): A > 10 > K > Q > J > 9 > 8 > 7, in a plain suit and in trumps."""
    for suit, up in (("H", "8C"), ("S", "9S")):
        if hi + suit == up or lo + suit == up:
            continue
        assert one_trick(lo + suit, hi + suit, up) == 1, f"{hi}{suit} should beat {lo}{suit}"
        assert one_trick(hi + suit, lo + suit, up) == 0, f"{hi}{suit} should beat {lo}{suit}"


def test_c02_ten_of_trumps_beats_king_of_trumps() -> None:
    """C02 (RULES.md 5.1): with spades trump, 10♠ beats K♠."""
    assert one_trick("KS", "TS", "9S") == 1
    assert one_trick("TS", "KS", "9S") == 0


def test_c03_eight_cards_each_and_47_in_stock() -> None:
    """C03 (RULES.md 5.1): 8 cards each, 47 face-down in the stock, 48 with the turn-up."""
    for seed in range(5):
        deal = Deal.new(Rules.preset("classic"), seed=seed, dealer=seed % 2)
        assert [len(deal.hand(s)) for s in (0, 1)] == [8, 8]
        assert deal.stock_size == 47
        assert deal.turn_up is not None
        obs = deal.observation(0)
        assert obs.hand_sizes == (8, 8) and obs.stock_size == 47 and obs.turn_up == deal.turn_up


def test_c04_turn_up_is_the_17th_card_and_fixes_trump() -> None:
    """C04 (RULES.md 5.1): the 17th card is turned up and its suit is trump.  The same shuffle
    dealt by the other player swaps the hands but turns up the same 17th card."""
    rules = Rules.preset("classic")
    for seed in range(8):
        a = Deal.new(rules, seed=seed, dealer=0)
        b = Deal.new(rules, seed=seed, dealer=1)
        assert a.turn_up == b.turn_up
        assert a.trump == a.turn_up[1]  # type: ignore[index]
        assert sorted(a.hand(0)) == sorted(b.hand(1)) and sorted(a.hand(1)) == sorted(b.hand(0))
    for up in ("9S", "9H", "9D", "9C"):
        assert build(up=up).trump == up[1]


@pytest.mark.parametrize("dealer", [0, 1])
def test_c05_seven_turned_up_scores_10_for_the_dealer(dealer: int) -> None:
    """C05 (RULES.md 5.1): a 7 turned up gives the dealer 10 at once."""
    deal = build(up="7H", dealer=dealer)
    assert deal.points[dealer] == 10 and deal.points[1 - dealer] == 0
    assert deal.events == [(0, dealer, "turn-up 7H", 10)]
    play_random(deal, seed=dealer)
    assert deal.result[dealer].bonuses == 10  # type: ignore[index]
    assert deal.result[1 - dealer].bonuses == 0  # type: ignore[index]


def test_c05_other_turn_ups_score_nothing() -> None:
    """C05 (RULES.md 5.1): only a 7 turned up scores (an ace does not: 002's 'A' is a garble)."""
    for up in ("AH", "TS", "KD", "9C", "8S"):
        deal = build(up=up, dealer=0)
        assert deal.points == [0, 0] and deal.events == []


def test_c06_non_dealer_leads_first() -> None:
    """C06 (RULES.md 5.1): the non-dealer leads to the first trick."""
    for dealer in (0, 1):
        assert build(dealer=dealer).to_move == 1 - dealer
        deal = Deal.new(Rules.preset("classic"), seed=3, dealer=dealer)
        assert deal.to_move == 1 - dealer and deal.leader == 1 - dealer and deal.phase == "play"


# --- C07-C14: tricks and drawing ----------------------------------------------------------------


def test_c07_stage1_follower_may_play_any_card() -> None:
    """C07 (RULES.md 5.1): while the stock lasts the follower may discard any card, even holding
    the suit led (no duty to follow, to trump or to win)."""
    villain = ["AH", "KH", "7S", "8D", "9C", "TS", "JD", "QC"]
    deal = build(["9H"], villain, "8C")
    deal.apply("play 9H")
    assert sorted(card(a) for a in legal(deal)) == sorted(villain)
    deal.apply("play 7S")  # a spade on a heart lead, holding hearts and trumps
    assert deal.last_trick_winner == 0


def test_c08_off_suit_card_loses() -> None:
    """C08 (RULES.md 5.1): 7♥ led, 8♦ played (diamonds not trump): the leader wins."""
    assert one_trick("7H", "8D", "8C") == 0


def test_c09_higher_card_of_the_suit_wins() -> None:
    """C09 (RULES.md 5.1): 9♦ led, 10♦ played: the follower wins."""
    assert one_trick("9D", "TD", "8C") == 1


def test_c10_identical_cards_first_played_wins() -> None:
    """C10 (RULES.md 5.1): of two identical cards the one played first wins (plain and trump)."""
    assert one_trick("9D", "9D", "8C") == 0
    assert one_trick("AC", "AC", "8C") == 0


def test_c11_trumps_win() -> None:
    """C11 (RULES.md 5.1): any trump beats a plain lead; of two trumps the higher wins."""
    assert one_trick("AH", "7C", "8C") == 1
    assert one_trick("7C", "AH", "8C") == 0
    assert one_trick("9C", "7C", "8C") == 0
    assert one_trick("7C", "9C", "8C") == 1


def test_c12_ace_beats_king() -> None:
    """C12 (RULES.md 5.1): A♥ led, K♥ played: the leader wins."""
    assert one_trick("AH", "KH", "8C") == 0


@pytest.mark.parametrize("winner", [0, 1])
def test_c13_winner_draws_first_then_loser(winner: int) -> None:
    """C13 (RULES.md 5.1): the winner draws the top stock card, the loser the next one; both
    hands are back to 8 cards."""
    deal = build(["9H"], ["8H", "TH"], "8C", stock=["AS", "KD"])
    before = [deal.hand(0), deal.hand(1)]
    follow = "8H" if winner == 0 else "TH"
    deal.apply("play 9H")
    deal.apply("play " + follow)
    assert deal.last_trick_winner == winner
    settle(deal)
    assert deal.stock_size == 45
    assert drawn(before[winner], deal.hand(winner), ["9H", follow][winner]) == Counter(["AS"])
    loser = 1 - winner
    assert drawn(before[loser], deal.hand(loser), ["9H", follow][loser]) == Counter(["KD"])
    assert [len(deal.hand(s)) for s in (0, 1)] == [8, 8]


@pytest.mark.parametrize("winner", [0, 1])
def test_c14_winner_leads_next(winner: int) -> None:
    """C14 (RULES.md 5.1): the trick winner leads to the next trick."""
    deal = build(["9H"], ["8H", "TH"], "8C")
    deal.apply("play 9H")
    deal.apply("play " + ("8H" if winner == 0 else "TH"))
    settle(deal)
    assert deal.to_move == winner and deal.leader == winner and deal.phase == "play"
    assert not deal.trick


# --- C15-C18: declaring ------------------------------------------------------------------------


def test_c15_only_the_trick_winner_declares() -> None:
    """C15 (RULES.md 5.1): only the trick winner may declare; the loser never gets to."""
    deal = build(["QS", "JD", "9H", "9S", "8S"], ["QS", "JD", "8H", "AD", "TS"], "8C")
    trick(deal, 0, "9H", "8H")
    assert deal.phase == "declare" and deal.to_move == 0
    assert "meld bezique QS JD" in legal(deal)
    assert deal.observation(1).legal == ()  # the loser has nothing to choose
    deal.apply("pass")
    assert deal.phase == "play" and deal.to_move == 0
    deal.apply("play 9S")  # seat 0 leads; seat 1 follows and may only play
    assert all(a.startswith("play ") for a in legal(deal))
    assert_illegal(deal, "meld bezique QS JD")
    deal.apply("play AD")  # plain off-suit: seat 0 wins again
    assert deal.last_trick_winner == 0 and deal.to_move == 0
    settle(deal)
    trick(deal, 1, "8S", "TS")
    assert deal.phase == "declare" and deal.to_move == 1
    deal.apply("meld bezique QS JD")
    assert deal.points == [0, 40]


def test_c16_declare_after_winning_before_drawing() -> None:
    """C16 (RULES.md 5.1): a declaration comes after winning a trick and before the draw."""
    deal = build(["QS", "JD", "9H"], ["8H"], "8C")
    assert_illegal(deal, "meld bezique QS JD")  # no trick won yet
    trick(deal, 0, "9H", "8H")
    assert deal.phase == "declare"
    assert deal.stock_size == 47 and len(deal.hand(0)) == 7 and len(deal.hand(1)) == 7
    deal.apply("meld bezique QS JD")
    assert deal.stock_size == 45 and len(deal.hand(0)) == 8 and deal.points == [40, 0]
    assert deal.phase == "play"
    assert_illegal(deal, "meld bezique QS JD")  # after the draw: too late


def test_c17_one_meld_scores_per_trick() -> None:
    """C17 (RULES.md 5.1): one meld scores per trick won; the other scores on a later trick."""
    deal = build(["QS", "JD", "KH", "QH", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    assert {"meld bezique QS JD", "meld marriage KH QH"} <= set(legal(deal))
    deal.apply("meld bezique QS JD")
    assert deal.phase == "play" and deal.stock_size == 45  # drawn at once: no second meld
    assert_illegal(deal, "meld marriage KH QH")
    trick(deal, 0)
    assert deal.phase == "declare"
    deal.apply("meld marriage KH QH")
    assert deal.points == [60, 0]


def test_c18_declared_cards_stay_in_hand_and_can_be_played() -> None:
    """C18 (RULES.md 5.1): declared cards lie face up, still count in the 8-card hand, and may
    be led from the table."""
    deal = build(["QS", "JD", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    deal.apply("meld bezique QS JD")
    assert deal.table(0) == ["QS", "JD"]
    assert len(deal.hand(0)) == 8 and {"QS", "JD"} <= set(deal.hand(0))
    assert deal.observation(1).tables[0] == ("QS@bezique", "JD@bezique")
    assert "QS" not in deal.observation(0).hand  # the concealed hand
    assert "play QS" in legal(deal)
    deal.apply("play QS")
    assert deal.table(0) == ["JD"] and deal.trick == [(0, "QS")]


# --- C19-C26: the meld table ----------------------------------------------------------------


def test_c19_marriages() -> None:
    """C19 (RULES.md 5.1): common marriage 20, royal marriage (trumps) 40."""
    deal = build(["KH", "QH", "KC", "QC", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    assert_illegal(deal, "meld marriage KC QC")  # clubs are trumps: royal, not common
    assert_illegal(deal, "meld royal-marriage KH QH")
    deal.apply("meld marriage KH QH")
    assert deal.points == [20, 0]
    trick(deal, 0)
    deal.apply("meld royal-marriage KC QC")
    assert deal.points == [60, 0]


@pytest.mark.parametrize("up", ["9S", "9H", "9D", "9C"])
def test_c20_bezique_is_spade_queen_diamond_jack_whatever_trump(up: str) -> None:
    """C20 (RULES.md 5.1): bezique = Q♠ + J♦ = 40 whatever the trump suit."""
    a, b = [s for s in "HCSD" if s != up[1]][:2]
    deal = build(["QS", "JD", "QC", "JH", "9" + a], ["8" + b], up)
    trick(deal, 0, "9" + a, "8" + b)
    assert_illegal(deal, "meld bezique QC JH")
    deal.apply("meld bezique QS JD")
    assert deal.points == [40, 0]


def test_c21_double_bezique_500() -> None:
    """C21 (RULES.md 5.1): both Q♠ and both J♦ on the table together: 500."""
    deal = build(["QS", "QS", "JD", "JD", "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    deal.apply("meld double-bezique QS QS JD JD")
    assert deal.points == [500, 0]
    assert deal.table(0) == ["QS", "QS", "JD", "JD"]


def test_c22_double_bezique_at_once_is_500_not_540() -> None:
    """C22 (RULES.md 5.1): a double bezique declared in one go scores 500, and none of its
    cards can score a single bezique afterwards."""
    deal = build(["QS", "QS", "JD", "JD", "KH", "QH", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    deal.apply("meld double-bezique QS QS JD JD")
    assert deal.points == [500, 0]
    trick(deal, 0)
    assert deal.phase == "declare"  # the marriage is there to declare
    assert melds(deal, "bezique") == [] and melds(deal, "double-bezique") == []
    assert_illegal(deal, "meld bezique QS JD")
    deal.apply("meld marriage KH QH")
    assert deal.points == [520, 0]


def test_c23_single_then_double_bezique_scores_540() -> None:
    """C23 (RULES.md 5.1): a single bezique (40) completed on a later trick by the second Q♠ and
    J♦ scores the double (+500): 540."""
    deal = build(["QS", "QS", "JD", "JD", "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    deal.apply("meld bezique QS JD")
    assert deal.points == [40, 0]
    trick(deal, 0)
    assert deal.phase == "declare"
    meld(deal, "double-bezique", "QS QS JD JD")
    assert deal.points == [540, 0]
    assert deal.table(0) == ["QS", "QS", "JD", "JD"]


def test_c24_two_singles_never_become_a_double() -> None:
    """C24 (RULES.md 5.1): two single beziques scored separately (40 + 40) can never score the
    double afterwards: no new card would be added."""
    deal = build(["QS", "QS", "JD", "JD", "KH", "QH", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    deal.apply("meld bezique QS JD")
    trick(deal, 0)
    # the second single must use the two concealed cards
    assert melds(deal, "bezique") == ["meld bezique QS JD"]
    deal.apply("meld bezique QS JD")
    assert deal.points == [80, 0]
    assert deal.table(0) == ["QS", "QS", "JD", "JD"]
    trick(deal, 0)
    assert deal.phase == "declare"  # the marriage keeps the declaration open
    assert melds(deal, "double-bezique") == [] and melds(deal, "bezique") == []
    assert_illegal(deal, "meld double-bezique QS QS JD JD")
    assert_illegal(deal, "meld double-bezique QS@table QS@table JD@table JD@table")
    deal.apply("meld marriage KH QH")
    assert deal.points == [100, 0]


@pytest.mark.parametrize(
    ("kind", "cards", "points"),
    [
        ("four-aces", "AS AS AH AD", 100),
        ("four-kings", "KS KH KH KD", 80),
        ("four-queens", "QH QD QC QC", 60),
        ("four-jacks", "JS JS JH JH", 40),
    ],
)
def test_c25_quartets_any_four(kind: str, cards: str, points: int) -> None:
    """C25 (RULES.md 5.1): four aces 100, kings 80, queens 60, jacks 40; suits may repeat."""
    deal = build([*cards.split(), "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    meld(deal, kind, cards)
    assert deal.points == [points, 0]


@pytest.mark.parametrize(
    ("kind", "cards", "points"),
    [
        ("four-aces", "AS AH AD AC", 100),
        ("four-kings", "KS KH KD KC", 80),
        ("four-queens", "QS QH QD QC", 60),
        ("four-jacks", "JS JH JD JC", 40),
    ],
)
def test_c25_quartets_of_four_suits(kind: str, cards: str, points: int) -> None:
    """C25 (RULES.md 5.1): the quartet scores with four different suits as well."""
    deal = build([*cards.split(), "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    meld(deal, kind, cards)
    assert deal.points[0] == points


def test_c25_three_of_a_rank_is_no_quartet() -> None:
    """C25 (RULES.md 5.1): three aces and a king are not four aces."""
    deal = build(["AS", "AH", "AD", "KS", "KH", "QH", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    assert melds(deal, "four-aces") == []
    assert_illegal(deal, "meld four-aces AS AH AD KS")


def test_c26_trump_sequence_250_and_no_plain_sequence() -> None:
    """C26 (RULES.md 5.1): A-10-K-Q-J of trumps = 250; a plain-suit sequence scores nothing."""
    deal = build(["AC", "TC", "KC", "QC", "JC", "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    deal.apply("meld trump-sequence AC TC KC QC JC")
    assert deal.points == [250, 0]
    deal = build(["AH", "TH", "KH", "QH", "JH", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    assert melds(deal, "plain-sequence") == [] and melds(deal, "trump-sequence") == []
    assert_illegal(deal, "meld plain-sequence AH TH KH QH JH")
    assert_illegal(deal, "meld trump-sequence AH TH KH QH JH")


# --- C27-C32: meld reuse ----------------------------------------------------------------------


def test_c27_royal_marriage_then_sequence_290() -> None:
    """C27 (RULES.md 5.1): a royal marriage (40) extended on a later trick with A, 10, J of
    trumps scores the sequence (250): 290 in all."""
    deal = build(["AC", "TC", "KC", "QC", "JC", "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    deal.apply("meld royal-marriage KC QC")
    assert deal.points == [40, 0]
    trick(deal, 0)
    deal.apply("meld trump-sequence AC TC KC QC JC")
    assert deal.points == [290, 0]


def test_c28_sequence_king_and_queen_cannot_then_marry() -> None:
    """C28 (RULES.md 5.1): after a trump sequence its K and Q never score a royal marriage."""
    deal = build(["AC", "TC", "KC", "QC", "JC", "QS", "JD", "9H"], ["8H"], "8C")
    trick(deal, 0, "9H", "8H")
    deal.apply("meld trump-sequence AC TC KC QC JC")
    trick(deal, 0)
    assert deal.phase == "declare"  # the bezique keeps the declaration open
    assert melds(deal, "royal-marriage") == []
    assert_illegal(deal, "meld royal-marriage KC QC")
    deal.apply("meld bezique QS JD")
    assert deal.points == [290, 0]


def test_c29_married_queen_cannot_marry_again() -> None:
    """C29 (RULES.md 5.1): a married Q cannot marry the other K of the suit; a second marriage
    in the suit needs a new K and a new Q."""
    deal = build(["KH", "KH", "QH", "QS", "JD", "9D"], ["8D"], "8C", stock=["7S", "7D", "QH"])
    trick(deal, 0, "9D", "8D")
    deal.apply("meld marriage KH QH")
    trick(deal, 0)
    assert deal.phase == "declare"
    assert melds(deal, "marriage") == []  # fresh K with the married Q: no
    assert_illegal(deal, "meld marriage KH QH@table")
    assert_illegal(deal, "meld marriage KH QH")
    deal.apply("meld bezique QS JD")
    assert deal.hand(0).count("QH") == 2  # the second queen was drawn
    trick(deal, 0)
    assert deal.phase == "declare"
    assert melds(deal, "marriage") == ["meld marriage KH QH"]  # both fresh
    deal.apply("meld marriage KH QH")
    assert deal.points == [80, 0]
    assert deal.table(0).count("KH") == 2 and deal.table(0).count("QH") == 2


def test_c30_married_king_can_join_four_kings() -> None:
    """C30 (RULES.md 5.1): a king used in a marriage may later score in four kings."""
    deal = build(["KH", "QH", "KS", "KD", "KC", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    deal.apply("meld marriage KH QH")
    trick(deal, 0)
    deal.apply("meld four-kings KS KH KD KC")
    assert deal.points == [100, 0]


def _four_kings_then_marriage(**options: Any) -> Deal:
    deal = build(["KS", "KH", "KD", "KC", "QH", "QS", "JD", "9D"], ["8D"], "8C", **options)
    trick(deal, 0, "9D", "8D")
    deal.apply("meld four-kings KS KH KD KC")
    trick(deal, 0)
    assert deal.phase == "declare"
    return deal


def test_c31_king_from_four_kings_may_marry_by_class() -> None:
    """C31 (RULES.md 5.1): by default (meld_reuse=by-class) a king from four kings may marry."""
    deal = _four_kings_then_marriage()
    assert set(melds(deal, "marriage")) == {"meld marriage KH QH", "meld marriage KS QS"}
    deal.apply("meld marriage KH QH")
    assert deal.points == [100, 0]


def test_c31_king_from_four_kings_may_not_marry_higher_score_only() -> None:
    """C31 (RULES.md 5.1): under meld_reuse=higher-score-only it may not."""
    deal = _four_kings_then_marriage(meld_reuse="higher-score-only")
    assert melds(deal, "marriage") == []
    assert_illegal(deal, "meld marriage KH QH")
    deal.apply("meld bezique QS JD")
    assert deal.points == [120, 0]


def test_c32_spade_queen_in_bezique_four_queens_and_marriage() -> None:
    """C32 (RULES.md 5.1): Q♠ of a bezique may also score in four queens and in a spade
    marriage, on separate tricks."""
    deal = build(["QS", "JD", "QH", "QD", "QC", "KS", "9D"], ["8D"], "8H")
    trick(deal, 0, "9D", "8D")
    deal.apply("meld bezique QS JD")
    trick(deal, 0)
    deal.apply("meld four-queens QS QH QD QC")
    trick(deal, 0)
    deal.apply("meld marriage KS QS")
    assert deal.points == [120, 0]
    assert [e[3] for e in deal.events] == [40, 60, 20]


# --- C33-C36: the seven of trumps and the last stock cards ----------------------------------------


def test_c33_exchange_seven_after_winning_a_trick() -> None:
    """C33 (RULES.md 5.1): the 7 of trumps is exchanged for the turn-up (10) only right after
    winning a trick, before drawing; never before the opening lead."""
    deal = build(["7C", "9H"], ["8H", "TS"], "KC")
    assert_illegal(deal, "exchange 7C")  # on lead, no trick won yet
    trick(deal, 0, "9H", "8H")
    assert "exchange 7C" in legal(deal)
    assert deal.stock_size == 47
    deal.apply("exchange 7C")
    assert deal.points == [10, 0]
    assert deal.turn_up == "7C" and "KC" in deal.hand(0) and "7C" not in deal.hand(0)
    assert deal.phase == "play" and deal.stock_size == 45  # then both drew
    assert_illegal(deal, "exchange 7C")


def test_c33_loser_cannot_exchange() -> None:
    """C33 (RULES.md 5.1): the loser of a trick cannot exchange his 7 of trumps."""
    deal = build(["9H", "QS", "JD"], ["7C", "8H"], "KC")
    trick(deal, 0, "9H", "8H")
    assert deal.to_move == 0 and "exchange 7C" not in legal(deal)
    deal.apply("pass")
    assert deal.turn_up == "KC" and "7C" in deal.hand(1)


def test_c34_exchange_is_the_tricks_declaration() -> None:
    """C34 (RULES.md 5.1): the exchange counts as the declaration: nothing else scores on that
    trick, and after a meld the exchange must wait for the next trick."""
    deal = build(["7C", "QS", "JD", "9H"], ["8H"], "KC")
    trick(deal, 0, "9H", "8H")
    assert {"exchange 7C", "meld bezique QS JD"} <= set(legal(deal))
    deal.apply("exchange 7C")
    assert deal.phase == "play" and deal.points == [10, 0]
    assert_illegal(deal, "meld bezique QS JD")

    deal = build(["7C", "QS", "JD", "9H"], ["8H"], "KC")
    trick(deal, 0, "9H", "8H")
    deal.apply("meld bezique QS JD")
    assert deal.phase == "play" and deal.points == [40, 0] and deal.turn_up == "KC"
    trick(deal, 0)
    assert "exchange 7C" in legal(deal)
    deal.apply("exchange 7C")
    assert deal.points == [50, 0]


def test_c35_second_seven_cannot_exchange_but_scores_when_declared() -> None:
    """C35 (RULES.md 5.1): after one exchange, the holder of the other 7 of trumps cannot
    exchange, but scores 10 by declaring it after winning a trick."""
    deal = build(["7C", "9H", "9S"], ["7C", "8H", "AS"], "KC")
    trick(deal, 0, "9H", "8H")
    deal.apply("exchange 7C")
    assert deal.turn_up == "7C"
    trick(deal, 1, "9S", "AS")
    assert deal.phase == "declare" and deal.to_move == 1
    assert "exchange 7C" not in legal(deal)
    assert_illegal(deal, "exchange 7C")
    assert "meld seven 7C" in legal(deal)
    deal.apply("meld seven 7C")
    assert deal.points == [10, 10]
    assert deal.table(1) == ["7C"]
    trick(deal, 1)
    assert "meld seven 7C" not in legal(deal)  # it scores once


def test_c35_one_player_with_both_sevens() -> None:
    """C35 (RULES.md 5.1): one player holding both 7s of trumps exchanges one and declares the
    other on a later trick: 10 each, and no second exchange."""
    deal = build(["7C", "7C", "9H"], ["8H"], "KC")
    trick(deal, 0, "9H", "8H")
    deal.apply("exchange 7C")
    trick(deal, 0)
    assert "exchange 7C" not in legal(deal)
    deal.apply("meld seven 7C")
    assert deal.points == [20, 0]


def test_c35_seven_turned_up_other_seven_declared() -> None:
    """C35 (RULES.md 5.1) with C05: when the turn-up is itself the 7 of trumps there is nothing
    to exchange, but the other 7 of trumps still scores 10 when declared."""
    deal = build(["7C", "9H"], ["8H"], "7C", dealer=1)
    assert deal.points == [0, 10]
    trick(deal, 0, "9H", "8H")
    assert "exchange 7C" not in legal(deal)
    assert_illegal(deal, "exchange 7C")
    deal.apply("meld seven 7C")
    assert deal.points == [10, 10]


KEEP0 = ["QS", "JD", "KH", "QH", "9H", "8S", "7D"]
KEEP1 = ["AH", "TH", "8H", "7H", "AD", "KS", "QD"]


def test_c36_trick_24_winner_declares_then_takes_last_face_down_card() -> None:
    """C36 (RULES.md 5.1): the 24th trick's winner may still declare, then takes the last
    face-down card; the loser takes the turn-up."""
    plan = Stage1(KEEP0, "AS", KEEP1, "9C")
    deal = plan.play(upto=24)
    assert deal.tricks_played == 24 and deal.phase == "declare" and deal.to_move == 0
    assert deal.stock_size == 1 and deal.turn_up == "9C" and deal.stage == 1
    deal.apply("meld bezique QS JD")
    settle(deal)
    assert deal.points == [40, 0]
    assert deal.stock_size == 0 and deal.turn_up is None
    assert Counter(deal.hand(0)) == Counter([*KEEP0, "AS"])
    assert Counter(deal.hand(1)) == Counter([*KEEP1, "9C"])


def test_c36_loser_of_trick_24_takes_the_exchanged_seven() -> None:
    """C36 (RULES.md 5.1): after an exchange, the loser of trick 24 takes the 7 of trumps."""
    keep0 = ["7C", "JD", "KH", "QH", "9H", "8S", "7D"]
    plan = Stage1(keep0, "AS", KEEP1, "TC")
    deal = plan.play(upto=24, declare={1: "exchange 7C"})
    settle(deal)
    assert deal.points == [10, 0]
    assert Counter(deal.hand(1)) == Counter([*KEEP1, "7C"])
    assert Counter(deal.hand(0)) == Counter(["TC", "JD", "KH", "QH", "9H", "8S", "7D", "AS"])


def test_c36_exchange_on_trick_24() -> None:
    """C36 (RULES.md 5.1) with C33: the 24th trick's winner may exchange the 7 of trumps, then
    takes the last face-down card; the loser takes the 7."""
    keep0 = ["7C", "JD", "KH", "QH", "9H", "8S", "7D"]
    deal = Stage1(keep0, "AS", KEEP1, "TC").play(upto=24)
    assert deal.phase == "declare" and "exchange 7C" in legal(deal)
    deal.apply("exchange 7C")
    settle(deal)
    assert deal.stage == 2 and deal.points == [10, 0]
    assert Counter(deal.hand(0)) == Counter(["TC", "JD", "KH", "QH", "9H", "8S", "7D", "AS"])
    assert Counter(deal.hand(1)) == Counter([*KEEP1, "7C"])


# --- C37-C41: stage 2 ------------------------------------------------------------------------


def test_c37_no_declarations_after_the_stock_and_melds_return_to_hand() -> None:
    """C37 (RULES.md 5.1): once the stock is exhausted declared cards go back into the hands
    (still known to the opponent) and no declaration is legal."""
    plan = Stage1(KEEP0, "KH", KEEP1, "9C")
    deal = plan.play(upto=24, declare={1: "meld bezique QS JD", 2: "meld marriage KH QH"})
    settle(deal)
    assert deal.stage == 2 and deal.points == [60, 0]
    assert deal.table(0) == [] and deal.table(1) == []
    assert {"QS", "JD", "KH", "QH"} <= set(deal.hand(0))
    seen = deal.observation(1).known[0]
    assert {"QS", "JD", "KH", "QH"} <= set(seen)
    while not deal.is_over:
        assert deal.phase == "play"
        actions = legal(deal)
        assert actions and all(a.startswith("play ") for a in actions)
        if deal.to_move == 0 and not deal.trick and {"QS", "JD"} <= set(deal.hand(0)):
            assert_illegal(deal, "meld bezique QS JD")
        deal.apply(actions[0])
    assert deal.result[0].melds == 60  # type: ignore[index]


def test_c38_trick_24_winner_leads_trick_25() -> None:
    """C38 (RULES.md 5.1): the winner of trick 24 leads the first of the last 8 tricks."""
    deal = Stage1(KEEP0, "AS", KEEP1, "9C").play(upto=24)
    settle(deal)
    assert deal.stage == 2 and deal.to_move == 0 and deal.leader == 0
    winners24 = set()
    for seed in range(12):
        deal = Deal.new(Rules.preset("classic"), seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        while deal.tricks_played < 24 or deal.stage == 1:
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.to_move == deal.trick_winners[23] == deal.leader
        winners24.add(deal.trick_winners[23])
        play_random(deal, seed)
        assert deal.observation(None).tricks[24][0] == deal.trick_winners[23]
    assert winners24 == {0, 1}


def _stage2(keep0: list[str], keep1: list[str], up: str = "9C", **options: object) -> Deal:
    deal = Stage1(keep0, "8D", keep1, up, **options).play(upto=24)
    settle(deal)
    assert deal.stage == 2 and deal.to_move == 0
    return deal


def plays(deal: Deal) -> set[str]:
    return {card(a) for a in legal(deal)}


def test_c39_stage2_must_follow_suit() -> None:
    """C39 (RULES.md 5.1): in the last 8 tricks, 9♥ led (hearts not trump), a follower holding
    A♥ and trumps must play a heart."""
    deal = _stage2(
        ["9H", "9S", "KD", "QD", "JS", "8S", "7S"], ["AH", "KC", "QC", "AS", "TS", "JD", "7D"]
    )
    deal.apply("play 9H")
    assert plays(deal) == {"AH"}
    assert_illegal(deal, "play KC")
    assert_illegal(deal, "play AS")
    deal.apply("play AH")
    assert deal.last_trick_winner == 1


def test_c39_stage2_follow_suit_even_when_unable_to_win() -> None:
    """C39 (RULES.md 5.1): holding only lower hearts and trumps, the follower plays a heart; he
    may not trump."""
    deal = _stage2(
        ["9H", "9S", "KD", "QD", "JS", "8S", "7S"], ["8H", "7H", "KC", "AS", "TS", "JD", "7D"]
    )
    deal.apply("play 9H")
    assert plays(deal) == {"8H", "7H"}
    assert_illegal(deal, "play KC")
    assert_illegal(deal, "play 9C")


def test_c40_stage2_must_head_the_trick() -> None:
    """C40 (RULES.md 5.1): holding 8♥ and A♥ against a K♥ lead, the follower must play A♥."""
    deal = _stage2(
        ["KH", "9S", "KD", "QD", "JS", "8S", "7S"], ["8H", "AH", "KC", "AS", "TS", "JD", "7D"]
    )
    deal.apply("play KH")
    assert plays(deal) == {"AH"}
    assert_illegal(deal, "play 8H")
    deal.apply("play AH")
    assert deal.last_trick_winner == 1


def test_c40_identical_card_does_not_head() -> None:
    """C40 (RULES.md 5.1) with C10: an identical card does not beat the one led, so holding K♥
    and 8♥ against a K♥ lead, either may be played."""
    keep1 = ["KH", "8H", "KC", "AS", "TS", "JD", "7D"]
    deal = _stage2(["KH", "9S", "KD", "QD", "JS", "8S", "7S"], keep1)
    deal.apply("play KH")
    assert plays(deal) == {"KH", "8H"}
    deal.apply("play KH")
    assert deal.last_trick_winner == 0


def test_c41_stage2_void_must_trump() -> None:
    """C41 (RULES.md 5.1): void in the suit led, the follower must trump if able."""
    deal = _stage2(
        ["9S", "AS", "KD", "QD", "JS", "8S", "7S"], ["KC", "8H", "AH", "AD", "TD", "QH", "7D"]
    )
    deal.apply("play 9S")
    assert plays(deal) == {"KC", "9C"}
    assert_illegal(deal, "play AH")
    assert_illegal(deal, "play 7D")


def test_c41_stage2_neither_suit_nor_trump_any_card() -> None:
    """C41 (RULES.md 5.1): with neither the suit led nor a trump, any card may be played."""
    villain = ["8H", "AH", "AD", "TD", "QH", "7D", "KD"]
    deal = _stage2(["AC", "9S", "KS", "QS", "JS", "8S", "7S"], villain)
    deal.apply("play AC")
    assert plays(deal) == {"9C"}  # trump led: follow with the only trump
    deal.apply("play 9C")
    assert deal.last_trick_winner == 0
    deal.apply("play 9S")
    assert plays(deal) == set(villain)
    deal.apply("play 7D")
    assert deal.last_trick_winner == 0


# --- C42-C46: scoring and the match -----------------------------------------------------------


def test_c42_last_trick_scores_10() -> None:
    """C42 (RULES.md 5.1): the winner of the 32nd trick scores 10."""
    deal = _stage2(
        ["AC", "TC", "KS", "QS", "JS", "8S", "7S"], ["8H", "AH", "AD", "TD", "QH", "7D", "KD"]
    )
    while not deal.is_over:
        deal.apply(legal(deal)[0])
    w = deal.last_trick_winner
    assert deal.tricks_played == 32 and w is not None
    assert deal.events[-1] == (32, w, "last trick", 10)
    assert [r.last_trick for r in deal.result] == [10 if s == w else 0 for s in (0, 1)]  # type: ignore[union-attr]
    for seed in range(10):
        deal = Deal.new(Rules.preset("classic"), seed=seed)
        play_random(deal, seed)
        w = deal.last_trick_winner
        assert [r.last_trick for r in deal.result] == [10 if s == w else 0 for s in (0, 1)]  # type: ignore[union-attr]


def _brisques_won(deal: Deal) -> list[int]:
    won = [0, 0]
    for _, cards, w in deal.observation(None).tricks:
        won[w] += sum(1 for c in cards if c[0] in "AT")
    return won


def test_c43_brisques_160_plus_last_trick_170() -> None:
    """C43 (RULES.md 5.1): 10 for each ace and ten won; 160 a hand, 170 with the last trick."""
    for seed in range(15):
        deal = Deal.new(Rules.preset("classic"), seed=seed, dealer=seed % 2)
        play_random(deal, seed)
        res = deal.result
        assert res is not None
        assert [r.tricks for r in res] == [10 * n for n in _brisques_won(deal)]
        assert sum(r.tricks for r in res) == 160
        assert sum(r.tricks + r.last_trick for r in res) == 170
        assert deal.points == [r.total for r in res]


CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def test_c44_card_points_240_plus_last_trick_250() -> None:
    """C44 (RULES.md 5.1): trick_scoring=card-points: A 11, 10 10, K 4, Q 3, J 2; 240 a hand,
    250 with the last trick."""
    rules = Rules.preset("classic", trick_scoring="card-points")
    for seed in range(10):
        deal = Deal.new(rules, seed=seed)
        play_random(deal, seed)
        res = deal.result
        assert res is not None
        won = [0, 0]
        for _, cards, w in deal.observation(None).tricks:
            won[w] += sum(CARD_POINTS[c[0]] for c in cards)
        assert [r.tricks for r in res] == won
        assert sum(won) == 240
        assert sum(r.tricks + r.last_trick for r in res) == 250


def _play_deal(match: Match, seed: int) -> None:
    play_random(match.deal, seed)


def test_c45_game_is_1000_checked_at_end_of_hand() -> None:
    """C45 (RULES.md 5.1): the game is 1000 points, checked only at the end of a hand."""
    assert Rules.preset("classic").target == 1000
    match = Match(Rules.preset("classic"), seed=5)
    n = 0
    while True:
        deal = match.deal
        rng = random.Random(n)
        while not deal.is_over:
            assert match.winner is None  # never decided during a hand
            deal.apply(rng.choice(deal.legal_actions()))
        n += 1
        if match.winner is not None:
            break
        assert max(match.scores) < 1000
        match.next_deal()
    assert max(match.scores) >= 1000
    assert match.scores == [sum(d.points[s] for d in match.deals) for s in (0, 1)]
    w = match.winner
    if min(match.scores) >= 1000:
        assert w == match.deal.last_trick_winner
    else:
        assert match.scores[w] >= 1000


def test_c45_not_decided_mid_hand_even_past_the_target() -> None:
    """C45 (RULES.md 5.1): passing the target during a hand decides nothing until it ends."""
    found = False
    for seed in range(30):
        match = Match(Rules.preset("classic", target=40), seed=seed)
        deal = match.deal
        rng = random.Random(seed)
        while not deal.is_over:
            if max(deal.points) >= 40:
                found = True
                assert match.winner is None and not match.is_over
            deal.apply(rng.choice(deal.legal_actions()))
        if found:
            assert match.winner is not None
            break
    assert found


def _both_reach(target: int, **options: object) -> list[Match]:
    """Matches whose first deal took both sides past the target."""
    out = []
    for seed in range(60):
        match = Match(Rules.preset("classic", target=target, **options), seed=seed)
        _play_deal(match, seed)
        if min(match.scores) >= target:
            out.append(match)
    return out


def test_c45_both_reach_target_last_trick_wins() -> None:
    """C45 (RULES.md 5.1): if both sides reach the target, the taker of the last trick wins,
    even with the lower score."""
    cases = _both_reach(100)
    assert cases
    lower_won = False
    for match in cases:
        w = match.deal.last_trick_winner
        assert w is not None and match.winner == w
        if match.scores[w] < match.scores[1 - w]:
            lower_won = True
    assert lower_won, "no seed where the last trick went to the lower score"


def test_c45_only_one_reaches_target() -> None:
    """C45 (RULES.md 5.1): if one side alone reaches the target it wins, whoever took the last
    trick; if none does, the match goes on."""
    checked_other = undecided = False
    for seed in range(60):
        match = Match(Rules.preset("classic", target=150), seed=seed)
        _play_deal(match, seed)
        reached = [s for s in (0, 1) if match.scores[s] >= 150]
        if len(reached) == 1:
            assert match.winner == reached[0]
            checked_other |= match.deal.last_trick_winner != reached[0]
        elif not reached:
            assert match.winner is None
            undecided = True
            match.next_deal()
            assert match.deal.dealer == 1 - match.deals[0].dealer
    assert checked_other and undecided


def test_c46_thirty_two_tricks_24_then_8() -> None:
    """C46 (RULES.md 5.1): every hand has 32 tricks: 24 while the stock lasts, then 8."""
    rules = Rules.preset("classic")
    assert (rules.stage1_tricks, rules.tricks) == (24, 32)
    for seed in range(10):
        deal = Deal.new(rules, seed=seed)
        rng = random.Random(seed)
        while not deal.is_over:
            n = deal.tricks_played
            stage2 = n > 24 or (n == 24 and deal.phase != "declare")
            assert deal.stage == (2 if stage2 else 1)
            if deal.stage == 2 and n == 24 and not deal.trick:
                assert deal.stock_size == 0 and deal.turn_up is None
                assert [len(deal.hand(s)) for s in (0, 1)] == [8, 8]
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.tricks_played == 32 and len(deal.trick_winners) == 32
        assert deal.hand(0) == [] and deal.hand(1) == []


# --- C50-C52: extra melds and the Greek club bonuses ---------------------------------------


def test_c50_two_trump_sevens_20() -> None:
    """C50 (RULES.md 5.1): with two_trump_sevens on, both 7s of trumps score 20 as one meld;
    off by default."""
    deal = build(["7C", "7C", "9H"], ["8H"], "KC", two_trump_sevens=True)
    trick(deal, 0, "9H", "8H")
    deal.apply("meld two-sevens 7C 7C")
    assert deal.points == [20, 0]
    deal = build(["7C", "7C", "9H"], ["8H"], "KC")
    trick(deal, 0, "9H", "8H")
    assert melds(deal, "two-sevens") == []
    assert_illegal(deal, "meld two-sevens 7C 7C")


def test_c51_double_marriage_40_and_80() -> None:
    """C51 (RULES.md 5.1): with double_marriage on, K K Q Q of a plain suit together score 40,
    of trumps 80; off by default."""
    deal = build(
        ["KH", "KH", "QH", "QH", "KC", "KC", "QC", "9D"],
        ["8D"],
        "8C",
        stock=["QC"],
        double_marriage=True,
    )
    trick(deal, 0, "9D", "8D")
    deal.apply("meld double-marriage KH KH QH QH")
    assert deal.points == [40, 0]
    trick(deal, 0)
    deal.apply("meld double-royal-marriage KC KC QC QC")
    assert deal.points == [120, 0]

    deal = build(["KH", "KH", "QH", "QH", "9D"], ["8D"], "8C")
    trick(deal, 0, "9D", "8D")
    assert melds(deal, "double-marriage") == []
    assert_illegal(deal, "meld double-marriage KH KH QH QH")


@pytest.mark.parametrize(
    ("up", "dealer_pts", "other_pts"),
    [("AS", 20, 0), ("AC", 20, 0), ("AH", 12, 0), ("AD", 12, 0), ("7H", 10, -5), ("KS", 0, 0)],
)
def test_c52_greek_club_turn_up_bonus(up: str, dealer_pts: int, other_pts: int) -> None:
    """C52 (RULES.md 5.1): turn_up_bonus=greek-club: black trump ace +20, red trump ace +12, a 7
    gives the dealer +10 and the opponent -5."""
    for dealer in (0, 1):
        deal = build(up=up, dealer=dealer, turn_up_bonus="greek-club")
        assert deal.points[dealer] == dealer_pts and deal.points[1 - dealer] == other_pts
        play_random(deal, dealer)
        assert deal.result[dealer].bonuses == dealer_pts  # type: ignore[index]
        assert deal.result[1 - dealer].bonuses == other_pts  # type: ignore[index]
