"""OpenSpiel's ``python_bezique`` on the compiled engine gives the numbers the reference core gives.

``engine=auto`` (the default) plays the deal in :mod:`bezique.fast` when it plays the rules;
these tests play the same chance outcomes and actions with ``engine=reference`` and compare the
current player, legal actions, observation and information-state tensors and strings, and
returns at every step, over the presets the engine plays and random option variations.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from bezique import Rules, fast
from bezique.fast.differential import PRESETS, random_rules

pyspiel = pytest.importorskip("pyspiel")

from bezique.envs.openspiel_game import BeziqueState, game_string  # noqa: E402

pytestmark = pytest.mark.skipif(not fast.available(), reason="compiled engine not built")


def _games(rules: Rules, **extra: object) -> tuple[Any, Any]:
    return (
        pyspiel.load_game(game_string(rules, engine="auto", **extra)),
        pyspiel.load_game(game_string(rules, engine="reference", **extra)),
    )


def _compare(a: BeziqueState, b: BeziqueState, players: int) -> None:
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.returns() == b.returns()
    assert str(a) == str(b)
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
        return
    assert a.legal_actions() == b.legal_actions()
    for p in range(players):
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.information_state_string(p) == b.information_state_string(p)


def _play_pair(rules: Rules, seed: int, full_check_every: int = 1, **extra: object) -> int:
    """One deal in both engines from the same chance outcomes and random actions; returns the
    number of decisions."""
    fast_game, ref_game = _games(rules, **extra)
    a, b = fast_game.new_initial_state(), ref_game.new_initial_state()
    rng = random.Random(seed)
    players = fast_game.num_players()
    while a.is_chance_node():
        outcomes = a.chance_outcomes()
        assert outcomes == b.chance_outcomes()
        pick = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        a.apply_action(pick)
        b.apply_action(pick)
    assert a.on_fast_engine and not b.on_fast_engine
    steps = 0
    while not a.is_terminal():
        if steps % full_check_every == 0:
            _compare(a, b, players)
        else:
            assert a.legal_actions() == b.legal_actions()
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
        steps += 1
    _compare(a, b, players)
    assert b.is_terminal() and a.returns() == b.returns()
    return steps


@pytest.mark.parametrize("preset", PRESETS)
def test_openspiel_same_numbers_on_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    assert _play_pair(rules, seed=1, full_check_every=1 if rules.packs <= 2 else 7) > 0


def test_openspiel_same_numbers_with_random_options() -> None:
    rng = random.Random(11)
    for i in range(6):
        rules = random_rules(rng)
        if fast.supports(rules):
            _play_pair(rules, seed=i, full_check_every=5)


def test_openspiel_result_utility_is_the_same() -> None:
    # the per-deal winner comes from the reference copy of a compiled deal
    for preset in ("three", "rubicon"):
        _play_pair(Rules.preset(preset), seed=3, full_check_every=50, utility="result")


def test_openspiel_falls_back_for_rules_the_engine_does_not_play() -> None:
    # more cards than the engine holds (twelve packs): the reference core plays them
    rules = Rules.preset("classic", packs=12)
    assert not fast.supports(rules)
    for engine in ("auto", "reference"):
        state = pyspiel.load_game(game_string(rules, engine=engine)).new_initial_state()
        rng = random.Random(2)
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        assert not state.on_fast_engine
        assert state.legal_actions()
    assert pyspiel.load_game("python_bezique(engine=reference)").new_initial_state()


def test_openspiel_engine_parameter_is_checked() -> None:
    with pytest.raises(ValueError, match="engine must be one of auto, reference"):
        pyspiel.load_game("python_bezique(engine=turbo)")


def test_openspiel_fast_state_clones_resamples_and_serializes() -> None:
    fast_game, ref_game = _games(Rules.preset("classic"))
    states = [g.new_initial_state() for g in (fast_game, ref_game)]
    rng = random.Random(5)
    while states[0].is_chance_node():
        outcomes = states[0].chance_outcomes()
        pick = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        for s in states:
            s.apply_action(pick)
    for _ in range(30):
        action = rng.choice(states[0].legal_actions())
        for s in states:
            s.apply_action(action)
    a, b = states
    # a clone is independent of its original
    c = a.clone()
    c.apply_action(c.legal_actions()[0])
    _compare(a, b, 2)
    # resampling from the same seed deals the same unseen cards in both engines
    for player in range(2):
        ra = a.resample_from_infostate(player, random.Random(9).random)
        rb = b.resample_from_infostate(player, random.Random(9).random)
        assert ra.on_fast_engine and not rb.on_fast_engine
        _compare(ra, rb, 2)
        assert ra.information_state_string(player) == a.information_state_string(player)
    # OpenSpiel's serialization round trip, and pickling a compiled deal
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(fast_game, a))[1]
    assert str(again) == str(a) and again.legal_actions() == a.legal_actions()
    f = pickle.loads(pickle.dumps(a._deal))
    assert f.position() == a._deal.position() and f.legal_ids() == a._deal.legal_ids()
