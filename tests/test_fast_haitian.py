"""The Haitian options the compiled engine plays, in lockstep with the reference core.

The engine plays the Haitian preset's options except the wild cards (jokers, HAITIAN.md
sections 1, 3, 5), ``trick_scoring=brisque-majority`` and ``target_check=immediate`` (section 6)
and ``sequence_needs_marriage`` (section 3): each of those is refused by its option name so
that callers fall back to the reference core.  What it does play is checked here deal by deal
against the reference: marriage-only declarations before trump (H04, H05), once-per-kind meld
reuse (H12, H13), the seven of trumps scored by its player in any phase (H15) or by the taker
(H31), the first bezique's own score (H07), nine cards each with no turn-up (H02), for two,
three and four players.
"""

from __future__ import annotations

import random

import pytest

from bezique import Rules, fast
from bezique.fast.differential import deals, lockstep

pytestmark = pytest.mark.skipif(not fast.available(), reason="compiled engine not built")


def haitian_without_jokers(players: int, **changes: object) -> Rules:
    """The Haitian preset less what the engine does not play (three players take three packs:
    four packs less the jokers do not share out among three)."""
    extra = {} if players == 2 else {"players": players}
    return Rules.preset("haitian", **extra).replace(
        wild_cards=0,
        packs=3 if players == 3 else 4,
        trick_scoring="brisques",
        target_check="end-of-hand",
        sequence_needs_marriage=False,
        **changes,
    )


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"second_seven_scores": "capture", "first_bezique": 100},
        {"melds_before_trump": "all-but-sequence", "meld_reuse": "by-class"},
    ],
)
def test_haitian_options_in_lockstep(players: int, changes: dict[str, object]) -> None:
    rules = haitian_without_jokers(players, **changes)
    assert fast.supports(rules)
    rng = random.Random(players)
    actions = sum(lockstep(d, rng, greedy=g) for d, g in deals(rules, 4, seed=players))
    assert actions > 0


@pytest.mark.parametrize(
    ("change", "name"),
    [
        ({}, "wild_cards"),
        ({"wild_cards": 0, "packs": 4}, "trick_scoring"),
        ({"wild_cards": 0, "trick_scoring": "brisques"}, "target_check"),
        (
            {"wild_cards": 0, "trick_scoring": "brisques", "target_check": "end-of-hand"},
            "sequence_needs_marriage",
        ),
    ],
)
def test_what_the_engine_does_not_play_is_refused_by_name(
    change: dict[str, object], name: str
) -> None:
    rules = Rules.preset("haitian").replace(**change)
    with pytest.raises(fast.UnsupportedRules, match=rf"option {name}="):
        fast.FastDeal.new(rules, seed=1)
    assert not fast.supports(rules)
