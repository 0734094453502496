"""Rule facts H01-H32 of HAITIAN.md section 9: Haitian Bésigue (preset ``haitian``).

Every test names its rule fact.  Deals are stacked with the kit in ``variant_kit.py``
(:func:`stack` fills the rest of the 132-card pack with the least useful cards first).  In this
game no card is turned up: trump is fixed by the first marriage declared, so most tests begin
by winning a trick and declaring one.  The last test plays every rule fact again with each
action mirrored in the compiled engine and compared (``fast_kit.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from bezique import Deal, IllegalAction, Match, Rules, fast
from bezique.core.brisques import majority_adjustments
from bezique.core.games import add_points, count_game, game_winner, match_winner, next_handicap
from fast_kit import mirror, rule_tests
from variant_kit import (
    assert_illegal,
    last_event,
    legal,
    meld,
    melds,
    pack_of,
    passes,
    plays,
    stack,
    stage_lengths,
)


def rules(players: int = 2, **options: object) -> Rules:
    return Rules.preset("haitian", players=players, **options)


def win(deal: Deal, winner: int, lead: str, follow: str) -> None:
    """Two players: the seat to move leads ``lead``, the other plays ``follow``, and
    ``winner`` must take the trick."""
    deal.apply("play " + lead)
    deal.apply("play " + follow)
    assert deal.last_trick_winner == winner, (lead, follow, deal.trick_winners)


def fix_trump(deal: Deal, king_queen: str, lead: str = "9S", follow: str = "8S") -> None:
    """Seat 0 (to move) wins a trick and declares the marriage that fixes trump."""
    assert deal.to_move == 0
    win(deal, 0, lead, follow)
    meld(deal, "royal-marriage", king_queen)


def stage2(
    finals: Sequence[Sequence[str]],
    marriage: str,
    carry: tuple[int, int] = (0, 0),
    **options: Any,
) -> Deal:
    """A two-player deal played through stage 1 so that each seat holds ``finals[s]`` when
    stage 2 begins, seat 0 to lead.  Seat 0 wins every stage-1 trick and declares
    ``marriage`` (whose K and Q are in ``finals[0]``) on the first, which fixes trump; the
    marriage returns to his hand with the stock's end (H18)."""
    r = rules(**options)
    trump = marriage.split()[0][1]
    left = pack_of(r)
    left.subtract(c for f in finals for c in f)
    assert all(v >= 0 for v in left.values()), -left

    def key(c: str) -> tuple[int, int]:
        return (-1, 0) if c == "XX" else (c[1] == trump, -"ATKQJ987".index(c[0]))

    junk = sorted(left.elements(), key=key, reverse=True)
    tricks = r.stage1_tricks
    per_seat = [junk[:tricks], junk[tricks:]]
    hands = [[*finals[s][:-1], per_seat[s][0]] for s in range(2)]
    stock = [per_seat[s][t] for t in range(1, tricks) for s in range(2)]
    stock += [finals[s][-1] for s in range(2)]
    deal = Deal.from_cards(r, hands, None, stock, dealer=1, carry=carry)
    for t in range(tricks):
        for s in range(2):
            deal.apply("play " + per_seat[s][t])
        assert deal.last_trick_winner == 0
        if t == 0:
            meld(deal, "royal-marriage", marriage)
        passes(deal)
    assert deal.stage == 2 and deal.to_move == 0 and deal.trump == trump
    for s in range(2):
        assert sorted(deal.hand(s)) == sorted(finals[s])
    return deal


# --- table, cards, deal -----------------------------------------------------------------------


def test_h01_pack_of_132_with_four_jokers() -> None:
    """H01: four of each card of the piquet pack plus four jokers: 132 cards."""
    pack = pack_of(rules())
    assert sum(pack.values()) == 132 == rules().cards
    assert pack["XX"] == 4
    assert all(pack[r + s] == 4 for r in "ATKQJ987" for s in "SHDC")
    assert len(pack) == 33


@pytest.mark.parametrize(("players", "stock"), [(2, 114), (3, 105), (4, 96)])
def test_h02_nine_cards_in_threes_no_turn_up(players: int, stock: int) -> None:
    """H02: 9 cards each in threes, no turn-up; stock 114/105/96 for 2/3/4 players."""
    r = rules(players)
    assert r.deal_packets == (3, 3, 3) and not r.turn_up
    deal = Deal.new(r, seed=11, dealer=0)
    assert [len(deal.hand(s)) for s in range(players)] == [9] * players
    assert deal.turn_up is None and deal.trump is None
    assert deal.stock_size == stock


def test_h30_tricks_with_the_stock_then_nine() -> None:
    """H30: 57 (2 players), 35 (3), 24 (4) tricks while the stock lasts, then 9."""
    for players, first in ((2, 57), (3, 35), (4, 24)):
        r = rules(players)
        assert (r.stage1_tricks, r.tricks) == (first, first + 9)
        assert stage_lengths(Deal.new(r, seed=players), players) == (first, 9)


# --- trick play -------------------------------------------------------------------------------


def test_h03_no_trump_the_suit_led_wins() -> None:
    """H03: with no trump, 7♥ led and K♠ played: the leader wins; 9♥ led, 10♥: the follower."""
    deal = stack(rules(), [["7H", "9H"], ["KS", "TH"]], stock=["8D", "8C"])
    win(deal, 0, "7H", "KS")
    assert deal.trump is None
    win(deal, 1, "9H", "TH")


def test_h16_a_led_joker_wins_unless_trumped() -> None:
    """H16: a led joker wins unless a trump is played to the trick; a joker played to a lead
    never wins; of two jokers the leader's wins."""
    deal = stack(rules(), [["XX", "XX", "KH", "QH"], ["AS", "8H", "XX", "XX"]])
    win(deal, 0, "XX", "AS")  # no trump yet: the joker wins against an ace
    meld(deal, "royal-marriage", "KH QH")
    assert deal.trump == "H"
    win(deal, 1, "XX", "8H")  # a trump takes the led joker
    passes(deal)
    win(deal, 1, "XX", deal.hand(0)[0])  # seat 1 leads a joker; seat 0 has no trump
    deal = stack(rules(), [["XX", "9S"], ["XX", "XX"]])
    win(deal, 0, "XX", "XX")  # two jokers: the leader's
    win(deal, 0, "9S", "XX")  # a joker played to a lead never wins


def test_h16_three_players_a_later_trump_takes_the_joker() -> None:
    """H16 with three: joker led, an ace, then a trump: the trump wins; without a trump the
    joker holds."""
    r = rules(3)
    deal = stack(r, [["XX", "KH", "QH", "XX"], ["AS", "AS"], ["9S", "8H"]])
    for c in ("XX", "AS", "9S"):
        deal.apply("play " + c)
    assert deal.last_trick_winner == 0
    meld(deal, "royal-marriage", "KH QH")
    for c in ("XX", "AS", "8H"):
        deal.apply("play " + c)
    assert deal.last_trick_winner == 2


def test_h17_stock_phase_any_card() -> None:
    """H17: while the stock lasts any card may be played: a follower holding the suit led
    may discard or trump."""
    deal = stack(rules(), [["9H"], ["TH", "AS", "XX", "KC"]])
    deal.apply("play 9H")
    assert plays(deal) == set(deal.hand(1))


def test_h19_stage2_follow_and_head_or_trump() -> None:
    """H19: in the last nine tricks, 9♥ led: from J♥ 7♥ only J♥; void in hearts, a trump."""
    finals = [
        ["9H", "9S", "KC", "QC", "8D", "8D", "8S", "9D", "9D"],
        ["JH", "7H", "AS", "TD", "8S", "9S", "XX", "AC", "7S"],
    ]
    deal = stage2(finals, "KC QC")
    deal.apply("play 9H")
    assert plays(deal) == {"JH"}
    deal.apply("play JH")
    passes(deal)
    deal.apply("play 7H")  # seat 1 leads a heart: seat 0 is void, and holds clubs (trump)
    assert plays(deal) == {"KC", "QC"}


def test_h20_stage2_joker_led_follower_must_trump() -> None:
    """H20: in the last nine tricks, after a led joker a follower holding trumps must trump;
    a joker is otherwise a card of no suit, played when one cannot follow or trump (HD13)."""
    finals = [
        ["XX", "9H", "KC", "QC", "8D", "8D", "8S", "9D", "9D"],
        ["JH", "7C", "AS", "TD", "8S", "9S", "XX", "AH", "7S"],
    ]
    deal = stage2(finals, "KC QC")
    deal.apply("play XX")
    assert plays(deal) == {"7C"}
    deal.apply("play 7C")
    assert deal.last_trick_winner == 1
    deal.apply("play AH")  # seat 0 has the 9H: follows; the joker may not be played
    assert plays(deal) == {"9H"}


def test_hd13_last_resort_joker() -> None:
    """HD13: a joker in the last tricks is a discard (played when one can neither follow nor
    trump); opt ``stage2_wild_card=last-resort``: only once nothing else is left."""
    finals = [
        ["8D", "9D", "KC", "QC", "AH", "9H", "9D", "8D", "8S"],
        ["XX", "XX", "AS", "TS", "9S", "8S", "JH", "7S", "8S"],
    ]
    deal = stage2(finals, "KC QC")
    deal.apply("play 8D")
    assert plays(deal) == set(finals[1])
    deal = stage2(finals, "KC QC", stage2_wild_card="last-resort")
    deal.apply("play 8D")
    assert plays(deal) == set(finals[1]) - {"XX"}


# --- declarations -----------------------------------------------------------------------------


def test_h04_before_trump_only_a_marriage() -> None:
    """H04: before trump is fixed only a marriage may be declared: a bésigue or four aces
    offered then is refused."""
    seat0 = ["AS", "AH", "AD", "AC", "QS", "JD", "KC", "QC", "9H"]
    deal = stack(rules(), [seat0, ["7H"]])
    win(deal, 0, "9H", "7H")
    assert deal.phase == "declare"
    assert {a.split()[1] for a in legal(deal) if a != "pass"} == {"royal-marriage"}
    assert_illegal(deal, "meld bezique QS JD")
    assert_illegal(deal, "meld four-aces AS AH AD AC")


def test_h05_first_marriage_fixes_trump_then_anything() -> None:
    """H05: the first marriage, any suit, fixes trump and scores 40; then either player may
    declare anything."""
    seat0 = ["AS", "AH", "AD", "AC", "QS", "JD", "KC", "QC", "9H"]
    seat1 = ["7H", "KH", "QH", "8S", "TS"]
    deal = stack(rules(), [seat0, seat1], stock=["TD", "9S", "8S", "9D"])
    win(deal, 0, "9H", "7H")
    meld(deal, "royal-marriage", "KC QC")
    assert deal.trump == "C" and last_event(deal) == (0, "meld royal-marriage KC QC", 40)
    win(deal, 0, "TD", "9S")
    assert melds(deal, "bezique") and melds(deal, "four-aces")
    meld(deal, "bezique", "QS JD")
    win(deal, 1, "8S", "TS")
    meld(deal, "marriage", "KH QH")
    assert last_event(deal) == (1, "meld marriage KH QH", 20)


def test_h06_one_meld_per_trick_by_the_winner_before_drawing() -> None:
    """H06: one meld per trick won, by the winner, before he draws."""
    seat0 = ["AS", "AH", "AD", "AC", "QS", "JD", "KC", "QC", "9H"]
    deal = stack(rules(), [seat0, ["7H", "8S"]], stock=["TD", "9S", "9D", "9C"])
    win(deal, 0, "9H", "7H")
    meld(deal, "royal-marriage", "KC QC")
    win(deal, 0, "TD", "9S")
    stock = deal.stock_size
    assert deal.phase == "declare" and deal.to_move == 0
    assert [len(deal.hand(s)) for s in (0, 1)] == [8, 8]  # nobody has drawn yet
    meld(deal, "bezique", "QS JD")
    assert deal.phase == "play" and deal.stock_size == stock - 2  # one meld, then both draw
    assert [len(deal.hand(s)) for s in (0, 1)] == [9, 9]
    win(deal, 0, "9D", "8S")  # the four aces wait for the next trick won
    assert melds(deal, "four-aces")


def test_h07_marriage_bezique_scores_and_first_bezique_option() -> None:
    """H07: plain marriage 20, trump marriage 40, bésigue 40; opt ``first_bezique=100``: the
    first bésigue 100, later ones 40."""
    assert (rules().common_marriage, rules().royal_marriage, rules().bezique) == (20, 40, 40)
    seat0 = ["QS", "QS", "JD", "JD", "KC", "QC", "9H", "TD", "TH"]
    for first, second, option in ((40, 40, 0), (100, 40, 100)):
        deal = stack(rules(first_bezique=option), [seat0, ["7H", "9S", "8H"]])
        win(deal, 0, "9H", "7H")
        meld(deal, "royal-marriage", "KC QC")
        win(deal, 0, "TD", "9S")
        meld(deal, "bezique", "QS JD")
        assert last_event(deal)[2] == first
        win(deal, 0, "TH", "8H")
        meld(deal, "bezique", "QS JD")
        assert last_event(deal)[2] == second


def test_h07_first_bezique_counts_per_game_not_per_deal() -> None:
    """H07 (HAITIAN.md HD3, section 2: "the first bésigue of a game 100"): once a bésigue has
    been declared in a deal of a game, a bésigue in a later deal of the same game scores 40;
    the next game starts afresh.  The flag travels with the deal (position strings, worlds)."""
    seat0 = ["QS", "JD", "KC", "QC", "9H", "TD", "TH", "9C", "8C"]

    def bezique_points(deal: Deal) -> int:
        win(deal, 0, "9H", "7H")
        meld(deal, "royal-marriage", "KC QC")
        win(deal, 0, "TD", "9S")
        meld(deal, "bezique", "QS JD")
        return last_event(deal)[2]

    r = rules(first_bezique=100)
    assert bezique_points(stack(r, [seat0, ["7H", "9S", "8H"]])) == 100
    dealt = stack(r, [seat0, ["7H", "9S", "8H"]]).initial
    assert dealt is not None
    later = Deal.from_cards(r, *dealt, dealer=1, game_bezique=True)
    assert later.game_bezique and later.bezique_in_game
    assert Deal.from_position(later.position()).game_bezique
    seat = later.observation(0)
    assert seat.game_bezique and Deal.from_observation(seat, 1).game_bezique
    assert bezique_points(later) == 40
    with pytest.raises(ValueError, match="game_bezique must be True or False"):
        Deal.new(r, seed=1, game_bezique=1)  # type: ignore[arg-type]

    # a match passes it on within a game, and starts each game without it
    match = Match(r, seed=11)
    rng = random.Random(11)
    checked = 0
    while match.winner is None:
        deal = match.deal
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if match.winner is not None:
            break
        ended_game = match.game_winner is not None
        before = deal.bezique_in_game
        match.next_deal()
        assert match.deal.game_bezique == (before and not ended_game)
        checked += before and not ended_game
    assert checked  # the seed plays at least one deal after a bésigue within a game
    for deal in match.deals:
        firsts = [p for _, _, what, p in deal.events if what.startswith("meld bezique ")]
        if firsts:
            assert firsts[0] == (40 if deal.game_bezique else 100)
            assert all(p == 40 for p in firsts[1:])


def test_h08_quinte_joins_the_declarers_own_live_marriage() -> None:
    """H08: A 10 J of trumps with the declarer's own trump marriage on the table = 250 (290
    with it); refused if that K or Q was played, or if the marriage is the opponent's."""
    seat0 = ["KH", "QH", "AH", "TH", "JH", "9S", "9D", "9C", "KH"]
    deal = stack(rules(), [seat0, ["8S", "8D", "8C", "8H"]])
    fix_trump(deal, "KH QH", "9S", "8S")
    assert not melds(deal, "trump-sequence")
    win(deal, 0, "9D", "8D")
    meld(deal, "trump-sequence", "AH TH KH QH JH")
    assert last_event(deal) == (0, "meld trump-sequence AH TH KH QH JH", 250)
    assert deal.points[0] == 290

    # the marriage's king played: the spare KH and the tabled QH do not make a quinte
    deal = stack(rules(), [seat0, ["8S", "8D", "8C", "AH"]])
    fix_trump(deal, "KH QH", "9S", "8S")
    win(deal, 0, "KH@table", "8D")
    assert deal.table(0) == ["QH"] and "KH" in deal.hand(0)
    assert not melds(deal, "trump-sequence")
    assert_illegal(deal, "meld trump-sequence AH TH KH QH JH")

    # the opponent's marriage fixed trump: seat 0's own K Q must be declared first
    seat0 = ["AH", "TH", "JH", "KH", "QH", "9S", "9H"]
    deal = stack(rules(), [seat0, ["KH", "QH", "TS"]])
    win(deal, 1, "9S", "TS")
    meld(deal, "royal-marriage", "KH QH")
    lead = next(c for c in deal.hand(1) if c[1] != "H" and c not in deal.table(1))
    win(deal, 0, lead, "9H")
    assert melds(deal, "royal-marriage") and not melds(deal, "trump-sequence")
    assert_illegal(deal, "meld trump-sequence AH TH KH QH JH")


def test_h09_four_kings_any_suits_and_four_trump_kings() -> None:
    """H09: four kings of any suits (repeats allowed) 80; all four of trumps 160."""
    seat0 = ["KD", "QD", "KS", "KS", "KS", "KC", "KD", "KD", "9S"]
    deal = stack(rules(), [seat0, ["8S", "8H", "8D"]], stock=["9H", "9C", "KD", "8C"])
    fix_trump(deal, "KD QD", "9S", "8S")
    win(deal, 0, "9H", "8H")
    assert not melds(deal, "four-trump-kings")  # three kings of trumps: not yet
    meld(deal, "four-kings", "KS KS KS KC")
    assert last_event(deal)[2] == 80
    win(deal, 0, "QD", "8D")
    meld(deal, "four-trump-kings", "KD KD KD KD")
    assert last_event(deal)[2] == 160


def test_h10_a_joker_completes_a_plain_quartet_only() -> None:
    """H10: three queens and a joker are four queens (60); a joker cannot complete a trump
    quartet, a marriage, a bésigue or the quinte."""
    seat0 = ["KD", "QD", "QS", "QH", "QC", "XX", "QD", "QD", "KH"]
    deal = stack(rules(), [seat0, ["8S", "8C", "8H", "AD", "TD", "JD"]])
    fix_trump(deal, "KD QD", "KH", "8H")
    win(deal, 0, seat0_low(deal), "8C")
    names = {a.split()[1] for a in legal(deal) if a != "pass"}
    assert names == {"four-queens"}
    assert "meld four-queens QS QH QC XX" in legal(deal)
    assert_illegal(deal, "meld four-trump-queens QD QD QD@table XX")
    assert_illegal(deal, "meld bezique QS XX")
    assert_illegal(deal, "meld marriage QH XX")
    meld(deal, "four-queens", "QS QH QD XX")
    assert last_event(deal)[2] == 60


def test_hd6_a_joker_for_the_king_of_the_first_marriage_fixes_the_queens_suit() -> None:
    """HD6 (opt ``wild_card_melds=any``): a joker may stand in for the king of the marriage
    that fixes trump; trump is then the suit of the queen (a joker has none)."""
    deal = stack(rules(wild_card_melds="any"), [["QH", "XX", "9S"], ["8S", "8D"]])
    win(deal, 0, "9S", "8S")
    meld(deal, "royal-marriage", "XX QH")
    assert deal.trump == "H" and last_event(deal)[2] == 40


def test_h11_a_joker_scores_in_one_meld_per_deal() -> None:
    """H11: a joker scored in four kings cannot complete four jacks later in the deal."""
    seat0 = ["KD", "QD", "KS", "KH", "XX", "JS", "JH", "JC", "9C"]
    deal = stack(rules(), [seat0, ["8S", "8C", "8H"]])
    fix_trump(deal, "KD QD", "9C", "8C")
    win(deal, 0, seat0_low(deal), "8S")
    meld(deal, "four-kings", "KS KH KD XX")
    win(deal, 0, seat0_low(deal), "8H")
    assert not melds(deal, "four-jacks")
    assert_illegal(deal, "meld four-jacks JS JH JC XX")


def seat0_low(deal: Deal) -> str:
    """A low card seat 0 holds (a filler nine or eight), to lead and win with."""
    return next(c for c in deal.hand(0) if c[0] in "98" and c not in deal.table(0))


def test_h12_four_queens_score_once_as_a_kind() -> None:
    """H12: four queens scored cannot score four queens (or four trump queens) again; four
    other queens can."""
    seat0 = ["KC", "QC", "QC", "QC", "QC", "QS", "QH", "QD", "9C"]
    stock = ["9S", "8S", "9H", "8H", "QS", "8D"]
    deal = stack(rules(), [seat0, ["8C"]], stock=stock)
    fix_trump(deal, "KC QC", "9C", "8C")
    win(deal, 0, "9S", "8S")
    meld(deal, "four-trump-queens", "QC QC QC QC")
    assert last_event(deal)[2] == 120
    win(deal, 0, "9H", "8H")  # three fresh queens and the four clubs: nothing to declare
    assert deal.phase == "play"
    win(deal, 0, "KC", "8D")
    assert melds(deal, "four-queens") == ["meld four-queens QS QS QH QD"]
    meld(deal, "four-queens", "QS QS QH QD")
    assert last_event(deal)[2] == 60


def test_h13_married_cards_marry_once_but_join_quartets() -> None:
    """H13: a K and Q already married cannot form another marriage; the K may still score in
    four kings, a queen of a marriage in four queens."""
    seat0 = ["KD", "QD", "KS", "QS", "QS", "KH", "KC", "KC", "9C"]
    deal = stack(rules(), [seat0, ["8S", "8C", "8H", "8D"]])
    fix_trump(deal, "KD QD", "9C", "8C")
    win(deal, 0, seat0_low(deal), "8S")
    meld(deal, "marriage", "KS QS")
    win(deal, 0, seat0_low(deal), "8H")
    assert not [a for a in melds(deal, "marriage") if "KS" in a]
    assert_illegal(deal, "meld marriage KS@table QS")
    meld(deal, "four-kings", "KS KH KC KD")
    assert last_event(deal)[2] == 80


def test_h14_bezique_cards_score_once_no_double_bezique() -> None:
    """H14: a Q♠ or J♦ already in a bésigue cannot form another; there is no double bésigue."""
    assert rules().double_bezique == 0
    seat0 = ["KD", "QD", "QS", "JD", "QS", "JD", "9C", "9H", "9S"]
    deal = stack(rules(), [seat0, ["8S", "8C", "8H", "8D"]])
    fix_trump(deal, "KD QD", "9C", "8C")
    win(deal, 0, "9H", "8H")
    assert not melds(deal, "double-bezique")
    meld(deal, "bezique", "QS JD")
    win(deal, 0, "9S", "8S")
    assert all("@" not in a for a in melds(deal, "bezique"))  # only the two fresh cards
    assert_illegal(deal, "meld bezique QS@table JD")


# --- seven of trumps --------------------------------------------------------------------------


def test_h15_seven_of_trumps_scores_for_its_player() -> None:
    """H15: playing a seven of trumps scores 10 for its player, win or lose, in either phase;
    a seven of the later trump suit played before trump is fixed scores nothing."""
    deal = stack(rules(), [["7H", "KH", "QH", "8H"], ["8S", "7H", "8D"]])
    win(deal, 0, "7H", "8S")  # no trump yet
    assert not [e for e in deal.events if e[2].startswith("seven")]
    meld(deal, "royal-marriage", "KH QH")
    win(deal, 0, "8H", "7H")  # seat 1 loses with the seven of trumps: still 10 for him
    assert last_event(deal) == (1, "seven played 7H", 10)
    finals = [
        ["7C", "9H", "KC", "QC", "8D", "8D", "8S", "9D", "9D"],
        ["JH", "7C", "AS", "TD", "8S", "9S", "XX", "AH", "7S"],
    ]
    deal = stage2(finals, "KC QC")
    before = [e for e in deal.events if e[2].startswith("seven")]
    deal.apply("play 7C")
    deal.apply("play 7C")  # stage 2: both play a seven of trumps; both score
    sevens = [e for e in deal.events if e[2].startswith("seven")][len(before) :]
    assert sorted((s, p) for _, s, _, p in sevens) == [(0, 10), (1, 10)]


def test_h31_capture_option_scores_sevens_for_the_taker() -> None:
    """H31 (opt ``second_seven_scores=capture``): the taker of a trick scores 10 per seven of
    trumps in it."""
    deal = stack(
        rules(second_seven_scores="capture"), [["7H", "KH", "QH", "8H"], ["8S", "7H", "8D"]]
    )
    win(deal, 0, "7H", "8S")
    meld(deal, "royal-marriage", "KH QH")
    win(deal, 0, "8H", "7H")
    assert last_event(deal) == (0, "seven captured 7H", 10)


# --- end of the stock, end of the deal ----------------------------------------------------------


def test_h18_stock_exhausted_melds_return_no_declarations() -> None:
    """H18: with the stock exhausted tabled melds return to the hands; no more melds."""
    finals = [
        ["KH", "QH", "QS", "JD", "8D", "8D", "8S", "9D", "9D"],
        ["JH", "7C", "AS", "TD", "8S", "9S", "XX", "AH", "7S"],
    ]
    deal = stage2(finals, "KH QH")
    assert deal.table(0) == [] and {"KH", "QH"} <= set(deal.hand(0))
    while not deal.is_over:  # nine tricks: never a declaration, whoever wins
        assert deal.phase == "play"
        assert not [a for a in legal(deal) if a.startswith("meld")]
        deal.apply(deal.legal_actions()[0])


def test_h21_last_trick_scores_ten() -> None:
    """H21: the last trick scores 10."""
    deal = Deal.new(rules(), seed=4)
    rng = random.Random(4)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    assert deal.result is not None
    winner = deal.last_trick_winner
    assert [r.last_trick for r in deal.result] == [10 if s == winner else 0 for s in (0, 1)]
    assert deal.events[-1][1:] == (winner, "last trick", 10)


def test_h22_tie_gives_each_the_bonus() -> None:
    """H22: brisques 16-16, players on 400 (taker of the last trick) and 500: 570 and 660."""
    adjust = majority_adjustments(rules(), [160, 160], [410, 500])
    assert [410 + adjust[0], 500 + adjust[1]] == [570, 660]


def test_h23_majority_scores_and_minority_loses() -> None:
    """H23: brisques 17-15, players on 700 (taker of the last trick) and 600: 880 and 400."""
    adjust = majority_adjustments(rules(), [170, 150], [710, 600])
    assert [710 + adjust[0], 600 + adjust[1]] == [880, 400]


def test_h24_under_200_neither_gains_nor_loses() -> None:
    """H24: a player under 200 neither gains nor loses by the brisque count."""
    assert majority_adjustments(rules(), [170, 150], [190, 199]) == [0, 0]
    assert majority_adjustments(rules(), [160, 160], [199, 200]) == [0, 160]
    assert majority_adjustments(rules(), [100, 220], [200, 0]) == [-200, 0]


@pytest.mark.parametrize("seed", range(6))
def test_h22_h24_brisques_settle_in_the_engine(seed: int) -> None:
    """H22-H24 in a played deal: the trick points of a finished deal are the majority
    adjustment on the game scores (those brought in, the deal's melds, sevens, last trick)."""
    carry = [(400, 500), (700, 600), (150, 250), (0, 0), (210, 190), (600, 900)][seed]
    deal = Deal.new(rules(), seed=seed, carry=carry)
    rng = random.Random(seed)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.ended_early:
        return
    won = [0, 0]
    for _, cards, w in deal.observation(None).tricks:
        won[w] += 10 * sum(c[0] in "AT" for c in cards)
    assert sum(won) == 320
    res = deal.result
    assert res is not None
    before = [c + r.melds + r.last_trick for c, r in zip(carry, res, strict=True)]
    for side in (0, 1):
        mine, theirs = won[side], won[1 - side]
        want = (
            0 if before[side] < 200 else 160 if mine == theirs else mine if mine > theirs else -200
        )
        assert res[side].tricks == want


def test_h25_reaching_the_target_ends_the_deal_at_once() -> None:
    """H25: reaching 1000 by a declaration ends the deal at once: no last trick, no brisques."""
    seat0 = ["KH", "QH", "AS", "TS", "9C"]
    deal = stack(rules(), [seat0, ["8C", "AC", "TC"]])
    assert deal.initial is not None
    deal = Deal.from_cards(
        rules(), [deal.hand(0), deal.hand(1)], None, deal.initial[2], dealer=1, carry=(960, 0)
    )
    win(deal, 0, "AS", "AC")
    meld(deal, "royal-marriage", "KH QH")
    assert deal.is_over and deal.ended_early and deal.to_move is None
    assert deal.tricks_played == 1
    res = deal.result
    assert res is not None
    assert [(r.tricks, r.last_trick) for r in res] == [(0, 0), (0, 0)]
    assert deal.points == [40, 0]
    with pytest.raises(IllegalAction):
        deal.apply("pass")


def test_h25_a_seven_reaching_the_target_ends_the_deal() -> None:
    """H25: a seven of trumps that brings its player to the target ends the deal too."""
    seat0 = ["KH", "QH", "9S", "7H"]
    deal = stack(rules(), [seat0, ["8S", "8D"]])
    assert deal.initial is not None
    deal = Deal.from_cards(
        rules(), [deal.hand(0), deal.hand(1)], None, deal.initial[2], dealer=1, carry=(950, 0)
    )
    fix_trump(deal, "KH QH", "9S", "8S")
    assert not deal.is_over  # 990
    deal.apply("play 7H")
    deal.apply("play 8D")
    assert deal.is_over and deal.ended_early and deal.points == [50, 0]


def test_h25_a_seven_in_the_last_trick_reaching_the_target_ends_the_deal() -> None:
    """H15, H25 and section 6: a seven of trumps scores as its trick is taken; when the seven of
    the deal's very last trick brings its player to the target, the deal ends there like any
    early end: every trick played, but no last trick and no brisques."""
    finals = [
        ["AH", "AH", "TH", "TH", "KH", "QH", "AS", "AS", "7H"],
        ["8C", "8C", "9C", "9C", "8D", "8D", "9D", "9D", "JC"],
    ]

    def play_stage2(deal: Deal, cards: Sequence[str]) -> None:
        for card in cards:  # seat 0 leads and takes every trick (hearts are trumps)
            deal.apply("play " + card)
            deal.apply(deal.legal_actions()[0])
            assert deal.is_over or deal.to_move == 0

    control = stage2(finals, "KH QH")  # far from the target: the deal ends as usual
    play_stage2(control, finals[0][:-1])
    before = control.points[0]
    play_stage2(control, finals[0][-1:])
    assert control.is_over and not control.ended_early
    assert control.result is not None and control.result[0].last_trick == 10

    deal = stage2(finals, "KH QH", carry=(1000 - 10 - before, 0))
    play_stage2(deal, finals[0][:-1])
    assert not deal.is_over and deal.points[0] == before  # 990 with the carry
    play_stage2(deal, finals[0][-1:])
    assert deal.is_over and deal.ended_early and deal.tricks_played == deal.rules.tricks
    assert [e.what for e in deal.events[-2:]] == ["seven played 7H", "target reached"]
    assert deal.result is not None
    assert [(r.tricks, r.last_trick, r.brisques) for r in deal.result] == [(0, 0, 0), (0, 0, 0)]
    assert deal.points == [before + 10, 0]


# --- game and match -------------------------------------------------------------------------------


def test_h26_game_to_1000_higher_wins_scores_reset() -> None:
    """H26: the game is 1000; both over: the higher wins; scores reset after a game."""
    r = rules()
    assert r.target == 1000 and rules(4).target == 600
    assert game_winner(r, [1000, 990], []) == 0
    assert game_winner(r, [1020, 1050], [0]) == 1
    assert game_winner(r, [1020, 1020], [0, 1]) == 1  # a tie: the last trick
    assert game_winner(r, [999, 0], [0]) is None
    match = play_match(r, seed=3)
    for game in match.games:
        assert max(game.scores) >= 1000 and game.scores[game.winner] == max(game.scores)
    firsts = [g.first_deal for g in match.games[1:]]
    for first in firsts:  # each new game starts from 0
        assert match.deals[first].carry == (0, 0)
    assert any(d.carry != (0, 0) for d in match.deals)  # scores carry over within a game


def test_h27_en_bas_table_counts_double() -> None:
    """H27: a game won with the loser on 749 is en bas table: the winner's count +2; on 750,
    +1."""
    r = rules()
    assert count_game(r, (0, 0), 0, [1000, 749]) == ((2, 0), True)
    assert count_game(r, (0, 0), 0, [1000, 750]) == ((1, 0), False)


def test_h28_cent_points_match() -> None:
    """H28: a game won resets the loser's count to 0; a count of 4 with the opponent at 0 wins
    the match."""
    r = rules()
    counts, _ = count_game(r, (3, 0), 1, [900, 1010])
    assert counts == (0, 1)
    counts, _ = count_game(r, (3, 0), 0, [1010, 900])
    assert counts == (4, 0) and match_winner(r, counts) == 0
    assert match_winner(r, (3, 0)) is None
    match = play_match(r, seed=3)
    assert match.winner is not None
    assert match.match_counts[match.winner] >= 4
    assert match.match_counts[1 - match.winner] == 0
    prev: tuple[int, ...] = (0, 0)
    for game in match.games:
        want, _ = count_game(r, prev, game.winner, game.scores)
        assert game.counts == want
        prev = game.counts


def test_h29_scores_never_below_zero() -> None:
    """H29: scores never go below 0."""
    r = rules(brisque_min_score=0)
    assert majority_adjustments(r, [100, 220], [120, 300]) == [-120, 220]
    assert majority_adjustments(
        rules(brisque_min_score=0, score_floor_zero=False), [100, 220], [120, 300]
    ) == [-200, 220]
    assert add_points(r, [30, 10], [-50, 5]) == [0, 15]


def test_h32_cent_points_handicap() -> None:
    """H32 (opt ``cent_points_handicap=100``): the loser of a match starts each game on 100
    until he wins a match himself."""
    r = rules(cent_points_handicap=100)
    assert next_handicap(r, (0, 0), 0) == (0, 100)
    assert next_handicap(r, (0, 100), 0) == (0, 100)
    assert next_handicap(r, (0, 100), 1) == (100, 0)
    match = play_match(r, seed=5)
    again = match.rematch(seed=6)
    loser = 1 - (match.winner or 0)
    assert again.handicap[loser] == 100 and again.handicap[1 - loser] == 0
    assert list(again.deal.carry) == list(again.handicap)
    assert rules().cent_points_handicap == 0
    assert match.rematch(seed=7).handicap == next_handicap(r, (0, 0), match.winner or 0)


def play_match(r: Rules, seed: int) -> Match:
    """A whole match played with random legal actions."""
    match = Match(r, seed=seed)
    rng = random.Random(seed)
    while True:
        deal = match.deal
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        if match.winner is not None:
            return match
        match.next_deal()


def test_match_counter_examples() -> None:
    """The match of HAITIAN.md section 6 in counts: a run of games."""
    r = rules()
    counts: tuple[int, ...] = (0, 0)
    for winner, scores in ((0, [1000, 800]), (1, [700, 1010]), (1, [800, 1000])):
        counts, _ = count_game(r, counts, winner, scores)
    assert counts == (0, 3)


# --- the options and the preset -------------------------------------------------------------------


def test_preset_is_built_from_options() -> None:
    """HAITIAN.md section 8: the preset's values, and its three- and four-player forms."""
    r = rules()
    assert (r.packs, r.wild_cards, r.hand_size, r.turn_up) == (4, 4, 9, False)
    assert r.melds_before_trump == "marriage-only" and r.meld_reuse == "once-per-kind"
    assert r.trick_scoring == "brisque-majority" and r.target_check == "immediate"
    assert (r.match_games, r.double_game_below, r.score_floor_zero) == (4, 750, True)
    assert rules(3).trick_scoring == "brisques" and rules(3).target == 1000
    assert rules(4).trick_scoring == "brisques" and rules(4).target == 600
    assert str(rules(4, partnerships=True)) == "haitian(players=4,partnerships=true)"
    for text in ("haitian", "haitian(players=3)", "haitian(first_bezique=100,target=1500)"):
        assert str(Rules.from_string(text)) == text
    assert Rules.preset("besigue") == r


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"melds_before_trump": "all"}, "melds_before_trump must be one of"),
        ({"wild_card_melds": "sequences"}, "wild_card_melds must be one of"),
        ({"stage2_wild_card": "never"}, "stage2_wild_card must be one of"),
        ({"second_seven_scores": "capture-all"}, "second_seven_scores must be one of"),
        ({"target_check": "later"}, "target_check must be one of"),
        ({"meld_reuse": "per-kind"}, "meld_reuse must be one of"),
        ({"brisque_min_score": -1}, "brisque_min_score must be 0 to"),
        ({"match_games": 101}, "match_games must be 0 to 100"),
        ({"match_games": "four"}, "must be a whole number"),
        ({"score_floor_zero": 1}, "must be true or false"),
        ({"players": 3, "trick_scoring": "brisque-majority"}, "needs two sides"),
    ],
)
def test_bad_option_values_are_refused(options: dict[str, object], message: str) -> None:
    """Every new option refuses a bad value with a message naming it."""
    with pytest.raises(ValueError, match=message):
        Rules.preset("haitian", **options)


def test_bad_carry_is_refused() -> None:
    """A deal's carried-in scores are one whole number a side."""
    with pytest.raises(ValueError, match="carry must be 2 whole numbers"):
        Deal.new(rules(), seed=1, carry=(0, 0, 0))
    with pytest.raises(ValueError, match="handicap must be 2"):
        Match(rules(), seed=1, handicap=(100,))


def test_carry_travels_in_observations_and_positions() -> None:
    """The scores brought into a deal are public: they are in every view and position string,
    and a resampled world keeps them."""
    deal = Deal.new(rules(), seed=2, carry=(300, 640))
    obs = deal.observation(0)
    assert obs.carry == (300, 640) and "carry=300,640" in obs.to_string()
    assert Deal.from_position(deal.position()).carry == (300, 640)
    assert deal.resample(1, 5).carry == (300, 640)
    assert "carry=" not in Deal.new(rules(), seed=2).position()


# --- records and replay ---------------------------------------------------------------------------


def test_a_haitian_match_record_replays_its_games() -> None:
    """A whole Haitian match (several games, the counter) written as a record and read back
    replays to the same scores, games and winner."""
    from bezique.core.records import GameRecord, record_match

    match = play_match(rules(), seed=3)
    assert len(match.games) >= 2
    record = record_match(match)
    again = GameRecord.from_json(record.to_json())
    replayed = again.replay()
    assert isinstance(replayed, Match)
    assert replayed.scores == match.scores and replayed.winner == match.winner
    assert replayed.games == match.games and replayed.match_counts == match.match_counts
    assert [d.carry for d in replayed.deals] == [d.carry for d in match.deals]


def test_a_whole_match_in_the_terminal() -> None:
    """A Haitian match of several games plays to its end in the terminal: each game's winner,
    en bas table and the match count are shown, then the match's winner (short games here)."""
    import io

    from rich.console import Console

    from bezique.tui.game import TerminalGame

    def answer(prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            return ""
        return "y" if prompt.startswith("Really") else "1"

    buf = io.StringIO()
    r = rules(target=400, match_games=2)
    game = TerminalGame(
        r,
        opponent="random",
        seed=5,
        console=Console(file=buf, width=110, color_system=None),
        ask=answer,
        clear=False,
    )
    assert game.run() == 0
    out = buf.getvalue()
    match = game.match
    assert match.winner is not None and len(match.games) >= 1
    assert out.count("Match count:") == len(match.games)
    assert "the match" in out and "Traceback" not in out
    if any(g.double for g in match.games):
        assert "en bas table" in out


def test_a_rematch_record_keeps_the_handicap() -> None:
    """H32 in records: a match started with the cent-points handicap is written with it and
    replays with it; a handicap on a single deal, or a negative one, is refused."""
    from bezique.core.records import GameRecord, RecordError, record_match

    r = rules(target=300, match_games=1, cent_points_handicap=100)
    first = play_match(r, seed=2)
    second = first.rematch(seed=9)
    rng = random.Random(9)
    while not second.deal.is_over:
        second.deal.apply(rng.choice(second.deal.legal_actions()))
    record = record_match(second)
    data = record.to_dict()
    assert data["handicap"] == list(second.handicap) and any(second.handicap)
    replayed = GameRecord.from_dict(data).replay()
    assert isinstance(replayed, Match) and replayed.handicap == second.handicap
    assert replayed.scores == second.scores
    assert "handicap" not in record_match(first).to_dict()
    with pytest.raises(RecordError, match="handicap"):
        GameRecord.from_dict({**data, "handicap": [-1, 0]})


def test_the_score_keeper_keeps_the_haitian_options() -> None:
    """The score-keeper keeps Haitian games (whole engine matches are replayed into
    it in tests/test_keeper_haitian.py): the preset is accepted, and a classic game checking the
    target at once ends the deal when a declaration reaches it (HAITIAN.md H25)."""
    from bezique.keeper import Keeper

    assert Keeper(rules()).rules.name == "haitian"
    k = Keeper(Rules.preset("classic", target_check="immediate"), ["Ann", "Bob"], handicap=[990, 0])
    k.new_deal(turn_up="9H")
    k.declare("Ann", "bezique QS JD")
    assert k.deal is None and k.deals[-1].ended_early and k.winner == 0


# --- the rule facts in the compiled engine ----------------------------------------------------
NO_DEAL = {
    "test_h01_pack_of_132_with_four_jokers",
    "test_h02_nine_cards_in_threes_no_turn_up",  # the deal as dealt: no action
    "test_h22_tie_gives_each_the_bonus",
    "test_h23_majority_scores_and_minority_loses",
    "test_h24_under_200_neither_gains_nor_loses",
    "test_h27_en_bas_table_counts_double",
    "test_h29_scores_never_below_zero",
}
"""The rule facts checked on the scoring functions alone, with no deal played."""


@pytest.mark.skipif(not fast.available(), reason="compiled engine not built")
@pytest.mark.parametrize(("fact", "kwargs"), list(rule_tests(globals(), "test_h")))
def test_rule_facts_in_the_compiled_engine(
    fact: Any, kwargs: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the stacked deals of the rule facts H01-H32 above, each action mirrored in the compiled
    # engine and compared (tests/fast_kit.py)
    assert mirror(fact, kwargs, monkeypatch) > 0 or fact.__name__ in NO_DEAL
