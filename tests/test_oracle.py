"""The compiled oracle (``oracle-c``): it cheats, so it must stay out of every menu and every
registry, and it must really search the one true deal."""

from __future__ import annotations

import random

import pytest

from bezique import Deal, Rules, fast
from bezique.arena import ORACLES, PlayerSpec, decide, run_arena
from bezique.bots import Limit, levels, make, names
from bezique.bots.fastoracle import FastOracleBot, HandOracleBot, hands_shown
from bezique.bots.oracle import OracleBot
from bezique.bots.solver import exact_values
from bezique.fast.search import pimc

needs_fast = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")


def stage_two(preset: str, seed: int) -> Deal:
    """A deal played at random into the first trick of stage 2."""
    deal = Deal.new(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    while deal.stage == 1:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def test_no_oracle_is_a_bot_a_level_or_a_table_choice() -> None:
    from bezique.server import tables

    for name in ORACLES:
        assert name not in names()
        assert name not in levels()
        assert name not in tables.levels()
        with pytest.raises(ValueError, match="only the arena plays it"):
            make(name)
        assert isinstance(PlayerSpec.parse(name).build(1), OracleBot)  # the arena's only


@needs_fast
@pytest.mark.parametrize("preset", ["classic", "rubicon"])
def test_playouts_count_the_margin_as_the_compiled_search_does(preset: str) -> None:
    # in stage 2 of the two-handed game every card is known, so pimc's one "world" is the deal
    # itself: the oracle's playout (margin so far plus the solver's tail) must give its value
    deal = stage_two(preset, 3)
    f = fast.FastDeal.from_deal(deal)
    seat = f.to_move
    assert seat is not None
    side = f.side_of(seat)
    actions = f.legal_actions()
    expected, _, _ = pimc(f, seat, side, list(range(len(actions))), 0, 1, 5)
    oracle = FastOracleBot(1)
    for i, want in enumerate(expected):
        child = f.clone()
        child.apply_index(i)
        value, solved = oracle._rollout(child._c, f.rules, side, 9)
        assert solved == 1
        assert value == pytest.approx(want)


@needs_fast
def test_stage_two_is_solved_exactly_on_the_real_deal() -> None:
    deal = stage_two("classic", 11)
    seat = deal.to_move
    assert seat is not None
    side = deal.rules.side_of(seat)
    sol, offset = exact_values(deal, side)
    best = max(sol.values.values()) + offset
    result = FastOracleBot(2).play_with_deal(deal)
    assert result.info["reason"] == "stage 2 solved exactly"
    chosen = result.action.cards[0].partition("@")[0]
    scores = result.info["scores"]
    assert isinstance(scores, dict)
    assert max(scores.values()) == scores[str(result.action)]
    assert chosen in deal.hand(seat)
    # the reference solver agrees that the chosen card is a best one
    from bezique.bots.playout import action_kind

    assert sol.values[action_kind(result.action)] + offset == pytest.approx(best)


@needs_fast
@pytest.mark.parametrize("preset", ["classic", "four", "rubicon", "old-russian"])
def test_the_oracle_plays_legal_actions_and_leaves_the_deal_alone(preset: str) -> None:
    deal = Deal.new(Rules.preset(preset), seed=4)
    rng = random.Random(4)
    oracle = FastOracleBot(3)
    for _ in range(2):
        for _ in range(5):
            deal.apply(rng.choice(deal.legal_actions()))
        before = deal.position()
        action = oracle.play_with_deal(deal, Limit(iterations=2)).action
        assert deal.position() == before
        assert action in deal.legal_actions()
        assert oracle.play_with_deal(deal, Limit(iterations=2)).action == action  # reproducible


@needs_fast
def test_the_arena_hands_the_compiled_oracle_the_compiled_deal() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=8)
    f = fast.FastDeal.from_deal(deal)
    player = PlayerSpec.parse("oracle-c").build(1)
    limit = Limit(iterations=2)
    assert decide(player, f, limit) == decide(player, deal, limit)
    assert f.position() == deal.position()  # the arena's deal is untouched
    result = run_arena("oracle-c:iterations=2", "random", "classic", decks=1, seed=1)
    assert len(result.plays) == 2 and all(p.a_moves > 0 for p in result.plays)


def deck_of(deal: Deal) -> str:
    """The stock's order, from the full position string."""
    return deal.position().rpartition("|deck=")[2]


def played_into(preset: str, seed: int, actions: int) -> Deal:
    """A deal played at random for a number of actions."""
    deal = Deal.new(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize(("preset", "seed"), [("classic", 5), ("classic", 6), ("four", 7)])
def test_the_hand_oracle_sees_the_other_hands_and_not_the_stock(preset: str, seed: int) -> None:
    deal = played_into(preset, seed, 30)
    seat = deal.to_move
    assert seat is not None
    before = deal.position()
    shown = hands_shown(deal, seat)
    assert deal.position() == before  # the real deal is left alone
    assert shown.hand == deal.observation(seat).hand
    others = [s for s in range(deal.rules.players) if s != seat]
    real_stock = sorted(deck_of(deal).split(","))
    stocks = set()
    for world_seed in range(4):
        world = Deal.from_observation(shown, random.Random(world_seed))
        for s in others:  # every other hand is the real one in every world
            assert world.observation(s).hand == deal.observation(s).hand
        assert world.observation(seat).hand == deal.observation(seat).hand
        assert sorted(deck_of(world).split(",")) == real_stock  # the same cards in the stock
        stocks.add(deck_of(world))
    assert len(stocks) > 1  # the stock is dealt again: it stays unseen


@needs_fast
def test_the_hand_oracle_is_the_arenas_only_and_plays_the_expert_search() -> None:
    deal = played_into("classic", 9, 12)
    lp = "prior=learned,playout=learned,learned_bar=2/1.5"
    player = PlayerSpec.parse(f"oracle-hand:{lp}").build(1)
    assert isinstance(player, HandOracleBot)
    limit = Limit(iterations=64)
    before = deal.position()
    action = decide(player, deal, limit)
    assert deal.position() == before
    assert action in deal.legal_actions()
    assert decide(player, fast.FastDeal.from_deal(deal), limit) == action  # either deal, same
    seat = deal.to_move
    assert seat is not None
    search = make(f"pimc-c:{lp}", 1)
    assert search.play(hands_shown(deal, seat), limit).action == action
    result = run_arena("oracle-hand:iterations=32", "random", "classic", decks=1, seed=1)
    assert len(result.plays) == 2 and all(p.a_moves > 0 for p in result.plays)


@needs_fast
def test_the_late_hand_oracle_sees_the_hands_only_late_in_the_stock() -> None:
    limit = Limit(iterations=48)
    lp = "prior=learned,playout=learned,learned_bar=2/1.5"
    late = PlayerSpec.parse(f"oracle-hand:{lp},shown=16").build(1)
    assert isinstance(late, HandOracleBot)
    search = make(f"pimc-c:{lp}", 1)
    checked = {"early": 0, "late": 0}
    deal = Deal.new(Rules.preset("classic"), seed=12)
    rng = random.Random(12)
    while deal.stage == 1:
        seat = deal.to_move
        assert seat is not None
        honest = deal.stock_size > 16
        view = late.view(deal, seat)
        assert view == (deal.observation(seat) if honest else hands_shown(deal, seat))
        if not honest:  # the other hand, every concealed card of it, is shown
            assert view.known[1 - seat] == deal.observation(1 - seat).hand
        if len(deal.legal_actions()) > 1 and deal.phase == "play" and rng.random() < 0.3:
            assert late.play_with_deal(deal, limit).action == search.play(view, limit).action
            checked["early" if honest else "late"] += 1
        deal.apply(rng.choice(deal.legal_actions()))
    assert checked["early"] >= 3 and checked["late"] >= 3


@needs_fast
def test_the_hand_oracle_plays_the_search_its_settings_name() -> None:
    """``oracle-hand`` with the expert level's settings plays the level's search shown the
    hands, and other settings play another search."""
    lp = "prior=learned,playout=learned,learned_bar=2/1.5"
    steady = "prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5"
    assert "oracle-hand" in ORACLES and "oracle-hand" not in names()
    player = PlayerSpec.parse(f"oracle-hand:{steady}").build(3)
    assert isinstance(player, HandOracleBot)
    level, older = make(f"pimc-c:{steady}", 3), make(f"pimc-c:{lp}", 3)
    limit = Limit(iterations=96)
    differs = 0
    for seed in range(6):
        deal = played_into("classic", seed, 14)
        seat = deal.to_move
        assert seat is not None
        shown = hands_shown(deal, seat)
        action = decide(player, deal, limit)
        assert action == level.play(shown, limit).action  # the level's search, hands shown
        differs += action != older.play(shown, limit).action
    assert differs >= 1  # the settings matter: not the search with random playout moves
