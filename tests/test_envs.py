"""The research adapters: the encoding, Gymnasium, PettingZoo and OpenSpiel.

The frameworks come with the ``rl`` extra; a missing one fails this module at import (nothing is
skipped).  Episodes are kept short: every framework's own checker runs on every preset once.
"""

from __future__ import annotations

import dataclasses
import random
import re
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.observation import make_observation
from pettingzoo.test import api_test
from pettingzoo.test.seed_test import check_environment_deterministic

from bezique import Deal, IllegalAction, Match, Rules
from bezique.bots import Limit, make, names
from bezique.envs import ENCODING_VERSION, Encoding
from bezique.envs.common import Episode, deal_winners
from bezique.envs.encoding import outcome, relative_points
from bezique.envs.gymnasium_env import ENV_ID, BeziqueEnv, TerminateIllegal
from bezique.envs.openspiel_bot import OpenSpielISMCTS, make_openspiel_ismcts
from bezique.envs.openspiel_game import (
    BeziqueState,
    BotAgent,
    game_string,
    load,
    params_for_rules,
    rules_from_params,
)
from bezique.envs.pettingzoo_env import BeziqueAECEnv, BotPolicy

PRESETS = Rules.presets()
DOCS = Path(__file__).resolve().parents[1] / "docs" / "research.md"


def positions(rules: Rules, seeds: range, *, greedy: bool = True) -> list[Deal]:
    """Snapshots of random deals (declaring whenever possible on even seeds)."""
    out = []
    for seed in seeds:
        deal = Deal.new(rules, seed=seed, dealer=seed % rules.players)
        rng = random.Random(seed)
        while not deal.is_over:
            out.append(deal.clone())
            actions = deal.legal_actions()
            melds = [a for a in actions if a.verb == "meld"]
            deal.apply(rng.choice(melds if melds and greedy and seed % 2 == 0 else actions))
        out.append(deal)
    return out


# --- encoding --------------------------------------------------------------------------------------


def test_alternate_ids_separate_declarations_that_differ_only_in_history() -> None:
    """Two beziques that differ only in which declared QS they use (a position seen in
    eight-pack play): the first in notation order keeps the meld id, the other an alternate."""
    rules = Rules.preset("eight-pack")
    enc = Encoding.for_rules(rules)
    deal = Deal.new(rules, seed=1)
    base = deal.observation(deal.to_move)
    legal = (
        "meld bezique QS@four-queens JD",
        "meld bezique QS@marriage+four-queens JD",
        "pass",
    )
    assert base.to_move is not None
    tables: list[tuple[str, ...]] = [(), ()]
    tables[base.to_move] = (
        "KS@marriage",
        "QS@four-queens",
        "QS@marriage+four-queens",
        "QH@four-queens",
        "QD@four-queens",
    )
    obs = dataclasses.replace(
        base, phase="declare", hand=("TS", "JD"), tables=tuple(tables), legal=legal
    )
    ids = enc.legal_ids(obs)
    assert [t for _, t in ids] == ["pass", legal[0], legal[1]]
    _, (m, first), (a, second) = ids
    assert enc.meld_base <= m < enc.alt_base and a == enc.alt_base
    assert enc.describe(m) == "meld bezique QS JD (declared: QS)"
    assert str(enc.action(obs, a)) == second and enc.action_id(obs, first) == m


def test_action_round_trip_and_descriptions() -> None:
    for preset in ("classic", "four", "rubicon", "old-russian"):
        rules = Rules.preset(preset)
        enc = Encoding.for_rules(rules)
        for deal in positions(rules, range(2))[::5]:
            if deal.is_over:
                continue
            obs = deal.observation(deal.to_move)
            mask = enc.action_mask(obs)
            assert mask.dtype == np.int8 and mask.sum() == len(obs.legal)
            for i, text in enc.legal_ids(obs):
                assert str(enc.action(obs, i)) == text
                assert enc.action_id(obs, text) == i
                words, desc = text.split(), enc.describe(i).split()
                if i < enc.alt_base:
                    assert desc[0] == words[0]
                    if words[0] in ("play", "meld"):
                        assert desc[1] == words[1].partition("@")[0]
            illegal = int(np.flatnonzero(mask == 0)[0])
            with pytest.raises(ValueError, match="not legal"):
                enc.action(obs, illegal)
    with pytest.raises(ValueError, match="no action id"):
        enc.describe(enc.num_actions)


def test_action_count_depends_on_the_rules() -> None:
    sizes = {p: Encoding.for_rules(Rules.preset(p)).num_actions for p in PRESETS}
    assert sizes["classic"] < sizes["rubicon"] < sizes["eight-pack"]
    classic = Encoding.for_rules(Rules.preset("classic"))
    assert classic.exchange_id == 1 and classic.partner_id is None
    assert Encoding.for_rules(Rules.preset("rubicon")).exchange_id is None
    partners = Encoding.for_rules(Rules.preset("four", partner_declaring="winner-or-partner"))
    assert partners.partner_id is not None
    assert Encoding.for_rules(Rules.preset("old-russian")).kinds[-1] == "XX"
    assert classic.describe(classic.play_base) == "play AS"
    assert classic.describe(classic.play_base + 1) == "play AS (declared, history 1)"
    assert "four-aces" in classic.meld_names and "carte-blanche" not in classic.meld_names


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_tensor_layout_and_bounds(preset: str) -> None:
    rules = Rules.preset(preset)
    enc = Encoding.for_rules(rules)
    offset = 0
    for b in enc.blocks:
        assert b.offset == offset
        offset += b.size
    assert offset == enc.size
    for deal in positions(rules, range(1))[::7]:
        for seat in range(rules.players):
            obs = deal.observation(seat)
            x = enc.encode(obs)
            assert x.dtype == np.float32 and x.shape == (enc.size,)
            assert (x >= enc.low).all() and (x <= enc.high).all()
            assert enc.view(x, "hand").sum() == len(obs.hand)
            assert enc.view(x, "hand_sizes")[0] == obs.hand_sizes[seat]
            assert enc.view(x, "stock")[0] == obs.stock_size
            assert enc.view(x, "points")[0] == obs.points[rules.side_of(seat)]
            assert enc.view(x, "phase").sum() == 1
            assert enc.view(x, "table").sum() == sum(len(t) for t in obs.tables)


@pytest.mark.parametrize("preset", ["classic", "three", "four", "rubicon", "old-russian"])
def test_a_seat_sees_nothing_of_the_hidden_cards(preset: str) -> None:
    """Resample the unseen cards: the seat's tensor, mask and OpenSpiel strings stay equal."""
    rules = Rules.preset(preset)
    enc = Encoding.for_rules(rules)
    rng = random.Random(5)
    for deal in positions(rules, range(1))[::9]:
        for seat in range(rules.players):
            obs = deal.observation(seat)
            again = deal.resample(seat, rng).observation(seat)
            assert np.array_equal(enc.encode(obs), enc.encode(again))
            assert np.array_equal(enc.action_mask(obs), enc.action_mask(again))


def test_rewards_helpers() -> None:
    assert relative_points([150, 80]) == [70.0, -70.0]
    assert sum(relative_points([30, 160, 80])) == 0
    assert outcome([1], 2) == [-1.0, 1.0]
    assert outcome([0, 1], 2) == [0.0, 0.0]
    assert outcome([2], 3) == [-0.5, -0.5, 1.0]
    assert sum(outcome([0, 1], 3)) == pytest.approx(0)


def test_docs_show_the_version_and_the_blocks() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert f"version {ENCODING_VERSION}" in text.lower()
    for preset in ("classic", "rubicon"):
        for b in Encoding.for_rules(Rules.preset(preset)).blocks:
            assert f"`{b.name}`" in text, b.name


# --- Gymnasium -------------------------------------------------------------------------------------


def masked_episode(env: BeziqueEnv, seed: int, pick: int = 0) -> tuple[list[float], dict[str, Any]]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(pick)
    rewards = []
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        rewards.append(float(reward))
        assert not truncated
        if terminated:
            return rewards, info


@pytest.mark.parametrize("preset", PRESETS)
def test_gymnasium_checker_passes(preset: str) -> None:
    env = TerminateIllegal(BeziqueEnv(preset, opponents="simple", seat=1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    # the only warning: the checker is looking at a wrapped env
    assert all("different from the unwrapped" in str(w.message) for w in caught)
    rewards, info = masked_episode(env.unwrapped, seed=3)  # type: ignore[arg-type]
    scores = info["scores"]
    side = env.unwrapped.rules.side_of(1)  # type: ignore[attr-defined]
    assert sum(rewards) == pytest.approx(relative_points(scores)[side])


def test_gymnasium_seeded_reset_is_deterministic_and_keeps_the_settings() -> None:
    a = BeziqueEnv("three", opponents=["simple", "random"], seat=2, reward="result")
    b = BeziqueEnv("three", opponents=["simple", "random"], seat=2, reward="result")
    ra, ia = masked_episode(a, seed=11, pick=4)
    rb, ib = masked_episode(b, seed=11, pick=4)
    assert ra == rb and ia["scores"] == ib["scores"]
    assert ra[-1] == ia["result"][2] and all(r == 0 for r in ra[:-1])
    first = a.reset(seed=12)[0]["observation"]
    assert a.rules == Rules.preset("three") and a.seat == 2 and a.reward_kind == "result"
    assert np.array_equal(a.reset(seed=12)[0]["observation"], first)
    assert not np.array_equal(a.reset(seed=13)[0]["observation"], first)


def test_gymnasium_refuses_illegal_actions_and_the_wrapper_ends_the_episode() -> None:
    env = BeziqueEnv("classic")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match="not legal"):
        env.step(illegal)
    assert np.array_equal(env.action_masks(), obs["action_mask"])
    wrapped = TerminateIllegal(BeziqueEnv("classic"), penalty=-5)
    obs, _ = wrapped.reset(seed=0)
    _, reward, terminated, _, info = wrapped.step(illegal)
    assert reward == -5 and terminated and info["illegal_action"]


def test_gymnasium_match_episode_and_make() -> None:
    env = gymnasium.make(ENV_ID, rules="classic(target=300)", episode="match", opponents="simple")
    base = env.unwrapped
    assert isinstance(base, BeziqueEnv)
    rewards, info = masked_episode(base, seed=2)
    assert info["deals_finished"] >= 1
    match = base.episode.match
    assert isinstance(match, Match) and match.winner is not None
    assert sum(rewards) == pytest.approx(relative_points(match.scores)[0])
    assert base.render() is None
    ansi = BeziqueEnv("four", render_mode="ansi", opponents=make("simple", seed=1))
    ansi.reset(seed=1)
    assert "seat 0" in (ansi.render() or "")
    with pytest.raises(ValueError, match="reward must be"):
        BeziqueEnv(reward="money")


# --- PettingZoo ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_test_passes(preset: str) -> None:
    with warnings.catch_warnings():
        # the dict observations with an action mask are what PettingZoo's classic games use
        warnings.filterwarnings("ignore", message="Observation (space for each agent|is not)")
        api_test(BeziqueAECEnv(preset), num_cycles=1000)
        check_environment_deterministic(BeziqueAECEnv(preset), BeziqueAECEnv(preset), 60)


def test_pettingzoo_bots_play_every_seat() -> None:
    env = BeziqueAECEnv("four", reward="result")
    env.reset(seed=3)
    policies = {a: BotPolicy(make("simple", seed=i)) for i, a in enumerate(env.possible_agents)}
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = policies[agent](env, agent)
        assert obs["action_mask"][action] == 1
        env.step(action)
    assert totals["player_0"] == totals["player_2"] == -totals["player_1"]
    assert abs(totals["player_0"]) in (0.0, 1.0)


def test_pettingzoo_refuses_illegal_actions() -> None:
    env = BeziqueAECEnv("classic")
    env.reset(seed=1)
    obs, *_ = env.last()
    with pytest.raises(IllegalAction):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert isinstance(env, pettingzoo.AECEnv)


# --- OpenSpiel -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_openspiel_random_simulation(preset: str) -> None:
    game = pyspiel.load_game(f"python_bezique(preset={preset})")
    assert game.num_distinct_actions() == Encoding.for_rules(Rules.preset(preset)).num_actions
    # OpenSpiel's own conformance run: legal actions, masks, clones, chance outcomes, tensors,
    # returns within bounds, and (on the two-pack games) serialization round trips
    serialize = Rules.preset(preset).packs <= 3
    pyspiel.random_sim_test(game, num_sims=1, serialize=serialize, verbose=False)


def test_openspiel_parameters() -> None:
    game = pyspiel.load_game("python_bezique(preset=rubicon,target=2000,carte_blanche_repeat=0)")
    assert game.rules == Rules.preset("rubicon", target=2000, carte_blanche_repeat=False)
    rules = Rules.preset("classic", deal_packets=(2, 3, 3), double_marriage=True)
    assert rules_from_params({**params_for_rules(rules)}) == rules
    assert pyspiel.load_game(game_string(rules)).rules == rules
    assert load(rules) is load(rules)
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_bezique(preset=classic,turn_up=true)")  # true/false is 1/0
    result = pyspiel.load_game("python_bezique(preset=three,utility=result)")
    assert result.max_utility() == 1.0 and result.num_players() == 3


def play_to(game: pyspiel.Game, seed: int, moves: int) -> BeziqueState:
    rng = random.Random(seed)
    state: BeziqueState = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", ["classic", "three", "four", "rubicon", "old-russian"])
def test_openspiel_resample_keeps_the_information_state(preset: str) -> None:
    game = pyspiel.load_game(f"python_bezique(preset={preset})")
    state = play_to(game, seed=4, moves=40)
    plain = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    public = make_observation(
        game,
        pyspiel.IIGObservationType(private_info=pyspiel.PrivateInfoType.NONE, perfect_recall=False),
    )
    rng = random.Random(1)
    for player in range(game.num_players()):
        other = state.resample_from_infostate(player, rng.random)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.information_state_tensor(player) == state.information_state_tensor(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        # the observer API gives what the state API gives
        plain.set_from(state, player)
        assert list(plain.tensor) == state.observation_tensor(player)
        assert plain.string_from(state, player) == state.observation_string(player)
        recall.set_from(state, player)
        assert list(recall.tensor) == state.information_state_tensor(player)
        assert recall.string_from(state, player) == state.information_state_string(player)
        assert recall.dict["drawn"].sum() > 0 and recall.dict["trick_winner"].sum() > 0
        # the public observer shows no hand
        public.set_from(state, player)
        assert public.dict["hand"].sum() == 0 and "|hand=|" in public.string_from(state, player)
        # infostates of different players never coincide
        others = {state.information_state_string(p) for p in range(game.num_players())}
        assert len(others) == game.num_players()
    # a resampled state survives OpenSpiel's serialization
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, other))[1]
    assert str(again) == str(other)
    with pytest.raises(pyspiel.SpielError):
        state.information_state_string(-1)


def test_openspiel_chance_never_turns_up_a_wild_card() -> None:
    game = pyspiel.load_game("python_bezique(preset=old-russian)")
    state = game.new_initial_state()
    rules = game.rules
    wild = game.encoding.kinds.index("XX")
    for _ in range(rules.players * rules.hand_size):  # deal the hands, keeping the wild cards
        state.apply_action(next(a for a, _ in state.chance_outcomes() if a != wild))
    assert rules.turn_up and wild not in dict(state.chance_outcomes())
    state.apply_action(state.chance_outcomes()[0][0])
    assert wild in dict(state.chance_outcomes())


def test_openspiel_ismcts_runs_on_the_game() -> None:
    game = pyspiel.load_game("python_bezique")
    state = play_to(game, seed=2, moves=6)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        2.0,
        12,
        random_state=np.random.RandomState(1),
    )
    action = bot.step(state)
    assert action in state.legal_actions()


def test_openspiel_bots_as_agents() -> None:
    game = pyspiel.load_game("python_bezique(preset=three,utility=result)")
    state = play_to(game, seed=9, moves=0)
    agents = [BotAgent(p, make("simple", seed=p)) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(state, agents, np.random.RandomState(0))
    assert sum(returns) == pytest.approx(0.0)


def test_openspiel_ismcts_as_a_bezique_bot() -> None:
    assert "openspiel-ismcts" in names()
    rules = Rules.preset("classic")
    deal = Deal.new(rules, seed=7)
    for _ in range(5):
        deal.apply(deal.legal_actions()[0])
    obs = deal.observation(deal.to_move)
    bot = make_openspiel_ismcts(rules, seed=3, iterations=15)
    result = bot.play(obs)
    assert str(result.action) in obs.legal and result.info["visits"] == 15
    assert bot.choose(obs) == make_openspiel_ismcts(rules, seed=3, iterations=15).choose(obs)
    timed = make("openspiel-ismcts", seed=1)
    assert isinstance(timed, OpenSpielISMCTS)
    assert str(timed.choose(obs, Limit(time=0.05))) in obs.legal
    budget = timed.play(obs, Limit(nodes=300))
    assert 1 <= budget.info["visits"] < 15


def test_arena_command_finds_openspiel_ismcts() -> None:
    """`bezique arena` knows openspiel-ismcts without bezique.envs imported first (issue: the
    arena option to measure our players against OpenSpiel's IS-MCTS)."""
    import subprocess
    import sys

    code = (
        "import sys; from bezique.cli import app; "
        "sys.argv = ['bezique', 'arena', 'openspiel-ismcts:iterations=3', 'random', "
        "'--deals', '1', '--quiet']; app()"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr + run.stdout
    assert "openspiel-ismcts:iterations=3 (A) against random (B)" in run.stdout
    assert "margin" in run.stdout


def test_episode_helper() -> None:
    rules = Rules.preset("rubicon")
    ep = Episode(rules, "deal", seed=3)
    while not ep.is_over:
        ep.apply(ep.deal.legal_actions()[0])
    assert ep.result() == outcome(deal_winners(ep.deal), 2)
    assert re.match(r"bezique1\|", ep.observation(0).to_string())
