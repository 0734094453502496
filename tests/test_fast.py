"""The compiled engine (bezique.fast) against the reference core.

The lockstep tests step both engines through random, stacked and part-played deals of every
preset (and random option variations), comparing after every action the legal
actions in notation and order, their action ids, points, phase, trump, stock size, every hand,
table and known card, and the result (RULES.md is the spec of both; the reference core defines
what the rules mean).  The big run is ``scripts/fast_differential.py``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bezique import Deal, IllegalAction, Rules, fast
from bezique.fast.differential import PRESETS, compare, deals, lockstep, random_rules
from classic_kit import build  # the stacked-deal helper of the classic rule tests
from fast_kit import ZeroRandom

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(
    os.environ.get("BEZIQUE_NO_FAST") == "1", reason="explicitly run without the compiled engine"
)

# deals per preset in the CI sample (a few thousand deals in all, about a minute)
SAMPLE = {
    "classic": 400,
    "chinese": 60,
    "eight-pack": 40,
    "rubicon": 80,
    "haitian": 90,
    "old-russian": 24,
}


def test_extension_is_built() -> None:
    # CI must fail when the extension was not built (set BEZIQUE_NO_FAST=1 to run without it)
    assert fast.available()


def test_tables_header_is_generated_from_the_core() -> None:
    script = ROOT / "scripts" / "make_fast_tables.py"
    done = subprocess.run([sys.executable, str(script), "--check"], check=False)
    assert done.returncode == 0, (
        "a generated file of the compiled engine is stale: run scripts/make_fast_tables.py"
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_lockstep_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    steps = 0
    for deal, greedy in deals(rules, SAMPLE.get(preset, 150), seed=11):
        steps += lockstep(deal, rng, ids=steps < 4000, greedy=greedy)
    assert steps > 0


@pytest.mark.parametrize("players", [3, 4])
def test_lockstep_no_trump_other_counts(players: int) -> None:
    rules = Rules.preset("no-trump", players=players)
    rng = random.Random(players)
    for deal, greedy in deals(rules, 40, seed=5):
        lockstep(deal, rng, greedy=greedy)


def test_lockstep_random_option_variations() -> None:
    rng = random.Random(2026)
    for i in range(80):
        rules = random_rules(rng)
        for deal, greedy in deals(rules, 2, seed=i):
            lockstep(deal, rng, greedy=greedy)


@pytest.mark.parametrize("preset", ["russian", "three", "four", "classic"])
def test_lockstep_seed_001_options(preset: str) -> None:
    # seed 001 l.14: the leader of a trick draws first (draw_order=leader-first); the seven
    # of trumps exchanged before min_tricks_before_declaring allows a meld
    rng = random.Random(preset)
    for options in (
        {"draw_order": "leader-first"},
        {"min_tricks_before_declaring": 3, "exchange_before_min_tricks": True},
        {
            "draw_order": "leader-first",
            "min_tricks_before_declaring": 1,
            "exchange_before_min_tricks": True,
            "partner_declaring": "winner-or-partner",
        },
    ):
        rules = Rules.preset(preset, **options)
        for deal, greedy in deals(rules, 6, seed=3):
            lockstep(deal, rng, greedy=greedy)


def _midgame(rules: Rules, seed: int, steps: int) -> Deal:
    deal = Deal.new(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def test_unsupported_option_is_named() -> None:
    # more cards than the engine's arrays hold: refused by the option that asks for them
    with pytest.raises(fast.UnsupportedRules, match="option packs=12"):
        fast.FastDeal.new(Rules.preset("classic", packs=12), seed=1)
    with pytest.raises(fast.UnsupportedRules, match="packs=12"):
        fast.simulate(Rules.preset("classic", packs=12), 1)
    # every preset is played: wild cards (the Haitian jokers, the old Russian one, decision
    # 11) and the old Russian cumulative trump sets included
    for name in Rules.presets():
        assert fast.supports(Rules.preset(name)), name
    assert fast.supports(Rules.preset("classic", wild_cards=2, trump_set_scoring="cumulative"))


def test_the_big_run_script_plays_at_random_or_by_bots(tmp_path: Path) -> None:
    """scripts/fast_differential.py: one chunk at random and one played by bots, each logged
    under its own kind, so a rerun skips only the chunks its own kind checked."""
    script, log = str(ROOT / "scripts" / "fast_differential.py"), str(tmp_path / "run.log")

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, script, "--deals", "1", "--jobs", "1", "--log", log, *extra]
        return subprocess.run(cmd, capture_output=True, text=True, check=False)

    for extra in ([], ["--bots", "heuristic,learned"]):
        done = run(*extra)
        assert done.returncode == 0 and "ok: 25 deals" in done.stdout, done.stdout + done.stderr
    again = run("--bots", "heuristic,learned")
    assert "1 chunks already checked (25 deals)" in again.stdout
    lines = Path(log).read_text().splitlines()
    assert [line.split()[5:] for line in lines] == [[], ["heuristic,learned"]]
    bad = run("--bots", "nobody")
    assert bad.returncode == 2 and "no bot named 'nobody'" in bad.stderr


def test_a_long_declaration_is_written_whole() -> None:
    """An eight-pack quintuple bezique (RULES.md E02) whose ten cards each name the melds they
    are in runs to 606 characters: the compiled engine once cut its texts at 511, so it could
    not apply the move the reference core offered (found by random deals of the search bots)."""
    position = (ROOT / "tests" / "data" / "eight_pack_quintuple_bezique.position").read_text()
    ref = Deal.from_position(position.strip())
    deal = fast.FastDeal.from_deal(ref)
    texts = [str(a) for a in ref.legal_actions()]
    quintuple = next(t for t in texts if t.startswith("meld quintuple-bezique"))
    assert len(quintuple) > 600
    assert deal.legal_texts() == texts
    assert [str(a) for a in deal.legal_actions()] == texts
    assert deal.legal_id_texts() == [(i, str(a)) for i, a in ref.legal_id_actions()]
    deal.apply(quintuple)
    ref.apply(quintuple)
    assert deal.position() == ref.position()
    assert deal.history[-1] == quintuple


def test_lockstep_played_by_bots_reaches_long_declarations() -> None:
    """An eight-pack deal played by the heuristic and learned players, in lockstep: they keep
    their court cards and declare them again and again (E02: bezique up to quintuple), so the
    texts grow past 511 characters, which the compiled engine once cut short.  Random play
    seldom gets there."""
    from bezique.bots import registry
    from bezique.bots.base import Bot, Limit, PlayResult
    from bezique.core.observation import Observation

    rules = Rules.preset("eight-pack")
    deal = Deal.new(rules, seed=1, dealer=1)
    players = [registry.make(name, seed=7 + s) for s, name in enumerate(["learned", "heuristic"])]
    longest = 0

    class Watch(Bot):
        """A player that notes how long its chosen actions' texts are."""

        def __init__(self, bot: Bot) -> None:
            super().__init__(bot.seed)
            self.bot = bot

        def play(self, observation: Observation, limit: Limit | None = None) -> PlayResult:
            nonlocal longest
            result = self.bot.play(observation, limit)
            longest = max(longest, len(str(result.action)))
            return result

    steps = lockstep(deal, random.Random(1), players=[Watch(p) for p in players])
    assert steps > 200 and longest > 511


def test_illegal_actions_raise_the_reference_message_and_change_nothing() -> None:
    # C05/C14: the follower may play any card in stage 1, but only a card he holds
    deal = build(["QS", "JD", "KH", "QH"], ["AS"], dealer=1)
    f = fast.FastDeal.from_deal(deal)
    before = (f.legal_actions(), f.points, f.hand(0), f.phase)
    for bad in ["play AS", "meld bezique QS JD", "exchange 7C", "pass", "dance", "", "play ZZ"]:
        with pytest.raises(IllegalAction) as mine:
            f.apply(bad)
        with pytest.raises(IllegalAction) as theirs:
            deal.clone().apply(bad)
        assert str(mine.value) == str(theirs.value)
    with pytest.raises(IllegalAction):
        f.apply(42)  # type: ignore[arg-type]
    assert (f.legal_actions(), f.points, f.hand(0), f.phase) == before


def test_loose_notation_is_read_as_the_reference_reads_it() -> None:
    # C20: a bezique is Q♠ J♦; the cards may be named in any order
    deal = build(["QS", "JD", "AC"], ["7D"], dealer=1)
    f = fast.FastDeal.from_deal(deal)
    for d in (deal, f):
        d.apply("play AC")
        d.apply("play 7D")
        d.apply("meld bezique jd qs")
    compare(Deal.from_position(deal.position()), f)
    assert f.points == deal.points and f.table(0) == ["QS", "JD"]


def test_action_ids_out_of_range_and_bad_types() -> None:
    f = fast.FastDeal.new(Rules.preset("classic"), seed=3)
    ids = f.legal_ids()
    top = max(ids)
    unused = next(i for i in range(top + 1) if i not in ids)
    ref = f.to_deal()
    for bad in [-1, 10**6, 2**70, -(2**70), "3", 1.5, None, True, unused]:
        with pytest.raises(IllegalAction) as mine:
            f.apply_id(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction) as theirs:
            ref.apply_id(bad)  # type: ignore[arg-type]
        assert str(mine.value) == str(theirs.value)
    assert f.legal_id_actions() == ref.legal_id_actions()
    assert f.action_id(f.legal_actions()[0]) == ref.action_id(ref.legal_actions()[0])
    assert f.id_action(ids[-1]) == ref.id_action(ids[-1])
    assert f.legal_ids() == ids
    f.apply_id(ids[0])
    assert f.legal_ids() != ids or f.to_move != 1


def test_over_deal_refuses_actions() -> None:
    f = fast.FastDeal.new(Rules.preset("classic"), seed=4)
    rng = random.Random(4)
    while not f.is_over:
        f.apply_id(rng.choice(f.legal_ids()))
    assert f.result is not None and f.legal_actions() == [] and f.to_move is None
    with pytest.raises(IllegalAction, match="over"):
        f.apply("pass")
    with pytest.raises(IllegalAction, match="over"):
        f.apply_id(0)


def test_clone_is_independent_and_observation_matches() -> None:
    deal = _midgame(Rules.preset("classic"), 9, 30)
    f = fast.FastDeal.from_deal(deal)
    g = f.clone()
    g.apply(g.legal_actions()[0])
    assert f.legal_actions() == deal.legal_actions()
    for seat in (0, 1, None):
        assert f.observation(seat) == deal.observation(seat)
    assert f.position() == deal.position()
    assert f.to_deal().position() == deal.position()
    assert g.history == [*deal.history, str(deal.legal_actions()[0])]


def test_bad_seat() -> None:
    f = fast.FastDeal.new(Rules.preset("classic"), seed=4)
    with pytest.raises(ValueError, match="no seat"):
        f.hand(2)
    with pytest.raises(ValueError, match="no seat"):
        f.table(-1)


def test_simulate_plays_whole_deals() -> None:
    rules = Rules.preset("classic")
    pts = fast.simulate(rules, 500, seed=1)
    assert pts.shape == (500, 2)
    # C31/C33: 160 points of brisques and 10 for the last trick are always scored
    assert (pts.sum(axis=1) >= 170).all()
    assert (pts == fast.simulate(rules, 500, seed=1)).all()
    assert not (pts == fast.simulate(rules, 500, seed=2)).all()
    four = fast.simulate(Rules.preset("four"), 20, seed=1)
    assert four.shape == (20, 2)
    with pytest.raises(ValueError):
        fast.simulate(rules, -1)
    with pytest.raises(ValueError, match="policy"):
        fast.simulate(rules, 1, policy="nonsense")


def test_playout_leaves_the_state_alone() -> None:
    deal = _midgame(Rules.preset("classic"), 2, 20)
    f = fast.FastDeal.from_deal(deal)
    before = f.position()
    pts = f.playout("random", seed=1)
    assert len(pts) == 2 and sum(pts) >= 170
    assert f.position() == before


@pytest.mark.parametrize("preset", PRESETS)
def test_heuristic_policy_is_the_python_default_policy(preset: str) -> None:
    # the compiled "heuristic" playout policy is bezique.bots.playout.playout_action, ported:
    # with the exploration and the tie-breaking noise off, both pick the same action every time
    from bezique.bots.playout import playout_action

    rules = Rules.preset(preset)
    steps = 0
    for seed in range(4):
        deal = Deal.new(rules, seed=seed)
        f = fast.FastDeal.from_deal(deal)
        rng = random.Random(seed)
        while not deal.is_over:
            want = playout_action(deal, ZeroRandom(), explore=0.0)
            got = f.legal_actions()[f._c.policy_pick("heuristic-exact", 0)]
            assert got == want, deal.position()
            action = rng.choice(deal.legal_actions()) if rng.random() < 0.3 else want
            deal.apply(action)
            f.apply(action)
            steps += 1
    assert steps > 100


def test_heuristic_playouts_and_simulate() -> None:
    rules = Rules.preset("classic")
    f = fast.FastDeal.from_deal(_midgame(rules, 5, 10))
    totals = [sum(f.playout("heuristic", seed=i)) for i in range(50)]
    assert all(t >= 170 for t in totals) and len(set(totals)) > 1
    pts = fast.simulate(rules, 200, seed=3, policy="heuristic")
    rnd = fast.simulate(rules, 200, seed=3, policy="random")
    # the policy declares the best meld at once: far more points than random play
    assert pts.sum() > rnd.sum()


@pytest.mark.parametrize("preset", ["classic", "three", "four", "russian", "rubicon", "haitian"])
def test_stage2_solver_gives_the_python_solvers_values(preset: str) -> None:
    # the compiled solver is bezique.bots.solver.Endgame ported: the same exact value of every
    # playable card, from every stage-2 position of random deals (RULES.md 2.1, stage 2 duties)
    from bezique.bots.solver import Endgame
    from bezique.core.cards import CODES

    rules = Rules.preset(preset)
    checked = 0
    for seed in range(3):
        deal = Deal.new(rules, seed=seed)
        rng = random.Random(seed)
        while deal.stage == 1:
            deal.apply(rng.choice(deal.legal_actions()))
        steps = 0
        while not deal.is_over:
            if deal.phase == "play" and (rules.players == 2 or steps >= 2 * rules.players):
                want = Endgame.from_deal(deal).solve(seed % rules.sides, 3_000_000).values
                got = fast.FastDeal.from_deal(deal).solve(seed % rules.sides)
                assert got == {CODES[k]: v for k, v in want.items()}, deal.position()
                checked += 1
            deal.apply(rng.choice(deal.legal_actions()))
            steps += 1
    assert checked > 5
    f = fast.FastDeal.new(rules, seed=1)
    with pytest.raises(ValueError, match="stage 2"):
        f.solve(0)


def test_solver_node_limit() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=8)
    rng = random.Random(8)
    while deal.stage == 1:
        deal.apply(rng.choice(deal.legal_actions()))
    f = fast.FastDeal.from_deal(deal)
    assert f.solve(0, max_nodes=3) is None
    assert f.solve(0) is not None


@pytest.mark.parametrize("preset", ["classic", "four", "rubicon"])
def test_determinize_keeps_what_the_seat_has_seen(preset: str) -> None:
    # the reshuffled deal is one the seat cannot tell apart (Deal.resample): same observation,
    # the unseen cards dealt again among the unseen places
    rules = Rules.preset(preset)
    deal = _midgame(rules, 6, 40)
    f = fast.FastDeal.from_deal(deal)
    seat = deal.to_move
    assert seat is not None
    others = set()
    for i in range(20):
        g = f.resample(seat, i)
        assert g.observation(seat) == deal.observation(seat)
        assert g.hand(seat) == f.hand(seat) and g.points == f.points
        assert [g.table(s) for s in range(rules.players)] == [
            f.table(s) for s in range(rules.players)
        ]
        assert [g.known(s) for s in range(rules.players)] == [
            f.known(s) for s in range(rules.players)
        ]
        hands, deck = g._c.hidden()
        before, deck0 = f._c.hidden()
        assert sorted(sum(hands, deck)) == sorted(sum(before, deck0))
        assert [len(h) for h in hands] == [len(h) for h in before] and len(deck) == len(deck0)
        compare(Deal.from_position(g.position()), g)
        others.add(tuple(g.hand((seat + 1) % rules.players)))
        g.playout("heuristic", seed=i)
    assert len(others) > 10
    assert f.position() == deal.position()


def test_meld_policy_fights_for_tricks_that_bring_a_declaration() -> None:
    # the "meld" policy differs from the "heuristic" one only in a stage-1 trick's worth to its
    # winner (half the best declaration it could then make, plus one, instead of a flat 8) and
    # to the loser: it picks otherwise only when following in stage 1, and where it takes a
    # trick the plain policy gives up, winning it opens a declaration of more than 14 points
    from bezique.bots.playout import declare_points

    rules = Rules.preset("classic")
    differ = fights = 0
    for seed in range(12):
        deal = Deal.new(rules, seed=100 + seed)
        rng = random.Random(seed)
        while not deal.is_over:
            f = fast.FastDeal.from_deal(deal)
            actions = f.legal_actions()
            plain = actions[f._c.policy_pick("heuristic-exact", 0)]
            meld = actions[f._c.policy_pick("meld-exact", 0)]
            if meld != plain:
                differ += 1
                assert deal.stage == 1 and deal.phase == "play" and deal.trick
                seat = deal.to_move
                after = deal.clone()
                after.apply(meld)
                plain_after = deal.clone()
                plain_after.apply(plain)
                if after.to_move == seat and plain_after.to_move != seat:
                    fights += 1
                    assert after.phase == "declare"
                    assert max(declare_points(rules, a) for a in after.legal_actions()) > 14
            deal.apply(rng.choice(actions) if rng.random() < 0.3 else plain)
    assert differ >= 3 and fights >= 1


def test_smart_policy_plays_stage_one_as_the_heuristic_player_does() -> None:
    # the 'smart' policy ports the heuristic player's stage-1 rules of thumb (its keep values
    # with the meld points a card may still bring, counted on the cards its seat has not seen;
    # trumps and aces kept for the end of the stock; safe leads to a wanted trick), reading the
    # seat's view of the state: in heuristic self-play it makes the heuristic's stage-1 card
    # choice far more often than the plain policy does
    from bezique.bots import make

    rules = Rules.preset("classic")
    same = {"smart-exact": 0, "heuristic-exact": 0}
    decisions = 0
    for seed in range(3):
        deal = Deal.new(rules, seed=500 + seed)
        bots = [make("heuristic", 1), make("heuristic", 2)]
        while not deal.is_over:
            seat = deal.to_move
            assert seat is not None
            obs = deal.observation(seat)
            choice = bots[seat].choose(obs)
            if deal.stage == 1 and deal.phase == "play" and len(obs.legal) > 1:
                # the policy may read only what the seat sees: any world of its view will do
                f = fast.FastDeal.from_deal(Deal.from_observation(obs, random.Random(seed)))
                decisions += 1
                for name in same:
                    same[name] += f.legal_actions()[f._c.policy_pick(name, 0)] == choice
            deal.apply(choice)
    assert decisions > 100
    assert same["smart-exact"] >= 0.9 * decisions
    assert same["heuristic-exact"] < 0.85 * decisions
