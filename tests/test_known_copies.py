"""Known cards and their like copies: what the other seats may know of a hand.

A card becomes known to every seat when it enters a hand face up (the turn-up taken by the
seven's exchange, a revealed last draw, a carte blanche shown, declared cards back in hand for
the last tricks).  When a seat that holds such a known card and a concealed like copy plays
one of them, shows one in a meld or exchanges one, nobody else can tell which copy went.  The
engine must then forget the known copy: if it kept it, every other seat's view would say the
hand still holds one, a card it has not seen (DESIGN.md: every view comes from
``Deal.observation``; hidden information never leaks).  The compiled engine, stepped alongside,
must forget the same.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bezique import Deal, Rules
from bezique import fast as fastmod

PRESETS = [("classic", 240), ("greek", 120), ("four", 60), ("old-russian", 12)]


def _concealed(deal: Deal, seat: int) -> Counter[str]:
    table = Counter(deal.table(seat))
    return Counter(deal.hand(seat)) - table


def _walk(rules: Rules, seed: int) -> tuple[int, int]:
    """Play a random deal, checking every play, meld and exchange; returns (moves where a seat
    held a known card and a concealed like copy of a card that left, deals' actions)."""
    deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
    # the compiled engine numbers the cards its own way (as a position string lists them), so
    # the two engines often hold a different copy of a kind: the views must still agree
    twin = fastmod.FastDeal.from_deal(deal) if fastmod.available() else None
    rng = random.Random(seed)
    exercised = steps = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        known = Counter(deal.observation(None).known[seat])
        concealed = _concealed(deal, seat)
        stock = (deal.stock_size, deal.turn_up)
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        steps += 1
        if twin is not None:  # the compiled engine forgets the same copies
            twin.apply(str(action))
            for s in range(rules.players):
                assert Counter(twin.known(s)) == Counter(deal.observation(None).known[s])
        if (deal.stock_size, deal.turn_up) != stock or deal.is_over:
            continue  # a draw followed: a card may have become known
        left = concealed - _concealed(deal, seat)  # concealed cards that left or were shown
        after = Counter(deal.observation(None).known[seat])
        for kind, n in left.items():
            unknown_copies = concealed[kind] - known[kind]
            if known[kind] and unknown_copies:
                exercised += 1
            assert after[kind] <= max(0, known[kind] - n), (
                f"{rules} seed {seed}: seat {seat} {action}: the others still know "
                f"{after[kind]} x {kind} in the hand (knew {known[kind]}, {n} left)"
            )
    return exercised, steps


@pytest.mark.parametrize(("name", "deals"), PRESETS)
def test_a_card_that_leaves_a_hand_takes_the_known_copy_with_it(name: str, deals: int) -> None:
    rules = Rules.preset(name)
    exercised = 0
    for seed in range(deals):
        exercised += _walk(rules, seed)[0]
    assert exercised >= 2, "no deal put a known card beside a concealed copy that left"
