"""Rule options the seeds name that the engine lacked, each cited to its seed
line: the Russian draw order, the seven exchanged before declaring is allowed, the Russian
extra-card penalty of 60, the "no further points" penalty of 000-C, and the Greek second seven
scoring when it wins a trick (RULES.md 2.1.2, 2.1.4, 2.9, section 3 D7, D8, D23, D26).  The
compiled engine plays these options too: the last test plays the draw-order and exchange tests
again with each action mirrored in it (``fast_kit.py``)."""

from __future__ import annotations

import os
import random

import pytest

from bezique import Deal, Rules, fast
from bezique.core.scoring import declaration_points
from bezique.fast._config import UnsupportedRules, check_supported
from bezique.keeper import Keeper
from fast_kit import Twins
from variant_kit import assert_illegal, legal, passes, play_random, stack, trick

# --- draw order: "the player who led first draws first" (seed 001 l.14, RULES.md D7) ----------


def test_draw_order_winner_first_by_default() -> None:
    """RULES.md D7: the winner of the trick draws first (default)."""
    rules = Rules.preset("classic")
    assert rules.draw_order == "winner-first"
    deal = stack(rules, [["9H"], ["TH"]], up="8C", stock=["AS", "KD"])
    trick(deal, 1, "9H", "TH")
    passes(deal)
    assert "AS" in deal.hand(1) and "KD" in deal.hand(0)


def test_draw_order_leader_first_seed_001() -> None:
    """Seed 001 l.14: "the player who led first draws first, then the others clockwise" -
    the leader draws the top card even when the follower won the trick, and the winner still
    leads next."""
    rules = Rules.preset("russian", draw_order="leader-first")
    deal = stack(rules, [["9H"], ["TH"]], up="8C", stock=["AS", "KD"])
    trick(deal, 1, "9H", "TH")
    passes(deal)
    assert "AS" in deal.hand(0) and "KD" in deal.hand(1)
    assert deal.to_move == 1


def test_draw_order_leader_first_three_players() -> None:
    """Seed 001 l.14 with three players: the leader, then clockwise."""
    rules = Rules.preset("three", draw_order="leader-first")
    deal = stack(rules, [["9H"], ["TH"], ["8H"]], up="8C", stock=["AS", "KD", "QC"])
    trick(deal, 1, "9H", "TH", "8H")
    passes(deal)
    assert "AS" in deal.hand(0) and "KD" in deal.hand(1) and "QC" in deal.hand(2)


def test_draw_order_leader_first_plays_whole_deals() -> None:
    """Every card is drawn once: random deals play to the end with 2 and 3 players."""
    for preset in ("russian", "three"):
        for seed in range(3):
            deal = Deal.new(Rules.preset(preset, draw_order="leader-first"), seed=seed)
            play_random(deal, seed)
            assert deal.is_over and deal.stock_size == 0


# --- the seven exchanged before declaring is allowed (seed 001 l.14, RULES.md D8) ------------


def _four_tricks_rule(**options: object) -> Rules:
    return Rules.preset("russian", min_tricks_before_declaring=4, **options)


def test_exchange_waits_for_min_tricks_by_default() -> None:
    """RULES.md D8 (option 4): with min_tricks_before_declaring the exchange waits too unless
    exchange_before_min_tricks is set."""
    deal = stack(_four_tricks_rule(), [["9S", "7C", "KH", "QH"], ["8S"]], up="AC")
    trick(deal, 0, "9S", "8S")
    assert deal.phase == "play"  # nothing to declare: drawn, seat 0 leads
    assert "7C" in deal.hand(0)


def test_exchange_before_min_tricks_seed_001() -> None:
    """Seed 001 l.14: combinations only "after taking four tricks" by some rules, but the seven
    of trumps is swapped "before his move" - the exchange is no combination, so it is allowed
    after the first trick won while melds still wait."""
    deal = stack(
        _four_tricks_rule(exchange_before_min_tricks=True),
        [["9S", "7C", "KH", "QH"], ["8S"]],
        up="AC",
    )
    trick(deal, 0, "9S", "8S")
    assert deal.phase == "declare"
    assert legal(deal) == ["exchange 7C", "pass"]
    assert_illegal(deal, "meld marriage KH QH")
    deal.apply("exchange 7C")
    assert deal.points == [10, 0] and "AC" in deal.hand(0)
    assert deal.phase == "play"  # nothing else may be declared: drawn


def test_exchange_before_min_tricks_melds_after_enough_tricks() -> None:
    """Seed 001 l.14: once four tricks are won, the marriage may be declared as usual."""
    deal = stack(
        _four_tricks_rule(exchange_before_min_tricks=True),
        [["9S", "9D", "9C", "9H", "KH", "QH"], ["8S", "8D", "8C", "8H"]],
        up="AC",
    )
    for lead, follow in [("9S", "8S"), ("9D", "8D"), ("9C", "8C")]:
        trick(deal, 0, lead, follow)
        assert deal.phase == "play", legal(deal)
    trick(deal, 0, "9H", "8H")
    assert "meld marriage KH QH" in legal(deal)


# --- Russian penalties: the extra card at 60 (000 l.185, l.252; RULES.md 2.1.4, D23) ---------


def test_extra_card_penalty_50_by_default_60_by_option() -> None:
    """RULES.md 2.1.4: drawing an extra card costs 50 (001, 000-A), or 60 per 000-E and 000-C
    ("60 points are taken if he accidentally takes 9 cards", 000 l.185; l.252)."""
    k = Keeper(Rules.preset("russian"), ["Ann", "Bob"])
    k.new_deal(turn_up="9C")
    assert k.penalty("Bob", "extra-card") == -50
    k60 = Keeper(Rules.preset("russian", extra_card_penalty=60), ["Ann", "Bob"])
    k60.new_deal(turn_up="9C")
    assert k60.offences()["extra-card"] == (-60, "drawing an extra card: -60")
    assert k60.penalty("Bob", "extra-card") == -60
    assert k60.penalty("Bob", "nine-cards") == -120  # 000 l.185: 120 if played to the end
    assert k60.running == [0, -180]


def test_extra_card_penalty_range() -> None:
    """The option is points, 0 to 1000, refused by Rules itself out of range."""
    assert Rules.option_range("extra_card_penalty") == (0, 1000)
    with pytest.raises(ValueError, match="extra_card_penalty must be 0 to 1000"):
        Rules.preset("russian", extra_card_penalty=1001)
    with pytest.raises(ValueError, match="extra_card_penalty must be a whole number"):
        Rules.preset("russian", extra_card_penalty="sixty")


# --- the gentler penalty: no further points (000-C l.181, RULES.md 2.1.4, D26) ---------------


def test_no_further_points_keeps_the_score_and_adds_nothing() -> None:
    """000 l.181 (000-C): a player who behaved wrongly "has no right to add points to himself,
    but the points awarded before do not leave his account" - for the rest of the game."""
    k = Keeper(Rules.preset("classic", penalty_scheme="no-further-points"), ["Ann", "Bob"])
    k.new_deal(turn_up="9C")
    k.declare("Ann", "bezique QS JD")
    assert k.penalty("Ann", "irregularity") == 0
    k.declare("Ann", "marriage KH QH")  # entered, but Ann scores no more
    k.declare("Bob", "four-kings KS KH KD KC")
    k.tricks("Ann", brisques=10)
    k.tricks("Bob", brisques=6)
    k.last_trick("Ann")
    k.end_deal()
    assert k.scores == [40, 140]
    k.new_deal(turn_up="7H")  # Bob deals and turns a seven: +10 for him
    k.declare("Ann", "four-aces AS AH AD AC")  # the same game: still nothing for Ann
    assert k.running == [40, 150]
    assert "irregularity" in k.offences()


def test_no_further_points_is_undone_with_its_entry() -> None:
    """The penalty is an entry like any other: undo takes it back and the points count."""
    k = Keeper(Rules.preset("classic", penalty_scheme="no-further-points"), ["Ann", "Bob"])
    k.new_deal(turn_up="9C")
    k.penalty("Ann", "irregularity")
    k.declare("Ann", "bezique QS JD")
    assert k.running == [0, 0]
    k.undo()
    k.undo()
    k.declare("Ann", "bezique QS JD")
    assert k.running == [40, 0]


def test_no_further_points_refuses_points_and_other_offences() -> None:
    k = Keeper(Rules.preset("classic", penalty_scheme="no-further-points"), ["Ann", "Bob"])
    k.new_deal(turn_up="9C")
    with pytest.raises(ValueError, match="no points and no beneficiary"):
        k.penalty("Ann", "irregularity", points=10)
    with pytest.raises(ValueError, match="unknown offence 'revoke'"):
        k.penalty("Ann", "revoke")
    assert k.running == [0, 0]


def test_penalty_scheme_choices() -> None:
    with pytest.raises(ValueError, match="no-further-points"):
        Rules.preset("classic", penalty_scheme="greek")


# --- Greek: the second seven scores when it wins a trick (000 l.57, l.61; RULES.md 2.1.2) ----


def test_greek_second_seven_scores_when_it_wins_a_trick() -> None:
    """000 l.57 and l.61 (RULES.md 2.1.2, decision 2's `winTrick` option): in the Greek club
    game the second seven of trumps cannot be exchanged but scores 10 when it wins a trick;
    it is not declared."""
    rules = Rules.preset("greek")
    assert rules.second_seven_scores == "win-trick"
    deal = stack(rules, [["7C", "7C", "9S"], ["8S", "8D"]], up="AC")
    trick(deal, 0, "9S", "8S")
    deal.apply("exchange 7C")
    assert not [a for a in legal(deal) if a.startswith("meld seven")]
    passes(deal)
    before = deal.points[0]
    trick(deal, 0, "7C", "8D")  # the second seven wins the trick: +10, plus the trick's own 10
    assert deal.points[0] - before == 10 + 10
    assert any(what == "seven won 7C" and p == 10 for _, s, what, p in deal.events if s == 0)


# --- the compiled engine refuses what it does not play --------------------------------------


def test_compiled_engine_plays_the_cumulative_trump_sets() -> None:
    """Seed 000-B (RULES.md 2.8): the old Russian sets paying card by card are played by the
    compiled engine (the old Russian rule tests are mirrored in C, in
    ``tests/test_rules_old_russian.py``)."""
    check_supported(Rules.preset("classic", trump_set_scoring="cumulative"))
    check_supported(Rules.preset("old-russian"))
    with pytest.raises(UnsupportedRules, match="option packs=12"):
        check_supported(Rules.preset("classic", packs=12))


def test_compiled_engine_plays_the_seed_001_options() -> None:
    """Seed 001 l.14: the leader drawing first and the exchange before enough tricks are
    played by the compiled engine (checked in lockstep in ``tests/test_fast.py``)."""
    check_supported(Rules.preset("russian", draw_order="leader-first"))
    check_supported(
        Rules.preset("classic", min_tricks_before_declaring=4, exchange_before_min_tricks=True)
    )


def test_compiled_engine_plays_the_greek_preset_and_the_penalty_options() -> None:
    """The penalties are the score-keeper's (decision 8): the engine plays such rules as it is."""
    check_supported(Rules.preset("greek"))
    check_supported(Rules.preset("russian", extra_card_penalty=60))
    check_supported(Rules.preset("classic", penalty_scheme="no-further-points"))


# --- the points shown beside a declaration are what the engine scores ------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("classic"),
        Rules.preset("russian"),
        Rules.preset("no-trump"),
        Rules.preset("old-russian"),
        Rules.preset("haitian", first_bezique=100),
    ],
    ids=str,
)
def test_declaration_points_are_what_the_declaration_scores(rules: Rules) -> None:
    """``declaration_points`` (shown by the browser and the terminal beside each legal action)
    equals the points the engine then scores, in random deals that declare whenever they can:
    repeats that double (O06, O07), sets shown at once (O08), trump fixed by a marriage."""
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        deal = Deal.new(rules, seed=seed)
        while not deal.is_over:
            actions = deal.legal_actions()
            obs = deal.observation(deal.to_move)
            for a in actions:
                if a.verb not in ("meld", "exchange"):
                    continue
                trial = deal.clone()
                before = len(trial.events)
                trial.apply(a)
                scored = [p for _, _, what, p in trial.events[before:] if what.startswith(a.verb)]
                assert declaration_points(obs, a) == scored[0], (str(a), trial.events[before:])
                checked += 1
            melds = [a for a in actions if a.verb in ("meld", "exchange")]
            deal.apply(rng.choice(melds or actions))
    assert checked >= 10


def test_compiled_engine_carries_the_games_first_bezique() -> None:
    """HAITIAN.md H07: a deal after a bezique earlier in its game scores its first bezique as
    any other; the compiled engine takes that from the deal (``game_bezique``)."""
    if not fast.available():
        pytest.skip("the compiled engine is not built")
    from bezique.fast.differential import lockstep

    rules = Rules.preset("haitian", first_bezique=100)
    for taken in (False, True):
        for seed in range(2):  # declaring whenever possible; points compared at every step
            lockstep(
                Deal.new(rules, seed=seed, game_bezique=taken), random.Random(seed), greedy=True
            )


@pytest.mark.skipif(
    os.environ.get("BEZIQUE_NO_FAST") == "1", reason="explicitly run without the compiled engine"
)
def test_seed_option_rule_tests_mirrored_in_the_compiled_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the stacked deals of the draw-order and exchange tests above, each action mirrored in C
    # (tests/fast_kit.py)
    twins = Twins()
    monkeypatch.setattr(Deal, "apply", twins.patched())
    for test in (
        test_draw_order_leader_first_seed_001,
        test_draw_order_leader_first_three_players,
        test_draw_order_leader_first_plays_whole_deals,
        test_exchange_before_min_tricks_seed_001,
        test_exchange_before_min_tricks_melds_after_enough_tricks,
    ):
        test()
    assert twins.steps > 100
