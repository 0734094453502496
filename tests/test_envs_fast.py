"""The environments on the compiled engine give the numbers the reference core gives.

``engine="auto"`` plays deal episodes in :mod:`bezique.fast` (a :class:`FastEpisode`); these
tests play the same seeds with ``engine="reference"`` and compare every observation tensor,
mask, reward, info and bot choice, over the presets the engine plays and random option
variations (the same ones the lockstep tests use).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from bezique import Deal, IllegalAction, Rules, fast
from bezique.arena.runner import PlayerSpec, _FastTable, _table, decide, play_deck
from bezique.envs import Encoding
from bezique.envs.common import ENGINES, Episode, FastEpisode, make_episode
from bezique.envs.gymnasium_env import BeziqueEnv
from bezique.envs.pettingzoo_env import BeziqueAECEnv
from bezique.fast.differential import PRESETS, UNPLAYED_PRESETS, random_rules

pytestmark = pytest.mark.skipif(not fast.available(), reason="compiled engine not built")


def _same(a: object, b: object) -> None:
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (tuple, list)):
        assert isinstance(b, type(a)) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray) and a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    else:
        assert a == b


def _gym_pair(rules: Rules, seed: int, seat: int = 0) -> int:
    """Play one seeded episode in both engines, the agent choosing at random; returns steps."""
    envs = [BeziqueEnv(rules, seat=seat, engine=e) for e in ("auto", "reference")]
    fast_env, ref_env = envs
    out = [e.reset(seed=seed) for e in envs]
    assert isinstance(fast_env.episode, FastEpisode)
    assert type(ref_env.episode) is Episode
    _same(out[0], out[1])
    rng = random.Random(seed)
    steps = 0
    info = out[0][1]
    while info["legal"]:
        action = rng.choice(sorted(info["legal"]))
        results = [e.step(action) for e in envs]
        for a, b in zip(results[0], results[1], strict=True):
            _same(a, b)
        steps += 1
        if results[0][2]:
            break
        info = results[0][4]
    assert fast_env.episode.scores() == ref_env.episode.scores()
    assert fast_env.episode.deal.history == ref_env.episode.deal.history
    return steps


# The compiled episode numbers the cards as a position string does, the reference episode as
# Deal.new dealt them; when a player holds two like concealed cards, one of them known (the
# old Russian nine exchange makes this common), a meld takes the lower id, so which copy stays
# known can differ between the two.  The engines agree when given the same ids (the lockstep
# tests); the gap is the reference core's choice of copy, left to it.
_ID_SENSITIVE = {"old-russian"}


@pytest.mark.parametrize("preset", [p for p in PRESETS if p not in _ID_SENSITIVE])
def test_gymnasium_same_numbers_on_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(3):
        assert _gym_pair(rules, seed, seat=seed % rules.players) > 0


def test_gymnasium_same_numbers_with_random_options() -> None:
    rng = random.Random(11)
    for i in range(12):
        _gym_pair(random_rules(rng), 100 + i)


def test_pettingzoo_same_numbers() -> None:
    for preset, seed in (
        ("classic", 1),
        ("rubicon", 2),
        ("four", 3),
        ("chinese", 4),
        ("haitian", 5),
    ):
        envs = [BeziqueAECEnv(preset, engine=e) for e in ("auto", "reference")]
        for e in envs:
            e.reset(seed=seed)
        rng = random.Random(seed)
        while not all(envs[1].terminations.values()):
            agent = envs[1].agent_selection
            assert envs[0].agent_selection == agent
            for a in envs[0].agents:
                _same(envs[0].observe(a), envs[1].observe(a))
            _same(envs[0].infos, envs[1].infos)
            _same(envs[0].rewards, envs[1].rewards)
            action = rng.choice(sorted(envs[1].infos[agent]["legal"]))
            for e in envs:
                e.step(action)
        _same(envs[0].infos, envs[1].infos)
        _same(envs[0]._cumulative_rewards, envs[1]._cumulative_rewards)


def test_the_episode_falls_back_for_rules_the_engine_does_not_play() -> None:
    for name in UNPLAYED_PRESETS:
        ep = make_episode(Rules.preset(name), "deal", seed=1)
        assert type(ep) is Episode
    # more cards than the engine holds: the reference core plays them
    assert type(make_episode(Rules.preset("classic", packs=12), "deal", seed=1)) is Episode
    # a match episode always runs on the reference core
    assert type(make_episode(Rules.preset("classic"), "match", seed=1)) is Episode
    assert isinstance(make_episode(Rules.preset("classic"), "deal", seed=1), FastEpisode)
    assert type(make_episode(Rules.preset("classic"), "deal", 1, engine="reference")) is Episode
    with pytest.raises(ValueError, match="engine must be one of"):
        make_episode(Rules.preset("classic"), "deal", 1, engine="c")


def test_an_illegal_id_is_refused_alike_and_changes_nothing() -> None:
    envs = [BeziqueEnv("classic", engine=e) for e in ("auto", "reference")]
    obs = [e.reset(seed=5)[0] for e in envs]
    bad = int(np.flatnonzero(obs[0]["action_mask"] == 0)[0])
    errors = []
    for e in envs:
        with pytest.raises(IllegalAction) as info:
            e.step(bad)
        errors.append(str(info.value))
    assert errors[0] == errors[1]
    assert "is not legal here" in errors[0]
    _same(envs[0].episode.encode(0, envs[0].encoding), obs[0]["observation"])


def test_episode_apply_takes_notation_and_keeps_history() -> None:
    rules = Rules.preset("classic")
    eps = [make_episode(rules, "deal", 9, engine=e) for e in ("auto", "reference")]
    enc = Encoding.for_rules(rules)
    rng = random.Random(3)
    while not eps[1].is_over:
        seat = eps[1].to_move
        assert seat is not None
        legal = eps[1].legal_id_texts(seat, enc)
        assert eps[0].legal_id_texts(seat, enc) == legal
        _, text = rng.choice(legal)
        for ep in eps:
            ep.apply(text)
        _same(eps[0].encode(seat, enc), eps[1].encode(seat, enc))
    assert eps[0].deal.history == eps[1].deal.history
    assert eps[0].result() == eps[1].result()
    with pytest.raises(IllegalAction):
        eps[0].apply("play AS")


@pytest.mark.parametrize(
    ("preset", "a", "b"),
    [
        ("classic", "random", "simple"),
        ("rubicon", "random", "random"),
        ("three", "simple", "random"),
        ("haitian", "simple", "random"),
    ],
)
def test_the_arena_plays_the_same_deals_in_both_engines(preset: str, a: str, b: str) -> None:
    rules = Rules.preset(preset)
    spec_a, spec_b = PlayerSpec.parse(a), PlayerSpec.parse(b)
    for deck in range(2):
        plays = [play_deck(rules, spec_a, spec_b, 3, deck, engine=e) for e in ENGINES]
        for x, y in zip(*plays, strict=True):
            assert (x.scores, x.recent_sides, x.wins_game, x.a_moves, x.b_moves) == (
                y.scores,
                y.recent_sides,
                y.wins_game,
                y.a_moves,
                y.b_moves,
            )
    assert isinstance(_table(rules, 1, 0), _FastTable)
    # the Haitian jokers and the old Russian game are played in C
    assert isinstance(_table(Rules.preset("haitian", players=4), 1, 0), _FastTable)
    assert isinstance(_table(Rules.preset("old-russian"), 1, 0), _FastTable)
    assert not isinstance(_table(Rules.preset("classic", packs=12), 1, 0), _FastTable)


def test_the_oracle_gets_a_reference_copy_of_a_compiled_deal() -> None:
    deal = Deal.new(Rules.preset("classic"), seed=4)
    f = fast.FastDeal.from_deal(deal)
    oracle = PlayerSpec.parse("oracle").build(1)
    assert decide(oracle, f, None) == decide(oracle, deal, None)
