"""Rule facts of the variants, RULES.md sections 5.2-5.6: three-handed (T01-T06), four-handed
partnership (Q01-Q05), no-trump (N01-N05), Rubicon (R01-R11), Chinese (X01-X04) and eight-pack
(E01-E03), with the binding decisions of section 6 (3, 4, 5 and 7).  The old Russian game
(O01-O13) is in ``test_rules_old_russian.py``; both use the kit in ``variant_kit.py``.

Every test names its rule fact.  Deals are stacked with :func:`variant_kit.stack`, which takes the cards a
test cares about and fills the rest of the pack (``rules.pack_kinds``) with the least useful
cards first, so that the pack is exact.  :func:`to_stage2` plays a whole stage 1 of junk that
seat 0 wins, so that stage 2 starts with the hands a test chooses.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bezique import Deal, IllegalAction, Match, Rules
from bezique.core.match import settle, settle_points
from variant_kit import (
    COURTS,
    RANKS,
    SUITS,
    assert_illegal,
    check_stage2_duties,
    last_event,
    legal,
    meld,
    melds,
    pack_of,
    passes,
    play_random,
    plays,
    stack,
    stage_lengths,
    to_stage2,
    trick,
)

PRESET_CASES = [(name, None) for name in Rules.presets()] + [
    ("no-trump", 3),
    ("no-trump", 4),
    ("old-russian", 3),
    ("old-russian", 4),
]
# tricks in a whole hand: stage 1 (stock and turn-up ÷ players) plus the hand size in stage 2
EXPECTED_TRICKS = {
    ("classic", None): 24 + 8,
    ("three", None): 24 + 8,
    ("four", None): 16 + 8,
    ("no-trump", None): 24 + 8,
    ("no-trump", 3): 24 + 8,
    ("no-trump", 4): 16 + 8,
    ("rubicon", None): 55 + 9,
    ("chinese", None): 84 + 12,
    ("eight-pack", None): 115 + 13,
    ("russian", None): 24 + 8,
    ("greek", None): 24 + 8,
    ("old-russian", None): 69,  # (174 - 36) ÷ 2, no stage 2
    ("old-russian", 3): 54,  # (214 - 54) ÷ 3, the last round short
    ("old-russian", 4): 54,  # the dealer sits out: as with three
}


def assert_illegal_over(deal: Deal) -> None:
    """Nothing more may be done once the deal is over."""
    before = deal.position()
    for action in ("pass", "play 9S"):
        with pytest.raises(IllegalAction):
            deal.apply(action)
        assert deal.position() == before


@pytest.mark.parametrize(("name", "players"), PRESET_CASES)
def test_every_preset_plays_a_random_deal_to_the_end(name: str, players: int | None) -> None:
    """RULES.md 4.2: a random legal deal of every preset ends after ``rules.tricks`` tricks, with
    every card dealt accounted for and the points of each side final."""
    rules = Rules.preset(name) if players is None else Rules.preset(name, players=players)
    for seed in range(2):
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        play_random(deal, seed)
        assert deal.is_over and deal.to_move is None and deal.legal_actions() == []
        assert deal.tricks_played == rules.tricks
        if (name, players) in EXPECTED_TRICKS:
            assert rules.tricks == EXPECTED_TRICKS[name, players]
        assert len(deal.trick_winners) == rules.tricks
        assert len(deal.points) == rules.sides
        assert [r.total for r in deal.result] == deal.points  # type: ignore[union-attr]
        played = sum(len(t[1]) for t in deal.observation(None).tricks)
        held = sum(len(deal.hand(s)) for s in range(rules.players))
        assert played + held == rules.cards
        if rules.play_out_hand:
            assert held == 0
        assert_illegal_over(deal)


# --- T01-T06: three-handed (RULES.md 2.2, 5.2) -------------------------------------------------


def test_t01_three_packs_eight_each_25th_card_turned_71_in_stock() -> None:
    """T01 (RULES.md 5.2): 3 packs (96 cards), 8 cards each, the 25th card turned up, 71
    face-down cards in the stock.  The same shuffle dealt from each seat turns up the same card
    (the 25th: 24 are dealt first) and rotates the hands."""
    rules = Rules.preset("three")
    assert (rules.players, rules.packs, rules.cards, rules.hand_size) == (3, 3, 96, 8)
    assert pack_of(rules) == Counter({r + s: 3 for r in RANKS for s in SUITS})
    for seed in range(4):
        deals = [Deal.new(rules, seed=seed, dealer=d) for d in range(3)]
        for d in deals:
            assert [len(d.hand(s)) for s in range(3)] == [8, 8, 8]
            assert d.stock_size == 71 and d.turn_up is not None
            assert d.trump == d.turn_up[1]
            hands, up, stock = d.initial  # type: ignore[misc]
            assert Counter([*hands[0], *hands[1], *hands[2], up, *stock]) == pack_of(rules)
        assert len({d.turn_up for d in deals}) == 1
        for dealer in (1, 2):
            for s in range(3):
                assert sorted(deals[dealer].hand((s + dealer) % 3)) == sorted(deals[0].hand(s))


def test_t02_three_handed_target_is_1500() -> None:
    """T02 (RULES.md 5.2): three-handed the match goes on until a player has 1500; 1000 is not
    enough."""
    rules = Rules.preset("three")
    assert rules.target == 1500
    match = Match(rules, seed=5)
    rng = random.Random(5)
    seen_1000 = False
    while True:
        while not match.deal.is_over:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
        scores = match.scores
        if max(scores) < 1500:
            assert match.winner is None
            seen_1000 = seen_1000 or max(scores) >= 1000
            match.next_deal()
            continue
        assert match.winner is not None and scores[match.winner] >= 1500
        break
    assert seen_1000, "the match should pass 1000 before it ends"


def test_t03_triple_bezique_scores_1500() -> None:
    """T03 (RULES.md 5.2): three Q♠ and three J♦ on the table together score 1500."""
    deal = stack(Rules.preset("three"), [["QS", "QS", "QS", "JD", "JD", "JD", "9H"]], up="8C")
    trick(deal, 0, "9H")
    assert "meld triple-bezique QS QS QS JD JD JD" in legal(deal)
    deal.apply("meld triple-bezique QS QS QS JD JD JD")
    assert deal.points == [1500, 0, 0]
    assert sorted(deal.table(0)) == sorted(["QS"] * 3 + ["JD"] * 3)
    assert last_event(deal) == (0, "meld triple-bezique QS QS QS JD JD JD", 1500)


def test_t03_triple_bezique_built_up_single_double_triple() -> None:
    """T03 (RULES.md 2.2, 5.2): a bezique, then the second pair (double, 500), then the third
    (triple, 1500): 40 + 500 + 1500, each adding new cards to those on the table."""
    deal = stack(Rules.preset("three"), [["QS", "QS", "QS", "JD", "JD", "JD"]], up="8C")
    trick(deal, 0)
    meld(deal, "bezique", "QS JD")
    trick(deal, 0)
    meld(deal, "double-bezique", "QS QS JD JD")
    assert deal.points == [540, 0, 0]
    trick(deal, 0)
    meld(deal, "triple-bezique", "QS QS QS JD JD JD")
    assert deal.points == [2040, 0, 0]


def test_t03_triple_bezique_needs_all_six_cards_in_hand() -> None:
    """T03 (RULES.md 5.2): with a Q♠ played away, the other five cannot make a triple."""
    deal = stack(Rules.preset("three"), [["QS", "QS", "QS", "JD", "JD", "JD"]], up="8C")
    trick(deal, 0)
    meld(deal, "double-bezique", "QS QS JD JD")
    trick(deal, 0, "play QS@table")
    assert deal.phase == "declare"  # the fresh Q♠ and J♦ still make a single bezique
    assert not melds(deal, "triple-bezique")
    assert_illegal(deal, "meld triple-bezique QS QS QS JD JD JD")
    assert_illegal(deal, "meld triple-bezique QS QS JD JD JD")


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_t04_player_left_of_dealer_leads(dealer: int) -> None:
    """T04 (RULES.md 5.2, decision 7): the player to the dealer's left leads the first trick;
    option ``first_lead_seat='right'`` gives it to the player on the right."""
    left = Deal.new(Rules.preset("three"), seed=dealer, dealer=dealer)
    assert left.to_move == left.leader == (dealer + 1) % 3
    right = Deal.new(Rules.preset("three", first_lead_seat="right"), seed=dealer, dealer=dealer)
    assert right.to_move == right.leader == (dealer - 1) % 3
    # play goes on clockwise from the leader
    left.apply(legal(left)[0])
    assert left.to_move == (dealer + 2) % 3


def test_t05_three_handed_24_then_8_tricks() -> None:
    """T05 (RULES.md 5.2): three-handed, 24 stage-1 tricks (72 cards ÷ 3), then 8 in stage 2."""
    rules = Rules.preset("three")
    assert (rules.stage1_tricks, rules.tricks) == (24, 32)
    for seed in range(3):
        deal = Deal.new(rules, seed=seed, dealer=seed % 3)
        assert stage_lengths(deal, seed) == (24, 8)


def test_t05_three_handed_draw_order_winner_then_clockwise() -> None:
    """T05 / RULES.md 2.2: after a trick the winner draws first, then clockwise; everyone is
    back to 8 cards."""
    deal = stack(Rules.preset("three"), [["9H"], ["TH"], ["8H"]], up="8C", stock=["AS", "KD", "QC"])
    trick(deal, 1, "9H", "TH", "8H")
    passes(deal)
    assert "AS" in deal.hand(1) and "KD" in deal.hand(2) and "QC" in deal.hand(0)
    assert [len(deal.hand(s)) for s in range(3)] == [8, 8, 8]
    assert deal.stock_size == 68 and deal.to_move == 1


def test_t06_triple_marriages_option() -> None:
    """T06 (RULES.md 5.2): with ``triple_marriages``, three kings and three queens of a plain
    suit score 100 as one meld; in trumps 300.  Off by default."""
    hand = ["KH", "KH", "KH", "QH", "QH", "QH", "9S"]
    rules = Rules.preset("three", triple_marriages=True)
    assert (rules.triple_common_marriage, rules.triple_royal_marriage) == (100, 300)
    plain = stack(rules, [hand], up="8C")
    trick(plain, 0, "9S")
    assert "meld triple-marriage KH KH KH QH QH QH" in legal(plain)
    plain.apply("meld triple-marriage KH KH KH QH QH QH")
    assert plain.points == [100, 0, 0]
    royal = stack(rules, [hand], up="8H")
    trick(royal, 0, "9S")
    royal.apply("meld triple-royal-marriage KH KH KH QH QH QH")
    assert royal.points == [300, 0, 0]
    default = stack(Rules.preset("three"), [hand], up="8C")
    trick(default, 0, "9S")
    assert not melds(default, "triple-marriage")
    assert_illegal(default, "meld triple-marriage KH KH KH QH QH QH")


def test_stage2_three_handed_duties() -> None:
    """RULES.md 2.2 (stage 2 with 3 players): follow suit and beat the winning card if able;
    void, trump if that wins (overtrump); if no trump can win, any card."""
    rules = Rules.preset("three")
    finals = [
        ["9H", "AS", "AS", "TS", "TS", "KS", "KS", "QS"],
        ["QC", "9D", "9D", "8D", "8D", "7D", "7D", "AD"],
        ["9C", "JD", "8S", "8S", "7S", "7S", "9S", "8C"],
    ]
    deal = to_stage2(rules, finals, up="8C")
    deal.apply("play 9H")
    assert plays(deal) == {"QC"}  # void in hearts: must trump
    assert_illegal(deal, "play 9D")
    deal.apply("play QC")
    # void in hearts, and no trump beats the queen: any card
    assert plays(deal) == set(finals[2])
    deal.apply("play 9C")
    assert deal.last_trick_winner == 1


def test_stage2_three_handed_must_overtrump_and_follow_when_trumped() -> None:
    """RULES.md 2.2: a void third hand must overtrump when able; one holding the suit led
    follows it even after the trick has been trumped."""
    rules = Rules.preset("three")
    finals = [
        ["9H", "9H", "AS", "AS", "TS", "TS", "KS", "KS"],
        ["QC", "QC", "9D", "9D", "8D", "8D", "7D", "7D"],
        ["KC", "8H", "9C", "JD", "8S", "8S", "7S", "8C"],
    ]
    deal = to_stage2(rules, finals, up="8C")
    deal.apply("play 9H")
    deal.apply("play QC")
    assert plays(deal) == {"8H"}  # must follow suit though the trick is lost
    assert_illegal(deal, "play KC")
    deal.apply("play 8H")
    assert deal.last_trick_winner == 1
    deal.apply("play QC")  # seat 1 leads a trump; seat 2 must head it
    assert deal.to_move == 2
    assert plays(deal) == {"KC"}
    assert_illegal(deal, "play 9C")


@pytest.mark.parametrize("name", ["three", "four"])
def test_stage2_duties_in_random_deals(name: str) -> None:
    """RULES.md 2.2, 2.3 and decision 3: in random deals every stage-2 choice is exactly
    follow-and-head, else trump-to-win, else any card; with partners, beating the partner's
    winning card is compulsory too."""
    rules = Rules.preset(name)
    over = 0
    for seed in range(6):
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        over += check_stage2_duties(deal, seed)[0]
    if rules.partnerships:
        assert over > 0, "no case of a partner's card to beat came up"


# --- Q01-Q05: four-handed partnership (RULES.md 2.3, 5.3) ---------------------------------------


def test_q01_four_handed_three_packs_partners_opposite() -> None:
    """Q01 (RULES.md 5.3, decision 3): 3 packs (96 cards) by default, 4 as an option; partners
    sit opposite (seats 0 and 2 against 1 and 3)."""
    rules = Rules.preset("four")
    assert (rules.players, rules.packs, rules.cards, rules.partnerships) == (4, 3, 96, True)
    assert rules.sides == 2
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    deal = Deal.new(rules, seed=1)
    assert [deal.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    four_packs = Rules.preset("four", packs=4)
    assert four_packs.cards == 128
    deal4 = Deal.new(four_packs, seed=1)
    assert deal4.stock_size == 95 and [len(deal4.hand(s)) for s in range(4)] == [8] * 4
    assert (four_packs.stage1_tricks, four_packs.tricks) == (24, 32)


def test_q02_partners_share_one_score() -> None:
    """Q02 (RULES.md 5.3): one score per partnership; a meld by seat 2 adds to the score of
    seats 0 and 2."""
    deal = stack(Rules.preset("four"), [["9H"], ["8H"], ["QS", "JD", "AH"], ["7H"]], up="8C")
    assert deal.points == [0, 0]
    trick(deal, 2, "9H", "8H", "AH", "7H")
    assert deal.phase == "declare" and deal.to_move == 2
    deal.apply("meld bezique QS JD")
    assert deal.points == [40, 0]
    assert last_event(deal) == (2, "meld bezique QS JD", 40)
    assert deal.table(2) == ["QS", "JD"] and deal.table(0) == []


def test_q02_four_handed_target_is_1500() -> None:
    """Q02 (RULES.md 5.3, decision 3): the partnership game goes on to 1500, one total a side."""
    rules = Rules.preset("four")
    assert rules.target == 1500
    match = Match(rules, seed=2)
    rng = random.Random(2)
    while True:
        while not match.deal.is_over:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
        scores = match.scores
        assert len(scores) == 2
        if max(scores) < 1500:
            assert match.winner is None
            match.next_deal()
            continue
        assert match.winner is not None and scores[match.winner] >= 1500
        break


def test_q03_four_handed_deal_33rd_card_63_in_stock_16_and_8_tricks() -> None:
    """Q03 (RULES.md 5.3): 32 cards dealt, the 33rd turned up, 63 face-down in the stock; 16
    stage-1 tricks and 8 stage-2 tricks."""
    rules = Rules.preset("four")
    assert (rules.stage1_tricks, rules.tricks) == (16, 24)
    for seed in range(3):
        deals = [Deal.new(rules, seed=seed, dealer=d) for d in range(4)]
        for d in deals:
            assert [len(d.hand(s)) for s in range(4)] == [8] * 4
            assert d.stock_size == 63 and d.turn_up is not None
        assert len({d.turn_up for d in deals}) == 1
        assert stage_lengths(deals[0], seed) == (16, 8)


def test_q04_last_trick_bonus_goes_to_the_partnership() -> None:
    """Q04 (RULES.md 5.3, D31): the last trick's 10 is credited to the winner's partnership,
    whole."""
    rules = Rules.preset("four")
    for seed in range(4):
        deal = Deal.new(rules, seed=seed, dealer=seed % 4)
        play_random(deal, seed)
        last = deal.last_trick_winner
        assert last is not None
        side = rules.side_of(last)
        assert [r.last_trick for r in deal.result] == [  # type: ignore[union-attr]
            10 if s == side else 0 for s in range(2)
        ]
        assert [e for e in deal.events if e[2] == "last trick"] == [(24, last, "last trick", 10)]


def test_q04_brisques_of_all_tricks_go_to_the_sides() -> None:
    """Q04 / RULES.md 2.3: each side counts the brisques of the tricks its two players won; 24
    brisques with 3 packs, 240 points, plus the last trick."""
    rules = Rules.preset("four")
    deal = Deal.new(rules, seed=9)
    play_random(deal, 9)
    result = deal.result
    assert result is not None
    won = [0, 0]
    for _, cards, winner in deal.observation(None).tricks:
        won[rules.side_of(winner)] += 10 * sum(c[0] in "AT" for c in cards)
    assert [r.tricks for r in result] == won and sum(won) == 240
    assert sum(r.last_trick for r in result) == 10


def test_q05_triple_bezique_1500_four_handed() -> None:
    """Q05 (RULES.md 5.3): a triple bezique counts 1500 in four-handed play too."""
    rules = Rules.preset("four")
    assert rules.triple_bezique == 1500
    deal = stack(rules, [[], ["QS", "QS", "QS", "JD", "JD", "JD", "AH"]], up="8C")
    trick(deal, 1, "9H", "AH")
    deal.apply("meld triple-bezique QS QS QS JD JD JD")
    assert deal.points == [0, 1500]


def test_decision3_only_the_trick_winner_declares() -> None:
    """Decision 3 (RULES.md 2.3): only the trick winner declares, not his partner (default);
    option ``partner_declaring='winner-or-partner'`` lets the winner hand it over."""
    hands = [["9H", "KS", "QS"], ["8H"], ["AH", "QS", "JD"], ["7H"]]
    deal = stack(Rules.preset("four"), hands, up="8C")
    trick(deal, 0, "9H", "8H", None, "7H")
    assert deal.phase == "declare" and deal.to_move == 0
    assert legal(deal) == ["meld marriage KS QS", "pass"]  # seat 2's bezique is not offered
    assert_illegal(deal, "meld bezique QS JD")
    assert_illegal(deal, "partner")
    opt = stack(Rules.preset("four", partner_declaring="winner-or-partner"), hands, up="8C")
    trick(opt, 0, "9H", "8H", None, "7H")
    assert "partner" in legal(opt)
    opt.apply("partner")
    assert opt.to_move == 2
    opt.apply("meld bezique QS JD")
    assert opt.points == [40, 0] and opt.table(2) == ["QS", "JD"]


def test_decision3_stage2_must_beat_the_partners_card() -> None:
    """Decision 3 (RULES.md 2.3): in stage 2 a player must beat the winning card even when it is
    his partner's; void in the suit, he must trump his partner's winning card."""
    rules = Rules.preset("four")
    finals = [
        ["KH", "AS", "AS", "TS", "TS", "KS", "AD", "AD"],
        ["9H", "9D", "9D", "8D", "8D", "7D", "7D", "TD"],
        ["AH", "TH", "9H", "9C", "8S", "8S", "7S", "7S"],
        ["9C", "8C", "JD", "QD", "KD", "KD", "QD", "8C"],
    ]
    deal = to_stage2(rules, finals, up="8C")
    deal.apply("play KH")
    deal.apply("play 9H")
    # the partner (seat 0) is winning with the K♥: seat 2 must still head it
    assert plays(deal) == {"AH", "TH"}
    assert_illegal(deal, "play 9H")
    assert_illegal(deal, "play 9C")
    deal.apply("play AH")
    assert plays(deal) == {"9C", "8C"}  # void in hearts: must trump
    deal.apply("play 8C")
    assert deal.last_trick_winner == 3
    finals2 = [
        ["AH", "AS", "AS", "TS", "TS", "KS", "AD", "AD"],
        ["9H", "9D", "9D", "8D", "8D", "7D", "7D", "TD"],
        ["9C", "8S", "8S", "7S", "7S", "JS", "JS", "QS"],
        ["9C", "8C", "JD", "QD", "KD", "KD", "QD", "8C"],
    ]
    deal = to_stage2(rules, finals2, up="8C")
    deal.apply("play AH")
    deal.apply("play 9H")
    # void in hearts, the partner's ace is winning: seat 2 must trump it all the same
    assert plays(deal) == {"9C"}
    assert_illegal(deal, "play 8S")


# --- N01-N05: no-trump (RULES.md 2.4, 5.4) -------------------------------------------------------


def test_n01_no_turn_up_and_no_trump_at_the_start() -> None:
    """N01 (RULES.md 5.4): no card is turned up and there is no trump; the stock holds every
    card not dealt (48 with two players).  Packs as the base game for the player count."""
    for players, packs, stock in ((2, 2, 48), (3, 3, 72), (4, 3, 64)):
        rules = Rules.preset("no-trump", players=players)
        assert (rules.turn_up, rules.packs, rules.players) == (False, packs, players)
        deal = Deal.new(rules, seed=players)
        assert deal.trump is None and deal.turn_up is None
        assert deal.stock_size == stock
    assert Rules.preset("no-trump", players=4).partnerships
    with pytest.raises(ValueError):
        Deal.from_cards(Rules.preset("no-trump"), [["9S"] * 8, ["9S"] * 8], "8C")


def test_n01_first_marriage_fixes_trump() -> None:
    """N01 (RULES.md 5.4): the first marriage declared makes its suit trump for the rest of the
    hand, and scores 40; a later marriage in another suit is a common marriage (20), one in the
    trump suit royal (40)."""
    rules = Rules.preset("no-trump")
    hand = ["KH", "QH", "KS", "QS", "KH", "QH", "9D"]
    deal = stack(rules, [hand], trump="C")
    trick(deal, 0, "9D")
    # before trump, any marriage is offered as the trump-fixing (royal) marriage
    assert set(melds(deal, "royal-marriage")) == {
        "meld royal-marriage KH QH",
        "meld royal-marriage KS QS",
    }
    assert not melds(deal, "marriage")
    deal.apply("meld royal-marriage KH QH")
    assert deal.trump == "H" and deal.points == [40, 0]
    trick(deal, 0)
    assert melds(deal, "marriage") == ["meld marriage KS QS"]
    assert_illegal(deal, "meld royal-marriage KS QS")
    deal.apply("meld marriage KS QS")
    assert deal.points == [60, 0] and deal.trump == "H"
    trick(deal, 0)
    deal.apply("meld royal-marriage KH QH")
    assert deal.points == [100, 0]


def test_n01_trump_fixed_by_either_player() -> None:
    """N01 (RULES.md 5.4): whoever declares the first marriage fixes trump for both."""
    deal = stack(Rules.preset("no-trump"), [["9D"], ["KC", "QC", "TD"]], trump="H")
    trick(deal, 1, "9D", "TD")
    deal.apply("meld royal-marriage KC QC")
    assert deal.trump == "C" and deal.points == [0, 40]
    assert deal.observation(0).trump == "C"


def test_n02_trump_fixing_double_marriage_scores_50() -> None:
    """N02 (RULES.md 5.4): the trump-fixing marriage scores 40, or 50 as a double marriage
    (K K Q Q)."""
    hand = ["KH", "KH", "QH", "QH", "9S"]
    deal = stack(Rules.preset("no-trump"), [hand], trump="C")
    trick(deal, 0, "9S")
    assert "meld double-royal-marriage KH KH QH QH" in legal(deal)
    deal.apply("meld double-royal-marriage KH KH QH QH")
    assert deal.trump == "H" and deal.points == [50, 0]
    single = stack(Rules.preset("no-trump"), [hand], trump="C")
    trick(single, 0, "9S")
    single.apply("meld royal-marriage KH QH")
    assert single.trump == "H" and single.points == [40, 0]


def test_n03_bezique_and_quartets_before_trump_but_no_sequence() -> None:
    """N03 (RULES.md 5.4): before trump is fixed a bezique and the four-of-a-kind melds may be
    declared, but a trump sequence may not (a sequence does not fix trump in no-trump); once
    trump is fixed, the sequence is legal."""
    hand = ["AH", "TH", "KH", "QH", "JH", "QS", "JD"]
    rules = Rules.preset("no-trump")
    assert not rules.sequence_fixes_trump
    deal = stack(rules, [hand], trump="C")
    trick(deal, 0)
    assert "meld bezique QS JD" in legal(deal)
    assert not melds(deal, "trump-sequence")
    assert_illegal(deal, "meld trump-sequence AH TH KH QH JH")
    deal.apply("meld bezique QS JD")
    assert deal.trump is None and deal.points == [40, 0]
    trick(deal, 0)
    assert not melds(deal, "trump-sequence")
    deal.apply("meld royal-marriage KH QH")
    assert deal.trump == "H"
    trick(deal, 0)
    deal.apply("meld trump-sequence AH TH KH QH JH")
    assert deal.points == [330, 0]  # 40 + 40 + 250


def test_n03_four_of_a_kind_before_trump() -> None:
    """N03 (RULES.md 5.4): four aces (and kings, queens, jacks) may be declared before trump."""
    deal = stack(Rules.preset("no-trump"), [["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC"]])
    trick(deal, 0, "play KC")
    assert {"meld four-aces AS AH AD AC"} <= set(legal(deal))
    deal.apply("meld four-aces AS AH AD AC")
    assert deal.points == [100, 0] and deal.trump is None


def test_n04_no_seven_of_trumps() -> None:
    """N04 (RULES.md 5.4): the 7 of trumps has no value: no declaration and no exchange."""
    rules = Rules.preset("no-trump")
    assert rules.seven_of_trumps == 0
    deal = stack(rules, [["KH", "QH", "7H", "7H", "9S"]], trump="C")
    trick(deal, 0, "9S")
    deal.apply("meld royal-marriage KH QH")
    trick(deal, 0)
    assert not melds(deal, "seven") and not [a for a in legal(deal) if a.startswith("exchange")]
    assert_illegal(deal, "meld seven 7H")
    assert_illegal(deal, "exchange 7H")


def test_n05_before_trump_only_the_suit_led_wins() -> None:
    """N05 (RULES.md 5.4): before trump is fixed only a higher card of the suit led wins; any
    other suit loses, ace or not."""
    cases = [("9S", "AH", 0), ("9S", "TS", 1), ("AC", "7D", 0), ("7C", "8C", 1), ("9S", "9S", 0)]
    for lead, follow, winner in cases:
        deal = stack(Rules.preset("no-trump"), [[lead], [follow]], trump="H")
        trick(deal, winner, lead, follow)
        assert deal.trump is None


def test_n05_marriage_makes_its_suit_trump_for_tricks() -> None:
    """N01/N05 (RULES.md 5.4): once a marriage has fixed trump, its suit wins tricks."""
    deal = stack(
        Rules.preset("no-trump"), [["KH", "QH", "9S", "8S"], ["TS", "7H", "7H"]], trump="C"
    )
    trick(deal, 0, "9S", "7H")  # no trump yet: the heart loses
    deal.apply("meld royal-marriage KH QH")
    deal.apply("play 8S")
    deal.apply("play 7H")  # now hearts are trump
    assert deal.last_trick_winner == 1


def test_no_trump_stage2_without_trump_follow_and_head_else_any() -> None:
    """RULES.md 2.4: if no marriage is ever declared, stage 2 has no trump: follow suit and
    head, and a void player may play any card."""
    rules = Rules.preset("no-trump")
    finals = [
        ["9H", "AS", "AS", "TS", "TS", "9S", "9S", "8S"],
        ["TH", "8H", "9D", "9D", "8D", "AC", "TC", "9C"],
    ]
    deal = to_stage2(rules, finals, trump="C")
    assert deal.trump is None
    deal.apply("play 9H")
    assert plays(deal) == {"TH"}
    deal.apply("play TH")
    deal.apply("play 9D")
    assert plays(deal) == set(finals[0]) - {"9H"}  # void in diamonds, no trump: any card
    deal.apply("play AS")
    assert deal.last_trick_winner == 1


def test_no_trump_stage2_duties_in_random_deals() -> None:
    """RULES.md 2.4: stage-2 duties hold in random no-trump deals, with or without a trump."""
    for players in (2, 3, 4):
        rules = Rules.preset("no-trump", players=players)
        for seed in range(3):
            check_stage2_duties(Deal.new(rules, seed=seed), seed)


# --- R01-R11: Rubicon (RULES.md 2.5, 5.5) --------------------------------------------------------


def rubicon(**options: object) -> Rules:
    return Rules.preset("rubicon", **options)


def play_out_passing(deal: Deal, seed: int) -> None:
    """Play to the end at random, but never declare."""
    rng = random.Random(seed)
    while not deal.is_over:
        if deal.phase == "declare":
            deal.apply("pass")
        else:
            deal.apply(rng.choice(deal.legal_actions()))


def test_r01_four_packs_nine_each_no_turn_up_stock_110() -> None:
    """R01 (RULES.md 5.5): 4 packs (128 cards), 9 cards each, no turn-up, 110 in the stock."""
    rules = rubicon()
    assert (rules.packs, rules.cards, rules.hand_size, rules.turn_up) == (4, 128, 9, False)
    assert pack_of(rules) == Counter({r + s: 4 for r in RANKS for s in SUITS})
    for seed in range(3):
        deal = Deal.new(rules, seed=seed, dealer=seed % 2)
        assert [len(deal.hand(s)) for s in (0, 1)] == [9, 9]
        assert deal.stock_size == 110 and deal.turn_up is None and deal.trump is None
        assert deal.to_move == 1 - seed % 2  # the non-dealer leads


def test_r02_first_marriage_fixes_trump() -> None:
    """R02 (RULES.md 5.5): a marriage declared before any sequence fixes trump (40)."""
    deal = stack(rubicon(), [["KD", "QD", "AH", "TH", "KH", "QH", "JH", "9S"]], trump="C")
    trick(deal, 0, "9S")
    assert {"meld royal-marriage KD QD", "meld trump-sequence AH TH KH QH JH"} <= set(legal(deal))
    deal.apply("meld royal-marriage KD QD")
    assert deal.trump == "D" and deal.points[0] == 40
    trick(deal, 0)
    assert not melds(deal, "trump-sequence")  # hearts are a plain suit now
    deal.apply("meld plain-sequence AH TH KH QH JH")
    assert deal.points[0] == 190 and deal.trump == "D"


def test_r02_first_sequence_fixes_trump() -> None:
    """R02 (RULES.md 5.5, [H]): a sequence declared before any marriage fixes trump and scores
    as a trump sequence (250)."""
    deal = stack(rubicon(), [["AH", "TH", "KH", "QH", "JH", "KD", "QD", "9S"]], trump="C")
    trick(deal, 0, "9S")
    deal.apply("meld trump-sequence AH TH KH QH JH")
    assert deal.trump == "H" and deal.points[0] == 250
    trick(deal, 0)
    assert_illegal(deal, "meld royal-marriage KD QD")
    deal.apply("meld marriage KD QD")
    assert deal.points[0] == 270


def test_r02_trump_unfixed_only_suit_led_wins() -> None:
    """R02 / RULES.md 2.5: before trump is fixed only the higher card of the suit led wins."""
    deal = stack(rubicon(), [["9S"], ["AH", "AH"]], trump="C")
    trick(deal, 0, "9S", "AH")
    assert deal.trump is None


def test_r03_no_seven_of_trumps_and_last_trick_50() -> None:
    """R03 (RULES.md 5.5): the 7 of trumps scores nothing; the last trick scores 50."""
    rules = rubicon()
    assert (rules.seven_of_trumps, rules.last_trick_bonus) == (0, 50)
    deal = stack(rules, [["KH", "QH", "7H", "7H", "9S", "KS"], ["KS"]], trump="C")
    trick(deal, 0, "9S")
    deal.apply("meld royal-marriage KH QH")
    trick(deal, 0)
    assert not melds(deal, "seven")
    assert_illegal(deal, "meld seven 7H")
    assert_illegal(deal, "exchange 7H")
    play_out_passing(deal, 3)
    last = deal.last_trick_winner
    assert [e for e in deal.events if e[2] == "last trick"] == [(64, last, "last trick", 50)]
    assert deal.result[last].last_trick == 50  # type: ignore[index]


def test_r04_carte_blanche_50_then_50_per_non_court_drawn() -> None:
    """R04 (RULES.md 5.5): a hand dealt without K, Q or J scores 50 at once (no trick needed);
    then 50 again for each non-court card its holder draws, until a court card is drawn;
    after that nothing more."""
    blank = ["9H", "9H", "8H", "8H", "7H", "7H", "9D", "9D", "AD"]
    # seat 0 wins the first tricks and draws first: AS, TD, then the KS; seat 1 draws courts
    stock = ["AS", "QC", "TD", "QC", "KS", "QC", "8S", "QC"]
    deal = stack(rubicon(), [blank, ["KC", "9S", "9S", "9S"]], stock=stock, trump="C")
    assert deal.events == [(0, 0, "carte blanche", 50)]
    assert deal.points == [50, 0]
    # carte blanche shows the hand: its cards are known to the opponent
    assert sorted(deal.observation(1).known[0]) == sorted(blank)
    trick(deal, 0, "AD", "9S")
    passes(deal)
    assert deal.events[-1] == (1, 0, "carte blanche", 50) and deal.points == [100, 0]
    trick(deal, 0, "9H", "9S")
    passes(deal)
    assert deal.events[-1] == (2, 0, "carte blanche", 50) and deal.points == [150, 0]
    trick(deal, 0, "9H", "9S")
    passes(deal)
    assert deal.events[-1] == (3, 0, "carte blanche ends", 0) and deal.points == [150, 0]
    trick(deal, 0, "8H")
    passes(deal)
    assert deal.points == [150, 0]  # the 8♠ drawn after the king scores nothing
    assert [e[2] for e in deal.events].count("carte blanche") == 3


def test_r04_no_carte_blanche_with_a_court_card() -> None:
    """R04 (RULES.md 5.5): a hand with one court card is no carte blanche, and drawing
    non-court cards later does not make it one (it is for the hand as dealt)."""
    deal = stack(rubicon(), [["9H", "9H", "8H", "8H", "7H", "7H", "9D", "9D", "JD"], ["KC"]])
    assert not [e for e in deal.events if e[2].startswith("carte blanche")]
    trick(deal, 0, "JD")
    passes(deal)
    assert not [e for e in deal.events if e[2].startswith("carte blanche")]


def test_r05_plain_sequence_150_triple_1500_quadruple_4500() -> None:
    """R05 (RULES.md 5.5): plain-suit sequence 150; triple bezique 1500; quadruple bezique
    (4 Q♠ + 4 J♦) 4500."""
    rules = rubicon()
    assert (rules.plain_sequence, rules.triple_bezique, rules.quadruple_bezique) == (
        150,
        1500,
        4500,
    )
    deal = stack(rules, [["KH", "QH", "AS", "TS", "KS", "QS", "JS", "9D"]], trump="C")
    trick(deal, 0, "9D")
    deal.apply("meld royal-marriage KH QH")
    trick(deal, 0)
    deal.apply("meld plain-sequence AS TS KS QS JS")
    assert deal.points[0] == 190
    triple = stack(rules, [["QS"] * 3 + ["JD"] * 3 + ["9H"]], trump="C")
    trick(triple, 0, "9H")
    triple.apply("meld triple-bezique QS QS QS JD JD JD")
    assert triple.points[0] == 1500
    quad = stack(rules, [["QS"] * 4 + ["JD"] * 4 + ["9H"]], trump="C")
    trick(quad, 0, "9H")
    assert "meld quadruple-bezique QS QS QS QS JD JD JD JD" in legal(quad)
    quad.apply("meld quadruple-bezique QS QS QS QS JD JD JD JD")
    assert quad.points[0] == 4500


def test_r05_quadruple_bezique_not_in_classic() -> None:
    """R05 (RULES.md 5.5): the quadruple bezique is a Rubicon meld (the classic pack has only
    two of each card, and three-handed stops at the triple)."""
    assert Rules.preset("classic").quadruple_bezique == 0
    assert Rules.preset("three").quadruple_bezique == 0


def test_r06_re_forming_four_queens() -> None:
    """R06 (RULES.md 5.5): four queens declared, one of them played, another queen added to
    the remaining three: four queens again (60)."""
    deal = stack(rubicon(), [["QS", "QH", "QD", "QC", "QS", "9D"]], trump="C")
    trick(deal, 0, "9D")
    meld(deal, "four-queens", "QS QH QD QC")
    assert deal.points[0] == 60
    trick(deal, 0, "QH")
    assert deal.phase == "declare"
    # the three left on the table stay there, their broken meld re-formed with the new queen
    assert melds(deal, "four-queens") == ["meld four-queens QS QS@table QD QC"]
    deal.apply("meld four-queens QS QS QD QC")
    assert deal.points[0] == 120


def test_r06_without_re_forming_no_second_four_queens() -> None:
    """R06 (RULES.md 5.5) against the classic reuse rule: without re-forming, a quartet needs
    four cards that have never been in a quartet."""
    deal = stack(rubicon(meld_reforming=False), [["QS", "QH", "QD", "QC", "QS", "9D"]], trump="C")
    trick(deal, 0, "9D")
    meld(deal, "four-queens", "QS QH QD QC")
    trick(deal, 0, "play QH")
    assert deal.phase == "play"
    assert_illegal(deal, "meld four-queens QS QS QD QC")


def test_r06_re_forming_needs_a_like_card() -> None:
    """R06 (RULES.md 5.5): the meld scores again only when a like card is added; the three
    queens left cannot score alone, nor with a card of another rank."""
    deal = stack(rubicon(), [["QS", "QH", "QD", "QC", "KS", "9D"]], trump="C")
    trick(deal, 0, "9D")
    meld(deal, "four-queens", "QS QH QD QC")
    trick(deal, 0, "QH")
    assert deal.phase == "declare"  # the K♠ Q♠ marriage is there to declare
    assert melds(deal, "royal-marriage") == ["meld royal-marriage KS QS"]
    assert not melds(deal, "four-queens")
    assert_illegal(deal, "meld four-queens QS QD QC KS")
    assert_illegal(deal, "meld four-queens QS QD QC")


def test_r06_re_forming_a_marriage_with_a_new_king() -> None:
    """R06 (RULES.md 5.5): a marriage whose king is played may score again with a new king."""
    deal = stack(rubicon(), [["KH", "QH", "KH", "9D"]], trump="C")
    trick(deal, 0, "9D")
    deal.apply("meld royal-marriage KH QH")
    trick(deal, 0, "play KH@table")
    assert melds(deal, "royal-marriage") == ["meld royal-marriage KH QH"]
    deal.apply("meld royal-marriage KH QH")
    assert deal.points[0] == 80


def test_r06_re_forming_does_not_let_a_double_bezique_rescore_a_bezique() -> None:
    """R06 and RULES.md 2.1.3: re-forming scores a meld again only with a like card added.
    After a double bezique and one Q♠ played, the remaining Q♠ and J♦ (already on the table)
    may not score a single bezique: no new card is added, and after a double bezique none of
    its cards can score a single bezique."""
    deal = stack(rubicon(), [["QS", "QS", "JD", "JD", "9D"]], trump="C")
    trick(deal, 0, "9D")
    deal.apply("meld double-bezique QS QS JD JD")
    trick(deal, 0, "QS")
    assert not melds(deal, "bezique")


def test_r06_re_forming_does_not_let_a_sequence_rescore_a_marriage() -> None:
    """R06 and RULES.md 2.1.3 (C28): after a trump sequence, playing its ace does not free its
    K and Q to score a royal marriage: no like card is added, and a sequence's K and Q never
    marry afterwards."""
    deal = stack(rubicon(), [["AH", "TH", "KH", "QH", "JH", "9D"]], trump="C")
    trick(deal, 0, "9D")
    deal.apply("meld trump-sequence AH TH KH QH JH")
    trick(deal, 0, "AH")
    assert not melds(deal, "royal-marriage")


def test_r06_re_forming_a_double_bezique_with_a_new_queen() -> None:
    """R06 (RULES.md 5.5): a double bezique, one Q♠ played, a new Q♠ added: 500 again."""
    deal = stack(rubicon(), [["QS", "QS", "JD", "JD", "QS", "9D"]], trump="C")
    trick(deal, 0, "9D")
    meld(deal, "double-bezique", "QS QS JD JD")
    trick(deal, 0, "play QS@table")
    assert deal.phase == "declare"
    meld(deal, "double-bezique", "QS QS JD JD")
    assert deal.points[0] == 1000
    assert sorted(deal.table(0)) == ["JD", "JD", "QS", "QS"]


# R07-R10: the payout of a Rubicon game.  ``settle_points`` takes each side's score (brisques
# left out) and its brisques; ``settle`` reads them from a finished deal.


def test_r07_normal_win_500_plus_difference() -> None:
    """R07 (RULES.md 5.5): when the loser has 1000 or more, the winner scores 500 plus the
    difference; the loser scores nothing."""
    rules = rubicon()
    s = settle_points(rules, [1800, 1200], [0, 0])
    assert (s.winner, s.rubicon, s.brisques_counted, s.payout) == (0, False, False, (1100, 0))
    s = settle_points(rules, [1000, 1350], [170, 150])
    assert (s.winner, s.rubicon, s.payout) == (1, False, (0, 850))
    assert s.scores == (1000, 1350)  # brisques not needed: not counted


def test_r08_rubicon_1000_plus_both_scores_plus_320() -> None:
    """R08 (RULES.md 5.5, D35): a loser under 1000 is rubiconed: the winner scores 1000 + both
    scores + 320 (flat, for the brisques); the loser nothing."""
    rules = rubicon()
    s = settle_points(rules, [2400, 700], [160, 160])
    assert (s.winner, s.rubicon, s.payout) == (0, True, (1000 + 2400 + 700 + 320, 0))
    s = settle_points(rules, [999, 1500], [0, 320])
    assert (s.winner, s.rubicon, s.payout) == (1, True, (0, 1000 + 1500 + 999 + 320))


def test_r08_brisques_lift_the_loser_out_of_the_rubicon() -> None:
    """R08 (RULES.md 2.5): brisques count only to save a player from the rubicon (or to break
    a tie); if one player counts them, both do."""
    rules = rubicon()
    s = settle_points(rules, [1600, 950], [120, 200])
    assert s.brisques_counted and not s.rubicon
    assert s.scores == (1720, 1150)
    assert s.payout == (500 + 1720 - 1150, 0)
    short = settle_points(rules, [1600, 900], [120, 90])  # 990: still rubiconed
    assert not short.brisques_counted and short.rubicon
    assert short.payout == (1000 + 1600 + 900 + 320, 0)


def test_r08_brisques_break_a_tie() -> None:
    """R08 (RULES.md 2.5): equal scores are decided by the brisques, counted for both."""
    rules = rubicon()
    s = settle_points(rules, [1200, 1200], [170, 150])
    assert s.brisques_counted and s.winner == 0 and s.scores == (1370, 1350)
    assert s.payout == (520, 0)
    dead = settle_points(rules, [1200, 1200], [160, 160])
    assert dead.winner is None and dead.payout == (0, 0)


def test_r09_loser_under_100_gives_100_more() -> None:
    """R09 (RULES.md 5.5): if the loser scored under 100, the winner gets 100 more."""
    rules = rubicon()
    s = settle_points(rules, [90, 1500], [0, 0])
    assert s.payout == (0, 1000 + 1500 + 90 + 320 + 100)
    s = settle_points(rules, [100, 1500], [0, 0])
    assert s.payout == (0, 1000 + 1500 + 100 + 320)


def test_r10_both_under_1000_higher_score_wins_by_rubicon() -> None:
    """R10 (RULES.md 5.5): with both under 1000 the higher score still wins, and the rubicon
    formula applies."""
    rules = rubicon()
    s = settle_points(rules, [600, 450], [100, 220])
    assert s.winner == 0 and s.rubicon and not s.brisques_counted
    assert s.payout == (1000 + 600 + 450 + 320, 0)


def test_r07_r10_settle_a_played_rubicon_deal() -> None:
    """R08/R09 (RULES.md 5.5): a played deal: seat 0 declares a quadruple bezique (4500) and
    nobody declares anything else; seat 1 ends under 100 and is rubiconed:
    1000 + 4550 (both scores with the last trick's 50) + 320 + 100."""
    rules = rubicon()
    hands = [["QS"] * 4 + ["JD"] * 4 + ["9H"], ["KS"]]
    deal = stack(rules, hands, trump="C")
    trick(deal, 0, "9H")
    deal.apply("meld quadruple-bezique QS QS QS QS JD JD JD JD")
    play_out_passing(deal, 1)
    result = deal.result
    assert result is not None
    assert sum(r.brisques for r in result) == 320  # 32 aces and tens in 4 packs
    assert all(r.tricks == 0 for r in result)  # brisques are not part of the score
    assert sum(deal.points) == 4550
    s = settle(deal)
    assert (s.winner, s.rubicon, s.brisques_counted) == (0, True, False)
    assert s.payout == (1000 + 4550 + 320 + 100, 0)


def test_r07_settle_a_played_normal_rubicon_deal() -> None:
    """R07 (RULES.md 5.5): a played deal where both pass 1000: seat 1 shows a carte blanche and
    draws 20 non-court cards (21 × 50 = 1050) while seat 0 scores a quadruple bezique; the
    winner gets 500 + the difference, brisques not counted."""
    rules = rubicon()
    blank = ["9H"] * 4 + ["8H"] * 4 + ["7H"]
    seat0 = ["QS"] * 4 + ["JD"] * 4 + ["9D"]
    free = pack_of(rules) - Counter(blank + seat0)
    low = [c for c in sorted(free.elements()) if c[0] not in COURTS]
    stock = [*low[:40], "KS", "KS"]
    deal = stack(rules, [seat0, blank], stock=stock, trump="C")
    trick(deal, 0, "9D")
    deal.apply("meld quadruple-bezique QS QS QS QS JD JD JD JD")
    play_out_passing(deal, 2)
    blanks = [e for e in deal.events if e[1] == 1 and e[2] == "carte blanche"]
    assert len(blanks) == 21
    assert sum(deal.points) == 4500 + 1050 + 50
    s = settle(deal)
    assert (s.winner, s.rubicon, s.brisques_counted) == (0, False, False)
    assert s.payout == (500 + deal.points[0] - deal.points[1], 0)


def test_r07_rubicon_match_is_one_deal() -> None:
    """R07 (RULES.md 2.5): one deal is one game: the match is decided when the first deal ends,
    and the winner's match score is the payout."""
    for seed in range(3):
        match = Match(rubicon(), seed=seed)
        rng = random.Random(seed)
        while not match.deal.is_over:
            match.deal.apply(rng.choice(match.deal.legal_actions()))
        s = settle(match.deal)
        assert match.winner == s.winner
        assert match.scores == list(s.payout)
        result = match.deal.result
        assert s == settle_points(
            match.rules,
            [r.total for r in result],  # type: ignore[union-attr]
            [r.brisques for r in result],  # type: ignore[union-attr]
        )
        if s.winner is not None:
            assert match.is_over
            with pytest.raises(ValueError):
                match.next_deal()


def test_r11_55_then_9_tricks() -> None:
    """R11 (RULES.md 5.5): 55 stage-1 tricks, then 9 stage-2 tricks."""
    rules = rubicon()
    assert (rules.stage1_tricks, rules.tricks) == (55, 64)
    for seed in range(2):
        assert stage_lengths(Deal.new(rules, seed=seed), seed) == (55, 9)


def test_r11_stage2_duties_in_rubicon() -> None:
    """R11 / RULES.md 2.5: the last 9 tricks are played by the ordinary stage-2 duties."""
    for seed in range(3):
        check_stage2_duties(Deal.new(rubicon(), seed=seed), seed)


# --- X01-X04: Chinese bezique (RULES.md 2.6, 5.6) -----------------------------------------------


def chinese(**options: object) -> Rules:
    return Rules.preset("chinese", **options)


def fix_trump(deal: Deal, suit: str) -> None:
    """Seat 0 wins a trick and declares the royal marriage K Q of ``suit`` (it must hold them)."""
    trick(deal, 0)
    deal.apply(f"meld royal-marriage K{suit} Q{suit}")
    assert deal.trump == suit


def test_x01_six_packs_twelve_each_stock_168() -> None:
    """X01 (RULES.md 5.6): 6 packs (192 cards), 12 cards each, no turn-up, 168 in the stock."""
    rules = chinese()
    assert (rules.packs, rules.cards, rules.hand_size, rules.turn_up) == (6, 192, 12, False)
    assert pack_of(rules) == Counter({r + s: 6 for r in RANKS for s in SUITS})
    deal = Deal.new(rules, seed=4)
    assert [len(deal.hand(s)) for s in (0, 1)] == [12, 12]
    assert deal.stock_size == 168 and deal.turn_up is None and deal.trump is None
    assert (rules.stage1_tricks, rules.tricks) == (84, 96)
    assert stage_lengths(deal, 4) == (84, 12)


@pytest.mark.parametrize(
    ("rank", "name", "points"),
    [
        ("A", "aces", 1000),
        ("T", "tens", 900),
        ("K", "kings", 800),
        ("Q", "queens", 600),
        ("J", "jacks", 400),
    ],
)
def test_x02_trump_quartets(rank: str, name: str, points: int) -> None:
    """X02 (RULES.md 5.6): four trump aces 1000, tens 900, kings 800, queens 600, jacks 400."""
    # the K♥ Q♥ of the trump-fixing marriage may be among the four
    hand = {"K": ["QH"], "Q": ["KH"]}.get(rank, ["KH", "QH"]) + [rank + "H"] * 4
    deal = stack(chinese(), [[*hand, "KS"], ["KC"]], trump="C")
    fix_trump(deal, "H")
    trick(deal, 0)
    cards = " ".join([rank + "H"] * 4)
    assert melds(deal, f"four-trump-{name}") != []
    meld(deal, f"four-trump-{name}", cards)
    assert deal.points[0] == 40 + points


def test_x02_trump_quartets_need_trump() -> None:
    """X02 (RULES.md 5.6): before trump is fixed there is no trump quartet; four aces of one
    suit are then only four aces (100)."""
    deal = stack(chinese(), [["AH", "AH", "AH", "AH", "KS"], ["KC"]], trump="C")
    trick(deal, 0)
    assert not melds(deal, "four-trump-aces")
    assert_illegal(deal, "meld four-trump-aces AH AH AH AH")
    assert melds(deal, "four-aces") == ["meld four-aces AH AH AH AH"]


def test_x02_trump_quartets_not_in_rubicon() -> None:
    """X02 (RULES.md 5.5-5.6): trump quartets belong to the Chinese game, not to Rubicon."""
    deal = stack(rubicon(), [["KH", "QH", "AH", "AH", "AH", "AH", "KS"], ["KC"]], trump="C")
    fix_trump(deal, "H")
    trick(deal, 0)
    assert not melds(deal, "four-trump-aces")


def test_x03_carte_blanche_250() -> None:
    """X03 (RULES.md 5.6): carte blanche scores 250, repeatable as in Rubicon."""
    rules = chinese()
    assert rules.carte_blanche == 250 and rules.carte_blanche_repeat
    blank = ["9H", "9H", "8H", "8H", "7H", "7H", "9D", "9D", "AD", "TD", "AS", "TS"]
    deal = stack(rules, [blank, ["KC"]], stock=["9S", "QC", "KS", "QC"], trump="C")
    assert deal.events == [(0, 0, "carte blanche", 250)]
    trick(deal, 0, "9H")
    passes(deal)
    assert deal.points == [500, 0]
    trick(deal, 0, "9H")
    passes(deal)
    assert deal.events[-1] == (2, 0, "carte blanche ends", 0) and deal.points == [500, 0]


def test_x03_game_bonus_1000() -> None:
    """X03 (RULES.md 5.6): the game bonus is 1000 instead of Rubicon's 500."""
    rules = chinese()
    assert rules.game_bonus == 1000
    s = settle_points(rules, [5200, 3400], [0, 0])
    assert (s.winner, s.rubicon, s.payout) == (0, False, (1000 + 5200 - 3400, 0))


def test_x04_last_trick_250_rubicon_3000_no_brisques() -> None:
    """X04 (RULES.md 5.6, decision 4): last trick 250; a loser under 3000 is rubiconed; brisques
    are not counted at all."""
    rules = chinese()
    assert (rules.last_trick_bonus, rules.rubicon_threshold) == (250, 3000)
    s = settle_points(rules, [4000, 2990], [0, 0])
    assert s.rubicon and s.payout == (1000 + 4000 + 2990, 0)  # no brisque bonus
    s = settle_points(rules, [4000, 3000], [0, 0])
    assert not s.rubicon and s.payout == (1000 + 1000, 0)
    s = settle_points(rules, [50, 3000], [0, 0])
    assert s.rubicon and s.payout == (0, 1000 + 3050 + 100)
    deal = Deal.new(rules, seed=6)
    play_random(deal, 6)
    result = deal.result
    assert result is not None
    assert all(r.tricks == 0 and r.brisques == 0 for r in result)
    last = deal.last_trick_winner
    assert [r.last_trick for r in result] == [250 if s == last else 0 for s in (0, 1)]
    assert settle(deal).scores == tuple(deal.points)


def test_x04_settlement_says_brisques_were_not_counted() -> None:
    """X04 (RULES.md 5.6): in the Chinese game brisques are not counted at all, so the
    settlement of a deal must not report them as counted."""
    deal = Deal.new(chinese(), seed=6)
    play_random(deal, 6)
    assert not settle(deal).brisques_counted
    assert not settle_points(chinese(), [4000, 2990], [0, 0]).brisques_counted


# --- E01-E03: eight-pack bezique (RULES.md 2.7, 5.6) --------------------------------------------


def eight(**options: object) -> Rules:
    return Rules.preset("eight-pack", **options)


def test_e01_eight_packs_13_cards_by_default() -> None:
    """E01 (RULES.md 5.6, decision 5): 8 packs (256 cards); 13 cards each (seed 001, decision 5)
    with a stock of 230; no turn-up."""
    rules = eight()
    assert (rules.packs, rules.cards, rules.hand_size, rules.turn_up) == (8, 256, 13, False)
    assert pack_of(rules) == Counter({r + s: 8 for r in RANKS for s in SUITS})
    deal = Deal.new(rules, seed=8)
    assert [len(deal.hand(s)) for s in (0, 1)] == [13, 13] and deal.stock_size == 230
    assert stage_lengths(deal, 8) == (115, 13)


def test_e01_hand_size_15_option() -> None:
    """E01 (RULES.md 5.6, decision 5): 15 cards each is an option (Parlett): stock 226, and the
    last 15 tricks are stage 2."""
    rules = eight(hand_size=15, deal_packets=(3, 3, 3, 3, 3))
    deal = Deal.new(rules, seed=8)
    assert [len(deal.hand(s)) for s in (0, 1)] == [15, 15] and deal.stock_size == 226
    assert stage_lengths(deal, 8) == (113, 15)


def test_e01_hand_size_15_alone() -> None:
    """E01 (RULES.md 5.6, decision 5): asking for the 15-card option by the hand size alone
    works; the deal packets are cosmetic (RULES.md D5) and should follow."""
    rules = eight(hand_size=15)
    assert rules.hand_size == 15 and sum(rules.deal_packets) == 15


def test_e01_eight_pack_settings() -> None:
    """E01 / RULES.md 2.7 and decision 5: no carte blanche, last trick 250, game bonus 1000,
    rubicon under 5000, brisques not counted."""
    rules = eight()
    assert rules.carte_blanche == 0
    assert (rules.last_trick_bonus, rules.game_bonus, rules.rubicon_threshold) == (250, 1000, 5000)
    assert rules.trick_scoring == "none" and rules.rubicon_brisque_bonus == 0
    blank = ["9H"] * 8 + ["8H"] * 5
    deal = stack(rules, [blank], trump="C")
    assert deal.events == []


def test_e02_single_bezique_50_quintuple_9000() -> None:
    """E02 (RULES.md 5.6): a single bezique scores 50; a quintuple bezique (5 Q♠ + 5 J♦) 9000."""
    deal = stack(eight(), [["QS", "JD", "9H"], ["KC"]], trump="C")
    trick(deal, 0, "9H")
    deal.apply("meld bezique QS JD")
    assert deal.points == [50, 0]
    quint = stack(eight(), [["QS"] * 5 + ["JD"] * 5 + ["9H"], ["KC"]], trump="C")
    trick(quint, 0, "9H")
    assert "meld quintuple-bezique QS QS QS QS QS JD JD JD JD JD" in legal(quint)
    quint.apply("meld quintuple-bezique QS QS QS QS QS JD JD JD JD JD")
    assert quint.points == [9000, 0]


def test_e02_quintuple_built_on_a_quadruple() -> None:
    """E02 (RULES.md 5.6, 2.1.3): a quadruple bezique (4500) completed by a fifth pair scores the
    quintuple (9000) too; a quintuple is not available in Rubicon."""
    deal = stack(eight(), [["QS"] * 5 + ["JD"] * 5 + ["9H"], ["KC"]], trump="C")
    trick(deal, 0, "9H")
    meld(deal, "quadruple-bezique", "QS QS QS QS JD JD JD JD")
    trick(deal, 0)
    meld(deal, "quintuple-bezique", "QS QS QS QS QS JD JD JD JD JD")
    assert deal.points == [13500, 0]
    assert rubicon().quintuple_bezique == 0


@pytest.mark.parametrize(
    ("rank", "name", "points"),
    [
        ("J", "jacks", 800),
        ("Q", "queens", 1200),
        ("K", "kings", 1600),
        ("T", "tens", 1800),
        ("A", "aces", 2000),
    ],
)
def test_e03_five_trumps(rank: str, name: str, points: int) -> None:
    """E03 (RULES.md 5.6): five trump jacks 800, queens 1200, kings 1600, tens 1800, aces 2000."""
    # the K♥ Q♥ of the trump-fixing marriage may be among the five
    hand = {"K": ["QH"], "Q": ["KH"]}.get(rank, ["KH", "QH"]) + [rank + "H"] * 5
    deal = stack(eight(), [[*hand, "KS"], ["KC"]], trump="C")
    fix_trump(deal, "H")
    trick(deal, 0)
    meld(deal, f"five-trump-{name}", " ".join([rank + "H"] * 5))
    assert deal.points[0] == 40 + points


def test_e03_five_trumps_after_four() -> None:
    """E03 (RULES.md 5.6, D41): four trump aces (1000), then a fifth added: five trump aces
    (2000) as well."""
    deal = stack(eight(), [["KH", "QH", *["AH"] * 5, "KS"], ["KC"]], trump="C")
    fix_trump(deal, "H")
    trick(deal, 0)
    meld(deal, "four-trump-aces", "AH AH AH AH")
    trick(deal, 0)
    meld(deal, "five-trump-aces", "AH AH AH AH AH")
    assert deal.points[0] == 40 + 1000 + 2000
