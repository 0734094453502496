"""The Haitian preset in the compiled engine, in lockstep with the reference core.

The engine plays the whole ``haitian`` preset (HAITIAN.md section 8), jokers included: 4 packs
and 4 jokers dealt nine each (H01, H02), a joker completing a plain quartet and scoring in one
meld a deal (H10, H11; ``four_wild_cards``, ``wild_card_melds``), a led joker winning unless
trumped (H16), a joker in the last tricks (H20, HD13), marriage-only declarations before trump
(H04, H05), once-per-kind reuse (H12, H13), the seven of trumps (H15, H31), the first bésigue of
a game (H07, carried from the position when an earlier deal of the game had one), the quinte
on a live marriage (H08), the target checked at once (H25) and the brisque majority (H22-H24),
for two, three and four players and partnerships.  Each deal is stepped in both engines and
compared after every action (:mod:`bezique.fast.differential`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bezique import Deal, IllegalAction, Rules, fast
from bezique.core.cards import CODES
from bezique.fast._convert import load_args
from bezique.fast.differential import PRESETS, deals, lockstep
from fast_kit import ZeroRandom
from variant_kit import stack

pytestmark = pytest.mark.skipif(not fast.available(), reason="compiled engine not built")

TABLES = [(2, False), (3, False), (4, False), (4, True)]


def haitian(players: int = 2, partnerships: bool = False, **changes: object) -> Rules:
    """The preset for ``players`` (four as two partnerships), with option changes."""
    extra: dict[str, object] = {} if players == 2 else {"players": players}
    rules = Rules.preset("haitian", **extra)
    if partnerships:
        rules = rules.replace(partnerships=True)
    return rules.replace(**changes) if changes else rules


def test_the_preset_is_played_and_in_the_differential_presets() -> None:
    for players, partners in TABLES:
        assert fast.supports(haitian(players, partners))
    assert "haitian" in PRESETS


@pytest.mark.parametrize(("players", "partners"), TABLES)
@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"second_seven_scores": "capture", "first_bezique": 100},
        {"stage2_wild_card": "last-resort", "four_wild_cards": 200},
        {"wild_card_melds": "all-but-sequence", "wild_card_lead_wins": False},
        {"wild_card_melds": "any", "melds_before_trump": "all-but-sequence"},
        {"target_check": "end-of-hand", "trick_scoring": "brisques", "meld_reuse": "by-class"},
        {"sequence_needs_marriage": False},
    ],
)
def test_haitian_in_lockstep(players: int, partners: bool, changes: dict[str, object]) -> None:
    rules = haitian(players, partners, **changes)
    assert fast.supports(rules)
    rng = random.Random(players)
    actions = sum(lockstep(d, rng, greedy=g) for d, g in deals(rules, 3, seed=players))
    assert actions > 0


def joker_deal(rules: Rules, rng: random.Random, seat: int, dealer: int) -> Deal:
    """A stacked deal with every joker in one hand, beside queens, kings and jacks, and the
    rest of the hands and stock court cards first (quartets and four jokers to declare)."""
    pack = Counter(CODES[k] for k in rules.pack_kinds)
    hands: list[list[str]] = [[] for _ in range(rules.players)]
    hands[seat] = ["XX"] * rules.wild_cards + ["QS", "QH", "QD"]
    pack.subtract(hands[seat])
    rest = list(pack.elements())
    rng.shuffle(rest)
    rest.sort(key=lambda c: c[0] not in "KQJA" or rng.random() < 0.4)
    for s in range(rules.players):
        while len(hands[s]) < rules.hand_size:
            hands[s].append(rest.pop(0))
    return Deal.from_cards(rules, hands, None, rest, dealer=dealer)


@pytest.mark.parametrize(("players", "partners"), TABLES)
@pytest.mark.parametrize("four_jokers", [0, 200])
def test_hands_full_of_jokers(players: int, partners: bool, four_jokers: int) -> None:
    # H10, H11, H16: the jokers all in one hand, declared greedily in both engines; with
    # four_wild_cards the four jokers are a meld of their own (HD7)
    rules = haitian(players, partners, four_wild_cards=four_jokers)
    offered: Counter[str] = Counter()
    for i in range(6):
        rng = random.Random(100 * players + i)
        deal = joker_deal(rules, rng, seat=i % players, dealer=(i + 1) % players)
        lockstep(deal, rng, greedy=True)
        f = fast.FastDeal.from_deal(deal)
        while not f.is_over:  # declare what uses a joker first, else any meld, else play well
            texts = f.legal_texts()
            melds = [j for j, t in enumerate(texts) if t.startswith("meld")]
            with_joker = [j for j in melds if "XX" in texts[j]]
            for j in with_joker:
                offered[texts[j].split()[1]] += 1
            f.apply_index((with_joker or melds or [f._c.policy_pick("heuristic", i)])[0])
    assert offered["four-queens"] > 0
    assert bool(offered["four-wild-cards"]) == bool(four_jokers)
    assert set(offered) <= {"four-aces", "four-kings", "four-queens", "four-jacks"} | (
        {"four-wild-cards"} if four_jokers else set()
    )


@pytest.mark.parametrize(("players", "partners"), TABLES)
def test_game_scores_carried_in_end_the_deal_and_gate_the_brisques(
    players: int, partners: bool
) -> None:
    # near the target (1000, or 600 for four): many deals end at once (H25); between 0 and
    # 200 the brisque majority of two players may or may not apply (H24)
    rules = haitian(players, partners)
    sides = rules.sides
    rng = random.Random(players)
    ended_early = 0
    for carry in ((950, 300, 100, 0)[:sides], (150, 250, 590, 400)[:sides]):
        for i in range(3):
            deal = Deal.new(rules, seed=10 * players + i, dealer=i % players, carry=carry)
            lockstep(deal, rng, greedy=i % 2 == 0)
            f = fast.FastDeal.from_deal(deal)
            while not f.is_over:
                f.apply_index(0)
            ended_early += f.stage == 1
    assert ended_early > 0


@pytest.mark.parametrize("taken", [False, True])
def test_the_games_first_bezique_already_taken(taken: bool) -> None:
    # H07 (first_bezique=100): the first bésigue of a game scores 100, later ones 40, also in
    # a later deal of the game; the flag comes in with the deal (position string)
    rules = haitian(first_bezique=100)
    seat0 = ["QS", "JD", "KC", "QC", "9H", "TD", "TH", "9C", "8C"]
    deal = stack(rules, [seat0, ["7H", "9S", "8H"]])
    dealt = deal.initial
    assert dealt is not None
    deal = Deal.from_cards(rules, *dealt, dealer=1, game_bezique=taken)
    f = fast.FastDeal.from_deal(deal)
    for action in ["play 9H", "play 7H", "meld royal-marriage KC QC", "play TD", "play 9S"]:
        deal.apply(action)
        f.apply(action)
    deal.apply("meld bezique QS JD")
    f.apply("meld bezique QS JD")
    assert f.points == deal.points and f.points[0] == 40 + (40 if taken else 100)
    rng = random.Random(int(taken))
    for i in range(4):
        later = Deal.new(rules, seed=i, dealer=i % 2, game_bezique=taken)
        lockstep(later, rng, greedy=True)


def test_the_trump_sequence_needs_the_declarers_live_marriage() -> None:
    # H08: both players hold A 10 K Q J of hearts, declaring whenever they can: the royal
    # marriage fixes trump, and the sequence is offered only on the declarer's own marriage
    # while neither of its cards has been played
    rules = haitian()
    sequences = 0
    for seed in range(6):
        rng = random.Random(seed)
        pack = Counter(CODES[k] for k in rules.pack_kinds)
        hands = []
        for _ in range(2):
            hand = ["AH", "TH", "KH", "QH", "JH"]
            pack.subtract(hand)
            hands.append(hand)
        rest = list(pack.elements())
        rng.shuffle(rest)
        for hand in hands:
            while len(hand) < 9:
                hand.append(rest.pop())
        deal = Deal.from_cards(rules, hands, None, rest, dealer=seed % 2)
        for k in range(3):
            lockstep(deal, random.Random(10 * seed + k), greedy=True)
        f = fast.FastDeal.from_deal(deal)
        while not f.is_over:
            texts = f.legal_texts()
            seq = [i for i, t in enumerate(texts) if t.startswith("meld trump-sequence")]
            sequences += bool(seq)
            melds = [i for i, t in enumerate(texts) if t.startswith("meld ")]
            f.apply_index((seq or melds or [0])[0])
    assert sequences > 0


@pytest.mark.parametrize(("players", "partners"), TABLES)
def test_simulate_playouts_and_resample(players: int, partners: bool) -> None:
    rules = haitian(players, partners)
    for policy in ("random", "heuristic", "meld"):
        pts = fast.simulate(rules, 30, seed=players, policy=policy)
        assert pts.shape == (30, rules.sides) and (pts >= 0).all()  # H29: never below 0
        assert (pts == fast.simulate(rules, 30, seed=players, policy=policy)).all()
    deal = Deal.new(rules, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        deal.apply(rng.choice(deal.legal_actions()))
    f = fast.FastDeal.from_deal(deal)
    seat = deal.to_move
    assert seat is not None
    for i in range(5):
        g = f.resample(seat, i)  # the jokers are reshuffled with the unseen cards
        assert g.observation(seat) == deal.observation(seat)
        hidden, deck = g._c.hidden()
        jokers = sum(h.count("XX") for h in hidden) + deck.count("XX")
        hidden, deck = f._c.hidden()
        assert jokers == sum(h.count("XX") for h in hidden) + deck.count("XX")
        assert len(g.playout("heuristic", seed=i)) == rules.sides


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"stage2_wild_card": "last-resort"},
        {"second_seven_scores": "capture", "wild_card_lead_wins": False},
    ],
)
def test_stage2_solver_and_policy_with_jokers(changes: dict[str, Any]) -> None:
    # the compiled solver and default policy against the Python ones, jokers in the last
    # tricks (H20, HD13): a led joker, the duty to trump it, the joker played last
    from bezique.bots.playout import playout_action
    from bezique.bots.solver import Endgame

    rules = haitian(**changes)
    checked = 0
    for seed in range(4):
        deal = joker_deal(rules, random.Random(seed), seat=seed % 2, dealer=1)
        rng = random.Random(seed)
        while deal.stage == 1 and not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
        while not deal.is_over:
            f = fast.FastDeal.from_deal(deal)
            want = playout_action(deal, ZeroRandom(), explore=0.0)
            assert f.legal_actions()[f._c.policy_pick("heuristic-exact", 0)] == want
            if deal.phase == "play":
                values = Endgame.from_deal(deal).solve(seed % 2, 3_000_000).values
                assert f.solve(seed % 2) == {CODES[k]: v for k, v in values.items()}
                checked += 1
            deal.apply(rng.choice(deal.legal_actions()))
    assert checked > 10


def test_out_of_range_ids_and_bad_input_raise() -> None:
    rules = haitian()
    deal = Deal.new(rules, seed=5)
    f = fast.FastDeal.from_deal(deal)
    before = (f.legal_texts(), f.points, f.hand(0))
    for bad in [-1, 10**6, 2**70, True, "3", None]:
        with pytest.raises(IllegalAction):
            f.apply_id(bad)  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        f.apply_index(10**4)
    with pytest.raises(IllegalAction):
        f.apply("meld four-wild-cards XX XX XX XX")
    for seat in (-1, 2, 10**9):
        with pytest.raises(ValueError):
            f.hand(seat)
        with pytest.raises(ValueError):
            f.resample(seat)
    assert (f.legal_texts(), f.points, f.hand(0)) == before
    # a position with a card id past the 132 of the pack is refused, never read
    cfg = fast._config(rules)
    dealer, hands, up, stock, fields = load_args(rules, deal.position())
    for wrong in (132, -1, 10**6):
        bad_hands = [list(h) for h in hands]
        bad_hands[0][0] = wrong
        with pytest.raises((ValueError, OverflowError)):
            fast._engine.Core.load(cfg, dealer, bad_hands, up, stock, fields)
    with pytest.raises(ValueError):
        fast._engine.Core.load(cfg, dealer, hands, up, [*stock, 999], fields)
