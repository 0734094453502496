"""PIMC in the compiled engine (``FastDeal.pimc``, :mod:`bezique.bots.fastpimc`).

The player's honesty, legality in every preset and reproducibility are checked with the other
bots in ``tests/test_bots_search.py``; here: the C rollouts themselves.
"""

from __future__ import annotations

import math
import random
import statistics

import pytest

from bezique import Deal, Rules, fast
from bezique.bots import Limit, make
from bezique.bots.base import fallback_limit
from bezique.bots.fastpimc import FastPimcBot
from bezique.bots.fastpimc import PimcSettings as PimcCSettings
from bezique.bots.levels import HARD_ROLLOUTS
from bezique.bots.playout import utility
from bezique.bots.registry import resolve
from bezique.bots.solver import exact_values, play_action
from bezique.fast.search import PimcSettings, pimc

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")


def played_to(rules: Rules, seed: int, stage: int, cards_left: int = 99) -> Deal:
    """A deal played at random until a decision to play a card in ``stage`` with at most
    ``cards_left`` cards in the hand of the seat to move."""
    rng = random.Random(seed)
    deal = Deal.new(rules, seed=seed)
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        if (
            deal.stage == stage
            and deal.phase == "play"
            and len(deal.hand(seat)) <= cards_left
            and len(deal.legal_actions()) > 1
        ):
            return deal
        actions = deal.legal_actions()
        deal.apply(actions[rng.randrange(len(actions))])
    raise AssertionError("no such decision")


@pytest.mark.parametrize("preset", ["classic", "four", "rubicon"])
def test_known_stage_two_rollouts_are_the_exact_values(preset: str) -> None:
    """In stage 2 every rollout is solved at once: the value after each card is the reference
    solver's exact value of that card (RULES.md section 4, stage 2 and the last trick)."""
    rules = Rules.preset(preset)
    for seed in range(3):
        deal = played_to(rules, seed, stage=2, cards_left=5)
        seat = deal.to_move
        assert seat is not None
        side = rules.side_of(seat)
        f = fast.FastDeal.from_deal(deal)
        actions = f.legal_actions()
        values, solved, nodes = pimc(f, seat, side, list(range(len(actions))), 0, 1, 7)
        assert solved == len(actions) and nodes > 0
        # every seat's cards are dealt again among the places nobody saw: in stage 2 of the
        # two-handed game that changes nothing; with more seats the world is another one, so
        # compare with the world the engine searched only where it is the deal itself
        if rules.players == 2:
            sol, offset = exact_values(deal, side)
            for a, v in zip(actions, values, strict=True):
                kind = next(k for k in sol.values if play_action(deal, k) == a)
                assert v == pytest.approx(sol.values[kind] + offset)
        assert all(math.isfinite(v) for v in values)


def test_rollouts_share_worlds_and_luck() -> None:
    """Equal seeds and world numbers give equal values, batch by batch; every move of a world is
    played out from the same random numbers (so a move compared with itself differs by 0)."""
    deal = played_to(Rules.preset("classic"), 4, stage=1)
    seat = deal.to_move
    assert seat is not None
    f = fast.FastDeal.from_deal(deal)
    before = f.position()
    whole, solved, _ = pimc(f, seat, 0, [0, 1, 0], 0, 6, 11)
    assert solved == 18  # the solver finishes every classic rollout (within its node limit)
    first, _, _ = pimc(f, seat, 0, [0, 1, 0], 0, 2, 11)
    rest, _, _ = pimc(f, seat, 0, [0, 1, 0], 2, 4, 11)
    assert whole == first + rest
    assert all(whole[3 * w] == whole[3 * w + 2] for w in range(6))
    assert len({whole[3 * w] for w in range(6)}) > 1  # the worlds differ
    other, _, _ = pimc(f, seat, 0, [0, 1, 0], 0, 6, 12)
    assert other != whole
    # without the solver the policy plays every rollout to the end
    plain, solved, nodes = pimc(
        f, seat, 0, [0, 1], 0, 4, 11, PimcSettings(explore=0.1, solver_nodes=0)
    )
    assert solved == 0 and nodes == 0 and all(math.isfinite(v) for v in plain)
    assert f.position() == before  # the deal itself is untouched


def test_meld_aware_rollouts_play_the_meld_policy() -> None:
    """``meld_aware`` switches the playouts to the 'meld' policy: reproducible, other values
    early in stage 1, and the same exact values once stage 2 is solved from the start."""
    deal = played_to(Rules.preset("classic"), 4, stage=1)
    seat = deal.to_move
    assert seat is not None
    f = fast.FastDeal.from_deal(deal)
    plain, _, _ = pimc(f, seat, 0, [0, 1], 0, 8, 11)
    meld, _, _ = pimc(f, seat, 0, [0, 1], 0, 8, 11, PimcSettings(policy="meld"))
    assert meld == pimc(f, seat, 0, [0, 1], 0, 8, 11, PimcSettings(policy="meld"))[0]
    assert meld != plain
    late = fast.FastDeal.from_deal(played_to(Rules.preset("classic"), 4, stage=2))
    lseat = late.to_move
    assert lseat is not None
    n = len(late.legal_actions())
    exact = pimc(late, lseat, 0, list(range(n)), 0, 2, 3)[0]
    assert pimc(late, lseat, 0, list(range(n)), 0, 2, 3, PimcSettings(policy="meld"))[0] == exact


def test_bad_arguments_are_refused_and_change_nothing() -> None:
    deal = played_to(Rules.preset("classic"), 2, stage=1)
    seat = deal.to_move
    assert seat is not None
    f = fast.FastDeal.from_deal(deal)
    before = f.position()
    n = len(f.legal_actions())
    with pytest.raises(ValueError, match="no legal action"):
        pimc(f, seat, 0, [n], 0, 1, 1)
    with pytest.raises(ValueError, match="no seat"):
        pimc(f, 5, 0, [0], 0, 1, 1)
    with pytest.raises(ValueError, match="no side"):
        pimc(f, seat, 3, [0], 0, 1, 1)
    with pytest.raises(ValueError, match="at least 0"):
        pimc(f, seat, 0, [0], 0, -1, 1)
    assert f.position() == before


def test_the_player_reports_its_search_and_falls_back_where_c_cannot_play() -> None:
    deal = played_to(Rules.preset("classic"), 6, stage=1)
    seat = deal.to_move
    assert seat is not None
    result = make("pimc-c", 1).play(deal.observation(seat), Limit(iterations=64))
    assert str(result.action) in deal.observation(seat).legal
    assert 64 <= result.info["visits"] < 64 + 8 * len(deal.legal_actions())
    assert "worlds" in result.info["reason"]
    # more cards than the compiled engine holds (twelve packs): the reference PIMC plays
    rules = Rules.preset("classic", packs=12)
    assert not fast.supports(rules)
    wild = played_to(rules, 1, stage=1)
    wseat = wild.to_move
    assert wseat is not None
    obs = wild.observation(wseat)
    fallback = make("pimc-c", 1).play(obs, Limit(nodes=300))
    reference = make("pimc", 1).play(obs, Limit(nodes=300))
    assert fallback.action == reference.action
    assert fallback.info["scores"] == reference.info["scores"]
    # the hard level's budget is in rollouts: the reference search gets its own steps instead
    # (and the level's CPU budget, which may stop it sooner)
    steps = PimcCSettings().fallback_nodes
    level = make("hard", 1).play(obs, Limit(iterations=HARD_ROLLOUTS)).info
    assert steps <= level["nodes"] < 3 * steps and level["visits"] < HARD_ROLLOUTS
    capped = make("hard", 1).play(obs).info
    assert capped["nodes"] < 3 * steps and capped["visits"] < HARD_ROLLOUTS


def test_fallback_budget() -> None:
    """Nodes and seconds carry over to the reference search; rollouts and no limit do not."""
    assert fallback_limit(Limit(nodes=300), 6_000) == Limit(nodes=300)
    assert fallback_limit(Limit(time=0.5), 6_000) == Limit(time=0.5)
    assert fallback_limit(Limit(iterations=4_000), 6_000) == Limit(nodes=6_000)
    assert fallback_limit(None, 50) == Limit(nodes=50)
    # a CPU budget carries over with the steps
    assert fallback_limit(Limit(iterations=300, cpu_budget=0.1), 6_000) == Limit(
        nodes=6_000, cpu_budget=0.1
    )


# --- when the search overrules the heuristic ------------------------------------------------------
def noisy(mean: float, sd: float, worlds: int, seed: int) -> list[float]:
    """Per-world values around ``mean`` with spread ``sd`` (a stand-in for rollouts)."""
    rng = random.Random(seed)
    return [rng.gauss(mean, sd) for _ in range(worlds)]


def test_the_heuristic_is_overruled_only_by_a_clear_and_large_gain() -> None:
    from bezique.bots.fastpimc import FastPimcBot

    bot = FastPimcBot(1)
    base = noisy(0.0, 150.0, 200, 1)
    small = [v + 3.0 for v in base]  # better in every world, by less than the margin
    clear = [v + 30.0 + d for v, d in zip(base, noisy(0.0, 20.0, 200, 2), strict=True)]
    lucky = [v + 25.0 + (400.0 if w % 2 else -400.0) for w, v in enumerate(base)]
    worlds = [base, small, clear, lucky]
    means = [sum(w) / len(w) for w in worlds]
    assert bot._overrule([0, 1], worlds, means, 0) == 0
    assert bot._overrule([0, 1, 2], worlds, means, 0) == 2
    # 25 points ahead on average but 400 points of spread: not clear after 200 worlds
    assert math.isclose(means[3] - means[0], 25.0)
    assert bot._overrule([0, 3], worlds, means, 0) == 0
    # the best mean (the heuristic's choice two points ahead) overrules on luck
    v1 = make("pimc-c:bar=2/0,futility=off,keep_prior=no", 1)
    assert v1._overrule([0, 1], worlds, means, 0) == 1  # type: ignore[attr-defined]
    assert v1._overrule([0, 3], worlds, means, 0) == 3  # type: ignore[attr-defined]


def test_the_late_bar_is_lower_only_near_the_end_of_the_stock() -> None:
    """``late_stock=12,late_bar=2/1.5`` keeps the bar while more than 12 cards are in the
    stock, and below it overrules the heuristic on a smaller gain."""
    from bezique.bots.fastpimc import FastPimcBot

    plain = FastPimcBot(1)
    for name in (
        "pimc-c:playout=smart,couple=yes,late_stock=12,late_bar=2/1.5",
        "pimc-c:playout=smart,couple=yes,explore=0,late_stock=12,late_bar=2/1.5",
    ):
        bot = make(name, 1)
        assert bot.bar_for(13) == plain.bar_for(13) == (5.0, 2.5)  # type: ignore[attr-defined]
        assert bot.bar_for(12) == (2.0, 1.5)  # type: ignore[attr-defined]
    assert plain.bar_for(0) == (5.0, 2.5)
    bot = make("pimc-c:playout=smart,couple=yes,late_stock=12,late_bar=2/1.5", 1)
    base = noisy(0.0, 40.0, 400, 7)
    ahead = [v + 4.0 + d for v, d in zip(base, noisy(0.0, 10.0, 400, 8), strict=True)]
    worlds = [base, ahead]
    means = [sum(w) / len(w) for w in worlds]
    bot._bar = bot.bar_for(20)  # type: ignore[attr-defined]
    assert bot._overrule([0, 1], worlds, means, 0) == 0  # type: ignore[attr-defined]
    bot._bar = bot.bar_for(8)  # type: ignore[attr-defined]
    assert bot._overrule([0, 1], worlds, means, 0) == 1  # type: ignore[attr-defined]
    model = resolve("pimc-c:playout=smart,couple=yes,explore=0,late_stock=12,late_bar=2/1.5")
    assert model.settings.explore == 0.0


def test_candidates_that_cannot_clear_the_bar_are_dropped() -> None:
    from bezique.bots.fastpimc import FastPimcBot

    bot = FastPimcBot(1)
    base = noisy(0.0, 200.0, 100, 4)
    hopeless = [v - 20.0 for v in noisy(0.0, 200.0, 100, 5)]
    promising = [v + 60.0 + d for v, d in zip(base, noisy(0.0, 50.0, 100, 6), strict=True)]
    worlds = [base, hopeless, promising]
    assert bot._futile([0, 1, 2], worlds, 0, 400) == [0, 2]
    # the heuristic's choice stays even when another candidate is far ahead of it
    assert 0 in bot._futile([0, 2], worlds, 0, 400)
    # fewer rollouts left make the bar higher, never lower
    assert bot._futile([0, 2], worlds, 0, 100) == [0, 2]


def test_the_search_stops_early_when_no_candidate_can_overrule() -> None:
    """Early in stage 1 most candidates are within the noise: the search stops well short
    of a large budget and plays the heuristic's choice.  Read over the first decisions of
    eight deals, not one position (whether one search stops before a given count depends on
    its random numbers): each stops before half its budget, with the heuristic's choice (once
    only that candidate is left), and the median one before 2,000 rollouts, where the search
    without the early stop (best mean, no bar) spends its whole budget."""
    budget = 20_000
    visits = []
    for seed in range(1, 9):
        deal = played_to(Rules.preset("classic"), seed, stage=1)
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        result = make("pimc-c", 1).play(obs, Limit(iterations=budget))
        assert result.info["visits"] < budget // 2
        assert result.action == make("heuristic", 1).choose(obs)
        visits.append(result.info["visits"])
    assert statistics.median(visits) < 2_000
    full = make("pimc-c:bar=2/0,futility=off,keep_prior=no", 1).play(obs, Limit(iterations=2_000))
    assert full.info["visits"] >= 2_000


def test_rollouts_by_a_named_policy() -> None:
    """``policy`` names the playout policy: 'smart' is reproducible and plays otherwise than the
    plain one early in stage 1; once stage 2 is solved from the start every policy gives the
    exact values; an unknown name is refused."""
    deal = played_to(Rules.preset("classic"), 4, stage=1)
    seat = deal.to_move
    assert seat is not None
    f = fast.FastDeal.from_deal(deal)
    plain, _, _ = pimc(f, seat, 0, [0, 1], 0, 8, 11)
    assert pimc(f, seat, 0, [0, 1], 0, 8, 11, PimcSettings(policy="heuristic"))[0] == plain
    smart, _, _ = pimc(f, seat, 0, [0, 1], 0, 8, 11, PimcSettings(policy="smart"))
    assert smart == pimc(f, seat, 0, [0, 1], 0, 8, 11, PimcSettings(policy="smart"))[0]
    assert smart != plain
    late = fast.FastDeal.from_deal(played_to(Rules.preset("classic"), 4, stage=2))
    lseat = late.to_move
    assert lseat is not None
    n = len(late.legal_actions())
    exact = pimc(late, lseat, 0, list(range(n)), 0, 2, 3)[0]
    assert pimc(late, lseat, 0, list(range(n)), 0, 2, 3, PimcSettings(policy="smart"))[0] == exact
    with pytest.raises(ValueError, match="unknown playout policy"):
        pimc(f, seat, 0, [0], 0, 1, 1, PimcSettings(policy="clever"))


def test_coupled_draws_keep_the_values_and_tie_the_candidates() -> None:
    """``couple_draws``: each seat draws from its own pile of a world's stock, whoever wins a
    trick (a uniformly shuffled stock for each rollout on its own): reproducible, the deal
    itself untouched; the mean of one move over many worlds agrees with the uncoupled one
    within its noise, and the paired differences between moves spread less."""
    deal = Deal.new(Rules.preset("classic"), seed=3)
    seat = deal.to_move
    assert seat is not None
    f = fast.FastDeal.from_deal(deal)
    before = f.position()
    n = len(f.legal_actions())
    worlds = 300
    free, _, _ = pimc(f, seat, 0, list(range(n)), 0, worlds, 5, PimcSettings(policy="smart"))
    tied, _, _ = pimc(
        f, seat, 0, list(range(n)), 0, worlds, 5, PimcSettings(policy="smart", couple_draws=True)
    )
    again = pimc(
        f, seat, 0, list(range(n)), 0, worlds, 5, PimcSettings(policy="smart", couple_draws=True)
    )[0]
    assert tied == again and tied != free
    assert f.position() == before

    def spread(values: list[float]) -> float:
        rows = [values[w * n : (w + 1) * n] for w in range(worlds)]
        diffs = [[r[i] - r[0] for r in rows] for i in range(1, n)]
        return sum(statistics.stdev(d) for d in diffs) / len(diffs)

    assert spread(tied) < 0.8 * spread(free)
    one_free = pimc(f, seat, 0, [0], 0, 1500, 6, PimcSettings(policy="smart"))[0]
    one_tied = pimc(f, seat, 0, [0], 0, 1500, 6, PimcSettings(policy="smart", couple_draws=True))[0]
    d = [a - b for a, b in zip(one_free, one_tied, strict=True)]
    se = statistics.stdev(d) / math.sqrt(len(d))
    assert abs(statistics.fmean(d)) < 3.5 * se


def _exact(deal: Deal, side: int) -> float:
    """The margin for ``side`` with best play by both seats, every card known: a plain minimax
    over the reference engine's actions to the first trick of stage 2, then the reference
    stage-2 solver."""
    if deal.is_over:
        return utility(deal, side)
    seat = deal.to_move
    assert seat is not None
    pick = max if deal.rules.side_of(seat) == side else min
    if deal.stage == 2 and deal.phase == "play":
        sol, offset = exact_values(deal, side)
        return pick(sol.values.values()) + offset
    values = []
    for action in deal.legal_actions():
        child = deal.clone()
        child.apply(action)
        values.append(_exact(child, side))
    return pick(values)


def test_the_end_of_the_stock_is_solved_exactly_in_each_world() -> None:
    """With ``endgame_stock`` a move that leaves at most that many cards in the stock is valued
    by the exact value of each world (the stage-1 plays, declarations and draws left, then
    stage 2; RULES.md section 4): the same as a minimax through the reference engine on the
    world the engine dealt, where the playouts of the default policy value it otherwise."""
    rules = Rules.preset("classic")
    deal = Deal.new(rules, seed=8)
    heuristic = make("heuristic", 1)
    checked = differ = 0
    while not deal.is_over and deal.stage == 1:
        seat = deal.to_move
        assert seat is not None
        f = fast.FastDeal.from_deal(deal)
        # the last trick of the stock (its lead, then its follow): the plays, the winner's
        # declaration and the draws are left in stage 1
        if f.stock_size <= 2 and deal.phase == "play" and len(deal.legal_actions()) > 1:
            side = rules.side_of(seat)
            actions = f.legal_actions()
            n = len(actions)
            values, solved, _ = pimc(
                f, seat, side, list(range(n)), 0, 1, 11, PimcSettings(endgame_stock=2)
            )
            assert solved == n
            plain, _, _ = pimc(f, seat, side, list(range(n)), 0, 1, 11)
            world = f.resample(seat, (11 * 0x9E3779B97F4A7C15) % (1 << 64)).to_deal()
            for i, a in enumerate(actions):
                child = world.clone()
                child.apply(a)
                assert values[i] == pytest.approx(_exact(child, side))
            checked += 1
            differ += values != plain
        deal.apply(heuristic.choose(deal.observation(seat)))
    assert checked == 2 and differ >= 1


def test_solver_cap_is_lower_with_more_than_two_hands() -> None:
    """With four hands a stage-2 solve that will not finish is cut off sooner; two hands keep
    the larger cap (the exact endgame decides most two-handed deals)."""
    bot = FastPimcBot(1)
    cfg = bot.settings
    assert bot.solver_cap(Rules.preset("classic")) == cfg.solver_nodes
    assert bot.solver_cap(Rules.preset("four")) == cfg.solver_nodes_many < cfg.solver_nodes
    assert bot.solver_cap(Rules.preset("three")) == cfg.solver_nodes_many
    # the cap is what the search spends: late in the stock of a four-handed deal, where the
    # playouts reach stage 2, the smaller cap spends fewer nodes on the same worlds
    rules = Rules.preset("four")
    deal = played_to(rules, 3, stage=1)
    while deal.stock_size > 6 or deal.phase != "play" or len(deal.legal_actions()) < 2:
        deal.apply(deal.legal_actions()[0])
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    wide = FastPimcBot(1, PimcCSettings(solver_nodes_many=PimcCSettings().solver_nodes))
    small = FastPimcBot(1).play(obs, Limit(iterations=64)).info
    large = wide.play(obs, Limit(iterations=64)).info
    assert small["nodes"] < large["nodes"]


def test_an_overrule_is_checked_again_on_fresh_worlds_when_asked() -> None:
    # a low bar, so that the first look often overrules
    low = "pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=0/0.5"
    plain, second = make(low, 4), make(low + ",verify=128", 4)
    limit = Limit(iterations=600)
    rules = Rules.preset("classic")
    overruled = kept = 0
    for seed in range(30):
        deal = played_to(rules, 100 + seed, 1)
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        a, b = plain.play(obs, limit), second.play(obs, limit)
        if "confirmed" in a.info["reason"]:  # the first look kept the prior: no second one
            assert b.action == a.action and b.info["visits"] == a.info["visits"]
            continue
        overruled += 1
        # the same first look, then 128 fresh worlds for the two moves
        assert b.info["visits"] == a.info["visits"] + 2 * 128
        if b.action == a.action:
            kept += 1
        else:
            assert "not confirmed on 128 fresh worlds" in b.info["reason"]
    assert overruled >= 3 and 1 <= kept < overruled  # both ways taken
