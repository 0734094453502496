"""The learned terms of the compiled ``'smart'`` policy (:data:`bezique.fast.smart.LEARNED_FEATURES`,
``FastDeal.smart_features``) and the script that fits them (``lab/scripts/train_policy.py``)."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest

from bezique import Deal, Rules, fast
from bezique.bots import Limit, make
from bezique.bots.base import legal_actions
from bezique.bots.fastpimc import FastPimcBot
from bezique.bots.learned import learned_choice, learned_params
from bezique.fast import duel
from bezique.fast.search import PimcSettings, pimc
from bezique.fast.smart import (
    LEARNED_NAMES,
    NET_NAMES,
    NET_SHAPE,
    SMART_DEFAULT,
    SMART_NAMES,
    check_params,
)

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")

CLASSIC = Rules.preset("classic")
NO_TERMS = (0.0,) * len(LEARNED_NAMES)


def learned(**weights: float) -> tuple[float, ...]:
    out = list(SMART_DEFAULT + NO_TERMS)
    for name, value in weights.items():
        out[len(SMART_NAMES) + LEARNED_NAMES.index(name)] = value
    return tuple(out)


def stage1_positions(seed: int, count: int) -> list[fast.FastDeal]:
    """Positions of classic self-play with a few random moves where the smart rules choose."""
    rng = random.Random(seed)
    out: list[fast.FastDeal] = []
    deal_no = 0
    while len(out) < count:
        deal = fast.FastDeal.new(CLASSIC, seed=seed * 1000 + deal_no)
        deal_no += 1
        while not deal.is_over and len(out) < count:
            ids = deal.legal_ids()
            if len(ids) > 1 and deal.smart_features() is not None:
                out.append(deal.clone())
            deal.apply_index(rng.randrange(len(ids)))
    return out


def test_the_learned_features_are_named_once_each() -> None:
    assert len(LEARNED_NAMES) == len(set(LEARNED_NAMES)) == 56
    assert not set(LEARNED_NAMES) & set(SMART_NAMES)
    assert check_params(learned()) == SMART_DEFAULT + NO_TERMS
    with pytest.raises(
        ValueError, match=r"\(77 with its learned terms, 1021 with its network\): got 22"
    ):
        check_params((*SMART_DEFAULT, 1.0))
    with pytest.raises(ValueError, match="weight lead_brisque must be a finite number"):
        check_params(learned(lead_brisque=float("inf")))
    with pytest.raises(ValueError, match="21 weights"):
        fast.FastDeal.new(CLASSIC, seed=1).smart_features([1.0])


def test_the_features_and_values_are_the_smart_policys_own() -> None:
    """With no learned terms the values pick what the compiled 'smart' policy picks; every
    feature row has one rank flag set, and a lead or a follow, never both."""
    rank_flags = [
        LEARNED_NAMES.index(f"{kind}_{rank}")
        for kind in ("plain", "trump")
        for rank in ("ace", "ten", "king", "queen", "jack", "nine", "eight", "seven")
    ]
    lead = LEARNED_NAMES.index("lead")
    for deal in stage1_positions(3, 60):
        view = deal.smart_features()
        assert view is not None
        values, rows = view
        assert len(values) == len(rows) == len(deal.legal_ids())
        pick = max(range(len(values)), key=lambda i: (values[i], -i))
        assert pick == deal._c.policy_pick("smart-exact", 0)
        assert deal.smart_features(learned()) == view
        for row, action in zip(rows, deal.legal_actions(), strict=True):
            assert len(row) == len(LEARNED_NAMES)
            assert sum(row[i] for i in rank_flags) == 1.0
            assert row[lead] == (1.0 if not deal.trick else 0.0)
            assert action.verb == "play"


def test_features_read_only_what_the_seat_sees() -> None:
    """Two deals that look the same to the seat to move (its unseen cards dealt again) give the
    same values and features: the policy cannot tell them apart."""
    for n, deal in enumerate(stage1_positions(4, 30)):
        seat = deal.to_move
        assert seat is not None
        other = deal.resample(seat, n)
        assert other.hand(1 - seat) != deal.hand(1 - seat) or not deal.stock_size
        assert other.smart_features(learned(lead_brisque=3.0)) == deal.smart_features(
            learned(lead_brisque=3.0)
        )


def test_the_network_adds_what_its_units_say() -> None:
    """Each card's value with a network is its value with the learned terms plus, over the
    units, the unit's weight times its rectified sum of the rules' value (no learned terms) and
    the features: the layout NET_SHAPE and NET_NAMES give (bezique.fast.smart)."""
    hidden, inputs = NET_SHAPE
    assert len(NET_NAMES) == len(set(NET_NAMES)) == hidden * (inputs + 2)
    rng = random.Random(8)
    linear = learned(lead_brisque=2.0, lead=-1.5, trump_ace=0.7)
    net = [rng.gauss(0.0, 0.3) for _ in range(hidden * inputs)]
    net += [rng.gauss(0.0, 1.0) for _ in range(hidden)]  # biases
    net += [rng.gauss(0.0, 2.0) for _ in range(hidden)]  # the units' weights in the value
    params = linear + tuple(net)
    assert check_params(params) == params
    changed = 0
    for deal in stage1_positions(9, 40):
        rules_only = deal.smart_features()
        with_linear = deal.smart_features(linear)
        view = deal.smart_features(params)
        assert rules_only is not None and with_linear is not None and view is not None
        assert view[1] == with_linear[1]
        for v_rules, v_linear, v, row in zip(
            rules_only[0], with_linear[0], view[0], view[1], strict=True
        ):
            x = [v_rules, *row]
            added = 0.0
            for h in range(hidden):
                total = net[hidden * inputs + h] + sum(
                    w * xi for w, xi in zip(net[h * inputs : (h + 1) * inputs], x, strict=True)
                )
                added += net[hidden * (inputs + 1) + h] * max(total, 0.0)
            assert v == pytest.approx(v_linear + added, abs=1e-9)
            changed += added != 0.0
    assert changed > 100


def test_the_smart_rules_alone_say_when_features_exist() -> None:
    deal = fast.FastDeal.new(Rules.preset("three"), seed=2)
    assert deal.smart_features() is None  # three hands: the plain rules choose
    deal = fast.FastDeal.new(CLASSIC, seed=2)
    while deal.stage == 1:
        deal.apply_index(0)
    while deal.phase != "play":
        deal.apply_index(0)
    assert deal.smart_features() is None  # stage 2: the solver's and the plain rules' part


def test_a_learned_weight_changes_the_choice_it_should() -> None:
    """A large weight on leading aces and tens makes the policy lead one wherever it may; its
    value grows by exactly the weight times the feature."""
    index = LEARNED_NAMES.index("lead_brisque")
    seen = 0
    for deal in stage1_positions(5, 80):
        base = deal.smart_features()
        view = deal.smart_features(learned(lead_brisque=1000.0))
        assert base is not None and view is not None
        for v0, v1, row in zip(base[0], view[0], view[1], strict=True):
            assert v1 == pytest.approx(v0 + 1000.0 * row[index])
        brisque = [i for i, row in enumerate(view[1]) if row[index] == 1.0]
        if brisque:
            seen += 1
            pick = max(range(len(view[0])), key=lambda i: (view[0][i], -i))
            assert pick in brisque
    assert seen > 5


def test_learned_weights_play_in_duels_and_in_pimc() -> None:
    """Zero learned weights are the plain smart policy, deck for deck; a weight that makes it
    throw its aces and tens away loses the duel."""
    assert duel(CLASSIC, 40, 3, learned(), SMART_DEFAULT) == duel(
        CLASSIC, 40, 3, SMART_DEFAULT, SMART_DEFAULT
    )
    bad = duel(CLASSIC, 300, 3, learned(lead_brisque=1000.0), SMART_DEFAULT)
    assert sum(a + b for a, b in bad) / (2 * len(bad)) < -10
    deal = stage1_positions(6, 1)[0]
    seat = deal.to_move
    assert seat is not None
    args = (seat, seat, list(range(len(deal.legal_ids()))), 0, 20, 5)
    smart = PimcSettings(explore=0.0, policy="smart")
    plain = pimc(deal, *args, smart)
    assert pimc(deal, *args, smart.replace(smart_params=learned())) == plain
    assert pimc(deal, *args, smart.replace(smart_params=learned(lead_brisque=1000.0))) != plain


def test_the_shipped_weights_load_and_beat_the_rules_alone() -> None:
    """The weights in the package are a full set, fit to classic, and the policy with them wins
    its duel against the heuristic's rules alone on fresh decks (their file says by how much)."""
    params = learned_params(CLASSIC)
    assert params is not None and len(params) == len(SMART_NAMES) + len(LEARNED_NAMES)
    assert any(params[len(SMART_NAMES) :])
    assert learned_params(Rules.preset("four")) is None
    assert learned_params(Rules.preset("haitian")) is None
    per_deck = [(a + b) / 2 for a, b in duel(CLASSIC, 4000, 2024, params, SMART_DEFAULT)]
    assert statistics.fmean(per_deck) > 0


def test_the_network_weights_load_and_beat_the_present_ones() -> None:
    """The weights with a network (lab/weights/policy_classic_net.json, on trial) are a full
    set with a network and win their duel against the shipped linear weights on fresh decks."""
    net = str(
        Path(__file__).resolve().parent.parent / "lab" / "weights" / "policy_classic_net.json"
    )
    params = learned_params(CLASSIC, net)
    present = learned_params(CLASSIC)
    assert params is not None and present is not None
    assert len(params) == len(SMART_NAMES) + len(LEARNED_NAMES) + len(NET_NAMES)
    assert any(params[-NET_SHAPE[0] :])  # the units' weights in the value
    assert learned_params(Rules.preset("four"), net) is None
    with pytest.raises(ValueError, match="cannot read learned weights"):
        learned_params(CLASSIC, "no/such/weights.json")
    per_deck = [(a + b) / 2 for a, b in duel(CLASSIC, 4000, 2024, params, present)]
    assert statistics.fmean(per_deck) > 0


def test_the_learned_bot_plays_the_learned_choice_and_the_heuristic_elsewhere() -> None:
    params = learned_params(CLASSIC)
    assert params is not None
    bot, heuristic = make("learned", 1), make("heuristic", 1)
    deal = Deal.new(CLASSIC, seed=8)
    differ = 0
    while not deal.is_over:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        action = bot.choose(obs)
        world = fast.FastDeal.from_deal(deal)
        pick = learned_choice(world, params)
        if pick is None or len(deal.legal_actions()) == 1:
            assert action == heuristic.choose(obs)
        else:
            assert action == world.legal_actions()[pick]
            differ += action != heuristic.choose(obs)
        deal.apply(action)
    assert differ > 0
    # with four hands there are no weights: the heuristic throughout
    deal = Deal.new(Rules.preset("four"), seed=8)
    for _ in range(12):
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        assert bot.choose(obs) == heuristic.choose(obs)
        deal.apply(bot.choose(obs))


def test_the_search_may_start_from_the_learned_choice() -> None:
    """``pimc-c:prior=learned`` keeps the learned policy's choice where the search cannot clear the bar
    against it (a budget of one world a card: never)."""
    params = learned_params(CLASSIC)
    assert params is not None
    bot = make("pimc-c:prior=learned", 2)
    for n, world in enumerate(stage1_positions(9, 12)):
        deal = world.to_deal()
        seat = deal.to_move
        assert seat is not None
        pick = learned_choice(world, params)
        assert pick is not None
        action = bot.play(deal.observation(seat), Limit(iterations=len(world.legal_ids()))).action
        assert action == world.legal_actions()[pick], n


def test_the_search_may_play_out_by_the_learned_policy() -> None:
    """``pimc-c:prior=learned,playout=learned`` values each candidate by playouts of the learned policy: with a budget of
    one world a candidate, its values are the compiled ``pimc``'s with the ``'smart'`` policy,
    the shipped weights and coupled draws, in the world its search deals; and it says whose
    choice it started from."""
    from bezique.bots.compiled import compiled_world

    params = learned_params(CLASSIC)
    assert params is not None
    bot = make("pimc-c:prior=learned,playout=learned,learned_bar=2/1.5", 3)
    inner = getattr(bot, "bot", bot)
    assert isinstance(inner, FastPimcBot)
    checked = 0
    for world0 in stage1_positions(13, 6):
        deal = world0.to_deal()
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        actions = legal_actions(obs)
        result = bot.play(obs, Limit(iterations=len(actions)))
        world, index, _, seed = compiled_world(obs, actions, inner._salt, heuristic=False)
        side = CLASSIC.side_of(seat)
        want, _, _ = pimc(
            world,
            seat,
            side,
            index,
            0,
            1,
            seed,
            PimcSettings(
                policy="smart",
                explore=inner.settings.explore,
                solver_nodes=inner.settings.solver_nodes,
                couple_draws=True,
                endgame_stock=0,
                smart_params=params,
            ),
        )
        cfg = inner.settings
        plain, _, _ = pimc(
            world,
            seat,
            side,
            index,
            0,
            1,
            seed,
            PimcSettings(explore=cfg.explore, solver_nodes=cfg.solver_nodes),
        )
        got = [result.info["scores"][str(a)] for a in actions]
        assert got == pytest.approx(want, abs=1e-3)
        checked += got != pytest.approx(plain, abs=1e-3)
        assert "the learned policy's choice" in result.info["reason"]
        assert (
            inner._bar == inner.settings.learned_bar == (2.0, 1.5)
        )  # the lower bar, with the weights
    assert checked  # the learned playouts are not the plain ones


def test_without_learned_weights_the_learned_search_is_pimc_c() -> None:
    """Where the rules have no learned weights (rubicon here), the learned search (``prior=learned,playout=learned``) searches exactly as
    ``pimc-c``: the same values for every candidate and the same choice."""
    rules = Rules.preset("rubicon")
    assert learned_params(rules) is None
    deal = Deal.new(rules, seed=21)
    rng = random.Random(4)
    asked = 0
    while deal.stage == 1 and asked < 6:
        seat = deal.to_move
        assert seat is not None
        obs = deal.observation(seat)
        if len(obs.legal) > 1:
            asked += 1
            bot = make("pimc-c:prior=learned,playout=learned,learned_bar=2/1.5", 5)
            lp = bot.play(obs, Limit(iterations=200))
            plain = make("pimc-c", 5).play(obs, Limit(iterations=200))
            assert (lp.action, lp.info["scores"]) == (plain.action, plain.info["scores"])
            assert bot._bar == (5.0, 2.5)  # type: ignore[attr-defined]
        deal.apply(rng.choice(legal_actions(obs)))
    assert asked == 6
