"""The Haitian options the compiled engine plays, in lockstep with the reference core.

The engine plays the Haitian preset's options except the wild cards (jokers, HAITIAN.md
sections 1, 3, 5) and ``sequence_needs_marriage`` (section 3): each of those is refused by its
option name so that callers fall back to the reference core.  What it does play is checked here
deal by deal against the reference: marriage-only declarations before trump (H04, H05),
once-per-kind meld reuse (H12, H13), the seven of trumps scored by its player in any phase (H15)
or by the taker (H31), the first bezique's own score (H07), nine cards each with no turn-up
(H02), the deal ending at once when a side's game score reaches the target (H25) and the
brisque majority with its 200 gate (H22-H24), for two, three and four players, with game
scores carried into the deal.
"""

from __future__ import annotations

import random

import pytest

from bezique import Deal, Rules, fast
from bezique.fast.differential import deals, lockstep

pytestmark = pytest.mark.skipif(not fast.available(), reason="compiled engine not built")


def haitian_without_jokers(players: int, **changes: object) -> Rules:
    """The Haitian preset less what the engine does not play (three players take three packs:
    four packs less the jokers do not share out among three)."""
    extra = {} if players == 2 else {"players": players}
    return Rules.preset("haitian", **extra).replace(
        wild_cards=0, packs=3 if players == 3 else 4, sequence_needs_marriage=False, **changes
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"second_seven_scores": "capture", "first_bezique": 100},
        {"melds_before_trump": "all-but-sequence", "meld_reuse": "by-class"},
        {"target_check": "end-of-hand", "trick_scoring": "brisques"},
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


@pytest.mark.parametrize(
    ("change", "name"),
    [({}, "wild_cards"), ({"wild_cards": 0, "packs": 4}, "sequence_needs_marriage")],
)
def test_what_the_engine_does_not_play_is_refused_by_name(
    change: dict[str, object], name: str
) -> None:
    rules = Rules.preset("haitian").replace(**change)
    with pytest.raises(fast.UnsupportedRules, match=rf"option {name}="):
        fast.FastDeal.new(rules, seed=1)
    assert not fast.supports(rules)
