"""Each tried player, by the spec string that replaced its name, chooses as the old player did.

tests/data/trial_choices.json holds what every tried player (and the families kept under their
names) chose at fixed positions, recorded with the classes they were: at a small budget on
twelve positions and at their own budget on six.  lab/trial_specs.py maps each old name to a
spec string; built from it the player must make the same choices with the same values.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bezique.arena.runner import PlayerSpec
from bezique.bots import Limit
from bezique.bots.registry import resolve
from choices import ROOT, TRIAL_FILE, Position, answer

DATA: dict[str, Any] = json.loads(TRIAL_FILE.read_text())
POSITIONS = [Position.from_json(p) for p in DATA["positions"]]
LIMIT = Limit(**DATA["limit"])


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("trial_specs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SPECS: dict[str, str] = _load(ROOT / "lab" / "trial_specs.py").TRIAL_SPECS
NAMES = sorted(DATA["at_limit"])


def _spec(name: str) -> str:
    return SPECS.get(name, name)


def test_every_recorded_name_has_a_spec_and_no_spec_is_a_name_of_old() -> None:
    kept = {"pimc-c", "ismcts-c", "pimc", "ismcts", "learned"}
    assert sorted(SPECS) == sorted(set(NAMES) - kept)
    for spec in SPECS.values():
        assert spec.split(":")[0] in kept | {"oracle-hand"}, spec


@pytest.mark.parametrize("name", sorted(SPECS))
def test_a_spec_reads_back_as_written(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The specs are written as the registry writes them (settings in order, no defaults)."""
    monkeypatch.chdir(ROOT)
    assert str(resolve(SPECS[name], cheats=True)) == SPECS[name]


def _same(got: dict[str, Any], want: dict[str, Any]) -> bool:
    if got["action"] != want["action"] or got["visits"] != want["visits"]:
        return False
    if sorted(got["scores"]) != sorted(want["scores"]):
        return False
    return all(abs(got["scores"][a] - v) <= 0.02 for a, v in want["scores"].items())


@pytest.mark.parametrize("name", NAMES)
def test_the_spec_chooses_as_the_old_player(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the small budget on every position, and at the spec's own budget on the first ones
    (the old player's budget: a level's, or the family's default)."""
    monkeypatch.chdir(ROOT)  # the lab's weights are named from the checkout's root
    spec = PlayerSpec.parse(_spec(name))
    player = spec.build(DATA["seed"])
    # the reference-core searches take seconds a position: a few positions pin them
    few = spec.resolved.entry.name in ("pimc", "ismcts")
    wrong = []
    for part, limit in (("at_limit", LIMIT), ("own_budget", None)):
        recorded = sorted(DATA[part][name].items())
        for key, want in recorded[: (2 if part == "at_limit" else 1)] if few else recorded:
            position = next(p for p in POSITIONS if p.key == key)
            got = answer(player, position, limit)
            if not _same(got, want):
                wrong.append(f"{part} {key}: {got['action']} (recorded {want['action']})")
    assert not wrong, f"{_spec(name)} does not play as {name}: " + "; ".join(wrong)
