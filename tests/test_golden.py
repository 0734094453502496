"""Golden playthroughs: whole seeded classic and Haitian deals, written again in memory and compared with
the committed transcripts in tests/golden/ (written by scripts/make_golden.py)."""

from __future__ import annotations

import difflib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
HOW = "If the change is intended, run `make golden` (python scripts/make_golden.py) and commit it."


def _load_script() -> ModuleType:
    name = "make_golden"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "make_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


make_golden = _load_script()


def test_the_transcripts_are_the_scripts() -> None:
    """No transcript is missing, and none is left over from a seed no longer played."""
    want = sorted(make_golden.path_for(s, r, c).name for r, s, c in make_golden.PLAYS)
    have = sorted(p.name for p in GOLDEN.glob("*.txt"))
    assert have == want, f"tests/golden/ holds {have}, the script writes {want}. {HOW}"


@pytest.mark.parametrize(
    ("rules_text", "seed", "carry"),
    make_golden.PLAYS,
    ids=[f"{r}-{s}" for r, s, _ in make_golden.PLAYS],
)
def test_golden_playthrough(rules_text: str, seed: int, carry: tuple[int, ...] | None) -> None:
    path = make_golden.path_for(seed, rules_text, carry)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing. {HOW}"
    want = path.read_text(encoding="utf-8")
    got = make_golden.transcript(seed, rules_text, carry)
    if got != want:
        diff = difflib.unified_diff(
            want.splitlines(),
            got.splitlines(),
            fromfile=f"{path.relative_to(ROOT)} (committed)",
            tofile="engine now",
            lineterm="",
            n=2,
        )
        shown = list(diff)[:60]
        pytest.fail(
            f"the engine no longer plays {path.relative_to(ROOT)} the same way. {HOW}\n"
            + "\n".join(shown),
            pytrace=False,
        )
