"""Rule facts O01-O13 of RULES.md section 5.7: the old Russian 18-card game with nines and the
wild card (preset ``old-russian``, experimental), as settled by decision 11.

Deals are stacked with the kit in ``variant_kit.py``.  In this game only a player who beat a
card played before his may declare, so a test that declares twice for one player alternates: he
beats the leader, then leads a card his opponent beats, and so on.  The last test plays the
tests again with each action mirrored in the compiled engine and compared (``fast_kit.py``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest

from bezique import Deal, IllegalAction, Match, Rules
from fast_kit import mirror, rule_tests
from variant_kit import (
    assert_illegal,
    last_event,
    legal,
    meld,
    melds,
    pack_of,
    passes,
    play_random,
    stack,
    trick,
)

PLAIN_RANKS = "ATKQJ"


def rules(players: int = 2, **options: object) -> Rules:
    return Rules.preset("old-russian", players=players, **options)


def beat(deal: Deal, lead: str, beater: str) -> None:
    """Seat to move leads ``lead`` and the next seat beats it with ``beater`` (two players)."""
    leader = deal.to_move
    assert leader is not None
    trick(deal, 1 - leader, lead, beater)


BEATS = [("9S", "TS"), ("9C", "TC")]  # seat 0 leads, seat 1 beats
BACKS = [("9D", "TD"), ("JS", "QS")]  # seat 1 leads, seat 0 beats


def cycle_hands(declarer_cards: list[str], times: int, up: str = "AH") -> Deal:
    """A two-player deal (seat 0 leads) where seat 1 holds ``declarer_cards`` and the cards to
    beat ``times`` leads of seat 0, and to lead ``times - 1`` cards that seat 0 beats in
    between (see :func:`cycle_declare`)."""
    beats = [BEATS[i % 2] for i in range(times)]
    backs = [BACKS[i % 2] for i in range(times - 1)]
    seat0 = [lead for lead, _ in beats] + [b for _, b in backs]
    seat1 = [*declarer_cards, *(b for _, b in beats), *(lead for lead, _ in backs)]
    assert len(seat1) <= 18 and len(seat0) <= 18
    return stack(rules(), [seat0, seat1], up=up)


def cycle_declare(deal: Deal, declarations: list[str]) -> list[int]:
    """Seat 1 beats a card of seat 0 and declares ``declarations[i]`` (a meld kind and its card
    codes: the legal form with the most declared cards is chosen), then leads a card that seat
    0 beats (seat 0 passes), for each i.  Returns seat 1's points after each declaration."""
    out = []
    for i, action in enumerate(declarations):
        assert deal.to_move == 0
        beat(deal, *BEATS[i % 2])
        assert deal.phase == "declare" and deal.to_move == 1
        assert len(deal.hand(1)) == 17
        _, kind, *cards = action.split()
        meld(deal, kind, " ".join(cards))
        out.append(deal.points[1])
        if i + 1 < len(declarations):
            beat(deal, *BACKS[i % 2])
            passes(deal)
    return out


# --- O01-O02: cards, deal, turn-up --------------------------------------------------------------


def test_o01_eighteen_cards_each_37th_card_turned_two_players() -> None:
    """O01 (RULES.md 5.7): 18 cards each; with 2 players the 37th card is the turn-up (36
    dealt), leaving 137 face-down cards; the same shuffle from either seat turns up the same
    card."""
    r = rules()
    assert r.hand_size == 18
    for seed in range(4):
        a, b = Deal.new(r, seed=seed, dealer=0), Deal.new(r, seed=seed, dealer=1)
        for d in (a, b):
            assert [len(d.hand(s)) for s in (0, 1)] == [18, 18]
            assert d.stock_size == 174 - 36 - 1 and d.turn_up is not None
            assert d.trump == d.turn_up[1]
        assert a.turn_up == b.turn_up
        assert sorted(a.hand(0)) == sorted(b.hand(1))


def test_o01_three_players_55th_card_turned() -> None:
    """O01 (RULES.md 5.7, decision 11): with 3 players (10 packs) 54 cards are dealt and the
    55th turned up; 159 face-down cards remain."""
    r = rules(3)
    assert (r.players, r.packs, r.cards) == (3, 10, 214)
    for seed in range(3):
        deals = [Deal.new(r, seed=seed, dealer=d) for d in range(3)]
        for d in deals:
            assert [len(d.hand(s)) for s in range(3)] == [18, 18, 18]
            assert d.stock_size == 159 and d.turn_up is not None and d.turn_up != "XX"
        assert len({d.turn_up for d in deals}) == 1


@pytest.mark.parametrize("players", [2, 3])
def test_o01_hands_kept_at_18_while_the_stock_lasts(players: int) -> None:
    """O01 (RULES.md 5.7): everyone is back to 18 cards after every round while the stock
    lasts (a short last round, when the stock does not divide evenly, aside)."""
    r = rules(players)
    deal = Deal.new(r, seed=players)
    rng = random.Random(players)
    while not deal.is_over:
        if deal.phase == "play" and not deal.trick:
            assert [len(deal.hand(s)) for s in range(players)] == [18] * players
        deal.apply(rng.choice(deal.legal_actions()))
    sizes = [len(deal.hand(s)) for s in range(players)]
    if players == 2:
        assert sizes == [18, 18]
    else:  # 160 cards to draw: 53 full rounds, and the winner of the 54th takes the last
        assert sorted(sizes) == [17, 17, 18]


def test_o02_pack_has_no_sevens_or_eights_twelve_nines_two_wild_cards() -> None:
    """O02 (RULES.md 5.7, decision 11): each pack is A K Q J 10 of each suit (20 cards), plus
    12 nines (3 a suit) and 2 wild cards: 8 packs for two players (174 cards), 10 for three
    (214)."""
    for players, packs, total in ((2, 8, 174), (3, 10, 214)):
        r = rules(players)
        want = Counter({rk + s: packs for rk in PLAIN_RANKS for s in "SHDC"})
        want.update({"9" + s: 3 for s in "SHDC"})
        want["XX"] = 2
        assert pack_of(r) == want
        assert r.cards == total
        hands, up, stock = Deal.new(r, seed=players).initial  # type: ignore[misc]
        dealt = Counter([c for h in hands for c in h] + [up, *stock])
        assert dealt == want
        assert not [c for c in dealt if c[0] in "78"]


# --- O03-O04: the nine exchange and who may declare ---------------------------------------------


def test_o03_trump_nine_exchanged_after_beating_a_card() -> None:
    """O03 (RULES.md 5.7): the holder of a trump nine who has beaten a card may exchange it
    for the turn-up (no points); the turn-up goes into his hand."""
    deal = stack(rules(), [["9S"], ["TS", "9H"]], up="AH")
    beat(deal, "9S", "TS")
    assert deal.phase == "declare" and deal.to_move == 1
    assert "exchange 9H" in legal(deal)
    before = deal.hand(1)
    deal.apply("exchange 9H")
    assert deal.turn_up == "9H" and deal.points == [0, 0]
    assert last_event(deal) == (1, "exchange 9H", 0)
    assert len(deal.hand(1)) == 18  # drawn back to 18 after the exchange
    assert Counter(deal.hand(1)) - Counter(before) == Counter(["AH", deal.initial[2][0]])  # type: ignore[index]
    assert Counter(before) - Counter(deal.hand(1)) == Counter(["9H"])


def test_o03_no_exchange_for_the_leader_who_wins_by_default() -> None:
    """O03 (RULES.md 5.7): a player who wins a round without beating a card (the leader, when
    the other plays lower or off-suit) may not exchange."""
    deal = stack(rules(), [["TS", "9H"], ["9S"]], up="AH")
    trick(deal, 0, "TS", "9S")
    assert deal.phase == "play" and deal.to_move == 0
    assert_illegal(deal, "exchange 9H")
    assert deal.turn_up == "AH"


def test_o03_only_a_trump_nine_and_only_one_exchange() -> None:
    """O03 (RULES.md 5.7): only a trump nine is exchanged (not a plain nine, not another trump);
    once exchanged, the turn-up is a trump nine and there is no second exchange."""
    seat1 = ["TS", "TS", "9D", "9H", "9H", "KH", "QH"]
    deal = stack(rules(), [["9S", "9S", "TD"], seat1], up="AH")
    beat(deal, "9S", "TS")
    assert_illegal(deal, "exchange 9D")
    assert_illegal(deal, "exchange KH")
    deal.apply("exchange 9H")
    assert deal.phase == "play"  # the exchange was this round's declaration
    beat(deal, "9D", "TD")
    passes(deal)
    beat(deal, "9S", "TS")
    assert deal.phase == "declare"  # the royal marriage, but no second exchange
    assert "meld royal-marriage KH QH" in legal(deal)
    assert_illegal(deal, "exchange 9H")


def test_o04_only_the_player_who_beat_a_card_declares_holding_17() -> None:
    """O04 (RULES.md 5.7, decision 11): the player who beat the card led declares, holding 17
    cards, before drawing; the leader who wins by default may not declare."""
    deal = stack(rules(), [["KH", "QH", "TS", "9D"], ["KH", "QH", "9S", "TD"]], up="AH")
    trick(deal, 0, "TS", "9S")  # seat 0 wins without beating anything
    assert deal.phase == "play" and deal.to_move == 0
    assert [len(deal.hand(s)) for s in (0, 1)] == [18, 18]
    assert_illegal(deal, "meld royal-marriage KH QH")
    beat(deal, "9D", "TD")  # seat 1 beats the 9♦
    assert deal.phase == "declare" and deal.to_move == 1
    assert len(deal.hand(1)) == 17 and deal.stock_size == 137 - 2
    deal.apply("meld royal-marriage KH QH")
    assert deal.points == [0, 4]
    assert [len(deal.hand(s)) for s in (0, 1)] == [18, 18] and deal.stock_size == 137 - 4


def test_o04_one_declaration_at_a_time() -> None:
    """O04 (RULES.md 2.8): one declaration per round; two cannot be made together."""
    deal = stack(rules(), [["9S"], ["TS", "KH", "QH", "QH", "JD"]], up="AH")
    beat(deal, "9S", "TS")
    assert {"meld royal-marriage KH QH", "meld bezique QH JD"} <= set(legal(deal))
    deal.apply("meld bezique QH JD")
    assert deal.phase == "play" and len(deal.hand(1)) == 18
    assert_illegal(deal, "meld royal-marriage KH QH")


def test_o04_three_players_the_beater_declares() -> None:
    """O04 (RULES.md 5.7): with three players the winner of a round declares only if he beat a
    card played before his."""
    r = rules(3)
    hands = [
        ["9S", "9D", "QS", "KH", "QH"],
        ["TS", "TD", "JS", "KH", "QH"],
        ["9S", "9D", "KH", "QH"],
    ]
    deal = stack(r, hands, up="AH")
    trick(deal, 1, "9S", "TS", "9S")  # the second player beats the lead
    assert deal.phase == "declare" and deal.to_move == 1
    deal.apply("meld royal-marriage KH QH")
    assert deal.points == [0, 4, 0]
    trick(deal, 1, "TD", "9D", "9D")  # seat 1 leads and wins by default: no declaration
    assert deal.phase == "play" and deal.to_move == 1
    assert_illegal(deal, "meld royal-marriage KH QH")
    trick(deal, 0, "JS", None, "QS")  # the third player beats the lead
    assert deal.phase == "declare" and deal.to_move == 0
    deal.apply("meld royal-marriage KH QH")
    assert deal.points == [4, 4, 0]


# --- O05-O10: melds and scores ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("trump", "queen", "jack"),
    [("S", "QS", "JC"), ("D", "QD", "JH"), ("H", "QH", "JD"), ("C", "QC", "JS")],
)
def test_o05_bezique_is_trump_queen_and_same_colour_jack(trump: str, queen: str, jack: str) -> None:
    """O05 (RULES.md 5.7): the bezique is the trump queen and the jack of the other suit of the
    same colour (♠-♣, ♥-♦); the classic Q♠ J♦ is no bezique unless it is that pair."""
    lead_suit = "D" if trump in "SC" else "S"
    deal = stack(
        rules(),
        [["9" + lead_suit], ["T" + lead_suit, queen, jack, "QS", "JD"]],
        up="A" + trump,
    )
    beat(deal, "9" + lead_suit, "T" + lead_suit)
    assert f"meld bezique {queen} {jack}" in legal(deal)
    if (queen, jack) != ("QS", "JD"):
        assert "meld bezique QS JD" not in legal(deal)
        assert_illegal(deal, "meld bezique QS JD")
    deal.apply(f"meld bezique {queen} {jack}")
    assert deal.points == [0, 25]


def test_o06_bezique_25_50_100_200() -> None:
    """O06 (RULES.md 5.7): the 1st, 2nd, 3rd and 4th bezique of a player score 25, 50, 100,
    200, each with a new queen and jack."""
    deal = cycle_hands(["QH"] * 4 + ["JD"] * 4, 4)
    got = cycle_declare(deal, ["meld bezique QH JD"] * 4)
    assert got == [25, 75, 175, 375]


def test_o07_trump_marriage_4_8_16_32_plain_marriage_nothing() -> None:
    """O07 (RULES.md 5.7): the 1st-4th trump marriages of a player score 4, 8, 16, 32; a plain
    marriage scores nothing (it is not a declaration)."""
    deal = cycle_hands(["KH"] * 4 + ["QH"] * 4, 4)
    got = cycle_declare(deal, ["meld royal-marriage KH QH"] * 4)
    assert got == [4, 12, 28, 60]
    plain = stack(rules(), [["9S"], ["TS", "KD", "QD"]], up="AH")
    beat(plain, "9S", "TS")
    assert not melds(plain, "marriage")
    assert_illegal(plain, "meld marriage KD QD")


def test_o07_repeats_count_per_player() -> None:
    """O07 (RULES.md 2.8): the doubling counts each player's own declarations."""
    deal = stack(rules(), [["9S", "KH", "QH", "TD"], ["TS", "KH", "QH", "9D"]], up="AH")
    beat(deal, "9S", "TS")
    deal.apply("meld royal-marriage KH QH")
    beat(deal, "9D", "TD")
    deal.apply("meld royal-marriage KH QH")
    assert deal.points == [4, 4]


def test_o07_trump_sequence_50_100_200_with_the_bezique_jack() -> None:
    """O07 / RULES.md 2.8: the trump fifth (A K Q J 10 of trumps, or with the bezique jack for
    the trump jack) scores 50, then 100, then 200."""
    seq = ["AH", "TH", "KH", "QH"]
    deal = cycle_hands([*seq, "JH", *seq, "JD"], 2, up="9H")
    first = "meld trump-sequence AH TH KH QH JH"
    second = "meld trump-sequence AH TH KH QH JD"
    got = cycle_declare(deal, [first, second])
    assert got == [50, 150]


@pytest.mark.parametrize(
    ("rank", "name", "four", "five", "six", "seven", "eight"),
    [
        ("Q", "queens", 176, 100, 200, 400, 1152),
        ("K", "kings", 88, 50, 100, 200, 576),
    ],
)
def test_o08_o09_trump_queens_and_kings_four_to_eight(
    rank: str, name: str, four: int, five: int, six: int, seven: int, eight: int
) -> None:
    """O08 (RULES.md 5.7): four trump queens 176; the 5th, 6th, 7th add 100, 200, 400; the 8th
    scores 1152 (800 + 352).  O09: four trump kings 88; 50, 100, 200; the 8th 576 (400 + 176)."""
    deal = cycle_hands([rank + "H"] * 8, 5)
    counts = ("four", "five", "six", "seven", "eight")
    actions = [
        f"meld {c}-trump-{name} " + " ".join([rank + "H"] * n)
        for c, n in zip(counts, range(4, 9), strict=True)
    ]
    got = cycle_declare(deal, actions)
    steps = [four, five, six, seven, eight]
    assert got == [sum(steps[: i + 1]) for i in range(5)]


@pytest.mark.parametrize(
    ("cards", "meld", "points"),
    [
        ("AH AH AH AH", "four-trump-aces", 110),
        ("JH JH JH JH", "four-trump-jacks", 44),
        ("JD JD JD JD", "four-bezique-jacks", 164),
        ("TH TH TH TH", "four-trump-tens", 90),
    ],
)
def test_o10_trump_aces_jacks_bezique_jacks_tens(cards: str, meld: str, points: int) -> None:
    """O10 (RULES.md 5.7): four trump aces 110; four trump jacks 44; four bezique jacks 164;
    four trump tens 90."""
    deal = stack(rules(), [["9S"], ["TS", *cards.split()]], up="9H")
    beat(deal, "9S", "TS")
    assert f"meld {meld} {cards}" in legal(deal)
    deal.apply(f"meld {meld} {cards}")
    assert deal.points == [0, points]


def test_o10_plain_quartets_need_four_suits() -> None:
    """O10 / RULES.md 2.8 (D44): four aces, kings, queens and jacks need four different suits
    (10, 8, 6, 4); four of one plain suit are nothing."""
    deal = stack(rules(), [["9S"], ["TS", "AS", "AH", "AD", "AC", "KS", "KS", "KS", "KS"]], up="9H")
    beat(deal, "9S", "TS")
    assert melds(deal, "four-aces") == ["meld four-aces AS AH AD AC"]
    assert not melds(deal, "four-kings")
    assert_illegal(deal, "meld four-kings KS KS KS KS")
    deal.apply("meld four-aces AS AH AD AC")
    assert deal.points == [0, 10]


# --- O11: the wild card -------------------------------------------------------------------------


def test_o11_wild_card_never_turned_up() -> None:
    """O11 (RULES.md 5.7, decision 11): the wild card has no suit and is never the turn-up: a
    wild card turned goes back into the stock and the next card is turned."""
    r = rules()
    for seed in range(300):
        deal = Deal.new(r, seed=seed)
        assert deal.turn_up != "XX" and deal.trump in ("S", "H", "D", "C")
        hands, up, stock = deal.initial  # type: ignore[misc]
        assert Counter([c for h in hands for c in h] + [up, *stock])["XX"] == 2


def test_o11_stacked_wild_turn_up_is_refused() -> None:
    """O11 (RULES.md 5.7): a stacked deal may not turn up the wild card (it cannot fix trump)."""
    r = rules()
    hands, up, stock = stack(r, [[], []], up="AH").initial  # type: ignore[misc]
    stock = list(stock)
    stock[stock.index("XX")] = up
    with pytest.raises(ValueError):
        Deal.from_cards(r, [list(h) for h in hands], "XX", stock, dealer=1)


def test_o11_wild_card_never_wins_a_round() -> None:
    """O11 (RULES.md 5.7): the wild card, suitless, never wins: led, any card beats it (and the
    beater may declare); played on a lead, it loses."""
    deal = stack(rules(), [["XX", "XX"], ["9D", "9D", "KH", "QH"]], up="AH")
    trick(deal, 1, "XX", "9D")
    assert deal.phase == "declare" and deal.to_move == 1
    deal.apply("pass")
    trick(deal, 1, "9D", "XX")
    assert deal.phase == "play"  # the leader won: nothing to declare


def test_o11_wild_card_alone_scores_nothing() -> None:
    """O11 (RULES.md 5.7): the wild card alone, or two wild cards, make no meld."""
    deal = stack(rules(), [["9S"], ["TS", "XX", "XX"]], up="AH")
    beat(deal, "9S", "TS")
    assert not [a for a in legal(deal) if a.startswith("meld")]
    assert_illegal(deal, "meld royal-marriage XX XX")
    assert_illegal(deal, "meld bezique XX XX")


@pytest.mark.parametrize(
    ("held", "action", "points"),
    [
        (["KH"], "meld royal-marriage KH XX", 4),
        (["QH"], "meld royal-marriage XX QH", 4),
        (["QH"], "meld bezique QH XX", 25),
        (["JD"], "meld bezique XX JD", 25),
        (["AH", "TH", "KH", "QH"], "meld trump-sequence AH TH KH QH XX", 50),
        (["QH", "QH", "QH"], "meld four-trump-queens QH QH QH XX", 176),
        (["AS", "AH", "AC"], "meld four-aces AS AH XX AC", 10),
    ],
)
def test_o11_wild_card_stands_for_any_card_of_a_meld(
    held: list[str], action: str, points: int
) -> None:
    """O11 (RULES.md 5.7): the wild card may stand for any card of a combination: either card
    of a marriage or a bezique, any card of a fifth, a queen of a set."""
    deal = stack(rules(), [["9S"], ["TS", "XX", *held]], up="9H")
    beat(deal, "9S", "TS")
    assert action in legal(deal), legal(deal)
    deal.apply(action)
    assert deal.points == [0, points]


def test_o11_wild_card_as_the_fifth_queen() -> None:
    """O11 (RULES.md 5.7): four trump queens shown, then the wild card as the 5th (+100)."""
    deal = cycle_hands(["QH"] * 4 + ["XX"], 2)
    got = cycle_declare(
        deal, ["meld four-trump-queens QH QH QH QH", "meld five-trump-queens QH QH QH QH XX"]
    )
    assert got == [176, 276]


def test_o11_at_most_one_wild_card_per_meld() -> None:
    """O11 (RULES.md 5.7, decision 11): one wild card at most in a meld."""
    deal = stack(rules(), [["9S"], ["TS", "XX", "XX", "QH", "QH"]], up="9H")
    beat(deal, "9S", "TS")
    assert not [a for a in legal(deal) if a.count("XX") > 1]
    assert_illegal(deal, "meld four-trump-queens QH QH XX XX")


# --- O12: four at the table, the dealer sits out ---------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_o12_four_at_the_table_the_dealer_sits_out(dealer: int) -> None:
    """O12 (RULES.md 5.7, decision 11): with four at the table the dealer takes no cards and
    does not play; the other three play with 10 packs, as a three-player game (the 55th card
    turned up)."""
    r = rules(4)
    assert (r.players, r.packs, r.cards, r.active_players) == (4, 10, 214, 3)
    assert r.dealer_sits_out and not r.partnerships
    deal = Deal.new(r, seed=dealer, dealer=dealer)
    assert deal.hand(dealer) == []
    assert [len(deal.hand(s)) for s in range(4) if s != dealer] == [18, 18, 18]
    assert deal.stock_size == 159 and deal.turn_up not in (None, "XX")
    assert deal.to_move == (dealer + 1) % 4
    rng = random.Random(dealer)
    while not deal.is_over:
        assert deal.to_move != dealer
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.hand(dealer) == [] and deal.points[dealer] == 0
    tricks = deal.observation(None).tricks
    assert len(tricks) == r.stage1_tricks == 54
    assert all(len(cards) == 3 and winner != dealer for _, cards, winner in tricks)
    assert not [e for e in deal.events if e[1] == dealer]


def test_o12_play_goes_round_the_dealer() -> None:
    """O12 (RULES.md 5.7): play passes clockwise, skipping the dealer who sits out."""
    r = rules(4)
    deal = stack(r, [["9S"], [], ["TS"], ["JS"]], up="AH", dealer=1)
    assert deal.to_move == 2
    deal.apply("play TS")
    assert deal.to_move == 3
    deal.apply("play JS")
    assert deal.to_move == 0
    assert {a.split()[1] for a in legal(deal)} == set(deal.hand(0))
    missing = next(c for c in ("KD", "QD", "JD", "XX") if c not in deal.hand(0))
    assert_illegal(deal, "play " + missing)
    deal.apply("play 9S")
    assert deal.last_trick_winner == 2 and deal.to_move == 2
    assert [len(deal.hand(s)) for s in range(4)] == [18, 0, 18, 18]


def test_o12_stacked_deal_gives_the_dealer_no_cards() -> None:
    """O12 (RULES.md 5.7): a stacked deal that gives the sitting-out dealer cards is refused."""
    r = rules(4)
    hands, up, stock = stack(r, [[], [], [], []], up="AH", dealer=3).initial  # type: ignore[misc]
    hands = [list(h) for h in hands]
    hands[3] = list(stock[:18])
    with pytest.raises(ValueError):
        Deal.from_cards(r, hands, up, list(stock[18:]), dealer=3)


def test_o12_the_seat_sitting_out_changes_with_the_deal() -> None:
    """O12 (RULES.md 5.7, decision 12): the deal passes to the left, so each deal a different
    player sits out."""
    match = Match(rules(4), seed=3)
    rng = random.Random(3)
    dealers = []
    for _ in range(3):
        deal = match.deal
        dealers.append(deal.dealer)
        assert deal.hand(deal.dealer) == []
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if match.winner is not None:
            break
        match.next_deal()
    assert all((b - a) % 4 == 1 for a, b in pairwise(dealers))
    assert len(dealers) >= 2


# --- O13 and the end of the hand ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_o13_no_tricks_no_brisques_hand_ends_with_the_stock(players: int) -> None:
    """O13 (RULES.md 5.7, decision 11): played cards are not gathered and nothing is scored for
    them (no brisques, no last trick); the hand ends when the stock and the turn-up are drawn,
    with no stage 2."""
    r = rules(players)
    assert r.tricks == r.stage1_tricks
    for seed in range(2):
        deal = Deal.new(r, seed=seed)
        play_random(deal, seed)
        assert deal.is_over and deal.stage == 1
        assert deal.stock_size == 0 and deal.turn_up is None
        assert deal.tricks_played == r.stage1_tricks
        result = deal.result
        assert result is not None
        assert all(x.tricks == 0 and x.last_trick == 0 and x.brisques == 0 for x in result)
        assert sum(x.melds for x in result) == sum(deal.points)
        assert not [e for e in deal.events if e[2] == "last trick"]


def test_o13_free_play_and_first_of_equal_cards_wins() -> None:
    """O13 / RULES.md 2.8: while the stock lasts any card may be played, and of two equal
    cards the first played wins."""
    deal = stack(rules(), [["AS"], ["AS", "AD"]], up="9H")
    deal.apply("play AS")
    assert {"play AS", "play AD"} <= set(legal(deal))  # no duty to follow suit
    deal.apply("play AS")
    assert deal.last_trick_winner == 0


def test_old_russian_game_target_1000_and_cumulative() -> None:
    """Decision 11: the old Russian game is played to 1000, deal after deal."""
    r = rules()
    assert r.target == 1000 and r.deal_scoring == "cumulative"


def test_old_russian_illegal_actions_leave_the_deal_unchanged() -> None:
    """RULES.md decision 8: an illegal action is refused with IllegalAction, changing nothing."""
    deal = stack(rules(), [["9S"], ["TS"]], up="AH")
    for action in ("pass", "meld bezique QH JD", "exchange 9H", "play XX"):
        before = deal.position()
        with pytest.raises(IllegalAction):
            deal.apply(action)
        assert deal.position() == before


# --- five or more trump cards shown at once -------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "points"),
    [
        ("five", 176 + 100),
        ("six", 176 + 100 + 200),
        ("eight", 176 + 100 + 200 + 400 + 1152),
    ],
)
def test_o08_trump_queens_shown_at_once_pay_the_four_and_each_card_beyond(
    count: str, points: int
) -> None:
    """O08 (RULES.md 2.8, 5.7): four trump queens score 176 and the 5th, 6th, 7th, 8th add 100,
    200, 400, 1152; shown at once from the hand, a set pays all of it, not only its last card."""
    n = {"five": 5, "six": 6, "eight": 8}[count]
    deal = stack(rules(), [["9S"], ["TS", *["QH"] * n]], up="9H")
    beat(deal, "9S", "TS")
    action = f"meld {count}-trump-queens " + " ".join(["QH"] * n)
    assert action in legal(deal)
    deal.apply(action)
    assert deal.points == [0, points]


def test_o09_two_trump_kings_added_to_four_shown_pay_the_fifth_and_sixth() -> None:
    """O09 (RULES.md 5.7): four trump kings shown (88), then six with two new kings: the 5th and
    6th add 50 + 100."""
    deal = cycle_hands(["KH"] * 6, 2)
    got = cycle_declare(
        deal,
        ["meld four-trump-kings KH KH KH KH", "meld six-trump-kings KH KH KH KH KH KH"],
    )
    assert got == [88, 88 + 50 + 100]


def test_o10_five_bezique_jacks_at_once_pay_164_and_100() -> None:
    """O10 and section 2.8: bezique jacks count "the same" as trump queens: four 164, the 5th
    +100, so five shown at once score 264."""
    deal = stack(rules(), [["9S"], ["TS", *["JD"] * 5]], up="9H")
    beat(deal, "9S", "TS")
    deal.apply("meld five-bezique-jacks JD JD JD JD JD")
    assert deal.points == [0, 164 + 100]


def test_whole_set_scoring_is_an_option_and_eight_pack_keeps_it() -> None:
    """RULES.md 4.2 eight-pack: five trump aces are one meld of 2000, not 1000 + 2000; the
    cumulative reading is old Russian's (``trump_set_scoring``)."""
    assert Rules.preset("eight-pack").trump_set_scoring == "whole"
    assert rules().trump_set_scoring == "cumulative"
    with pytest.raises(ValueError, match="trump_set_scoring must be one of whole, cumulative"):
        Rules.preset("classic", trump_set_scoring="added")
    whole = rules(trump_set_scoring="whole")
    deal = stack(whole, [["9S"], ["TS", *["QH"] * 5]], up="9H")
    beat(deal, "9S", "TS")
    deal.apply("meld five-trump-queens QH QH QH QH QH")
    assert deal.points == [0, 100]


# --- the rule facts in the compiled engine --------------------------------------------------------
@pytest.mark.skipif(
    os.environ.get("BEZIQUE_NO_FAST") == "1", reason="explicitly run without the compiled engine"
)
@pytest.mark.parametrize(("rule", "kwargs"), list(rule_tests(globals(), "test_o")))
def test_rule_facts_in_the_compiled_engine(
    rule: Any, kwargs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # O01-O13 (RULES.md 2.8): the stacked deals of the tests above, each action mirrored in C
    # and compared (tests/fast_kit.py): the wild card, the sets of trump cards paying card by
    # card (trump_set_scoring=cumulative), the dealer sitting out
    mirror(rule, kwargs, monkeypatch)
