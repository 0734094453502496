"""IS-MCTS in the compiled engine (``FastDeal.ismcts``, ``fast/ismcts.c``, the bot ``ismcts-c``).

Its honesty (a choice depends only on the observation), legality in every preset and
reproducibility as a bot are checked with the other bots in ``tests/test_bots_search.py``; here:
the search itself.
"""

from __future__ import annotations

import random

import pytest

from bezique import Deal, Rules, fast
from bezique.bots import Limit, make
from bezique.bots.heuristic import HeuristicBot
from bezique.fast.search import IsmctsSettings, ismcts, pimc

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")


def decision(rules: Rules, seed: int, stage: int, cards_left: int = 99, least: int = 3) -> Deal:
    """A deal played at random to a decision to play a card in ``stage``, with at most
    ``cards_left`` cards in the hand of the seat to move and at least ``least`` legal actions."""
    rng = random.Random(seed)
    deal = Deal.new(rules, seed=seed)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        if (
            deal.stage == stage
            and deal.phase == "play"
            and len(deal.hand(seat)) <= cards_left
            and len(deal.legal_actions()) >= least
        ):
            return deal
        actions = deal.legal_actions()
        deal.apply(actions[rng.randrange(len(actions))])
    raise AssertionError("no such decision")


def stage_one(seed: int = 4, preset: str = "classic") -> tuple[fast.FastDeal, int]:
    deal = decision(Rules.preset(preset), seed, stage=1)
    seat = deal.to_move
    assert seat is not None
    return fast.FastDeal.from_deal(deal), seat


def test_same_seed_same_search_other_seed_other_worlds() -> None:
    f, seat = stage_one()
    a = ismcts(f, seat, 0, 200, 11)
    assert ismcts(f, seat, 0, 200, 11) == a
    b = ismcts(f, seat, 0, 200, 12)
    assert b.margins != a.margins  # other worlds, other playouts


def test_visits_sum_to_the_iterations() -> None:
    for preset in ("classic", "four", "three", "rubicon"):
        f, seat = stage_one(5, preset)
        found = ismcts(f, seat, 0, 150, 3)
        assert found.iterations == 150 and sum(found.visits) == 150, preset
        assert len(found.visits) == len(f.legal_actions())
        # one node an iteration (the root besides), while the pool lasts
        assert found.tree_nodes == 151
        for v, q, m in zip(found.visits, found.values, found.margins, strict=True):
            assert (v == 0) == (q is None) == (m is None)
            assert q is None or -1.0 <= q <= 1.0
    f, seat = stage_one()
    early = ismcts(f, seat, 0, 400, 3, IsmctsSettings(stop_early=True))
    assert sum(early.visits) == early.iterations <= 400


def test_the_heuristic_is_a_prior_not_a_veto() -> None:
    """With the whole prior on one action and few iterations, only it is searched; with less,
    the others are tried too."""
    f, seat = stage_one()
    n = len(f.legal_actions())
    for prior in (0, n - 1):
        found = ismcts(f, seat, prior, 30, 1, IsmctsSettings(prior_weight=1.0))
        assert found.visits[prior] == 30
    spread = ismcts(f, seat, 0, 300, 1, IsmctsSettings(prior_weight=0.5))
    assert sum(v > 0 for v in spread.visits) > 1


def test_full_prior_bot_plays_the_heuristic_move() -> None:
    rules = Rules.preset("classic")
    for seed in range(3):
        deal = decision(rules, seed, stage=1)
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        bot = make("ismcts-c:prior_weight=1", seed)
        assert bot.choose(obs, Limit(iterations=40)) == HeuristicBot(seed).choose(obs)


def test_a_clearly_best_move_is_found_against_the_prior() -> None:
    """Stage 2 of two hands, every card known (RULES.md section 4: the cards not seen are the
    opponent's hand): below the root each world is the solver's exact value, so the search
    finds the best card, worth 20 points more than the next, with most of the prior on the
    worst one."""
    rules = Rules.preset("classic")
    found_any = 0
    for seed in (0, 13):
        deal = decision(rules, seed, stage=2, cards_left=6)
        seat = deal.to_move
        assert seat is not None
        f = fast.FastDeal.from_deal(deal)
        n = len(f.legal_actions())
        exact, _, _ = pimc(f, seat, rules.side_of(seat), list(range(n)), 0, 1, 1)
        ranked = sorted(range(n), key=lambda i: exact[i])
        worst, best = ranked[0], ranked[-1]
        assert exact[best] - exact[ranked[-2]] >= 20  # one move clearly best
        found = ismcts(f, seat, worst, 1500, 2, IsmctsSettings(prior_weight=0.7, scale=200.0))
        assert max(range(n), key=lambda i: found.visits[i]) == best, seed
        assert found.margins[best] == pytest.approx(exact[best])
        assert found.tree_nodes == n + 1  # the tree ends at the root's children in stage 2
        found_any += 1
    assert found_any == 2


@pytest.mark.parametrize("cap", [1, 2, 3, 17])
def test_the_node_cap_is_respected(cap: int) -> None:
    f, seat = stage_one()
    found = ismcts(f, seat, 0, 200, 5, IsmctsSettings(max_tree_nodes=cap))
    assert found.tree_nodes == cap
    assert sum(found.visits) == found.iterations == 200
    # the search is the same one until the pool runs out
    if cap > 1:
        free = ismcts(f, seat, 0, cap - 1, 5)
        capped = ismcts(f, seat, 0, cap - 1, 5, IsmctsSettings(max_tree_nodes=cap))
        assert free == capped


def test_bad_parameters_are_refused_and_change_nothing() -> None:
    f, seat = stage_one()
    before = f.position()
    n = len(f.legal_actions())
    bad: list[dict[str, object]] = [
        {"prior_weight": 1.5},
        {"prior_weight": -0.1},
        {"c_puct": -1.0},
        {"scale": 0.0},
        {"explore": 2.0},
        {"policy": "clever"},
        {"max_tree_nodes": 0},
        {"seconds": -1.0},
        {"fpu": float("nan")},
        {"solver_nodes": -5},
    ]
    for kw in bad:
        with pytest.raises(ValueError):
            ismcts(f, seat, 0, 10, 1, IsmctsSettings(**kw))  # type: ignore[arg-type]
    for args in (
        (seat, n, 10, 1),
        (seat, -1, 10, 1),
        (seat, 0, 0, 1),
        (1 - seat, 0, 10, 1),
        (7, 0, 10, 1),
    ):
        with pytest.raises(ValueError):
            ismcts(f, *args)
    assert f.position() == before
    assert ismcts(f, seat, 0, 10, 1) == ismcts(f, seat, 0, 10, 1)


def test_over_deal_is_refused() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=1)
    f = fast.FastDeal.from_deal(deal)
    while not f.is_over:
        f.apply_index(0)
    with pytest.raises(ValueError, match="over"):
        ismcts(f, 0, 0, 10, 1)


def test_bot_reports_and_reproduces() -> None:
    deal = decision(Rules.preset("classic"), 6, stage=1)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    result = make("ismcts-c", 3).play(obs, Limit(iterations=120))
    assert str(result.action) in obs.legal
    assert result.info["visits"] <= 120 and "iterations" in result.info["reason"]
    assert str(result.action) in result.info["scores"]
    again = make("ismcts-c", 3).play(obs, Limit(iterations=120))
    assert again.action == result.action and again.info["scores"] == result.info["scores"]
    budgeted = make("ismcts-c:iterations=120", 3).play(obs)  # the budget in the spec
    assert budgeted.action == result.action and budgeted.info["scores"] == result.info["scores"]


def test_bot_falls_back_where_the_fast_engine_does_not_reach() -> None:
    """More cards than the compiled engine holds (twelve packs): the reference IS-MCTS plays."""
    rules = Rules.preset("classic", packs=12)
    assert not fast.supports(rules)
    deal = decision(rules, 1, stage=1)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    fallback = make("ismcts-c", 1).play(obs, Limit(nodes=300))
    reference = make("ismcts", 1).play(obs, Limit(nodes=300))
    assert fallback.action == reference.action
    assert fallback.info["scores"] == reference.info["scores"]
