"""Perft-style counts: the number of legal action sequences to each depth from a few deals,
recounted and compared with tests/data/perft.txt (written by scripts/make_perft.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bezique import Rules, fast

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "perft.txt"


def _load_script() -> ModuleType:
    name = "make_perft"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


make_perft = _load_script()
CASES = make_perft.parse(DATA.read_text(encoding="utf-8"))


def test_file_has_the_scripts_cases() -> None:
    """The file holds every case the script defines, each counted to the script's depth."""
    script = make_perft.cases()
    assert [c.name for c in CASES] == [c.name for c in script], (
        "tests/data/perft.txt is stale: run `python scripts/make_perft.py`"
    )
    for case, made in zip(CASES, script, strict=True):
        assert sorted(case.counts) == list(range(1, made.depth + 1)), case.name
    presets = {Rules.from_string(c.rules).name for c in CASES}
    assert presets == set(Rules.presets()), "every preset has a perft case"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_perft(case: Any) -> None:
    counts = make_perft.perft(case.build(), max(case.counts))
    got = dict(enumerate(counts, start=1))
    assert got == case.counts, (
        f"perft counts of {case.name} changed: file {case.counts}, now {got}. If the rules "
        "change is intended, run `python scripts/make_perft.py` and commit tests/data/perft.txt."
    )


FAST_CASES = [c for c in CASES if fast.available() and fast.supports(Rules.from_string(c.rules))]


@pytest.mark.skipif(not fast.available(), reason="the compiled engine is not built")
@pytest.mark.parametrize("case", FAST_CASES, ids=[c.name for c in FAST_CASES])
def test_perft_in_the_compiled_engine(case: Any) -> None:
    """The same counts from the same deal in the compiled engine (FastDeal: its legal actions,
    clone and apply in C), for every case whose rules it plays."""
    counts = make_perft.perft(fast.FastDeal.from_deal(case.build()), max(case.counts))
    got = dict(enumerate(counts, start=1))
    assert got == case.counts, f"the compiled engine counts {got} for {case.name}: {case.counts}"


def test_every_preset_has_a_compiled_perft_case() -> None:
    if not fast.available():
        pytest.skip("the compiled engine is not built")
    played = {p for p in Rules.presets() if fast.supports(Rules.preset(p))}
    assert {Rules.from_string(c.rules).name for c in FAST_CASES} == played
