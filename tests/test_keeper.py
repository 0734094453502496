"""The score-keeper for real-card games: the Keeper API, its journal, and `bezique keep`.

Rule tests cite the rule IDs of RULES.md section 5 (C.., T.., Q.., N.., R.., X..).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import bezique.keeper.declarations as declarations
from bezique import Deal, Rules
from bezique.cli import app
from bezique.core import scoring
from bezique.core.match import settle, settle_points
from bezique.keeper import Keeper

runner = CliRunner()


def classic(**options: object) -> Keeper:
    k = Keeper(Rules.preset("classic", **options), ["Ann", "Bob"])
    k.new_deal(turn_up="9H")
    return k


def state(k: Keeper) -> tuple[object, ...]:
    """Everything an entry could change."""
    sheet = k.deals[-1] if k.deals else None
    return (
        len(k.entries),
        k.scores,
        k.winner,
        None if sheet is None else (sheet.totals, sheet.trump, list(sheet.log), sheet.over),
    )


def refused(k: Keeper, fn: object, *words: str) -> str:
    """The entry raises ValueError whose message holds ``words``, and changes nothing."""
    before = state(k)
    with pytest.raises(ValueError) as err:
        fn()  # type: ignore[operator]
    message = str(err.value)
    for w in words:
        assert w in message, (w, message)
    assert state(k) == before
    return message


# --- a deal, scored -------------------------------------------------------------------------------
def test_a_classic_deal_adds_up() -> None:
    # C05 a seven turned up gives the dealer 10; C20 bezique 40; C25 four aces 100;
    # C43 10 a brisque; C42 last trick 10
    k = Keeper(Rules.preset("classic"), ["Ann", "Bob"])
    k.new_deal(turn_up="7H")
    assert k.deals[0].dealer == 0 and k.deal is not None and k.deal.bonuses == [10, 0]
    assert k.declare("Bob", "bezique QS JD") == 40
    assert k.declare("ann", "meld four-aces AS AH AD AC") == 100
    k.tricks("Ann", brisques=9)
    k.tricks(1, 70)
    k.last_trick("Bob")
    sheet = k.end_deal()
    assert sheet.totals == [10 + 100 + 90, 40 + 70 + 10]
    assert k.scores == [200, 120] and k.winner is None and k.deal is None
    k.new_deal(turn_up="KS")  # the deal passes to the left
    assert k.deals[1].dealer == 1 and k.deals[1].trump == "S"


def test_a_royal_marriage_must_be_king_and_queen_of_trumps() -> None:
    # C19 common marriage 20, royal marriage (K+Q of trumps) 40
    k = classic()
    refused(k, lambda: k.declare("Ann", "royal-marriage KS QS"), "royal-marriage", "KH QH")
    refused(k, lambda: k.declare("Ann", "marriage KH QH"), "marriage", "KS QS")
    assert k.declare("Ann", "royal marriage KH QH") == 40  # spaces for hyphens are fine
    assert k.declare("Bob", "marriage KS QS") == 20


def test_melds_that_cannot_exist_get_a_clear_message() -> None:
    k = classic()
    refused(k, lambda: k.declare("Ann", "fourkings KS KH KD KC"), "unknown meld", "four-kings")
    # C26 the sequence is A-10-K-Q-J of trumps
    refused(k, lambda: k.declare("Ann", "trump-sequence AH TH KH QH 9H"), "AH TH KH QH JH")
    # C21 a double bezique is four cards
    refused(k, lambda: k.declare("Ann", "double-bezique QS QS JD"), "QS QS JD JD")
    # C01 two packs: no meld holds three aces of spades
    refused(k, lambda: k.declare("Ann", "four-aces AS AS AS AH"), "only 2 AS")
    # C26 no plain-suit sequence in the classic game
    refused(k, lambda: k.declare("Ann", "plain-sequence AS TS KS QS JS"), "scores nothing")
    refused(k, lambda: k.declare("Ann", "bezique QS"), "do not form a bezique")
    refused(k, lambda: k.declare("Ann", "bezique QS XY"), "not a card")
    refused(k, lambda: k.declare("Ann", "bezique"), "name the cards")
    refused(k, lambda: k.declare("Ann", "carte-blanche"), "scores nothing")


def test_the_same_physical_card_cannot_be_declared_twice_from_the_hand() -> None:
    # C01 two copies of each card: a third queen of spades from a hand cannot exist
    k = classic()
    k.declare("Ann", "bezique QS JD")
    k.declare("Bob", "bezique QS JD")
    refused(k, lambda: k.declare("Ann", "four-queens QS QH QD QC"), "only 2 QS", "QS@table")
    assert k.declare("Ann", "four-queens QS@table QH QD QC") == 60  # C32
    # the turn-up is one of the copies too
    k2 = Keeper(Rules.preset("classic"), ["Ann", "Bob"])
    k2.new_deal(turn_up="QS")
    refused(k2, lambda: k2.declare("Ann", "double-bezique QS QS JD JD"), "under the stock")


def test_bezique_upgrades_to_double_only_with_new_cards() -> None:
    # C22 a double in one go scores 500; C23 single then the second pair: 540 in all;
    # C24 two singles can never become a double
    k = classic()
    assert k.declare("Ann", "double-bezique QS QS JD JD") == 500
    k = classic()
    k.declare("Ann", "bezique QS JD")
    assert k.declare("Ann", "double-bezique QS@table JD@table QS JD") == 500
    assert k.deal is not None and k.deal.melds[0] == 540
    k = classic()
    k.declare("Ann", "bezique QS JD")
    k.declare("Ann", "bezique QS JD")
    refused(
        k,
        lambda: k.declare("Ann", "double-bezique QS@table QS@table JD@table JD@table"),
        "at least one new card",
    )
    # C24 after a double, none of its cards can score a single bezique again
    k = classic()
    k.declare("Ann", "double-bezique QS QS JD JD")
    refused(k, lambda: k.declare("Ann", "bezique QS@table JD"), "already scored in double-bezique")


def test_marriage_and_sequence_reuse() -> None:
    k = classic()
    # C27 a royal marriage later extended to the sequence: 40 + 250
    k.declare("Ann", "royal-marriage KH QH")
    assert k.declare("Ann", "trump-sequence AH TH KH@table QH@table JH") == 250
    assert k.deal is not None and k.deal.melds[0] == 290
    # C28 the K and Q of a sequence may not then make a royal marriage
    refused(k, lambda: k.declare("Ann", "royal-marriage KH@table QH"), "cannot score")
    # C29 a married king cannot marry again
    k.declare("Bob", "marriage KS QS")
    refused(k, lambda: k.declare("Bob", "marriage KS@table QS"), "already scored in marriage")
    # C30 a married king may go into four kings; C32 Q♠ of a marriage into a bezique
    assert k.declare("Bob", "four-kings KS@table KS KD KC") == 80
    assert k.declare("Bob", "bezique QS@table JD") == 40
    # a card written @table must be on that player's table
    refused(k, lambda: k.declare("Bob", "four-jacks JC@table JS JH JD"), "no JC on the table")


def test_a_king_from_four_kings_may_marry_only_by_class() -> None:
    # C31 by-class (default): yes; higher-score-only: no
    k = classic()
    k.declare("Ann", "four-kings KS KH KD KC")
    assert k.declare("Ann", "marriage KS@table QS") == 20
    k = classic(meld_reuse="higher-score-only")
    k.declare("Ann", "four-kings KS KH KD KC")
    refused(k, lambda: k.declare("Ann", "marriage KS@table QS"), "scores more")


def test_the_seven_of_trumps() -> None:
    # C33 the exchange scores 10; C35 only one exchange, the other seven still scores 10
    k = classic()
    refused(k, lambda: k.declare("Ann", "exchange 7S"), "only the 7H")
    assert k.declare("Ann", "exchange 7H") == 10
    assert k.deal is not None and k.deal.log[-1] == "Ann: exchange 7H for 9H +10"
    refused(k, lambda: k.declare("Bob", "exchange 7H"), "only one exchange")
    assert k.declare("Bob", "seven 7H") == 10
    refused(k, lambda: k.declare("Ann", "seven 7H"), "only 2 7H")


def test_greek_turn_up_bonuses() -> None:
    # C52 greek-club: black trump ace +20, red +12, a 7: dealer +10 and opponent -5
    k = Keeper(Rules.preset("greek"), ["Ann", "Bob"])
    for up, bonuses in (("AS", [20, 0]), ("AH", [0, 12]), ("7D", [10, -5])):
        k.new_deal(turn_up=up)
        assert k.deals[-1].bonuses == bonuses, up
        k.last_trick("Ann")
        k.end_deal()
    # carte blanche 250, once a deal
    k.new_deal(turn_up="9C")
    assert k.declare("Bob", "carte-blanche") == 250
    refused(k, lambda: k.declare("Ann", "carte-blanche"), "once a deal")


# --- variants -------------------------------------------------------------------------------------
def test_no_trump_the_first_marriage_fixes_trump() -> None:
    k = Keeper(Rules.preset("no-trump"), ["Ann", "Bob"])
    refused(k, lambda: k.new_deal(turn_up="7H"), "no turn-up")
    k.new_deal()
    # N03 bezique and quartets before trump; no sequence; N01 a plain marriage cannot be yet
    assert k.declare("Ann", "bezique QS JD") == 40
    refused(k, lambda: k.declare("Ann", "trump-sequence AH TH KH QH JH"), "before a marriage")
    refused(k, lambda: k.declare("Ann", "marriage KH QH"), "royal-marriage")
    # N04 the seven of trumps has no value
    refused(k, lambda: k.declare("Ann", "seven 7H"), "scores nothing")
    # N02 the trump-fixing double marriage scores 50
    assert k.declare("Bob", "double-royal-marriage KD KD QD QD") == 50
    assert k.deal is not None and k.deal.trump == "D"
    assert k.declare("Ann", "marriage KH QH") == 20
    refused(k, lambda: k.declare("Ann", "trump-sequence AD TD KD QD JD"), "only 2 KD")
    assert k.declare("Bob", "trump-sequence AD TD KD@table QD@table JD") == 250


def test_rubicon_deal_is_settled_as_a_game() -> None:
    k = Keeper(Rules.preset("rubicon"), ["Ann", "Bob"])
    k.new_deal()
    # R02 the first marriage or sequence fixes trump
    assert k.declare("Ann", "trump-sequence AC TC KC QC JC") == 250
    assert k.deal is not None and k.deal.trump == "C"
    assert k.declare("Bob", "carte-blanche") == 50  # R04
    assert k.declare("Bob", "carte-blanche") == 50  # again, for a non-court card drawn
    assert k.declare("Ann", "plain-sequence AH TH KH QH JH") == 150  # R05
    # R06 re-forming: after a queen is played, three queens and a new one score again
    k.declare("Ann", "four-queens QS QH QD QC")
    assert k.declare("Ann", "four-queens QS@table QH@table QD@table QC") == 60
    k.tricks("Ann", brisques=20)  # brisques only settle (320 in the pack: 32 brisques)
    k.last_trick("Bob")  # R03 last trick 50
    sheet = k.end_deal()
    assert sheet.totals == [250 + 150 + 60 + 60, 100 + 50]
    s = sheet.settlement
    assert s is not None and s.winner == 0 and s.rubicon
    # R08 rubicon: 1000 + both scores + 320; the loser scores nothing
    assert s.payout == (1000 + 520 + 150 + 320, 0)
    assert k.scores == [1990, 0] and k.winner == 0
    refused(k, lambda: k.new_deal(), "the match is over")


@pytest.mark.parametrize(
    ("scores", "brisques", "winner", "payout", "rubicon"),
    [
        # R07 normal win: 500 + the difference
        ((1500, 1200), (0, 0), 0, (800, 0), False),
        # R08 loser under 1000: 1000 + both + 320
        ((1500, 600), (0, 0), 0, (0 + 1000 + 1500 + 600 + 320, 0), True),
        # R09 loser under 100: +100
        ((0, 1200), (0, 0), 1, (0, 1000 + 1200 + 0 + 320 + 100), True),
        # R10 both under 1000: the higher score still wins (a rubicon)
        ((700, 900), (0, 0), 1, (0, 1000 + 900 + 700 + 320), True),
        # brisques lift the loser over the threshold: counted for both, no rubicon
        ((1500, 950), (60, 100), 0, (500 + 1560 - 1050, 0), False),
    ],
)
def test_settle_points_rubicon(
    scores: tuple[int, int],
    brisques: tuple[int, int],
    winner: int,
    payout: tuple[int, int],
    rubicon: bool,
) -> None:
    s = settle_points(Rules.preset("rubicon"), scores, brisques)
    assert (s.winner, s.payout, s.rubicon) == (winner, payout, rubicon)


def test_old_russian_sets_shown_at_once_score_as_in_the_engine() -> None:
    """RULES.md 2.8 / O08: five trump queens from the hand score 176 + 100,
    a fifth added to four shown +100 - the keeper asks the engine's own scoring function."""
    assert vars(declarations)["meld_points"] is scoring.meld_points  # one copy of the rule
    k = Keeper(Rules.preset("old-russian"), ["Ann", "Bob"])
    k.new_deal(turn_up="9H")
    assert k.declare("Ann", "five-trump-queens QH QH QH QH QH") == 276
    assert k.declare("Bob", "four-trump-kings KH KH KH KH") == 88
    assert k.declare("Bob", "six-trump-kings KH@table KH@table KH@table KH@table KH KH") == 150
    assert k.declare("Ann", "bezique QH JD") == 25
    assert k.declare("Ann", "bezique QH JD") == 50  # repeats double (O06)


def test_chinese_game_bonus_and_eight_pack_single_bezique() -> None:
    # X03 chinese: game bonus 1000 instead of 500; carte blanche 250; X04 rubicon 3000, no
    # brisques; decision: no brisque bonus in a chinese rubicon
    rules = Rules.preset("chinese")
    assert settle_points(rules, (3500, 3200), (0, 0)).payout == (1000 + 300, 0)
    assert settle_points(rules, (3500, 2000), (0, 0)).payout == (1000 + 5500, 0)
    k = Keeper(rules, ["Ann", "Bob"])
    k.new_deal()
    assert k.declare("Ann", "carte-blanche") == 250
    refused(k, lambda: k.tricks("Ann", 100), "score nothing")
    k.declare("Bob", "royal-marriage KS QS")
    assert k.declare("Bob", "four-trump-aces AS AS AS AS") == 1000  # X02
    # E02 eight-pack: a single bezique scores 50
    e = Keeper(Rules.preset("eight-pack"), ["Ann", "Bob"])
    e.new_deal()
    assert e.declare("Ann", "bezique QS JD") == 50


def test_settle_of_a_played_deal_is_settle_points_of_its_numbers() -> None:
    # the core's settle(deal) gives what settle_points gives for the deal's own numbers
    deal = Deal.new(Rules.preset("rubicon"), seed=5)
    while not deal.is_over:
        deal.apply(deal.legal_actions()[0])
    assert deal.result is not None
    plain = settle_points(
        deal.rules, [r.total for r in deal.result], [r.brisques for r in deal.result]
    )
    assert settle(deal) == plain


def test_three_handed_target_and_triple_bezique() -> None:
    # T02 target 1500; T03 triple bezique 1500
    k = Keeper(Rules.preset("three"), ["Ann", "Bob", "Cy"])
    k.new_deal(turn_up="9C")
    assert k.declare("Cy", "triple-bezique QS QS QS JD JD JD") == 1500
    k.last_trick("Ann")
    k.end_deal()
    assert k.winner == 2
    # three packs: a fourth queen of spades from the hand cannot exist
    k2 = Keeper(Rules.preset("three"), ["Ann", "Bob", "Cy"])
    k2.new_deal(turn_up="9C")
    k2.declare("Ann", "triple-bezique QS QS QS JD JD JD")
    refused(k2, lambda: k2.declare("Bob", "bezique QS JD"), "only 3 QS")


def test_partners_score_together() -> None:
    # Q02 partners share a score; Q04 the last trick goes to the partnership
    k = Keeper(Rules.preset("four"), ["Ann", "Bob", "Cy", "Dee"])
    assert k.side_names == ["Ann & Cy", "Bob & Dee"]
    k.new_deal(turn_up="9C")
    k.declare("Ann", "bezique QS JD")
    k.declare("Cy", "four-aces AS AH AD AC")
    k.tricks("Cy", brisques=14)
    k.tricks("Dee", brisques=10)
    refused(k, lambda: k.tricks("Bob", brisques=11), "too many")  # 24 brisques in 3 packs
    k.last_trick("Cy")
    assert k.end_deal().totals == [40 + 100 + 140 + 10, 100]


# --- the target -----------------------------------------------------------------------------------
def test_both_reach_the_target_the_last_trick_decides() -> None:
    # C45 checked at the end of a deal; both over 1000: the taker of the last trick wins
    k = Keeper(Rules.preset("classic"), ["Ann", "Bob"])
    k.new_deal(turn_up="9H")
    k.declare("Ann", "double-bezique QS QS JD JD")
    k.declare("Ann", "trump-sequence AH TH KH QH JH")
    k.declare("Ann", "four-aces AS AH AD AC")
    k.declare("Ann", "four-kings KS KH KD KC")
    k.declare("Ann", "four-queens QS@table QH QD QC")
    k.declare("Ann", "four-jacks JS JH JD@table JC")
    assert k.running == [1030, 0] and k.winner is None  # not before the deal ends
    k.last_trick("Bob")
    k.end_deal()
    assert k.winner == 0
    k = Keeper(Rules.preset("classic", target=300), ["Ann", "Bob"])
    k.new_deal(turn_up="9H")
    k.declare("Ann", "double-bezique QS QS JD JD")
    k.declare("Bob", "trump-sequence AH TH KH QH JH")
    k.declare("Bob", "four-aces AS AH AD AC")
    k.last_trick("Bob")
    k.end_deal()
    assert k.scores == [500, 360] and k.winner == 1
    k.undo()
    k.undo()
    k.last_trick("Ann")
    k.end_deal()
    assert k.winner == 0


# --- penalties ----------------------------------------------------------------------------------
def test_russian_penalties() -> None:
    k = Keeper(Rules.preset("russian"), ["Ann", "Bob"])
    k.new_deal(turn_up="9C")
    k.declare("Ann", "bezique QS JD")
    k.tricks("Ann", 120)
    k.last_trick("Ann")
    k.end_deal()
    assert k.scores == [170, 0]
    k.new_deal(turn_up="9S")
    k.declare("Ann", "marriage KH QH")
    assert k.penalty("Bob", "extra-card") == -50  # C47
    assert k.penalty("Bob", "early-declaration") == -10
    assert k.penalty("Bob", "revoke") == -20
    assert k.penalty("Bob", "lead-before-drawing") == -30
    assert k.penalty("Bob", "nine-cards") == -120
    assert k.running == [190, -230]
    # C48 a false declaration resets the offender's whole score (the match total) to 0
    k.penalty("Ann", "false-declaration")
    assert k.running == [0, -230]
    k.declare("Ann", "four-jacks JS JH JD JC")
    assert k.running == [40, -230]
    refused(k, lambda: k.penalty("Ann", "revok"), "did you mean 'revoke'")
    refused(k, lambda: k.penalty("Ann", "revoke", points=30), "fixed amount")


def test_victorian_penalties() -> None:
    k = classic(penalty_scheme="victorian")
    # C49 more than 8 cards: the opponent scores 100
    assert k.penalty("Ann", "too-many-cards") == 100
    assert k.penalty("Ann", "failed-to-draw") == 10
    refused(k, lambda: k.penalty("Bob", "revoke"), "enter their points")
    assert k.penalty("Bob", "revoke", points=60) == 60
    assert k.deal is not None and k.deal.penalties == [60, 110]
    refused(k, lambda: k.penalty("Bob", "revoke", 60, to="Bob"), "offender's side")
    refused(k, lambda: k.penalty("Bob", "extra-card"), "victorian offences")


def test_no_penalties_without_a_scheme() -> None:
    k = classic()
    refused(k, lambda: k.penalty("Ann", "revoke"), "penalty_scheme=none")


# --- bad entries, undo ----------------------------------------------------------------------------
def test_bad_entries_raise_and_change_nothing() -> None:
    k = Keeper(Rules.preset("classic"), ["Ann", "Bob"])
    refused(k, lambda: k.declare("Ann", "bezique QS JD"), "no deal in progress")
    refused(k, lambda: k.new_deal(), "turn up a card")
    refused(k, lambda: k.new_deal(turn_up="ZZ"), "not a card")
    k.new_deal(turn_up="9H")
    refused(k, lambda: k.new_deal(turn_up="9S"), "not over yet")
    refused(k, lambda: k.declare("Zed", "bezique QS JD"), "unknown player 'Zed'", "Ann (0)")
    refused(k, lambda: k.declare(5, "bezique QS JD"), "unknown seat 5")
    refused(k, lambda: k.tricks("Ann", -10), "negative")
    refused(k, lambda: k.tricks("Ann", brisques=-1), "negative")
    refused(k, lambda: k.tricks("Ann", 15), "tens")
    refused(k, lambda: k.tricks("Ann", brisques=17), "160")
    k.tricks("Ann", brisques=10)
    refused(k, lambda: k.tricks("Bob", brisques=7), "100 are entered")
    refused(k, lambda: k.end_deal(), "last trick")
    k.last_trick("Ann")
    k.end_deal()
    refused(k, lambda: k.tricks("Ann", 10), "no deal in progress")
    k2 = Keeper(Rules.preset("classic", target=100), ["Ann", "Bob"])
    k2.new_deal(turn_up="9H")
    k2.declare("Ann", "four-aces AS AH AD AC")
    k2.last_trick("Ann")
    k2.end_deal()
    assert k2.winner == 0
    refused(k2, lambda: k2.new_deal(turn_up="9S"), "the match is over: Ann won")
    with pytest.raises(ValueError, match="needs 2 players"):
        Keeper(Rules.preset("classic"), ["Ann"])
    with pytest.raises(ValueError, match="must differ"):
        Keeper(Rules.preset("classic"), ["Ann", "ann"])


def test_undo_takes_back_the_last_entry() -> None:
    k = classic()
    k.declare("Ann", "bezique QS JD")
    k.declare("Bob", "four-aces AS AH AD AC")
    assert k.undo() == "Bob declares four-aces AS AH AD AC"
    assert k.deal is not None and k.deal.totals == [40, 0]
    k.undo()
    k.undo()
    assert k.deals == []
    with pytest.raises(ValueError, match="nothing to undo"):
        k.undo()


# --- the journal ----------------------------------------------------------------------------------
def test_every_entry_is_in_the_journal_and_resume_rebuilds_the_state(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    k = Keeper(Rules.preset("classic", target=300), ["Ann", "Bob"], path)
    k.new_deal(turn_up="7H")
    k.declare("Ann", "bezique QS JD")
    with pytest.raises(ValueError):
        k.declare("Ann", "bezique QS")  # a refused entry is not written
    k.declare("Bob", "four-aces AS AH AD AC")
    k.undo()
    k.declare("Bob", "four-kings KS KH KD KC")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6  # header, 4 entries, 1 undo
    assert json.loads(lines[0])["rules"] == "classic(target=300)"
    again = Keeper.resume(path)
    assert again.warnings == []
    assert again.players == ["Ann", "Bob"] and str(again.rules) == "classic(target=300)"
    assert again.deal is not None and again.deal.totals == [50, 80]
    assert again.entries == k.entries
    again.tricks("Ann", brisques=10)
    again.last_trick("Ann")
    again.end_deal()
    assert Keeper.resume(path).scores == [160, 80]
    with pytest.raises(ValueError, match="already exists"):
        Keeper(Rules.preset("classic"), ["Ann", "Bob"], path)


def test_a_line_cut_short_by_a_crash_is_reported_and_dropped(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    k = Keeper(Rules.preset("classic"), ["Ann", "Bob"], path)
    k.new_deal(turn_up="7H")
    k.declare("Ann", "bezique QS JD")
    with path.open("a", encoding="utf-8") as f:
        f.write('{"type": "declare", "seat": 1, "te')
    again = Keeper.resume(path)
    assert len(again.warnings) == 1 and "cut short" in again.warnings[0]
    assert again.deal is not None and again.deal.totals == [50, 0]
    again.declare("Bob", "bezique QS JD")  # the journal goes on cleanly
    third = Keeper.resume(path)
    assert third.warnings == [] and third.deal is not None and third.deal.totals == [50, 40]


def test_a_damaged_journal_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    Keeper(Rules.preset("classic"), ["Ann", "Bob"], path).new_deal(turn_up="7H")
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], "garbage", lines[1]]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        Keeper.resume(path)
    path.write_text('{"hello": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a score-keeper journal"):
        Keeper.resume(path)
    with pytest.raises(ValueError, match="cannot read"):
        Keeper.resume(tmp_path / "missing.jsonl")


# --- bezique keep -----------------------------------------------------------------------------------
def keep(*args: str, input: str) -> tuple[int, str]:
    result = runner.invoke(app, ["keep", *args], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_keep_scripted_with_bad_entries(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    lines = [
        "help",
        "deal",  # no turn-up: an error
        "deal 7H",
        "Ann bezique QS JD",
        "Ann bezique QS",  # not a bezique
        "Zed tricks 10",  # nobody
        "Bob brisques lots",  # not a number
        "Bob four aces AS AH AD AC",
        "ann brisques 9",
        "bob tricks 70",
        "melds",
        "penalties",
        "bob last",
        "end",
        "sheet",
        "quit",
    ]
    code, out = keep(
        "--players", "Ann,Bob", "--journal", str(journal), input="\n".join(lines) + "\n"
    )
    assert code == 0
    for words in (
        "NAME bezique QS JD",
        "these rules turn up a card",
        "do not form a bezique",
        "unknown player 'Zed'",
        "'lots' is not a whole number",
        "Ann scores 40",
        "four-aces",
        "Score sheet",
        "+140 = 140",
        "+180 = 180",
        "No penalties in these rules",
        "bezique keep --resume",
    ):
        assert words in out, words
    assert Keeper.resume(journal).scores == [140, 180]


def test_keep_rubicon_shows_the_settlement(tmp_path: Path) -> None:
    journal = tmp_path / "r.jsonl"
    lines = ["deal", "Ann royal-marriage KH QH", "Bob brisques 10", "Ann last", "end"]
    code, out = keep(
        "--variant",
        "rubicon",
        "--players",
        "Ann,Bob",
        "--journal",
        str(journal),
        input="\n".join(lines) + "\n",
    )
    assert code == 0
    # R08 R09: 1000 + 90 + 0 + 320 + 100 (Bob under 100)
    assert "Ann wins with a rubicon" in out and "= 1510" in out
    assert "Ann wins the match with 1510" in out


def test_keep_argument_errors(tmp_path: Path) -> None:
    code, out = keep("--players", "Ann", "--journal", str(tmp_path / "a.jsonl"), input="")
    assert code == 2 and "needs 2 players" in out
    code, out = keep("--players", "Ann,end", "--journal", str(tmp_path / "b.jsonl"), input="")
    assert code == 2 and "it is a command" in out
    code, out = keep("--resume", str(tmp_path / "none.jsonl"), input="")
    assert code == 2 and "cannot read" in out
    code, out = keep("--resume", "x.jsonl", "--variant", "rubicon", input="")
    assert code == 2 and "leave out" in out
    code, out = keep("--variant", "nosuch", input="")
    assert code == 2 and "unknown preset" in out


def test_keep_killed_mid_match_then_resumed(tmp_path: Path) -> None:
    journal = tmp_path / "k.jsonl"
    env = {**os.environ, "COLUMNS": "100"}
    command = [sys.executable, "-m", "bezique.cli", "keep", "--players", "Ann,Bob"]
    command += ["--journal", str(journal), "--option", "target=150"]
    proc = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=tmp_path,
        env=env,
    )
    assert proc.stdin is not None
    proc.stdin.write(b"deal 7H\nAnn bezique QS JD\nBob four-aces AS AH AD AC\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if journal.exists() and len(journal.read_text(encoding="utf-8").splitlines()) >= 4:
            break
        time.sleep(0.05)
    proc.kill()  # no goodbye, no clean exit
    proc.wait(timeout=10)
    assert proc.returncode != 0
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 4
    lines = ["sheet", "Ann brisques 10", "Ann last", "end"]
    code, out = keep("--resume", str(journal), input="\n".join(lines) + "\n")
    assert code == 0
    assert "(50)" in out and "(100)" in out  # the deal in progress, as it was
    assert "Ann wins the match with 160" in out
