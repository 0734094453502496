"""The id-level determinization (``Deal.resample`` / ``Deal.reshuffle``) keeps what it works out
per seat and position on the deal; these check that it never deals from a stale position.

The worlds it reaches, and how often, are checked in tests/test_conformance.py.
"""

from __future__ import annotations

import random

import pytest

import conformance
from bezique import Deal, Rules
from bezique.core.ids import action_ids


def _played(preset: str, seed: int, steps: int) -> Deal:
    deal = Deal.new(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize("preset", ["classic", "four", "rubicon"])
def test_resample_follows_the_deal_after_each_action(preset: str) -> None:
    """Resampled, then played on, then resampled again: every world matches the position it
    was drawn from (a plan kept from before the action would deal the old stock)."""
    deal = _played(preset, 3, 4)
    rng = random.Random(7)
    for seat in range(deal.rules.players):
        for _ in range(20):  # one seat's worlds as the deal goes on
            if deal.is_over:
                break
            conformance.check_resample(deal, seat, rng)
            assert deal.resample(seat, rng).stock_size == deal.stock_size
            deal.apply(rng.choice(deal.legal_actions()))
    assert deal.tricks_played >= 5


def test_resample_leaves_the_deal_as_it_was() -> None:
    deal = _played("classic", 5, 12)
    before = deal.position()
    worlds = {deal.resample(1, random.Random(k)).position() for k in range(20)}
    assert deal.position() == before
    assert len(worlds) > 10  # really dealt again each time


def test_reshuffle_in_place_then_resample() -> None:
    """A deal reshuffled in place holds the same unseen cards, so its worlds stay consistent."""
    deal = _played("four", 2, 9)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    deal.reshuffle(seat, random.Random(1))
    assert deal.observation(seat) == obs
    world, _ = conformance.check_resample(deal, seat, random.Random(2))
    assert world.observation(seat) == obs
    # and for another seat, whose unseen cards differ
    other = (seat + 1) % deal.rules.players
    conformance.check_resample(deal, other, random.Random(3))


def test_one_place_for_the_unseen_cards_deals_nothing() -> None:
    """Two hands in stage 2: every card the seat has not seen is in the other hand, so the
    only world is the deal itself (and no random number is drawn)."""
    deal = Deal.new(Rules.preset("classic"), seed=4)
    rng = random.Random(4)
    while deal.stage == 1:
        deal.apply(rng.choice(deal.legal_actions()))
    seat = deal.to_move
    assert seat is not None
    draws = random.Random(9)
    state = draws.getstate()
    assert deal.resample(seat, draws).position() == deal.position()
    assert draws.getstate() == state


@pytest.mark.parametrize("seat", [-1, 2, True, "0"])
def test_resample_refuses_a_bad_seat(seat: object) -> None:
    deal = _played("classic", 1, 3)
    before = deal.position()
    with pytest.raises(ValueError, match="no seat"):
        deal.resample(seat, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no seat"):
        deal.reshuffle(seat, 1)  # type: ignore[arg-type]
    assert deal.position() == before


@pytest.mark.parametrize("preset", sorted(Rules.presets()))
def test_the_generated_ids_are_the_ids_worked_out_from_the_text(preset: str) -> None:
    """Move generation keys the legal moves by id (quick paths for plays); the ids and their
    actions equal those worked out apart from the legal actions' notation alone
    (``ActionIds.from_observation``), ascending, along random deals, in a copy too."""
    rules = Rules.preset(preset)
    table = action_ids(rules)
    for seed in range(2):
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        while not deal.is_over:
            ids = deal.legal_ids()
            assert ids == sorted(ids)
            want = table.from_observation(deal.observation(deal.to_move))
            assert [(i, str(a)) for i, a in deal.legal_id_actions()] == want
            assert deal.clone().legal_ids() == ids
            deal.apply_id(ids[rng.randrange(len(ids))])


def test_copies_set_every_slot_and_share_no_list() -> None:
    """``clone`` and ``resample`` (which builds its copy apart, with the new hands and stock)
    write every slot of the state, and the copy owns its lists: playing on in it changes
    nothing in the deal."""
    from bezique.core.slots import DealBase

    deal = _played("four", 6, 14)
    seat = deal.to_move
    assert seat is not None
    shared_ok = {
        "rules",
        "_kinds",
        "_legal",
        "_names",
        "_idt",
        "_carry",
        "initial",
        "_shuffle_plan",
    }
    for copy in (deal.clone(), deal.resample(seat, random.Random(1))):
        for slot in DealBase.__slots__:
            value = getattr(copy, slot)  # AttributeError: a slot the copy left unset
            if isinstance(value, list) and slot not in shared_ok:
                assert value is not getattr(deal, slot), slot
                for mine, theirs in zip(value, getattr(deal, slot), strict=False):
                    if isinstance(mine, list):
                        assert mine is not theirs, slot
    before = deal.position()
    world = deal.resample(seat, random.Random(2))
    while not world.is_over:
        world.apply(world.legal_actions()[0])
    assert deal.position() == before
