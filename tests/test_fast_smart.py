"""The weights of the compiled ``'smart'`` policy (:mod:`bezique.fast.smart`), duels between two
weightings, and the worlds a search may weigh (``bezique.fast.search.pimc_hidden``, ``pimc-c:inference=1``)."""

from __future__ import annotations

import json
import math
import random
import statistics
from pathlib import Path

import pytest

from bezique import Deal, Observation, Rules, fast
from bezique.bots import Limit, inference, make
from bezique.bots.fastpimc import _paired
from bezique.bots.heuristic import HeuristicBot
from bezique.fast import duel
from bezique.fast.search import PimcSettings, pimc, pimc_hidden
from bezique.fast.smart import SMART_DEFAULT, SMART_NAMES, SMART_PARAMS, check_params

pytestmark = pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")

CLASSIC = Rules.preset("classic")


LP = "prior=learned,playout=learned,learned_bar=2/1.5"
LP0 = "prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5"


def with_weight(name: str, value: float) -> list[float]:
    out = list(SMART_DEFAULT)
    out[SMART_NAMES.index(name)] = value
    return out


def heuristic_stage1(seed: int, plays: int) -> Deal:
    """A classic deal after ``plays`` actions of heuristic self-play."""
    deal = Deal.new(CLASSIC, seed=seed)
    bots = [HeuristicBot(1), HeuristicBot(2)]
    for _ in range(plays):
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)))
    return deal


def test_the_weights_are_named_once_each() -> None:
    assert len(SMART_NAMES) == len(set(SMART_NAMES)) == len(SMART_PARAMS) == 21
    assert check_params(SMART_DEFAULT) == SMART_DEFAULT


def test_bad_weights_are_refused() -> None:
    with pytest.raises(
        ValueError, match=r"21 weights \(77 with its learned terms, 1021 with its network\): got 3"
    ):
        check_params([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="weight meld must be a finite number"):
        check_params(with_weight("meld", math.nan))
    with pytest.raises(ValueError, match="weight trump must be a finite number"):
        check_params(with_weight("trump", "8"))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="two-handed"):
        duel(Rules.preset("four"), 1, 1, SMART_DEFAULT, SMART_DEFAULT)
    with pytest.raises(ValueError, match="decks"):
        duel(CLASSIC, -1, 1, SMART_DEFAULT, SMART_DEFAULT)
    with pytest.raises(ValueError, match="21 weights"):
        duel(CLASSIC, 1, 1, SMART_DEFAULT, [0.0])


def test_a_duel_of_equal_weights_cancels_deck_by_deck() -> None:
    """The same cards dealt twice, the players' seats swapped: equal players' margins cancel."""
    margins = duel(CLASSIC, 30, 5, SMART_DEFAULT, SMART_DEFAULT)
    assert len(margins) == 30
    assert all(a == -b for a, b in margins)
    assert any(a != 0 for a, _ in margins)
    assert duel(CLASSIC, 30, 5, SMART_DEFAULT, SMART_DEFAULT) == margins  # reproducible


def test_a_policy_blind_to_melds_loses_the_duel() -> None:
    """Melds are most of a deal's points (RULES.md section 5): a policy that gives them no
    weight when it keeps cards loses clearly to the heuristic's weights."""
    margins = duel(CLASSIC, 300, 9, with_weight("meld", 0.0), SMART_DEFAULT)
    per_deck = [(a + b) / 2 for a, b in margins]
    mean = statistics.fmean(per_deck)
    se = statistics.stdev(per_deck) / math.sqrt(len(per_deck))
    assert mean + 3 * se < 0


def smart_pimc_call() -> tuple[fast.FastDeal, tuple[int, int, list[int], int, int, int]]:
    """A stage-1 position of heuristic self-play and the arguments of a small ``pimc`` call
    on it with the ``'smart'`` playouts (every legal action, 40 worlds, no random moves)."""
    deal = heuristic_stage1(3, 12)
    seat = deal.to_move
    assert seat is not None
    world = fast.FastDeal.from_deal(deal)
    moves = list(range(len(world.legal_actions())))
    return world, (seat, seat, moves, 0, 40, 11)


SMART = PimcSettings(explore=0.0, policy="smart")


def test_pimc_takes_the_smart_weights() -> None:
    world, args = smart_pimc_call()
    plain = pimc(world, *args, SMART)
    assert pimc(world, *args, SMART.replace(smart_params=SMART_DEFAULT)) == plain
    assert pimc(world, *args, SMART.replace(smart_params=with_weight("meld", 0.0))) != plain
    with pytest.raises(ValueError, match="21 weights"):
        SMART.replace(smart_params=[1.0])


def test_pimc_plays_the_other_side_out_by_its_own_weights() -> None:
    """``other_params``: the opponent's playout moves by other weights (``pimc-c:...,opponent=smart``'s model
    of an opponent); None plays every side alike."""
    world, args = smart_pimc_call()
    blind = with_weight("meld", 0.0)
    mine = pimc(world, *args, SMART.replace(smart_params=blind))
    assert pimc(world, *args, SMART.replace(smart_params=blind, other_params=blind)) == mine
    theirs = pimc(world, *args, SMART.replace(smart_params=blind, other_params=SMART_DEFAULT))
    assert theirs != mine
    assert pimc(world, *args, SMART.replace(other_params=blind)) not in (mine, theirs)
    with pytest.raises(ValueError, match="21 weights"):
        SMART.replace(other_params=[1.0])


def test_pimc_hidden_names_the_cards_of_pimcs_worlds() -> None:
    """World w of a pimc call is resample(seat, seed * A + w * B): the same unseen cards."""
    deal = heuristic_stage1(5, 30)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    world = fast.FastDeal.from_deal(Deal.from_observation(obs, random.Random(1)))
    seed, mask = 123456789, (1 << 64) - 1
    guesses = pimc_hidden(world, seat, 3, 5, seed)
    assert len(guesses) == 5
    for w, guess in enumerate(guesses):
        wseed = (seed * 0x9E3779B97F4A7C15 + (3 + w) * 0xBF58476D1CE4E5B9) & mask
        same = world.resample(seat, wseed)
        expected = inference.world_hidden(obs, [same.hand(s) for s in range(2)])
        assert guess[seat] == [] and sorted(guess[1 - seat]) == sorted(expected[1 - seat])
    assert len({tuple(g[1 - seat]) for g in guesses}) > 1


def test_weighted_paired_statistics_reduce_to_the_plain_ones() -> None:
    rng = random.Random(4)
    a = [rng.gauss(0, 10) for _ in range(30)]
    b = [rng.gauss(1, 10) for _ in range(30)]
    assert _paired(a, b, [1.0] * 30) == pytest.approx(_paired(a, b))
    # weight only the last ten worlds: the plain statistics of those ten
    mu, var, n = _paired(a, b, [0.0] * 20 + [2.0] * 10)
    assert (mu, var, n) == pytest.approx(_paired(a[20:], b[20:]))


def test_the_inference_search_weighs_its_worlds() -> None:
    """``pimc-c:inference=1`` reads only the observation (tests/test_bots_search.py) and its worlds'
    weights change the values it reports against the same search unweighted."""
    deal = heuristic_stage1(7, 30)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    plain = make("pimc-c", 3).play(obs, Limit(iterations=400))
    weighed = make("pimc-c:inference=1", 3).play(obs, Limit(iterations=400))
    assert weighed.info["scores"] != plain.info["scores"]
    assert str(weighed.action) in {str(a) for a in deal.legal_actions()}


def four_handed_choice(seed: int) -> Observation:
    """The observation of the seat to move after 14 actions of four-handed heuristic play: a
    rule set without learned weights nor a play model, with more than one legal action."""
    deal = Deal.new(Rules.preset("four"), seed=seed)
    bots = [HeuristicBot(s) for s in range(4)]
    for _ in range(14):
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)))
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    assert len(obs.legal) > 1
    return obs


def test_the_inference_search_counts_worlds_alike_beyond_two_hands() -> None:
    """The play model describes two hands: with four, ``pimc-c:inference=1`` is ``pimc-c``."""
    obs = four_handed_choice(4)
    plain = make("pimc-c", 3).play(obs, Limit(iterations=200))
    weighed = make("pimc-c:inference=1", 3).play(obs, Limit(iterations=200))
    assert (weighed.action, weighed.info["scores"]) == (plain.action, plain.info["scores"])


def test_the_opponent_model_and_steady_playouts_change_the_search() -> None:
    """``opponent=smart`` plays the other side out by the heuristic's rules and
    ``learned_explore=0`` makes no random playout moves: each reports other values than the
    learned search from the same worlds, both together other values again, and so do the
    network weights (lab/weights) with and without random playout moves."""
    deal = heuristic_stage1(7, 30)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    scores = {}
    net = Path(__file__).resolve().parent.parent / "lab" / "weights" / "policy_classic_net.json"
    names = (
        f"pimc-c:{LP}",
        f"pimc-c:{LP},opponent=smart",
        f"pimc-c:{LP0}",
        f"pimc-c:{LP0},opponent=smart",
        f"pimc-c:{LP},weights={net}",
        f"pimc-c:{LP0},weights={net}",
    )
    for name in names:
        result = make(name, 3).play(obs, Limit(iterations=400))
        assert str(result.action) in {str(a) for a in deal.legal_actions()}
        scores[name] = json.dumps(result.info["scores"], sort_keys=True)
    assert len(set(scores.values())) == len(names)


def test_steady_playouts_only_where_the_learned_policy_plays_them() -> None:
    """``learned_explore=0`` (the ``expert`` level) drops the random playout moves only where
    the learned policy plays the playouts: on rules without learned weights (four-handed) the
    search is the learned search with random moves, and so ``pimc-c``, to the value."""
    obs = four_handed_choice(5)
    found = {
        name: make(name, 3).play(obs, Limit(iterations=200))
        for name in ("pimc-c", f"pimc-c:{LP}", f"pimc-c:{LP0}")
    }
    assert len({(str(r.action), json.dumps(r.info["scores"])) for r in found.values()}) == 1


def test_the_compiled_meld_loss_is_the_views() -> None:
    """The ``'smart'`` policy's meld loss in C (feature ``meld_loss``, worked out once per plan
    item and card for speed) is the reference view's: the meld value of the seat's holdings
    with the card less without it, over the melds its kind is in (``SimpleBot.keep_value``).
    One difference is the C policy's own: its draw chance counts the turn-up among the cards
    still to be drawn, where the view counts the stock without it."""
    from bezique.bots.view import View
    from bezique.core.cards import parse_card
    from bezique.fast.smart import LEARNED_NAMES

    column = LEARNED_NAMES.index("meld_loss")
    compared = nonzero = 0
    for seed in range(4):
        deal = Deal.new(CLASSIC, seed=seed)
        bots = [HeuristicBot(1), HeuristicBot(2)]
        while deal.stage == 1 and not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            found = fast.FastDeal.from_deal(deal).smart_features()
            obs = deal.observation(seat)
            if found is not None:
                view = View(obs)
                draws = (obs.stock_size + (obs.turn_up is not None)) / CLASSIC.players
                view.draw_chance = min(1.0, draws / view.unseen_total) if view.unseen_total else 0.0
                for action, row in zip(deal.legal_actions(), found[1], strict=True):
                    k = parse_card(str(action).split()[1].split("@")[0])
                    copies = [i for i, (kk, _) in enumerate(view.holdings) if kk == k]
                    if len({view.holdings[i][1] for i in copies}) != 1:
                        continue  # copies on the table and in hand: which one is played is moot
                    rest = [h for i, h in enumerate(view.holdings) if i != copies[0]]
                    want = view.meld_value(view.holdings, {k}) - view.meld_value(rest, {k})
                    assert row[column] == pytest.approx(want, rel=1e-9, abs=1e-9), (seed, action)
                    compared += 1
                    nonzero += want != 0.0
            deal.apply(bots[seat].choose(obs))
    assert compared > 300 and nonzero > 100
