"""The learned evaluation in C (fast/value.c) and the playouts a search cuts short with it.

The C features must be those of :func:`bezique.bots.value.features` on the seat's observation,
and the C network must give :meth:`ValueModel.predict`'s value (docs/learning.md, "The
evaluation"); a cut that never comes must leave the search's values as they were.
"""

from __future__ import annotations

import random

import pytest

from bezique import Deal, Rules
from bezique.bots import Limit, make
from bezique.bots.value import FEATURE_NAMES, features, shipped_model
from bezique.fast.search import PimcSettings, pimc

fast = pytest.importorskip("bezique.fast")
if not fast.available():  # pragma: no cover - the C extension is built by make
    pytest.skip("the compiled engine is not built", allow_module_level=True)

FastDeal = fast.FastDeal


def _positions(preset: str, seeds: range, **options: object) -> list[Deal]:
    """Every position of heuristic self-play deals."""
    out = []
    for seed in seeds:
        deal = Deal.new(Rules.preset(preset, **options), seed=seed)
        bots = [make("heuristic", seed=s) for s in range(deal.rules.players)]
        while not deal.is_over:
            out.append(deal.clone())
            seat = deal.to_move
            assert seat is not None
            deal.apply(bots[seat].choose(deal.observation(seat)))
    return out


@pytest.mark.parametrize(("preset", "options"), [("classic", {}), ("four", {}), ("rubicon", {})])
def test_the_compiled_features_are_the_observations(
    preset: str, options: dict[str, object]
) -> None:
    """Every seat's view at every position of whole deals: the same 106 numbers."""
    checked = 0
    for deal in _positions(preset, range(2), **options):
        f = FastDeal.from_deal(deal)
        for seat in range(deal.rules.players):
            want = features(deal.observation(seat))
            got = f.value_features(seat)
            assert len(got) == len(FEATURE_NAMES)
            wrong = [
                n for n, a, b in zip(FEATURE_NAMES, want, got, strict=True) if abs(a - b) > 1e-9
            ]
            assert not wrong, (preset, deal.position(), seat, wrong)
            checked += 1
    assert checked > 100


def test_the_compiled_network_is_the_models() -> None:
    """The packed layers give predict's value (to rounding) at positions of whole deals."""
    model = shipped_model()
    values = []
    for deal in _positions("classic", range(1)):
        f = FastDeal.from_deal(deal)
        for seat in (0, 1):
            want = model.predict(features(deal.observation(seat)))
            got = f.value(seat, model.packed)
            assert got == pytest.approx(want, rel=1e-9, abs=1e-7)
            values.append(got)
    assert max(values) - min(values) > 50  # the positions differ, so must the values


def test_bad_models_and_rules_are_refused() -> None:
    """A packed model of the wrong size and rules whose tricks score other cards: ValueError."""
    f = FastDeal.new(Rules.preset("classic"), seed=1)
    with pytest.raises(ValueError, match="packed layers"):
        f.value(0, b"\0" * 24)
    with pytest.raises(ValueError, match="seat"):
        f.value_features(5)
    with pytest.raises(ValueError, match="aces and tens"):
        FastDeal.new(Rules.preset("chinese"), seed=1).value_features(0)


def _stage1_search(cut: tuple[int, int, bytes] | None) -> list[float]:
    deal = Deal.new(Rules.preset("classic"), seed=11)
    bots = [make("heuristic", seed=s) for s in (0, 1)]
    for _ in range(9):
        seat = deal.to_move
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observation(seat)))
    f = FastDeal.from_deal(deal)
    seat = deal.to_move
    assert seat is not None and deal.stage == 1
    moves = list(range(len(f.legal_actions())))
    values, _, _ = pimc(
        f,
        seat,
        seat,
        moves,
        0,
        40,
        5,
        PimcSettings(policy="smart", explore=0.0, solver_nodes=20_000, cut=cut),
    )
    return values


def test_a_cut_that_never_comes_changes_nothing() -> None:
    """Cut after more tricks than the deal has: the values of the playouts to the end, to the
    bit; cut after two tricks: other values (the model's), no longer whole-deal margins."""
    packed = shipped_model().packed
    whole = _stage1_search(None)
    assert _stage1_search((100, 0, packed)) == whole
    short = _stage1_search((2, 0, packed))
    assert len(short) == len(whole) and short != whole
    # a whole deal's margin is a whole number of points; the model's value almost never is
    assert all(v == int(v) for v in whole)
    assert sum(v != int(v) for v in short) > len(short) // 2


def test_a_cut_is_refused_where_there_is_no_model() -> None:
    """Three sides, or tricks scoring other cards: the C search refuses the cut."""
    packed = shipped_model().packed
    f = FastDeal.new(Rules.preset("three"), seed=2)
    with pytest.raises(ValueError, match="two-sided"):
        pimc(
            f, 0, 0, [0], 0, 1, 1, PimcSettings(explore=0.0, solver_nodes=1000, cut=(2, 0, packed))
        )
    f = FastDeal.new(Rules.preset("classic"), seed=2)
    with pytest.raises(ValueError, match="at least 0"):
        pimc(
            f, 0, 0, [0], 0, 1, 1, PimcSettings(explore=0.0, solver_nodes=1000, cut=(-1, 0, packed))
        )


def test_the_cut_bots_are_the_steady_search_without_a_model() -> None:
    """On rules without a value model (four-handed) the cut search chooses as the uncut one."""
    deal = Deal.new(Rules.preset("four"), seed=3)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    a = make(
        "pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5,cut=4/8", seed=4
    ).play(obs, Limit(iterations=300))
    b = make(
        "pimc-c:prior=learned,playout=learned,learned_explore=0,learned_bar=2/1.5", seed=4
    ).play(obs, Limit(iterations=300))
    assert a.action == b.action and a.info == b.info


def test_a_rollout_from_the_seats_worlds_reads_only_its_view() -> None:
    """FastDeal.rollout(seat=...) deals the unseen cards again first, but from where this state
    has them: built from the seat's observation (Deal.from_observation, as the search players
    build their worlds), two deals the seat cannot tell apart give the same values, and they
    are not one world's value repeated; built from the true deals they differ."""
    from bezique.bots.learned import learned_params

    params = learned_params(Rules.preset("classic"))
    checked = differ = 0
    stage1 = [d for d in _positions("classic", range(1)) if d.stage == 1]
    for deal in stage1[4::11]:
        seat = deal.to_move
        assert seat is not None
        other = deal.resample(seat, random.Random(checked))
        assert other.observation(seat) == deal.observation(seat)
        assert other.position() != deal.position()

        def values(d: Deal, seat: int = seat) -> list[float]:
            view = Deal.from_observation(d.observation(seat), random.Random(1))
            f = FastDeal.from_deal(view)
            return [f.rollout(seat, k, params, seat=seat) for k in range(8)]

        mine = values(deal)
        assert mine == values(other)
        assert len(set(mine)) > 1
        a, b = FastDeal.from_deal(deal), FastDeal.from_deal(other)
        differ += [a.rollout(seat, k, params, seat=seat) for k in range(8)] != [
            b.rollout(seat, k, params, seat=seat) for k in range(8)
        ]
        checked += 1
    assert checked >= 4 and differ >= 1


def test_a_rollout_in_stage_2_is_the_exact_end() -> None:
    """From the first trick of stage 2 (every card known to both seats) the rollout is the
    solver's: the margin the heuristic player, exact in stage 2, reaches from there."""
    deal = next(d for d in _positions("classic", range(3, 4)) if d.stage == 2)
    f = FastDeal.from_deal(deal)
    end = deal.clone()
    bots = [make("heuristic", seed=s) for s in (0, 1)]
    while not end.is_over:
        seat = end.to_move
        assert seat is not None
        end.apply(bots[seat].choose(end.observation(seat)))
    for side in (0, 1):
        margin = end.points[side] - end.points[1 - side]
        assert f.rollout(side, 5) == pytest.approx(margin)
        assert f.rollout(side, 6, seat=1 - side) == pytest.approx(margin)


def test_bad_rollouts_are_refused() -> None:
    f = FastDeal.new(Rules.preset("classic"), seed=1)
    with pytest.raises(ValueError, match="side"):
        f.rollout(2)
    with pytest.raises(ValueError, match="seat"):
        f.rollout(0, seat=3)
    with pytest.raises(ValueError, match="at least 0"):
        f.rollout(0, solver_nodes=-1)
