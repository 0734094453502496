"""The belief about the other hand (:mod:`bezique.bots.belief`) and the biased worlds of the
compiled search (``FastDeal.resample``/``pimc``/``pimc_hidden`` with ``bias``)."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from bezique import Deal, Rules, fast
from bezique.arena import valuedata
from bezique.bots import Limit, make
from bezique.bots.belief import (
    FEATURES,
    BeliefModel,
    card_features,
    log_gain,
    shipped_belief,
)
from bezique.bots.heuristic import HeuristicBot
from bezique.bots.inference import hidden_places
from bezique.core.cards import ALL_KINDS, parse_card
from bezique.fast.search import PimcSettings, pimc, pimc_hidden

needs_fast = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")

CLASSIC = Rules.preset("classic")


def heuristic_deal(seed: int, plays: int, rules: Rules = CLASSIC) -> Deal:
    """A deal after ``plays`` actions of heuristic self-play (or at the start of stage 2)."""
    deal = Deal.new(rules, seed=seed)
    bots = [HeuristicBot(s + 1) for s in range(rules.players)]
    for _ in range(plays):
        seat = deal.to_move
        if seat is None or deal.stage == 2:
            break
        deal.apply(bots[seat].choose(deal.observation(seat)))
    return deal


def test_the_features_describe_only_the_unseen_cards() -> None:
    deal = heuristic_deal(3, 40)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    rows = card_features(obs)
    assert rows is not None
    _, unseen = hidden_places(obs)
    assert dict(zip(rows.kinds, rows.unseen, strict=True)) == Counter(parse_card(c) for c in unseen)
    assert rows.pool == len(unseen) and rows.hand == len(deal.hand(1 - seat)) - len(
        obs.tables[1 - seat]
    ) - len(obs.known[1 - seat])
    assert all(len(x) == len(FEATURES) for x in rows.x)


def test_the_model_reads_the_classic_rules_in_stage_one_only() -> None:
    for other in (Rules.preset("three"), Rules.preset("rubicon")):
        deal = heuristic_deal(2, 10, other)
        seat = deal.to_move
        assert seat is not None
        assert card_features(deal.observation(seat)) is None
        assert shipped_belief().bias(deal.observation(seat)) is None
    assert card_features(heuristic_deal(2, 10).observation(0)) is not None
    late = heuristic_deal(2, 1000)  # stops at stage 2: every card is known
    seat = late.to_move
    assert late.stage == 2 and seat is not None
    assert card_features(late.observation(seat)) is None


def test_the_shipped_model_knows_more_than_the_base_rate_on_fresh_deals() -> None:
    """The issue's measure of inference: the log-likelihood of the true hidden cards against
    the base rate (uniform worlds), here on deals the model was not fit on (another seed)."""
    model = shipped_belief()
    rows = valuedata.generate("classic", deals=16, seed=991, rollouts=0, every=3, jobs=1)
    gains = []
    for r in rows:
        cr = card_features(r.obs())
        if cr is not None:
            gains.append(log_gain(model, cr, r.hidden[1 - r.seat]))
    assert len(gains) > 150
    untrained = BeliefModel((0.0,) * len(FEATURES))
    assert statistics.mean(gains) > 0.3
    for r in rows[:20]:
        cr = card_features(r.obs())
        if cr is not None:
            assert log_gain(untrained, cr, r.hidden[1 - r.seat]) == pytest.approx(0.0)


def test_the_belief_reads_only_what_the_seat_has_seen() -> None:
    """Hidden information (the honesty goal): deals the seat cannot tell apart (the
    unseen cards dealt again) give the same bias."""
    for seed in (3, 8):
        deal = heuristic_deal(seed, 36)
        seat = deal.to_move
        assert seat is not None
        bias = shipped_belief().bias(deal.observation(seat))
        assert bias is not None
        for k in range(3):
            other = deal.resample(seat, random.Random(k))
            assert sorted(other.hand(1 - seat)) != sorted(deal.hand(1 - seat))
            assert shipped_belief().bias(other.observation(seat)) == bias


def test_a_model_file_is_checked_when_read(tmp_path: Path) -> None:
    model = shipped_belief()
    path = tmp_path / "m.json"
    model.save(path)
    assert BeliefModel.load(path).theta == model.theta
    data = json.loads(path.read_text())
    for bad, message in [
        ({**data, "format": "x"}, "not a bezique belief model"),
        ({**data, "features": ["a"]}, "other features"),
        ({**data, "theta": [1.0]}, "one a feature"),
        ({**data, "theta": ["a"] * len(FEATURES)}, "must be numbers"),
    ]:
        with pytest.raises(ValueError, match=message):
            BeliefModel.from_json(bad)


@needs_fast
def test_a_bias_deals_the_heavy_kinds_to_the_other_hand() -> None:
    deal = Deal.new(CLASSIC, seed=5, dealer=0)
    world = fast.FastDeal.from_deal(deal)
    aces = [k for k in range(32) if k & 7 == 0]
    mine = sum(1 for c in deal.hand(0) if c[0] == "A")
    bias = [1e6 if k in aces else 1.0 for k in range(ALL_KINDS)]
    for w in range(20):
        hand = pimc_hidden(world, 0, w, 1, 7, bias)[0][1]
        assert sum(c[0] == "A" for c in hand) == min(8, 8 - mine)
        assert sorted(world.resample(0, w, bias).hand(0)) == sorted(deal.hand(0))
    plain = Counter(c[0] for w in range(40) for c in pimc_hidden(world, 0, w, 1, 7)[0][1])
    assert plain["A"] < 40 * 3  # uniform worlds deal about 8 * 6/55 aces a hand


@needs_fast
def test_a_bad_bias_is_refused() -> None:
    world = fast.FastDeal.from_deal(Deal.new(CLASSIC, seed=5))
    cases: list[tuple[Sequence[float], str]] = [
        ([1.0] * 3, "one weight a card kind"),
        ([0.0] * ALL_KINDS, "above 0"),
        ([float("inf")] * ALL_KINDS, "above 0"),
        ([True] * ALL_KINDS, "above 0"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message):
            world.resample(0, 1, bad)
        with pytest.raises(ValueError, match=message):
            pimc_hidden(world, 0, 0, 1, 1, bad)
        with pytest.raises(ValueError, match=message):
            pimc(world, 0, 0, [0], 0, 1, 1, PimcSettings(bias=bad))


@needs_fast
def test_the_belief_search_deals_its_worlds_by_the_model() -> None:
    """``pimc-c:...,belief=1`` reads only the observation (tests/test_bots_search.py); its worlds, dealt
    by the belief, change the values it reports against the same search on uniform worlds."""
    deal = heuristic_deal(7, 40)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    bias = shipped_belief().bias(obs)
    assert bias is not None and len(set(bias)) > 5
    plain = make("pimc-c:prior=learned,playout=learned,learned_bar=2/1.5", 3).play(
        obs, Limit(iterations=400)
    )
    believed = make("pimc-c:prior=learned,playout=learned,learned_bar=2/1.5,belief=1", 3).play(
        obs, Limit(iterations=400)
    )
    assert believed.info["scores"] != plain.info["scores"]
    assert str(believed.action) in {str(a) for a in deal.legal_actions()}
