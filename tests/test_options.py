"""The two-handed rule options of RULES.md (sections 2.1, 3 and 4.1), one effect each.

Each test's docstring names the rule or decision the option comes from.  Deals are stacked with
:func:`build` (the cards a test cares about; the rest of the pack is filled in, low plain cards
first).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bezique import Deal, Match, Rules
from classic_kit import (  # the same small kit of stacked-deal helpers
    PACK,
    RANKS,
    assert_illegal,
    build,
    card,
    legal,
    meld,
    melds,
    play_random,
    settle,
    trick,
)


def plays(deal: Deal) -> set[str]:
    return {card(a) for a in legal(deal)}


def has_meld(deal: Deal, kind: str, cards: str) -> bool:
    want = sorted(cards.split())
    return any(sorted(card(c) for c in a.split()[2:]) == want for a in melds(deal, kind))


class Stage1:
    """Seat 0 wins all 24 stage-1 tricks with cards nobody needs, keeping ``keep0`` and drawing
    ``last0`` last; seat 1 keeps ``keep1`` and takes the turn-up ``up``."""

    def __init__(
        self, keep0: list[str], last0: str, keep1: list[str], up: str, **options: object
    ) -> None:
        trump = up[1]
        left = Counter({c: 2 for c in PACK})
        left.subtract([*keep0, last0, *keep1, up])
        assert all(n >= 0 for n in left.values())
        rest = sorted(
            left.elements(), key=lambda c: (c[1] == trump, -RANKS.index(c[0]), c), reverse=True
        )
        self.h, self.v = rest[:24], rest[24:]
        stock = [c for pair in zip(self.h[1:], self.v[1:], strict=True) for c in pair] + [last0]
        rules = Rules.preset("classic", **options)
        self.deal = Deal.from_cards(
            rules, [[*keep0, self.h[0]], [*keep1, self.v[0]]], up, stock, dealer=1
        )

    def play(self, upto: int = 24) -> Deal:
        deal = self.deal
        while deal.tricks_played < upto:
            n = deal.tricks_played
            deal.apply("play " + self.h[n])
            deal.apply("play " + self.v[n])
            assert deal.last_trick_winner == 0
            settle(deal)
        return deal


# --- meld_reuse (RULES.md 2.1.3, D16, decision 1) ------------------------------------------------

# (name, hand, first meld, second meld, allowed by-class, allowed higher-score-only).
# The hand holds 7C so that "meld seven" keeps the declaration open when the second meld is
# refused; the first trick is won with 9D and the second with the cheapest card.
REUSE_CASES = [
    (
        "four-kings then marriage",
        "KS KH KD KC QH",
        ("four-kings", "KS KH KD KC"),
        ("marriage", "KH QH"),
        True,
        False,
    ),
    (
        "marriage then four-kings",
        "KH QH KS KD KC",
        ("marriage", "KH QH"),
        ("four-kings", "KS KH KD KC"),
        True,
        True,
    ),
    (
        "bezique then four-queens",
        "QS JD QH QD QC",
        ("bezique", "QS JD"),
        ("four-queens", "QS QH QD QC"),
        True,
        True,
    ),
    (
        "four-queens then bezique",
        "QS JD QH QD QC",
        ("four-queens", "QS QH QD QC"),
        ("bezique", "QS JD"),
        True,
        False,
    ),
    (
        "bezique then four-jacks (equal score)",
        "QS JD JS JH JC",
        ("bezique", "QS JD"),
        ("four-jacks", "JS JH JD JC"),
        True,
        False,
    ),
    (
        "four-queens then spade marriage",
        "QS QH QD QC KS",
        ("four-queens", "QS QH QD QC"),
        ("marriage", "KS QS"),
        True,
        False,
    ),
    (
        "royal marriage then sequence",
        "KC QC AC TC JC",
        ("royal-marriage", "KC QC"),
        ("trump-sequence", "AC TC KC QC JC"),
        True,
        True,
    ),
]
SCORES = {
    "marriage": 20,
    "four-kings": 80,
    "four-queens": 60,
    "bezique": 40,
    "four-jacks": 40,
    "trump-sequence": 250,
}


@pytest.mark.parametrize("reuse", ["by-class", "higher-score-only"])
@pytest.mark.parametrize(
    ("name", "hand", "first", "second", "by_class", "higher_only"),
    REUSE_CASES,
    ids=[c[0] for c in REUSE_CASES],
)
def test_meld_reuse(
    reuse: str,
    name: str,
    hand: str,
    first: tuple[str, str],
    second: tuple[str, str],
    by_class: bool,
    higher_only: bool,
) -> None:
    """meld_reuse (RULES.md 2.1.3, D16, decision 1): by-class lets a card score again in another
    class and upward within its class; higher-score-only only in a meld of another kind that
    scores more."""
    deal = build([*hand.split(), "7C", "9D"], [], "8C", meld_reuse=reuse)
    trick(deal, 0, "9D")
    meld(deal, *first)
    trick(deal, 0)
    assert deal.phase == "declare"
    allowed = by_class if reuse == "by-class" else higher_only
    assert has_meld(deal, *second) == allowed
    if allowed:
        before = deal.points[0]
        meld(deal, *second)
        assert deal.points[0] == before + SCORES[second[0]]
    else:
        assert_illegal(deal, f"meld {second[0]} {second[1]}")


def test_meld_reuse_sequence_king_into_four_kings() -> None:
    """meld_reuse (RULES.md 2.1.3, D16): a king of a trump sequence (250) may join four kings
    (80) by class, but not under higher-score-only (80 is less)."""
    for reuse, ok in (("by-class", True), ("higher-score-only", False)):
        deal = build(
            ["AC", "TC", "KC", "QC", "JC", "KS", "KH", "9D"],
            [],
            "8C",
            stock=["KD"],
            meld_reuse=reuse,
        )
        trick(deal, 0, "9D")
        deal.apply("meld trump-sequence AC TC KC QC JC")
        trick(deal, 0, "TC")  # lead the ten of the sequence; the kings stay
        assert has_meld(deal, "four-kings", "KS KH KD KC") == ok
        if not ok:
            assert_illegal(deal, "meld four-kings KS KH KD KC")


def test_meld_reuse_default_is_by_class() -> None:
    """Decision 1 (RULES.md 6): meld_reuse defaults to by-class."""
    assert Rules.preset("classic").meld_reuse == "by-class"


# --- distinct ways to form a meld (DESIGN.md, action notation) --------------------------------


def test_same_meld_from_different_copies_is_listed_twice() -> None:
    """DESIGN.md: two ways to form the same meld that leave different cards free are two
    actions.  With one Q♠ on the table from a bezique and one concealed, four queens may use
    either."""
    deal = build(["QS", "JD", "QS", "QH", "QD", "QC", "9D"], [], "8H")
    trick(deal, 0, "9D")
    deal.apply("meld bezique QS JD")
    trick(deal, 0)
    four = melds(deal, "four-queens")
    with_table = "meld four-queens QS@table QH QD QC"
    concealed = "meld four-queens QS QH QD QC"
    assert with_table in four and concealed in four
    a, b = deal.clone(), deal.clone()
    a.apply(with_table)
    b.apply(concealed)
    assert a.points == b.points == [100, 0]
    assert a.table(0).count("QS") == 1  # the concealed Q♠ stays free
    assert b.table(0).count("QS") == 2
    assert a.position() != b.position()


# --- seven of trumps (RULES.md 2.1.2, D10, D11, decision 2) -------------------------------------


def test_seven_exchange_counts_as_meld_off() -> None:
    """seven_exchange_counts_as_meld=false (RULES.md 2.1.2, D10, [EW]): the exchange leaves the
    trick's declaration free, in either order."""
    for first, second in (
        ("exchange 7C", "meld bezique QS JD"),
        ("meld bezique QS JD", "exchange 7C"),
    ):
        deal = build(["7C", "QS", "JD", "9D"], [], "KC", seven_exchange_counts_as_meld=False)
        trick(deal, 0, "9D")
        deal.apply(first)
        assert deal.phase == "declare"
        assert second in legal(deal)
        deal.apply(second)
        assert deal.points == [50, 0]
        assert deal.turn_up == "7C"


def test_seven_exchange_counts_as_meld_on() -> None:
    """seven_exchange_counts_as_meld=true (default, RULES.md 2.1.2, D10, 000-A l.55)."""
    deal = build(["7C", "QS", "JD", "9D"], [], "KC")
    trick(deal, 0, "9D")
    deal.apply("exchange 7C")
    assert deal.phase == "play" and deal.points == [10, 0]
    assert_illegal(deal, "meld bezique QS JD")


def _seven_events(deal: Deal) -> list[tuple[int, int, str, int]]:
    return [e for e in deal.events if "7C" in e[2]]


def test_second_seven_scores_declare() -> None:
    """second_seven_scores=declare (default, D11, decision 2): the 7 scores when declared after
    winning a trick; playing it scores nothing."""
    deal = build(["7C", "9D"], ["9C"], "KC")
    trick(deal, 0, "9D")
    assert "meld seven 7C" in legal(deal)
    deal.apply("pass")
    trick(deal, 1, "7C", "9C")
    assert deal.points == [0, 0] and _seven_events(deal) == []


def test_second_seven_scores_play() -> None:
    """second_seven_scores=play (D11, 002 overview, 003, [EW]): a 7 of trumps played to a
    stage-1 trick scores 10 for its player, win or lose; it cannot be declared."""
    deal = build(["7C", "9D"], ["9C", "7C"], "KC", second_seven_scores="play")
    trick(deal, 0, "9D")
    assert melds(deal, "seven") == []
    assert "exchange 7C" in legal(deal)  # the exchange still scores
    assert_illegal(deal, "meld seven 7C")
    settle(deal)
    trick(deal, 1, "7C", "9C")  # led and lost
    assert deal.points == [10, 0]
    settle(deal)
    trick(deal, 1, "7C")  # seat 1 leads its own seven and wins
    assert deal.points == [10, 10]
    assert [e[2] for e in _seven_events(deal)] == ["seven played 7C"] * 2


def test_second_seven_scores_play_not_in_stage_2() -> None:
    """second_seven_scores=play (RULES.md 2.1.2: in stage 2 the 7 of trumps scores nothing)."""
    keep0 = ["7C", "AS", "TS", "KS", "QS", "JS", "9S"]
    keep1 = ["8H", "7H", "AH", "AD", "TD", "QH", "7D"]
    deal = Stage1(keep0, "8D", keep1, "9C", second_seven_scores="play").play()
    assert deal.stage == 2
    events = len(deal.events)
    deal.apply("play 7C")
    while not deal.is_over:
        deal.apply(legal(deal)[0])
    assert [e[2] for e in deal.events[events:]] == ["last trick"]


def test_second_seven_scores_win_trick() -> None:
    """second_seven_scores=win-trick (D11, 000-A l.57, l.61): the 7 of trumps scores 10 only when
    it wins a stage-1 trick."""
    deal = build(["7C", "7C", "9D"], ["9C", "8D"], "KC", second_seven_scores="win-trick")
    trick(deal, 0, "9D")
    assert melds(deal, "seven") == []
    settle(deal)
    trick(deal, 1, "7C", "9C")  # over-trumped: nothing
    assert deal.points == [0, 0]
    trick(deal, 1, follow="TC" if "TC" in deal.hand(1) else None)
    settle(deal)
    # seat 1 leads; seat 0 trumps with the other seven and wins the trick with it
    lead = next(a for a in legal(deal) if card(a)[1] not in "C")
    deal.apply(lead)
    deal.apply("play 7C")
    assert deal.last_trick_winner == 0
    assert deal.points == [10, 0]
    assert _seven_events(deal) == [(4, 0, "seven won 7C", 10)]


# --- stage duties (D6, D18, decision 6) ------------------------------------------------------


def _stage2(keep0: list[str], keep1: list[str], **options: object) -> Deal:
    deal = Stage1(keep0, "8D", keep1, "9C", **options).play()
    assert deal.stage == 2 and deal.to_move == 0
    return deal


def test_stage2_must_head_off() -> None:
    """stage2_must_head=false (D18, decision 6; 001, 000-C): follow suit and trump when void, but
    no duty to win."""
    keep0 = ["KH", "9S", "KD", "QD", "JS", "8S", "7S"]
    keep1 = ["8H", "AH", "KC", "AS", "TS", "JD", "7D"]
    deal = _stage2(keep0, keep1, stage2_must_head=False)
    deal.apply("play KH")
    assert plays(deal) == {"8H", "AH"}
    assert_illegal(deal, "play KC")
    deal = _stage2(keep0, keep1)  # default: must head
    deal.apply("play KH")
    assert plays(deal) == {"AH"}
    assert_illegal(deal, "play 8H")


def test_stage2_must_head_off_still_must_trump() -> None:
    """stage2_must_head=false (D18): a follower void in the suit led must still trump."""
    keep1 = ["KC", "8H", "AH", "AD", "TD", "QH", "7D"]
    deal = _stage2(["9S", "AS", "KD", "QD", "JS", "8S", "7S"], keep1, stage2_must_head=False)
    deal.apply("play 9S")
    assert plays(deal) == {"KC", "9C"}
    assert_illegal(deal, "play 7D")


def test_stage1_must_follow_suit() -> None:
    """stage1_must_follow_suit=true (D6, seed 001): while the stock lasts the follower must
    follow suit if able, with no duty to win or to trump."""
    villain = ["AH", "8H", "7S", "8D", "9C", "TS", "JD", "QC"]
    deal = build(["9H"], villain, "8C", stage1_must_follow_suit=True)
    deal.apply("play 9H")
    assert plays(deal) == {"AH", "8H"}
    assert_illegal(deal, "play 7S")
    assert_illegal(deal, "play 9C")
    deal.apply("play 8H")
    assert deal.last_trick_winner == 0
    settle(deal)
    # void in the suit led: any card, a plain discard included
    deal = build(
        ["9H"], ["7S", "8D", "9C", "TS", "JD", "QC", "9D", "7D"], "8C", stage1_must_follow_suit=True
    )
    deal.apply("play 9H")
    assert plays(deal) == {"7S", "8D", "9C", "TS", "JD", "QC", "9D", "7D"}
    deal.apply("play 7S")
    # default: any card even holding the suit
    deal = build(["9H"], villain, "8C")
    deal.apply("play 9H")
    assert plays(deal) == set(villain)


# --- trick scoring and its timing (D2, decision 9) ------------------------------------------


@pytest.mark.parametrize(
    ("scoring", "value"),
    [("brisques", 10), ("card-points", 15), ("greek-per-trick", 20), ("none", 0)],
)
def test_trick_scoring_one_trick(scoring: str, value: int) -> None:
    """trick_scoring (D2; decision 9): A♥ and K♥ won are worth 10 in brisques, 11 + 4 in card
    points, 10 for the trick + 10 for the ace in greek-per-trick, 0 under none."""
    deal = build(["AH"], ["KH"], "8C", trick_scoring=scoring, brisque_timing="immediate")
    trick(deal, 0, "AH", "KH")
    assert deal.points == [value, 0]


@pytest.mark.parametrize(
    ("scoring", "total"),
    [("brisques", 160), ("card-points", 240), ("greek-per-trick", 480), ("none", 0)],
)
def test_trick_scoring_whole_deal(scoring: str, total: int) -> None:
    """trick_scoring (D2): per hand, brisques 160, card points 240, greek-per-trick 32 x 10 +
    160 = 480, none 0."""
    for seed in range(4):
        deal = Deal.new(Rules.preset("classic", trick_scoring=scoring), seed=seed)
        play_random(deal, seed)
        result = deal.result
        assert result is not None
        assert sum(r.tricks for r in result) == total
        assert sum(r.last_trick for r in result) == 10


def _trick_points_so_far(deal: Deal) -> list[int]:
    won = [0, 0]
    for _, cards, w in deal.observation(None).tricks:
        won[w] += 10 * sum(1 for c in cards if c[0] in "AT")
    return won


def _event_points(deal: Deal) -> list[int]:
    pts = [0, 0]
    for _, seat, _, p in deal.events:
        pts[seat] += p
    return pts


@pytest.mark.parametrize("timing", ["end-of-hand", "immediate"])
def test_brisque_timing(timing: str) -> None:
    """brisque_timing (D2; [P] scores each brisque as it is won): end-of-hand adds brisques only
    when the hand ends; immediate adds them as tricks are won.  The total is the same."""
    rules = Rules.preset("classic", brisque_timing=timing)
    deal = Deal.new(rules, seed=11)
    rng = random.Random(11)
    saw_brisque = False
    while not deal.is_over:
        expect = _event_points(deal)
        if timing == "immediate":
            expect = [e + t for e, t in zip(expect, _trick_points_so_far(deal), strict=True)]
        saw_brisque |= any(_trick_points_so_far(deal))
        assert deal.points == expect
        deal.apply(rng.choice(deal.legal_actions()))
    assert saw_brisque
    result = deal.result
    assert result is not None
    assert deal.points == [r.total for r in result]
    assert sum(r.tricks for r in result) == 160
    assert Rules.preset("classic").brisque_timing == "end-of-hand"


def test_greek_per_trick_is_scored_when_won() -> None:
    """Decision 9 (RULES.md 6): greek-per-trick points are scored when the trick is won, even with
    brisque_timing=end-of-hand."""
    deal = build(["AH"], ["KH"], "8C", trick_scoring="greek-per-trick")
    trick(deal, 0, "AH", "KH")
    assert deal.points == [20, 0]


@pytest.mark.parametrize("bonus", [250, 10, 0])
def test_last_trick_bonus(bonus: int) -> None:
    """last_trick_bonus (D3; 000-A l.81 gives 250, the default is 10)."""
    deal = Deal.new(Rules.preset("classic", last_trick_bonus=bonus), seed=2)
    play_random(deal, 2)
    w = deal.last_trick_winner
    assert [r.last_trick for r in deal.result] == [bonus if s == w else 0 for s in (0, 1)]  # type: ignore[union-attr]
    assert any(e[2] == "last trick" for e in deal.events) == (bonus > 0)


# --- declaring (D8, D9) ----------------------------------------------------------------------


def test_min_tricks_before_declaring() -> None:
    """min_tricks_before_declaring=4 (D8, seed 001: 'only after taking 4 tricks'): no declaration
    on a player's first three tricks; from the fourth trick he has won, he may declare.  This
    reads the rule as counting the trick just won."""
    deal = build(["QS", "JD"], [], "8C", min_tricks_before_declaring=4)
    for n in range(1, 4):
        trick(deal, 0)
        assert deal.phase == "play" and deal.stock_size == 47 - 2 * n
        assert_illegal(deal, "meld bezique QS JD")
    trick(deal, 0)
    assert deal.phase == "declare"
    deal.apply("meld bezique QS JD")
    assert deal.points == [40, 0]
    # default 0: declaring from the first trick
    deal = build(["QS", "JD"], [], "8C")
    trick(deal, 0)
    assert deal.phase == "declare"


def test_min_tricks_before_declaring_counts_each_players_tricks() -> None:
    """min_tricks_before_declaring=4 (D8): the count is the declaring player's own tricks."""
    deal = build(["TS"], ["QS", "JD", "AS"], "8C", min_tricks_before_declaring=4)
    for _ in range(4):
        trick(deal, 0)
        settle(deal)
    # seat 1 wins its first trick: no declaration, though four tricks have been played
    trick(deal, 1, "TS", "AS")
    assert deal.phase == "play" and deal.to_move == 1


def test_melds_scored_per_trick_two() -> None:
    """melds_scored_per_trick=2 (D9, 002: 'one, or several depending on local rules'): two melds
    score on one trick, a third waits."""
    deal = build(
        ["QS", "JD", "KH", "QH", "JS", "JH", "JC", "9D"], [], "8C", melds_scored_per_trick=2
    )
    trick(deal, 0, "9D")
    deal.apply("meld bezique QS JD")
    assert deal.phase == "declare"
    deal.apply("meld marriage KH QH")
    assert deal.phase == "play" and deal.points == [60, 0]
    assert_illegal(deal, "meld four-jacks JS JH JD JC")
    trick(deal, 0)
    meld(deal, "four-jacks", "JS JH JD JC")
    assert deal.points == [100, 0]


# --- extra melds (D12-D15) ---------------------------------------------------------------------


def test_two_trump_sevens() -> None:
    """two_trump_sevens (D12; 001 l.26, 000-E l.231): both 7s of trumps together score 20."""
    deal = build(["7C", "7C", "9D"], [], "KC", two_trump_sevens=True)
    trick(deal, 0, "9D")
    assert "meld two-sevens 7C 7C" in legal(deal)
    deal.apply("meld two-sevens 7C 7C")
    assert deal.points == [20, 0]
    deal = build(["7C", "7C", "9D"], [], "KC")
    trick(deal, 0, "9D")
    assert_illegal(deal, "meld two-sevens 7C 7C")


def test_double_marriage() -> None:
    """double_marriage (D13; 001 l.29, l.34, 000-E l.234-235): K K Q Q of a plain suit as one
    meld 40, of trumps 80."""
    hand = ["KH", "KH", "QH", "QH", "KC", "KC", "QC", "9D"]
    deal = build(hand, [], "8C", stock=["QC"], double_marriage=True)
    trick(deal, 0, "9D")
    deal.apply("meld double-marriage KH KH QH QH")
    trick(deal, 0)
    deal.apply("meld double-royal-marriage KC KC QC QC")
    assert deal.points == [120, 0]
    deal = build(hand, [], "8C", stock=["QC"])
    trick(deal, 0, "9D")
    assert_illegal(deal, "meld double-marriage KH KH QH QH")
    assert melds(deal, "marriage") == ["meld marriage KH QH"]


def test_plain_sequence() -> None:
    """plain_sequence (D14; 001, 000-E l.242): A-10-K-Q-J of a plain suit scores 100, also as an
    extension of that suit's marriage."""
    hand = ["AH", "TH", "KH", "QH", "JH", "9D"]
    deal = build(hand, [], "8C", plain_sequence=True)
    trick(deal, 0, "9D")
    deal.apply("meld plain-sequence AH TH KH QH JH")
    assert deal.points == [100, 0]
    deal = build(hand, [], "8C", plain_sequence=True)
    trick(deal, 0, "9D")
    deal.apply("meld marriage KH QH")
    trick(deal, 0)
    deal.apply("meld plain-sequence AH TH KH QH JH")
    assert deal.points == [120, 0]
    deal = build(hand, [], "8C")
    trick(deal, 0, "9D")
    assert_illegal(deal, "meld plain-sequence AH TH KH QH JH")


def test_carte_blanche_after_the_deal() -> None:
    """carte_blanche (D15; 000-A l.39-43): a hand without K, Q or J scores 250, shown; found
    right after the deal it goes to the non-dealer first."""
    blank = ["AS", "TS", "9S", "AH", "TH", "9H", "9D", "8S"]
    deal = build(blank, ["KH", "QD"], "8C", carte_blanche=True)
    assert deal.events == [(0, 0, "carte blanche", 250)] and deal.points == [250, 0]
    assert sorted(deal.observation(1).known[0]) == sorted(blank)
    # both hands blank: the non-dealer (here seat 1) scores it, once
    deal = build(
        blank, ["7S", "8H", "7H", "7D", "8D", "9C", "AD", "TC"], "8C", dealer=0, carte_blanche=True
    )
    assert deal.events == [(0, 1, "carte blanche", 250)]
    # off by default
    assert build(blank, ["KH"], "8C").events == []


def test_carte_blanche_after_a_draw_first_time_only() -> None:
    """carte_blanche (D15; 000-A l.39-43: 'only the first occurrence counts'): a hand left
    without court cards after a draw scores 250 once in the deal."""
    deal = build(
        ["JS", "AS", "TS", "9S", "AH", "TH", "9H", "9D"],
        ["KH", "QD"],
        "8C",
        stock=["8S", "KS", "7S", "QH", "8H", "KD"],
        carte_blanche=True,
    )
    assert deal.events == []
    trick(deal, 0, "JS")  # the jack goes; seat 0 draws 8S: no court card left
    settle(deal)
    assert deal.events == [(1, 0, "carte blanche", 250)] and deal.points == [250, 0]
    trick(deal, 0, "8S")  # seat 0 draws 7S, still blank: no second carte blanche
    settle(deal)
    assert deal.points == [250, 0] and len(deal.events) == 1
    assert_illegal(deal, "meld carte-blanche")


def test_quartet_distinct_suits() -> None:
    """quartet_distinct_suits (D44; 000-B: 'four queens of different suits'): repeated suits do
    not make a quartet; four suits do."""
    deal = build(["AS", "AS", "AH", "AD", "AC", "9D"], [], "8H", quartet_distinct_suits=True)
    trick(deal, 0, "9D")
    assert melds(deal, "four-aces") == ["meld four-aces AS AH AD AC"]
    assert_illegal(deal, "meld four-aces AS AS AH AD")
    deal = build(["AS", "AS", "AH", "AD", "9D"], [], "8H", quartet_distinct_suits=True)
    trick(deal, 0, "9D")
    assert_illegal(deal, "meld four-aces AS AS AH AD")
    deal = build(["AS", "AS", "AH", "AD", "9D"], [], "8H")
    trick(deal, 0, "9D")
    deal.apply("meld four-aces AS AS AH AD")
    assert deal.points == [100, 0]


@pytest.mark.parametrize(
    ("pairing", "trump", "queen", "jack"),
    [
        ("spade-queen-diamond-jack", "H", "QS", "JD"),
        ("opposite-colour", "S", "QS", "JD"),
        ("opposite-colour", "D", "QD", "JS"),
        ("opposite-colour", "H", "QH", "JC"),
        ("opposite-colour", "C", "QC", "JH"),
        ("same-colour", "S", "QS", "JC"),
        ("same-colour", "C", "QC", "JS"),
        ("same-colour", "H", "QH", "JD"),
        ("same-colour", "D", "QD", "JH"),
    ],
)
def test_bezique_pairing(pairing: str, trump: str, queen: str, jack: str) -> None:
    """bezique_pairing (D43; [P][CM] opposite colour; 000-B same colour): which queen and jack
    form the bezique, by trump suit."""
    lead = "9" + next(s for s in "DHSC" if s not in (trump, queen[1], jack[1]))
    hand = [queen, jack, "QS", "JD", lead] if (queen, jack) != ("QS", "JD") else [queen, jack, lead]
    deal = build(hand, [], "8" + trump, bezique_pairing=pairing)
    trick(deal, 0, lead)
    assert melds(deal, "bezique") == [f"meld bezique {queen} {jack}"]
    if (queen, jack) != ("QS", "JD"):
        assert_illegal(deal, "meld bezique QS JD")
    deal.apply(f"meld bezique {queen} {jack}")
    assert deal.points == [40, 0]


# --- turn-up bonus and first lead (D4, D28, decision 7, decision 9) ----------------------------


def test_turn_up_bonus_none_and_seven() -> None:
    """turn_up_bonus (D4): none gives nothing for a turned 7; seven (default) gives the dealer 10."""
    assert build(up="7H", dealer=0, turn_up_bonus="none").points == [0, 0]
    assert build(up="7H", dealer=0).points == [10, 0]
    assert build(up="AH", dealer=0).points == [0, 0]


@pytest.mark.parametrize(
    ("up", "dealer_pts", "other_pts"),
    [("AS", 20, 0), ("AC", 20, 0), ("AH", 12, 0), ("AD", 12, 0), ("7D", 10, -5), ("TS", 0, 0)],
)
def test_turn_up_bonus_greek_club(up: str, dealer_pts: int, other_pts: int) -> None:
    """turn_up_bonus=greek-club (C52, D4, decision 9; 000 l.15)."""
    deal = build(up=up, dealer=1, turn_up_bonus="greek-club")
    assert deal.points == [other_pts, dealer_pts]


def test_greek_club_same_trump_three_deals_running() -> None:
    """turn_up_bonus=greek-club (decision 9; 000 l.17): the same trump three deals running gives
    that dealer +20, or -20 when it is clubs."""
    rules = Rules.preset("classic", turn_up_bonus="greek-club", target=100000)
    seen = 0
    for seed in range(6):
        match = Match(rules, seed=seed)
        for n in range(12):
            play_random(match.deal, seed * 100 + n)
            match.next_deal()
        trumps = [d.trump for d in match.deals]
        expect = []
        for i in range(2, len(trumps)):
            if trumps[i] == trumps[i - 1] == trumps[i - 2]:
                dealer = match.deals[i].dealer
                expect.append((i, dealer, -20 if trumps[i] == "C" else 20))
        assert [(i, s, p) for i, s, p, _ in match.adjustments] == expect
        seen += len(expect)
        finished = match.deals[:-1]
        assert match.scores == [
            sum(d.points[s] for d in finished)
            + sum(p for i, side, p, _ in match.adjustments if side == s and i < len(finished))
            for s in (0, 1)
        ]
    assert seen, "no seed gave the same trump three deals running"


def test_first_lead_seat() -> None:
    """first_lead_seat (D28, decision 7): with two players the dealer's left and right are the
    same seat, the non-dealer; with three, left is dealer + 1 and right is dealer - 1."""
    for side in ("left", "right"):
        for dealer in (0, 1):
            deal = build(dealer=dealer, first_lead_seat=side)
            assert deal.to_move == 1 - dealer
    three = {"players": 3, "packs": 3}
    for dealer in range(3):
        left = Deal.new(Rules.preset("classic", **three), seed=1, dealer=dealer)
        right = Deal.new(
            Rules.preset("classic", first_lead_seat="right", **three), seed=1, dealer=dealer
        )
        assert left.to_move == (dealer + 1) % 3
        assert right.to_move == (dealer - 1) % 3


# --- last draw reveal (D19) -----------------------------------------------------------------


@pytest.mark.parametrize("reveal", [False, True])
def test_reveal_last_draw(reveal: bool) -> None:
    """reveal_last_draw (D19; 003: the winner shows the drawn card): the card the trick-24
    winner draws appears in the opponent's observation only with the option; the turn-up the
    loser takes is always known."""
    keep0 = ["KS", "QD", "JS", "9S", "8S", "7S", "KD"]
    keep1 = ["8H", "7H", "AH", "AD", "TD", "QH", "7D"]
    deal = Stage1(keep0, "TH", keep1, "9C", reveal_last_draw=reveal).play()
    assert deal.stage == 2
    seen_by_1 = deal.observation(1).known[0]
    assert ("TH" in seen_by_1) == reveal
    assert "9C" in deal.observation(0).known[1]
    assert Rules.preset("classic").reveal_last_draw is False


# --- target and both_reach_target (D20, D21) ----------------------------------------------------


def _first_deal_both_past(target: int, **options: object) -> list[Match]:
    out = []
    for seed in range(60):
        match = Match(Rules.preset("classic", target=target, **options), seed=seed)
        play_random(match.deal, seed)
        if min(match.scores) >= target:
            out.append(match)
    return out


def test_both_reach_target_higher_score() -> None:
    """both_reach_target=higher-score (D21; 000-E l.227 'or higher score, by agreement'): the
    higher total wins; a tie goes to the taker of the last trick."""
    cases = _first_deal_both_past(100, both_reach_target="higher-score")
    assert cases
    differs = False
    for match in cases:
        s = match.scores
        last = match.deal.last_trick_winner
        if s[0] == s[1]:
            assert match.winner == last
        else:
            assert match.winner == (0 if s[0] > s[1] else 1)
            differs |= match.winner != last
    assert differs, "no seed where the higher score did not take the last trick"


def test_both_reach_target_default_last_trick() -> None:
    """both_reach_target=last-trick-winner (default, D21)."""
    assert Rules.preset("classic").both_reach_target == "last-trick-winner"
    for match in _first_deal_both_past(100):
        assert match.winner == match.deal.last_trick_winner


@pytest.mark.parametrize("target", [300, 1500])
def test_target(target: int) -> None:
    """target (D20; 002: e.g. 2000 by agreement): the match ends at the first deal end with a
    side at or over the target, not before."""
    match = Match(Rules.preset("classic", target=target), seed=3)
    n = 0
    while True:
        play_random(match.deal, n)
        n += 1
        if match.winner is not None:
            break
        assert max(match.scores) < target
        match.next_deal()
    assert max(match.scores) >= target
    assert match.scores[match.winner] >= target
    with pytest.raises(ValueError):
        match.next_deal()
