"""The learned evaluation (bezique.bots.value) and inference (bezique.bots.inference).

The held-out positions are generated here from fixed seeds that training never used (it uses
seed 1): a few deals of the heuristic bot, as lab/scripts/train_value.py plays them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from bezique import Deal, Rules, fast
from bezique.arena import valuedata
from bezique.bots import inference, value
from bezique.core.observation import Observation

HELD_OUT_SEED = 1_000_007


@cache
def held_out() -> list[valuedata.Row]:
    """Positions of three deals that no shipped model was fit on (every third decision)."""
    rollouts = 8 if fast.supports(Rules.preset("classic")) else 0
    return valuedata.generate(
        "classic", deals=3, seed=HELD_OUT_SEED, rollouts=rollouts, every=3, jobs=1
    )


def target(row: valuedata.Row) -> float:
    return row.rollout if row.rollout is not None else row.margin


def test_positions_depend_on_the_seed_alone() -> None:
    """A deal played again gives the same rows (the training data is reproducible)."""
    job = ("classic", 5, 2, 0.1, 2, 6)
    first, again = valuedata.play_deal(job), valuedata.play_deal(job)
    assert first == again and len(first) > 5
    assert valuedata.play_deal(("classic", 6, 2, 0.1, 2, 6)) != first
    with pytest.raises(ValueError, match="deals and every"):
        valuedata.generate("classic", deals=0, seed=1)


def test_the_search_target_is_the_searchs_own_playouts() -> None:
    """``target="search"``: the same positions and final margins, reproducible, but the rollout
    target is the expert search's playouts from the seat's worlds (FastDeal.rollout), not the
    plain policy's from the true state; an unknown target is refused."""
    plain = valuedata.play_deal(("classic", 5, 2, 0.1, 4, 6))
    job = ("classic", 5, 2, 0.1, 4, 6, "search")
    search = valuedata.play_deal(job)
    assert search == valuedata.play_deal(job)
    assert [(r.observation, r.margin) for r in search] == [(r.observation, r.margin) for r in plain]
    assert all(r.rollout is not None for r in search)
    assert sum(a.rollout != b.rollout for a, b in zip(search, plain, strict=True)) > len(plain) // 2
    with pytest.raises(ValueError, match="unknown target"):
        valuedata.generate("classic", deals=1, seed=1, target="oracle")


# --- the learned evaluation --------------------------------------------------------------------------
def test_shipped_value_model_loads_and_names_its_training() -> None:
    model = value.shipped_model("classic")
    assert len(model.mean) == len(value.FEATURE_NAMES)
    assert "command" in model.info and "figures" in model.info
    again = value.ValueModel.from_json(model.to_json())
    x = value.features(Deal.new(Rules.preset("classic"), seed=2).observation(1))
    assert again.predict(x) == model.predict(x)


def test_shipped_value_model_beats_the_constant_on_held_out_positions() -> None:
    rows = held_out()
    assert len(rows) > 60
    model = value.shipped_model("classic")
    preds = [value.evaluate(r.obs()) for r in rows]
    mse = sum((p - target(r)) ** 2 for p, r in zip(preds, rows, strict=True)) / len(rows)
    base = sum((model.constant - target(r)) ** 2 for r in rows) / len(rows)
    assert mse < 0.8 * base, (mse, base)


def test_the_search_value_model_beats_the_constant_on_its_own_target() -> None:
    """The model fit to the search's own playouts (lab/weights/value_classic_search.json), on
    held-out deals whose target is made the same way: better than its training mean."""
    model = value.ValueModel.load(
        Path(__file__).resolve().parent.parent / "lab" / "weights" / "value_classic_search.json"
    )
    assert "--target search" in str(model.info["command"])
    rows = valuedata.generate(
        "classic", deals=3, seed=HELD_OUT_SEED, rollouts=8, every=3, jobs=1, target="search"
    )
    assert len(rows) > 60
    preds = [model.predict(value.features(r.obs())) for r in rows]
    mse = sum((p - target(r)) ** 2 for p, r in zip(preds, rows, strict=True)) / len(rows)
    base = sum((model.constant - target(r)) ** 2 for r in rows) / len(rows)
    assert mse < 0.8 * base, (mse, base)
    with pytest.raises(ValueError, match="no shipped value model"):
        value.shipped_model("four")


def test_value_follows_the_points_so_far() -> None:
    """Late in a deal the points already scored dominate: a side far ahead is valued above
    one far behind (the sign of the margin so far, on the held-out positions)."""
    rows = [r for r in held_out() if abs(r.obs().points[0] - r.obs().points[1]) >= 150]
    assert rows
    for r in rows:
        obs = r.obs()
        assert obs.seat is not None
        ahead = obs.points[obs.seat] > obs.points[1 - obs.seat]
        assert (value.evaluate(obs) > 0) == ahead


def test_evaluate_refuses_what_it_cannot_read() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=4)
    with pytest.raises(ValueError, match="public view"):
        value.evaluate(deal.observation(None))
    with pytest.raises(ValueError, match="seat 0's observation"):
        value.evaluate(deal.observation(0), 1)
    with pytest.raises(ValueError, match="no shipped value model"):
        value.evaluate(Deal.new(Rules.preset("four"), seed=4).observation(0))
    with pytest.raises(ValueError, match="features"):
        value.shipped_model().predict([0.0] * 3)
    assert not value.has_model(Rules.preset("four")) and value.has_model(Rules.preset("classic"))


def test_features_count_every_card_once() -> None:
    """Each card of the pack is in exactly one place of the features (hand, tables, played or
    unseen), the turn-up aside."""
    for r in held_out()[::5]:
        obs = r.obs()
        x = dict(zip(value.FEATURE_NAMES, value.features(obs), strict=True))
        prefixes = tuple(f"{p}_{t}_" for p in value.PLACES for t in ("trump", "plain"))
        counted = sum(v for k, v in x.items() if k.startswith(prefixes))
        assert counted + (obs.turn_up is not None) == obs.rules.cards


# --- inference ----------------------------------------------------------------------------------------
def stage1(rows: list[valuedata.Row]) -> list[tuple[valuedata.Row, Observation]]:
    return [(r, o) for r in rows if (o := r.obs()).stage == 1 and len(o.tricks) >= 4]


def test_world_weights_are_a_probability() -> None:
    rng = random.Random(3)
    for _, obs in stage1(held_out())[::6]:
        worlds = [inference.sample_uniform(obs, rng) for _ in range(20)]
        ws = inference.world_weights(obs, worlds)
        assert len(ws) == 20 and all(w >= 0 for w in ws)
        assert math.isclose(sum(ws), 1.0)
    assert inference.world_weights(obs, []) == []


def test_guesses_hold_exactly_the_unseen_cards() -> None:
    for row, obs in stage1(held_out())[::7]:
        sizes, unseen = inference.hidden_places(obs)
        assert sizes == [len(h) for h in row.hidden]
        truth = Counter(c for h in row.hidden for c in h)
        assert not truth - Counter(unseen)  # the true cards are among the unseen
        for guess in inference.resample(obs, 3, random.Random(1)):
            assert [len(h) for h in guess] == sizes
            assert not Counter(c for h in guess for c in h) - Counter(unseen)


def test_inference_puts_more_probability_on_the_true_hands_than_uniform() -> None:
    """The mean over held-out positions of log P_weighted(true) - log P_uniform(true) is
    above 0 (the figure lab/scripts/measure_inference.py prints, on a small fixed set)."""
    rng = random.Random(11)
    gains = []
    for row, obs in stage1(held_out()):
        assert obs.seat is not None
        opp = 1 - obs.seat
        truth = inference.log_weight(obs, opp, row.hidden[opp])
        logs = [
            inference.log_weight(obs, opp, inference.sample_uniform(obs, rng)[opp])
            for _ in range(100)
        ]
        top = max(logs)
        gains.append(truth - top - math.log(sum(math.exp(v - top) for v in logs) / len(logs)))
    assert len(gains) >= 15
    assert sum(gains) / len(gains) > 0.0, gains


def test_log_weight_refuses_the_observers_own_seat() -> None:
    obs = Deal.new(Rules.preset("classic"), seed=1).observation(0)
    with pytest.raises(ValueError, match="own cards"):
        inference.log_weight(obs, 0, [])
    with pytest.raises(ValueError, match="at least 1"):
        inference.resample(obs, 0, random.Random(1))


def test_play_model_round_trips_and_checks_its_shape() -> None:
    model = inference.shipped_model()
    assert inference.PlayModel.from_json(model.to_json()) == model
    with pytest.raises(ValueError):
        inference.PlayModel.from_json({**model.to_json(), "lead": [0.0]})
    with pytest.raises(ValueError):
        inference.PlayModel.from_json({"format": "other"})


def test_play_model_scores_a_wild_card_led_as_the_trick_rules_do() -> None:
    """RULES.md 2.8 (the suitless wild card led: any card takes the trick, the engine's
    reading) and HAITIAN.md HD12 (``wild_card_lead_wins``: it wins unless trumped); the play
    model asks ``core.tricks.beats`` rather than a rule of its own."""
    from bezique.core.cards import WILD

    model = inference.PlayModel(tuple([0.0] * 16), tuple([0.0] * 16), beats=1.0)
    plain_ace, trump_seven = 1 * 8 + 0, 0 * 8 + 7  # suit 1 plain, suit 0 trumps
    assert model.score(plain_ace, 0, WILD) == 1.0
    assert model.score(plain_ace, 0, WILD, lead_wins=True) == 0.0
    assert model.score(trump_seven, 0, WILD, lead_wins=True) == 1.0


# --- honesty: evaluation and inference see only the observation --------------------------------------
def test_value_and_inference_cannot_tell_deals_that_look_the_same() -> None:
    """Two deals a seat cannot tell apart (the hidden cards dealt again) get the same value
    and the same weights for the same guesses."""
    checked = 0
    for row, obs in stage1(held_out())[::4]:
        deal = Deal.from_observation(obs, 0)  # a deal with this very observation
        seat = obs.seat
        assert seat is not None
        for k in range(2):
            other = deal.resample(seat, random.Random(k))
            o2 = other.observation(seat)
            assert o2 == deal.observation(seat)
            assert value.evaluate(o2) == value.evaluate(obs)
            guesses = [row.hidden, inference.sample_uniform(obs, random.Random(k))]
            assert inference.world_weights(o2, guesses) == inference.world_weights(obs, guesses)
        checked += 1
    assert checked >= 3


@pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")
def test_fast_worlds_are_weighed_from_their_hands() -> None:
    """Worlds from FastDeal.resample give guesses of the right cards, and weights."""
    _, obs = stage1(held_out())[3]
    root = fast.FastDeal.from_deal(Deal.from_observation(obs, 0))
    assert obs.seat is not None
    worlds = [root.resample(obs.seat, seed) for seed in range(8)]
    n = obs.rules.players
    guesses = [inference.world_hidden(obs, [w.hand(s) for s in range(n)]) for w in worlds]
    sizes, _ = inference.hidden_places(obs)
    assert all([len(h) for h in g] == sizes for g in guesses)
    assert math.isclose(sum(inference.world_weights(obs, guesses)), 1.0)
    public = next(o for _, o in stage1(held_out()) if o.seat is not None and o.tables[1 - o.seat])
    with pytest.raises(ValueError, match="public card"):
        inference.world_hidden(public, [[] for _ in range(n)])


def test_value_and_inference_import_no_deal() -> None:
    """They are functions of an observation: neither module imports the deal, the engine or
    the self-play answer key (where the hidden cards live)."""
    import ast
    from pathlib import Path

    for module in (value, inference):
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text())
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names.add(node.module or "")
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        banned = {"Deal", "FastDeal", "deal", "core.deal", "fast", "valuedata", "arena"}
        assert not names & banned, (module.__name__, names & banned)


def test_a_weigher_built_once_gives_each_guess_its_log_weight() -> None:
    """``seat_weigher``/``world_weigher`` work out the history once; each guess's weight is the
    one ``log_weight`` gives it alone."""
    checked = 0
    for _, obs in stage1(held_out())[::7][:6]:
        assert obs.seat is not None
        rng = random.Random(checked)
        guesses = [inference.sample_uniform(obs, rng) for _ in range(5)]
        whole = inference.world_weigher(obs)
        other = 1 - obs.seat
        one = inference.seat_weigher(obs, other)
        for g in guesses:
            alone = inference.log_weight(obs, other, g[other])
            assert one(g[other]) == pytest.approx(alone, abs=1e-9)
            assert whole(g) == pytest.approx(inference.world_log_weight(obs, g), abs=1e-9)
        checked += 1
    assert checked == 6
    assert obs.seat is not None
    with pytest.raises(ValueError, match="own cards"):
        inference.seat_weigher(obs, obs.seat)
