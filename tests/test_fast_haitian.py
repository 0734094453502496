"""The Haitian options the compiled engine plays, in lockstep with the reference core.

The engine plays every Haitian option but the wild cards (the jokers, HAITIAN.md sections 1,
3 and 5: ``wild_cards``, and with them ``wild_card_melds``, ``four_wild_cards``,
``wild_card_lead_wins`` and ``stage2_wild_card``): ``wild_cards`` above 0 is refused by its
option name, so the Haitian preset itself falls back to the reference core.  What it does play is checked here
deal by deal against the reference: marriage-only declarations before trump (H04, H05),
once-per-kind meld reuse (H12, H13), the seven of trumps scored by its player in any phase (H15)
or by the taker (H31), the first bezique's own score (H07), nine cards each with no turn-up
(H02), the trump sequence joining the declarer's own live trump marriage (H08), the deal
ending at once when a side's game score reaches the target (H25) and the
brisque majority with its 200 gate (H22-H24), for two, three and four players, with game
scores carried into the deal.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bezique import Deal, Rules, fast
from bezique.core.cards import CODES
from bezique.fast.differential import deals, lockstep

pytestmark = pytest.mark.skipif(not fast.available(), reason="compiled engine not built")


def haitian_without_jokers(players: int, **changes: object) -> Rules:
    """The Haitian preset less what the engine does not play (three players take three packs:
    four packs less the jokers do not share out among three)."""
    extra = {} if players == 2 else {"players": players}
    return Rules.preset("haitian", **extra).replace(
        wild_cards=0, packs=3 if players == 3 else 4, **changes
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"second_seven_scores": "capture", "first_bezique": 100},
        {"melds_before_trump": "all-but-sequence", "meld_reuse": "by-class"},
        {"target_check": "end-of-hand", "trick_scoring": "brisques"},
        {"sequence_needs_marriage": False},
    ],
)
def test_haitian_options_in_lockstep(players: int, changes: dict[str, object]) -> None:
    rules = haitian_without_jokers(players, **changes)
    assert fast.supports(rules)
    rng = random.Random(players)
    actions = sum(lockstep(d, rng, greedy=g) for d, g in deals(rules, 4, seed=players))
    assert actions > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_scores_carried_in_end_the_deal_and_gate_the_brisques(players: int) -> None:
    # near the target (1000, or 600 for four): many deals end at once (H25); between 0 and
    # 200 the brisque majority of two players may or may not apply (H24)
    rules = haitian_without_jokers(players)
    sides = rules.sides
    rng = random.Random(players)
    ended_early = 0
    for carry in ((950, 300, 100, 0)[:sides], (150, 250, 590, 400)[:sides]):
        for i in range(4):
            deal = Deal.new(rules, seed=10 * players + i, dealer=i % players, carry=carry)
            lockstep(deal, rng, greedy=i % 2 == 0)
            ref = Deal.new(rules, seed=10 * players + i, dealer=i % players, carry=carry)
            f = fast.FastDeal.from_deal(ref)
            while not f.is_over:
                f.apply_index(0)
            ended_early += f.stage == 1
    assert ended_early > 0


def test_the_trump_sequence_needs_the_declarers_live_marriage() -> None:
    # H08: both players hold A 10 K Q J of hearts, declaring whenever they can: the royal
    # marriage fixes trump, and the sequence is offered only on the declarer's own marriage
    # while neither of its cards has been played
    rules = Rules.preset("haitian").replace(wild_cards=0)
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


def test_the_jokers_are_refused_by_name() -> None:
    rules = Rules.preset("haitian")
    with pytest.raises(fast.UnsupportedRules, match=r"option wild_cards=4"):
        fast.FastDeal.new(rules, seed=1)
    assert not fast.supports(rules)
    assert fast.supports(rules.replace(wild_cards=0))
