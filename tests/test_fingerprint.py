"""The behaviour fingerprint: every preset's play by the seeded players, hashed and compared with
tests/data/fingerprint.txt (written by scripts/make_fingerprint.py).

A change that should change nothing (a refactoring, a rule moved into the core) leaves every
hash as it was; a change meant to alter play shows up here and is written again on purpose."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bezique import Rules

ROOT = Path(__file__).resolve().parent.parent
HOW = "If the change is intended, run python scripts/make_fingerprint.py and commit it."


def _load_script() -> ModuleType:
    name = "make_fingerprint"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_fingerprint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_fingerprint = _load_script()


def _committed() -> dict[tuple[str, str, int], str]:
    out: dict[tuple[str, str, int], str] = {}
    for line in make_fingerprint.OUT.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        preset, player, seed, digest = line.split()
        out[preset, player, int(seed)] = digest
    return out


def test_the_file_covers_every_preset_player_and_seed() -> None:
    want = {
        (p, b, s)
        for p in Rules.presets()
        for b in make_fingerprint.PLAYERS
        for s in make_fingerprint.SEEDS
    }
    assert set(_committed()) == want, HOW


@pytest.mark.slow
@pytest.mark.parametrize("preset", Rules.presets())
def test_every_preset_plays_as_fingerprinted(preset: str) -> None:
    committed = _committed()
    changed = [
        f"{player} seed {seed}"
        for player in make_fingerprint.PLAYERS
        for seed in make_fingerprint.SEEDS
        if make_fingerprint.fingerprint(preset, player, seed) != committed[preset, player, seed]
    ]
    assert not changed, f"{preset}: the play changed for {', '.join(changed)}. {HOW}"
