"""The typed boundary between Python and the compiled engine (bezique.fast).

The compiled options cross by name, from one generated list (``scripts/make_fast_tables.py``
writes ``config_fields.h`` for C and ``_fields.py`` for Python); a name missing or unknown on
either side is a clear error.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bezique import Deal, Rules, fast
from bezique.bots import Limit, make
from bezique.bots.base import salt_for
from bezique.bots.heuristic import HeuristicBot
from bezique.bots.levels import EXPERT_CPU, HARD_CPU, HARD_ROLLOUTS, LEVELS
from bezique.bots.playout import Budget
from bezique.bots.registry import resolve
from bezique.core.slots import PART_BONUS, PART_LAST, PART_MELDS, PART_TRICKS
from bezique.fast import DealLike
from bezique.fast._fields import CONFIG_FIELDS
from bezique.fast.search import IsmctsSettings, PimcSettings, ismcts, pimc

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "make_fast_tables.py"
# the module (bezique.fast has a function of the same name)
_config = importlib.import_module("bezique.fast._config")

needs_engine = pytest.mark.skipif(
    os.environ.get("BEZIQUE_NO_FAST") == "1" or not fast.available(),
    reason="the compiled engine is not built",
)


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_fast_tables", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compile(fields: dict[str, Any], rules: Rules) -> Any:
    from bezique.fast import _engine

    scores = [0] * 52
    plans: tuple[tuple[Any, ...], ...] = ((), (), (), (), ())
    return _engine.Config(fields, _config.card_kinds(rules), scores, plans)


def test_generated_files_are_current() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_check_names_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gen = _generator()
    stale = tmp_path / "src" / "bezique" / "fast" / "_fields.py"
    stale.parent.mkdir(parents=True)
    stale.write_text(gen.render_fields_module().replace('"target"', '"goal"'))
    monkeypatch.setattr(gen, "FAST", stale.parent)
    monkeypatch.setattr(gen, "FIELDS_MODULE", stale)
    monkeypatch.setattr(gen, "HEADER", tmp_path / "missing.h")
    (tmp_path / "missing.h").write_text(gen.render())
    monkeypatch.setattr(gen, "FIELDS_HEADER", tmp_path / "fields.h")
    (tmp_path / "fields.h").write_text(gen.render_fields_header())
    monkeypatch.setattr(sys, "argv", ["make_fast_tables.py", "--check"])
    with pytest.raises(SystemExit) as stop:
        gen.main()
    assert stop.value.code == 1


@pytest.mark.parametrize("preset", ["classic", "haitian", "eight-pack"])
def test_python_gives_exactly_the_listed_fields(preset: str) -> None:
    values = _config.fields(Rules.preset(preset))
    assert list(values) == [name for name, _ in CONFIG_FIELDS]
    for name, count in CONFIG_FIELDS:
        value = values[name]
        if count == 1:
            assert isinstance(value, int), name
        else:
            assert isinstance(value, tuple) and len(value) == count, name


@needs_engine
def test_a_missing_field_is_named() -> None:
    rules = Rules.preset("classic")
    values = _config.fields(rules)
    values["goal"] = values.pop("target")  # a field renamed on one side only
    with pytest.raises(ValueError, match="config field target is missing"):
        _compile(values, rules)


@needs_engine
def test_an_unknown_field_is_named() -> None:
    rules = Rules.preset("classic")
    values = _config.fields(rules)
    values["extra_option"] = 1
    with pytest.raises(ValueError, match="unknown config field extra_option"):
        _compile(values, rules)


@needs_engine
def test_an_array_field_of_the_wrong_length_is_named() -> None:
    rules = Rules.preset("classic")
    values = _config.fields(rules)
    values["rank_points"] = (1, 2, 3)
    with pytest.raises(ValueError, match="config field rank_points: expected 8 numbers"):
        _compile(values, rules)


def test_the_score_parts_are_the_engines() -> None:
    """A side's points in a deal come in parts, indexed alike on both sides (a position
    crosses to the engine with its points by part: ``_convert.py``)."""
    header = (Path(fast.__file__).parent / "engine.h").read_text()
    parts = {name: int(i) for name, i in re.findall(r"\b(PART_[A-Z]+) = (\d+)", header)}
    assert parts == {
        "PART_MELDS": PART_MELDS,
        "PART_TRICKS": PART_TRICKS,
        "PART_LAST": PART_LAST,
        "PART_BONUS": PART_BONUS,
    }


@needs_engine
def test_the_fields_by_name_configure_the_engine() -> None:
    rules = Rules.preset("classic")
    assert _compile(_config.fields(rules), rules) is not None
    with pytest.raises(TypeError):
        _compile(list(_config.fields(rules).values()), rules)  # type: ignore[arg-type]


# --- the searches: settings records and the CPU budget ------------------------------------------
BIG = "classic(players=4,packs=12,hand_size=24,wild_cards=8,extra_nines=24)"


def stage1(rules: Rules, seed: int) -> Deal:
    """A deal played at random to a decision to play a card in stage 1 with several choices."""
    rng = random.Random(seed)
    deal = Deal.new(rules, seed=seed)
    while not (deal.phase == "play" and deal.stage == 1 and len(deal.legal_actions()) > 2):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def test_settings_refuse_bad_values_in_one_line() -> None:
    for bad in (
        {"policy": "clever"},
        {"explore": 1.5},
        {"solver_nodes": -1},
        {"endgame_stock": 1 << 20},
        {"cpu_budget": -0.1},
        {"cpu_budget": True},
        {"smart_params": [1.0]},
    ):
        with pytest.raises(ValueError) as err:
            PimcSettings(**bad)
        assert "\n" not in str(err.value)
    for bad in ({"prior_weight": 2.0}, {"fpu": float("nan")}, {"cpu_budget": float("inf")}):
        with pytest.raises(ValueError):
            IsmctsSettings(**bad)  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        PimcSettings().explore = 0.5  # type: ignore[misc]
    for bad_limit in (-1.0, True, "0.1"):
        with pytest.raises(ValueError, match="cpu_budget"):
            Limit(cpu_budget=bad_limit)  # type: ignore[arg-type]


@needs_engine
def test_a_spent_budget_still_does_one_world_and_a_big_one_changes_nothing() -> None:
    f = fast.FastDeal.from_deal(stage1(Rules.preset("classic"), 3))
    seat = f.to_move
    assert seat is not None
    moves = list(range(len(f.legal_actions())))
    free = pimc(f, seat, 0, moves, 0, 30, 9)
    assert len(free.values) == 30 * len(moves)
    # a budget of 0 (or a deadline already past): the first world only, the same numbers
    none_left = pimc(f, seat, 0, moves, 0, 30, 9, PimcSettings(cpu_budget=0.0))
    assert none_left.values == free.values[: len(moves)]
    past = pimc(f, seat, 0, moves, 0, 30, 9, deadline=time.thread_time() * 0.5)
    assert past.values == free.values[: len(moves)]
    # a budget far above what the search needs: exactly the search without one
    assert pimc(f, seat, 0, moves, 0, 30, 9, PimcSettings(cpu_budget=1e6)) == free
    one = ismcts(f, seat, 0, 200, 4, IsmctsSettings(cpu_budget=0.0))
    assert one.iterations == 1 and sum(one.visits) == 1
    assert ismcts(f, seat, 0, 200, 4, IsmctsSettings(cpu_budget=1e6)) == ismcts(f, seat, 0, 200, 4)


@needs_engine
def test_the_players_respect_a_budget_of_nothing() -> None:
    """Budget 0: the compiled search plays a legal move after one world of rollouts (one for
    each candidate), where its rollout count asks for 300."""
    deal = stage1(Rules.preset("classic"), 5)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    n = len(obs.legal)
    capped = make("pimc-c", 1).play(obs, Limit(iterations=300, cpu_budget=0.0))
    assert str(capped.action) in obs.legal
    assert capped.info["visits"] == n  # one world, every candidate once
    free = make("pimc-c", 1).play(obs, Limit(iterations=300))
    assert free.info["visits"] > 4 * n  # many worlds (pruning may end it before 300)
    roomy = make("pimc-c", 1).play(obs, Limit(iterations=300, cpu_budget=1e6))
    assert roomy.action == free.action and roomy.info == free.info
    tree = make("ismcts-c", 1).play(obs, Limit(iterations=500, cpu_budget=0.0))
    assert str(tree.action) in obs.legal and tree.info["visits"] == 1


def test_big_rules_stop_short_of_the_rollout_count() -> None:
    """Rules the compiled engine does not hold (twelve packs) go to the reference search: with
    the budget spent at once it plays the heuristic's choice, after no world at all, where its
    steps would allow thousands."""
    rules = Rules.from_string(BIG)
    deal = stage1(rules, 2)
    seat = deal.to_move
    assert seat is not None
    obs = deal.observation(seat)
    result = make("hard", 1).play(obs, Limit(iterations=300, cpu_budget=0.0))
    assert str(result.action) in obs.legal
    assert result.info["visits"] == 0 and result.info["nodes"] < 6_000
    assert str(result.action) == str(HeuristicBot(salt_for(1)).choose(obs))


def _burn(seconds: float) -> None:
    """Spend this much CPU time of this thread."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_cpu_budget_keeps_back_the_longest_step() -> None:
    """The reference search asks its budget before each step; one step of a deal with many
    packs can take tens of milliseconds, so the budget says spent once the longest step seen
    would pass it (on the biggest rules ``hard`` went 0.108 s a move, p95, against its 0.1)."""
    budget = Budget.of(Limit(iterations=10**6, cpu_budget=0.05), Limit(nodes=1))
    assert not budget.cpu_spent()
    _burn(0.03)  # a step of 0.03 s: 0.03 spent, another such step would end past 0.05
    assert budget.cpu_spent()
    assert not Budget.of(Limit(iterations=10**6), Limit(nodes=1)).cpu_spent()


def test_the_levels_carry_a_cpu_budget() -> None:
    hard, expert = resolve(LEVELS["hard"].spec).limit, resolve(LEVELS["expert"].spec).limit
    assert hard is not None and expert is not None
    assert hard.cpu_budget == HARD_CPU and expert.cpu_budget == EXPERT_CPU
    assert hard.iterations == HARD_ROLLOUTS


# --- one surface for both engines -------------------------------------------------------------
READS = [
    "to_move",
    "phase",
    "is_over",
    "trump",
    "stock_size",
    "points",
    "result",
    "stage",
    "leader",
    "turn_up",
    "trick",
    "tricks_played",
    "last_trick_winner",
    "history",
    "events",
]


def _same_state(a: DealLike, b: DealLike) -> None:
    for name in READS:
        assert getattr(a, name) == getattr(b, name), name
    players = a.rules.players
    for seat in range(players):
        assert a.hand(seat) == b.hand(seat)
        assert a.table(seat) == b.table(seat)
        assert a.side_of(seat) == b.side_of(seat)
        assert a.observation(seat) == b.observation(seat)
    assert a.observation(None) == b.observation(None)
    assert a.position() == b.position()
    if not a.is_over:
        assert a.legal_actions() == b.legal_actions()
        assert a.legal_ids() == b.legal_ids()
        assert a.legal_id_actions() == b.legal_id_actions()
        assert a.listed_ids() == b.listed_ids()
        for i, action in a.legal_id_actions():
            assert a.id_action(i) == b.id_action(i) == action
            assert a.action_id(action) == b.action_id(str(action)) == i


@needs_engine
@pytest.mark.parametrize("preset", ["classic", "haitian"])
def test_deal_and_fastdeal_are_both_deal_like(preset: str) -> None:
    """The protocol's every member, called on a reference deal and its compiled twin through
    the protocol type (mypy checks the two classes against it structurally)."""
    deal = Deal.new(Rules.preset(preset), seed=8)
    twin = fast.FastDeal.from_deal(deal)
    ref: DealLike = deal
    compiled: DealLike = twin
    assert isinstance(ref, DealLike) and isinstance(compiled, DealLike)
    assert ref.rules == compiled.rules and ref.dealer == compiled.dealer
    rng = random.Random(8)
    step = 0
    while not ref.is_over:
        if step % 9 == 0:
            _same_state(ref, compiled)
            seat = ref.to_move
            assert seat is not None
            for world in (ref.resample(seat, 3), compiled.resample(seat, 3)):
                assert world.observation(seat) == ref.observation(seat)  # nothing it has seen moves
            copy = compiled.clone()
            copy.apply_id(copy.legal_ids()[0])
            assert compiled.history == ref.history  # the copy is its own
        ids = ref.legal_ids()
        pick = rng.choice(ids)
        if step % 2:
            ref.apply_id(pick)
            compiled.apply_id(pick)
        else:
            ref.apply(ref.id_action(pick))
            compiled.apply(str(compiled.id_action(pick)))
        step += 1
    _same_state(ref, compiled)


def test_fastdeal_has_no_old_search_names() -> None:
    """The searches live in bezique.fast.search; the world of a seat is ``resample`` on both."""
    for gone in ("pimc", "pimc_hidden", "ismcts", "determinize"):
        assert not hasattr(fast.FastDeal, gone)
    assert hasattr(Deal, "resample") and hasattr(fast.FastDeal, "resample")
